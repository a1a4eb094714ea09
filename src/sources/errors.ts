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

/**
 * An answer a source sent that the mapping cannot read: UPSTREAM_ERROR, naming the source's service,
 * with `message` where the error's own says too little.
 */
export function unreadable(service: ServiceName, status?: number, message?: string): UpstreamError {
  const error = new UpstreamError(service, 'invalid-body', status);
  if (message !== undefined) error.message = message;
  return error;
}
