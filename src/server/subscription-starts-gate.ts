/**
 * A subscription over HTTP (SSE, or Apollo's multipart protocol; told by an Accept header that
 * leaves nothing but a stream, http/long-lived.ts) from a client whose minute's subscription starts
 * are spent (SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE, live/client-seats.ts) is answered here,
 * before yoga: 429 with Retry-After and TOO_MANY_SUBSCRIPTIONS, as a WebSocket upgrade past its
 * client's cap is. In application/graphql-response+json where the client takes it (Apollo's
 * multipart subscriptions), so that the client reads the error's code rather than a bare 429.
 * Refused inside yoga, each still cost about a millisecond and a half (its streams, its context),
 * and a client sending them in bursts of fifty stalled every other client's requests
 * (docs/notes/2026-11-27-churn-bursts.md); here one costs what a REST 404 does. A request that
 * also takes JSON (urql's queries) goes on: if it is a subscription, the hub refuses it after its
 * set-up turn, as it refuses one over any other transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientIdOf } from '../http/client-identity.js';
import type { CorsPolicy } from '../http/cors.js';
import { isGraphqlTarget } from '../http/graphql-target.js';
import { acceptsGraphqlResponse } from '../http/media-type.js';
import { isStreamOnly } from '../http/long-lived.js';
import { headerValue, writeHead } from '../http/node-response.js';
import type { StartsRefusal } from '../live/client-seats.js';

export interface StartsGateDeps {
  /** What a new subscription of the client would be refused with now; undefined when it may start (the live hub's). */
  startRefusal(client: string | undefined): StartsRefusal | undefined;
  trustProxy: number;
  cors: CorsPolicy;
}

/** Answers a refused request and says true; false for any other, untouched. */
export type StartsGate = (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean;

export function createStartsGate({ startRefusal, trustProxy, cors }: StartsGateDeps): StartsGate {
  return (req, res, requestId) => {
    if (!isStreamOnly(req.headers.accept) || !isGraphqlTarget(req.url ?? '')) return false;
    const refusal = startRefusal(clientIdOf(req, trustProxy));
    if (!refusal) return false;
    const body = JSON.stringify({ errors: [refusal] });
    writeHead(res, 429, cors(headerValue(req.headers.origin), false), {
      'content-type': `${acceptsGraphqlResponse(req.headers.accept) ? 'application/graphql-response+json' : 'application/json'}; charset=utf-8`,
      'content-length': String(Buffer.byteLength(body)),
      'retry-after': String(refusal.extensions.retryAfter),
      'x-request-id': requestId,
    }).end(body);
    return true;
  };
}
