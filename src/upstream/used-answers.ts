/**
 * The fast path's ledger, and the fork of the pipeline: GETs of a cached service go through the
 * cache (coalesced), anything else straight to the upstream. On a request whose result the
 * response cache may keep (CallStats.used), it notes each answer the request used, and whether all
 * were current cached answers; one request never asks for the same answer twice.
 */
import type { ServiceName } from '../errors.js';
import { cacheKey } from './cache.js';
import type { Coalescer } from './coalesce.js';
import { queryString } from './paths.js';
import type { AnswerSource, UpstreamRequest, UpstreamResponse, UsedAnswers } from './request.js';
import type { Retries } from './retry.js';

export class Ledger {
  constructor(
    private readonly name: ServiceName,
    /** The service that answers for what is noted: a stored result asks it whether an answer is current. */
    private readonly source: AnswerSource,
    /** The stages below: the cache, coalesced, on a cached service; the upstream, retries included. */
    private readonly coalescer: Coalescer | undefined,
    private readonly sender: Retries,
  ) {}

  request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const coalescer = this.coalescer;
    const used = req.stats?.used;
    if ((req.method ?? 'GET') !== 'GET' || !coalescer) {
      if (used) used.complete = false;
      return this.sender.send(req);
    }
    const key = cacheKey(this.name, req.path, queryString(req.query));
    if (!used) return coalescer.answer(key, req);
    // Noting what the request used, for the response cache.
    const asked = used.asked.get(key);
    const answer = asked ?? coalescer.answer(key, req);
    used.asked.set(key, answer);
    return answer.then(
      (response) => {
        if (asked && response.stale) req.onStale?.(response.stale.ageSeconds);
        this.noteUsed(used, key, req, response);
        return response;
      },
      (error: unknown) => {
        used.complete = false;
        throw error;
      },
    );
  }

  /** Only a stored answer of the resource's state (200, 404) can stand behind a stored result. */
  private noteUsed(used: UsedAnswers, key: string, req: UpstreamRequest, response: UpstreamResponse): void {
    if (response.stale || (response.status !== 200 && response.status !== 404)) {
      used.complete = false;
      return;
    }
    const { method, path, route, query, tenant } = req;
    used.answers.push({ service: this.source, key, request: { method, path, route, query, tenant }, response });
  }
}
