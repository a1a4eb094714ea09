import type { ServiceHealth } from '../upstream/guards/guard-set.js';
import type { CallOptions, UpstreamRequest, UpstreamResponse } from '../upstream/request.js';
import type { UpstreamService } from '../upstream/service.js';
import type { SourcedOperation } from './index.js';
import { hiroAnswer } from './wire.js';

/** What the live pollers ask of a service (src/live/hub.ts). */
export type LiveService = Pick<UpstreamService, 'health' | 'request' | 'parse' | 'saysNotFound' | 'statusError'>;

/**
 * A source as the live pollers poll a hiro route: each poll runs the operation and answers hiro's
 * body for it (hiroAnswer), so the pollers' change detection (bytes) and fan-out work unchanged.
 * Health is the source's pool's: a breaker open there pauses polling as it would for hiro.
 */
export function liveSource<A extends unknown[], T>(operation: SourcedOperation<A, T>, ...args: A): LiveService {
  const { backend } = operation;
  return {
    health: (now?: number, client?: string): ServiceHealth => backend.health(now, client),
    request: (req: UpstreamRequest): Promise<UpstreamResponse> => {
      let stale: UpstreamResponse['stale'];
      const call: CallOptions = {
        signal: req.signal,
        client: req.client,
        requestId: req.requestId,
        // The poll's count of the calls it sent (live/hub.ts): a source's pages count too.
        stats: req.stats,
        // An answer made of stored pages the source failed to confirm is no poll of now.
        onStale: (ageSeconds) => (stale = { ageSeconds: Math.max(ageSeconds, stale?.ageSeconds ?? 0) }),
      };
      // A poll that must see what is there now (a baseline, live/baselines.ts): the source's list too.
      if (req.fresh) call.fresh = true;
      return operation.run(...args, call).then((value) => {
        const answer = hiroAnswer(value, operation.source);
        if (stale) answer.stale = stale;
        return answer;
      });
    },
    // The source's mapping, already checked when the source's answers were read; the shape the
    // pollers pass is hiro's, which a source's nulls (fields it cannot provide) would not fit.
    parse: <V>(response: UpstreamResponse): V => response.parsed as V,
    // hiroAnswer writes a 404 for what the source says does not exist, and for nothing else.
    saysNotFound: (response: UpstreamResponse) => response.status === 404,
    statusError: (response: UpstreamResponse) => backend.statusError(response),
  };
}
