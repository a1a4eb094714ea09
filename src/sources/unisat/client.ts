/**
 * UniSat's open API (https://open-api.unisat.io; spec: unisat-wallet/unisat-dev-docs
 * open-api/swagger-source/*.yaml): one keep-alive pool through the same upstream pipeline as hiro
 * (deadline, cache, breaker, retries), the key as `Authorization: Bearer` to UniSat only, and every
 * attempt held to the calls-per-second budget (call-budget.ts).
 *
 * Every answer is an envelope `{ code, msg, data }`; `code: -1` on HTTP 200 is an error, never data.
 */
import { UpstreamError } from '../../errors.js';
import { merged } from '../../lib/merge.js';
import type { CallOptions, UpstreamRequest } from '../../upstream/request.js';
import type { SourceDeps } from '../deps.js';
import { configuredServiceOptions, ttlCachePolicy } from '../../upstream/service-options.js';
import { UpstreamService } from '../../upstream/service.js';
import { upstreamScope } from '../../upstream/shared-state.js';
import { checked, int, object, optional, string, type Shape } from '../../upstream/shapes.js';
import { createCallBudget } from './call-budget.js';

interface Envelope {
  code: number;
  msg?: string | null;
  data?: unknown;
}
const anything: Shape<unknown> = (_value): _value is unknown => true;
const isEnvelope = checked(object<Envelope>({ code: int, msg: optional(string), data: anything }));

/** What a UniSat call answers: its data, or `absent` when UniSat says there is none. */
export type UnisatData<T> = { data: T } | { absent: true };

/**
 * How UniSat says "no such thing" is not documented: `code: 0` with `data: null`, or `code: -1`
 * with a message that starts by naming the thing ("brc20 not found", "invalid runeid", the
 * sample's) or says only "not found". None that speaks of a failure counts ("Unknown error, please
 * try again later", "Rune not found in cache"): a failure read as "none" would be served, and
 * cached, as a true answer. Anything else with `code: -1` is an error.
 */
const THING = String.raw`(?:brc-?20|ticker|tick|token|rune(?:\s*id)?|block|height|inscription)`;
const NAMED_ABSENT = String.raw`(?:the\s+)?${THING}\s+(?:is\s+|does\s*)?(?:not\s+(?:be\s+)?found|not\s+exists?|n[o']t\s+exist)\b`;
const ABSENT_MESSAGE = new RegExp(
  String.raw`^\s*(?:${NAMED_ABSENT}|(?:unknown|invalid|no\s+such)\s+${THING}\b|not\s+(?:found|exists?)[\s.!]*$)`,
  'i',
);
const FAILURE_MESSAGE = /error|again|time[ds]?\s*out|busy|internal|cache|limit|unavailable|maintenance|upstream|node|server/i;
const saysAbsent = (message: string) => ABSENT_MESSAGE.test(message) && !FAILURE_MESSAGE.test(message);

export function createUnisatClient({ config, logger, store, events, redis, flights, fairness }: SourceDeps) {
  const { unisatApiKey, unisatUrl, unisatRatePerSecond } = config.sources;
  const service = new UpstreamService({
    name: 'unisat',
    baseUrl: unisatUrl,
    headers: unisatApiKey ? { authorization: `Bearer ${unisatApiKey}` } : undefined,
    beforeAttempt: createCallBudget({
      perSecond: unisatRatePerSecond,
      workers: config.workers,
      redis,
      service: 'unisat',
      // UniSat counts calls per key: replicas with another key, or another UniSat, have their own.
      scope: upstreamScope(unisatUrl, unisatApiKey),
      events,
    }),
    ...configuredServiceOptions(config, logger),
    answersJson: true,
    cache: ttlCachePolicy(config, store, flights),
    events,
    // A client's fair share is of UniSat's budget, which UniSat does not advertise.
    ...fairness('unisat'),
    quotaPerMinute: unisatRatePerSecond * 60,
    // The breaker's half-open probe (guards/service-probe.ts): the first BRC-20 token's lookup.
    probe: { path: '/v1/indexer/brc20/ordi/info', route: '/v1/indexer/brc20/:ticker/info' },
  });

  /**
   * GETs a UniSat route and opens its envelope; `shape` checks `data` when there is some. `lookup`:
   * one thing asked by its name (a token, a rune, a block), which UniSat may say does not exist;
   * `list`: a page of a list, which can be empty (`code: 0`, no data) but never "not found", so a
   * `code: -1` there is an error whatever its message.
   */
  async function get<T>(
    req: UpstreamRequest,
    shape: Shape<T>,
    call: CallOptions,
    asking: 'lookup' | 'list' = 'lookup',
  ): Promise<UnisatData<T>> {
    const response = await service.request(merged(req, call));
    if (response.status < 200 || response.status >= 300) throw service.statusError(response);
    const envelope = service.parse(response, isEnvelope);
    if (envelope.code === 0) {
      if (envelope.data === null || envelope.data === undefined) return { absent: true };
      if (!shape(envelope.data)) throw new UpstreamError('unisat', 'invalid-body', response.status);
      return { data: envelope.data };
    }
    if (envelope.code === -1 && asking === 'lookup' && saysAbsent(envelope.msg ?? '')) return { absent: true };
    // Its message is UniSat's and is not passed on: it may say anything.
    const error = new UpstreamError('unisat', 'status', response.status);
    error.message = `The unisat service answered with an error (code ${envelope.code})`;
    throw error;
  }

  // The whole time one field may wait on UniSat, however many calls it makes (upstream/deadline.ts).
  return { service, get, timeoutMs: config.upstreamTimeoutMs };
}
export type UnisatClient = ReturnType<typeof createUnisatClient>;
