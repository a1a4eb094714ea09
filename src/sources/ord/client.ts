/**
 * An `ord server` (ordinals/ord src/subcommand/server.rs): JSON through `Accept: application/json`
 * (the pipeline's default), optional HTTP basic auth (ORD_API_AUTH), and bodies read with
 * lossless-json: ord writes u128 amounts as bare JSON numbers, which JSON.parse rounds past 2^53.
 * lossless-json (josdejong, MIT, maintained, typed, no dependencies) parses each number from its
 * text, here integers to bigint; json-bigint, the other choice, has had no release since 2020.
 */
import { parse } from 'lossless-json';
import { UpstreamError } from '../../errors.js';
import { merged } from '../../lib/merge.js';
import type { CallOptions, UpstreamRequest } from '../../upstream/request.js';
import type { SourceDeps } from '../deps.js';
import { configuredServiceOptions, ttlCachePolicy } from '../../upstream/service-options.js';
import { UpstreamService } from '../../upstream/service.js';
import type { Shape } from '../../upstream/shapes.js';

/**
 * The most digits an integer of ord's has: u128::MAX (its amounts) has 39. BigInt's parse is
 * quadratic in the digits (4.5 million took 9.6 s of CPU, the whole process stalled), so a longer
 * one is refused before it, which also ends the parse there: an unreadable answer.
 */
const MAX_INTEGER_DIGITS = 39;

/**
 * ord's own "no such thing" for what satgate reads (ServerError::NotFound: the thing, then " not
 * found", as text: `rune X not found`, `blockhash not found`): not a route 404 (an empty body: an
 * ord without that route, a base URL missing its path) nor a proxy's page (Go's `404 page not
 * found` too), which say nothing of the rune asked for. Its messages name one thing: short.
 */
const NOT_FOUND = /^(?:rune|blockhash)\b[^\n]* not found\s*$/;
const MAX_NOT_FOUND_BYTES = 1024;
const saysNotFound = (body: Buffer) => body.length <= MAX_NOT_FOUND_BYTES && NOT_FOUND.test(body.toString('utf8'));

/** Integers as bigint, without loss; anything else (ord sends none in what is read here) as a number. */
function number(text: string): bigint | number {
  if (!/^-?\d+$/.test(text)) return Number(text);
  if (text.replace('-', '').length > MAX_INTEGER_DIGITS) throw new RangeError('an integer longer than a u128');
  return BigInt(text);
}

export function createOrdClient({ config, logger, store, events, flights, fairness }: SourceDeps) {
  const { ordUrl, ordAuth } = config.sources;
  if (!ordUrl) throw new Error('ORD_API_URL is required when a source is ord');
  const service = new UpstreamService({
    name: 'ord',
    baseUrl: ordUrl,
    headers: ordAuth ? { authorization: `Basic ${Buffer.from(ordAuth).toString('base64')}` } : undefined,
    ...configuredServiceOptions(config, logger),
    answersJson: true,
    cache: ttlCachePolicy(config, store, flights),
    events,
    ...fairness('ord'),
    // The breaker's half-open probe (guards/service-probe.ts): ord's status (JSON under our Accept),
    // read from the index its other routes read, in the same process.
    probe: { path: '/status', route: '/status' },
  });

  /**
   * GETs JSON (or, with `text`, a plain body); ord's own not-found is undefined, where `absent`
   * says it is an answer (an unknown rune); anything else not 2xx an error.
   */
  async function get<T>(req: UpstreamRequest, shape: Shape<T>, call: CallOptions, absent = true): Promise<T | undefined> {
    const response = await service.request(merged(req, call));
    if (response.status === 404 && absent && saysNotFound(response.body)) return undefined;
    if (response.status < 200 || response.status >= 300) throw service.statusError(response);
    let value: unknown;
    try {
      value = parse(response.body.toString('utf8'), null, number);
    } catch {
      throw new UpstreamError('ord', 'invalid-body', response.status);
    }
    if (!shape(value)) throw new UpstreamError('ord', 'invalid-body', response.status);
    return value;
  }

  return { service, get, timeoutMs: config.upstreamTimeoutMs };
}
export type OrdClient = ReturnType<typeof createOrdClient>;
