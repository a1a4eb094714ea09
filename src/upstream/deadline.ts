import { UpstreamError, type ServiceName } from '../errors.js';
import { merged } from '../lib/merge.js';
import type { CallOptions } from './request.js';

/**
 * One deadline for an operation that makes its calls one after another (UniSat's events pages,
 * ord's page and then its blocks' hashes, hiro's token list and then a token's route, a
 * connection's rounds of pages). The
 * pipeline gives each call UPSTREAM_TIMEOUT_MS of its own (retry.ts), so a walk of n pages could
 * wait n times that, while the setting is the whole time one field may wait on an upstream.
 *
 * What `run` settles with, or `service`'s timeout (UPSTREAM_TIMEOUT, REST 504) once `timeoutMs`
 * have passed since the start. A call `run` starts after that fails at once, unsent (`notAfter`);
 * a call in flight then runs on to its own deadline instead of being cut: the breaker, the logs and
 * the metrics see how the upstream answered it, as for any call. Cut short, a hanging upstream
 * read as calls abandoned, and never opened the breaker. The caller's own signal (a client that
 * left, REQUEST_TIMEOUT_MS) still cancels everything.
 */
export async function withinDeadline<T>(
  call: CallOptions,
  timeoutMs: number,
  service: ServiceName,
  run: (call: CallOptions) => Promise<T>,
): Promise<T> {
  const notAfter = Math.min(Date.now() + timeoutMs, call.notAfter ?? Infinity);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new UpstreamError(service, 'timeout')), notAfter - Date.now());
  });
  try {
    return await Promise.race([run(merged(call, { notAfter })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the field a call is made for has had its answer (`notAfter`, set by withinDeadline). */
export function pastDeadline(call: Pick<CallOptions, 'notAfter'>): boolean {
  return call.notAfter !== undefined && Date.now() >= call.notAfter;
}
