import { UpstreamError, type ServiceName } from '../errors.js';
import type { SourceName } from './provenance.js';

/**
 * A source's failure as the operation's: `extensions.service` names the operation's service
 * (ordinals, runes), `extensions.source` the source (docs/sources.md). The message stays the
 * source's own (it names the source, never its URL or key).
 */
export function asOperationError(error: unknown, service: ServiceName, source: SourceName): unknown {
  if (!(error instanceof UpstreamError)) return error;
  const wrapped = new UpstreamError(service, error.kind, error.status, error.retryAfter, error.limit);
  wrapped.message = error.message;
  wrapped.source = source;
  return wrapped;
}

/** An answer a source sent that the mapping cannot read: UPSTREAM_ERROR, naming the source's service. */
export function unreadable(service: ServiceName, status?: number): UpstreamError {
  return new UpstreamError(service, 'invalid-body', status);
}

/** A list's pages that do not fit together: read at different times, or a source's error. */
export class PagesDisagree extends Error {}

/**
 * A list read page by page through the cache, and once more past it (`fresh`) when its pages
 * disagree: each page is cached on its own, so pages read before and after the list changed (a new
 * etching moves every rune down ord's pages) can meet in one answer. Pages that still disagree
 * when read together are the source's error, `disagree()`.
 */
export async function consistentPages<T>(read: (fresh: boolean) => Promise<T>, disagree: () => UpstreamError): Promise<T> {
  try {
    return await read(false);
  } catch (error) {
    if (!(error instanceof PagesDisagree)) throw error;
  }
  try {
    return await read(true);
  } catch (error) {
    throw error instanceof PagesDisagree ? disagree() : error;
  }
}
