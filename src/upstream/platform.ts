import { merged } from '../lib/merge.js';
import { UpstreamError } from '../errors.js';
import type { CallOptions, UpstreamRequest, UpstreamResponse } from './request.js';
import type { UpstreamService } from './service.js';
import { joinPath, keySegment, proxyPath, segment } from './paths.js';
import { checked, nestedAtMost, object, optional, string } from './shapes.js';
import type { ChainhookDeletion } from './types.js';
import { holdsSecret } from './redact.js';

/** The devnet node's JSON, as deep as bitcoind's answers go and well within what serialising it again can take. */
const NODE_JSON = nestedAtMost(64);
const isDeletion = checked(object<ChainhookDeletion>({ status: string, chainhookUuid: string, message: optional(string) }));

/** The longest upstream message passed on to a client; a longer one is left out. */
const MAX_DETAIL = 200;

/**
 * The platform's error, with its own message where it gave one (`{ status, message, error }`, as
 * its other chainhook routes document): short, printable, and never one that holds the key or any
 * other credential the gateway holds (`secrets`).
 */
function platformError(service: UpstreamService, response: UpstreamResponse, secrets: readonly string[]): UpstreamError {
  const error = service.statusError(response);
  let message: unknown;
  try {
    message = (JSON.parse(response.body.toString('utf8')) as { message?: unknown } | null)?.message;
  } catch {
    return error;
  }
  if (
    typeof message === 'string' &&
    message.length <= MAX_DETAIL &&
    /^[\x20-\x7e]+$/.test(message) &&
    !secrets.some((secret) => holdsSecret(message, secret))
  ) {
    error.detail = message.trim();
  }
  return error;
}

/**
 * Hiro Platform: the key is a path segment, so routes (for logs) name it `:apiKey`. Each key is a
 * tenant (`tenant`): its breaker, quota and share of the pool are its own. `secrets`: the
 * credentials the gateway holds for other upstreams (configuredSecrets), kept out of its errors too.
 */
export function createPlatformClient(service: UpstreamService, secrets: readonly string[] = []) {
  return {
    service,
    deleteChainhookRequest: (apiKey: string, uuid: string): UpstreamRequest => ({
      method: 'DELETE',
      path: joinPath('v1', 'ext', keySegment(apiKey), 'chainhooks', segment(uuid, 'uuid')),
      route: '/v1/ext/:apiKey/chainhooks/:chainhookUuid',
      tenant: apiKey,
    }),
    /** Throws UnsafePathError for a path that could leave the bitcoin-node proxy root. */
    bitcoinNodeRequest: (apiKey: string, path: string): UpstreamRequest => {
      const safe = proxyPath(path);
      return {
        path: joinPath('v1', 'ext', keySegment(apiKey), 'bitcoin-node', safe.path),
        route: '/v1/ext/:apiKey/bitcoin-node/*',
        query: safe.query,
        tenant: apiKey,
      };
    },
    /** Exactly one DELETE, never retried: the answer decides, whatever it is. */
    async deleteChainhook(apiKey: string, uuid: string, call: CallOptions = {}): Promise<ChainhookDeletion> {
      const response = await service.request(merged(this.deleteChainhookRequest(apiKey, uuid), call));
      if (response.status < 200 || response.status >= 300) throw platformError(service, response, [apiKey, ...secrets]);
      return service.parse(response, isDeletion);
    },
    /**
     * The node's JSON (a 2xx answer that is not JSON comes back as a string), and the body it came
     * from: every field that answers with it counts against the request's budget (useAnswer).
     */
    async bitcoinNode(apiKey: string, path: string, call: CallOptions = {}): Promise<{ value: unknown; body: Buffer }> {
      const response = await service.request(merged(this.bitcoinNodeRequest(apiKey, path), call));
      if (response.status < 200 || response.status >= 300) throw platformError(service, response, [apiKey, ...secrets]);
      const isJson = /^application\/([\w.+-]*\+)?json\b/i.test(response.headers['content-type'] ?? '');
      return { value: isJson ? service.parse(response, NODE_JSON) : response.body.toString('utf8'), body: response.body };
    },
    /** A field answers with `answer`: it counts against the budget (RESPONSE_BUDGET_EXCEEDED past it). */
    useAnswer({ value, body }: { value: unknown; body: Buffer }, { budget }: CallOptions): unknown {
      if (budget && !budget.use(body)) throw new UpstreamError(service.name, 'over-budget', undefined, undefined, budget.maxBytes);
      return value;
    },
  };
}
export type PlatformClient = ReturnType<typeof createPlatformClient>;
