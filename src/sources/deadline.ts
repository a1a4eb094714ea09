import { UpstreamError, type ServiceName } from '../errors.js';
import { linkedDeadline } from '../lib/cancellation.js';
import { merged } from '../lib/merge.js';
import type { CallOptions } from '../upstream/request.js';

/**
 * One deadline for an operation that makes its calls one after another (UniSat's events pages).
 * The pipeline gives each call UPSTREAM_TIMEOUT_MS of its own (retry.ts), so a walk of n pages
 * could wait n times that, while the setting is the whole time one field may wait on an upstream.
 * `run` gets a signal that aborts when `timeoutMs` have passed since the start (the call in flight
 * then fails with `service`'s timeout: UPSTREAM_TIMEOUT, REST 504) or when the caller's own signal
 * aborts (with its reason: a client that left, REQUEST_TIMEOUT_MS).
 */
export async function withinDeadline<T>(
  call: CallOptions,
  timeoutMs: number,
  service: ServiceName,
  run: (call: CallOptions) => Promise<T>,
): Promise<T> {
  const deadline = linkedDeadline(call.signal, timeoutMs, () => new UpstreamError(service, 'timeout'));
  try {
    return await run(merged(call, { signal: deadline.cancellation }));
  } finally {
    deadline.stop();
  }
}
