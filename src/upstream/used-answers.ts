/**
 * The fast path's ledger, and the fork of the pipeline: GETs of a cached service go through the
 * cache (coalesced), anything else straight to the upstream. On a request whose result the
 * response cache may keep (CallStats.used), it notes each answer the request used, and whether all
 * were current cached answers; one request never asks for the same answer twice.
 */
import type { ServiceName } from '../errors.js';
import { cacheKey } from './cache.js';
import { sharedCacheMayStore } from './http-cache.js';
import type { Coalescer } from './coalesce.js';
import { queryString } from './paths.js';
import type { AnswerSource, UpstreamRequest, UpstreamResponse, UsedAnswers } from './request.js';
import type { Retries } from './retry.js';

/** Paths whose cache key a ledger remembers before it starts again: a bound, not a tuned size. */
const REMEMBERED_KEYS = 4096;

export class Ledger {
  /**
   * Cache keys of recent paths: a key is a SHA-256 (cache.ts), which was a twentieth of the
   * instructions of a warm REST answer; a path asked again finds its key here. Only paths of a
   * cached service, so never a platform key.
   */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly name: ServiceName,
    /** The upstream's base URL, as cache keys hold it (cache.ts). */
    private readonly base: string,
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
    const key = this.keyOf(req);
    if (!used) return coalescer.answer(key, req);
    // Noting what the request used, for the response cache. A page read again past the cache
    // replaced what the request read first: a result resting on both is not kept.
    if (req.fresh) used.complete = false;
    const asked = req.fresh ? undefined : used.asked.get(key);
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

  private keyOf(req: UpstreamRequest): string {
    const query = queryString(req.query);
    const target = `${req.path}?${query}`;
    let key = this.keys.get(target);
    if (key === undefined) {
      if (this.keys.size >= REMEMBERED_KEYS) this.keys.clear();
      key = cacheKey(this.name, this.base, req.path, query);
      this.keys.set(target, key);
    }
    return key;
  }

  /**
   * Only a stored answer of the resource's state (200, 404) can stand behind a stored result: not
   * one the upstream forbids a shared cache to keep, whose data a stored result would keep for it.
   */
  private noteUsed(used: UsedAnswers, key: string, req: UpstreamRequest, response: UpstreamResponse): void {
    if (response.stale || (response.status !== 200 && response.status !== 404) || !sharedCacheMayStore(response)) {
      used.complete = false;
      return;
    }
    if (req.final) return;
    const { method, path, route, query, tenant } = req;
    used.answers.push({ service: this.source, key, request: { method, path, route, query, tenant }, response });
  }
}
