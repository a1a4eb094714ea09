/**
 * The gateway's own half-open probe: once an open breaker's cooldown has passed, the gateway asks
 * a fixed, cheap path of the service itself (a well-known item's lookup, upstream/index.ts)
 * instead of letting a client's request be the probe. Clients' inputs never decide whether the
 * service is back: two addresses sending inputs the upstream times out on took every client
 * probe, and held the breaker open for everyone. Any answer but the service saying it is down
 * (the breaker's own rule) closes it.
 *
 * One probe at a time per service and process. The request that found the cooldown over waits for
 * it (within its own deadline) and goes if it closed the breaker, as a client's probe would have,
 * and so do that client's other calls meanwhile (a GraphQL request's fields side by side); other
 * clients' fail fast, as while the breaker is open, rather than each wait out a service that hangs.
 * The probe is the gateway's call: no client is charged for it. It spends at most one call a
 * cooldown in each process.
 */
import { ExchangeSignal } from '../../lib/cancellation.js';
import type { Exchange } from '../exchange.js';
import type { ProbePath, UpstreamRequest } from '../request.js';
import { GATEWAY_PROBE } from './circuit-breaker.js';
import type { Guards } from './guard-set.js';

export class ServiceProbe {
  /** The probe in flight, and the client whose request sent it. */
  private flight: { client: string; answered: Promise<void> } | undefined;
  private readonly request: UpstreamRequest;

  constructor(
    path: ProbePath,
    private readonly exchange: Exchange,
    private readonly timeoutMs: number,
  ) {
    this.request = { ...path, client: GATEWAY_PROBE };
  }

  /**
   * Whether a request of `client` that the breaker refused may go now: when the breaker is
   * half-open to it, after the probe it sends (or its client's, in flight) has closed the breaker.
   * Rejects with `waiting`'s reason when that aborts first (the probe runs on).
   */
  async admits(guards: Guards, client: string | undefined, waiting: AbortSignal): Promise<boolean> {
    // As the breaker reads a request without a client: the gateway's own ('').
    const asked = client ?? '';
    if (this.flight ? this.flight.client !== asked : guards.breaker.stateAt(Date.now(), asked) !== 'half-open') return false;
    this.flight ??= { client: asked, answered: this.send(guards).finally(() => (this.flight = undefined)) };
    await untilSettled(this.flight.answered, waiting);
    return guards.breaker.allow(client);
  }

  /** One probe: the exchange tells the breaker its outcome. */
  private async send(guards: Guards): Promise<void> {
    const exchange = new ExchangeSignal(this.timeoutMs);
    try {
      await this.exchange.attempt(this.request, guards, exchange, 0);
    } catch {
      // The breaker has been told; the waiting request reads it.
    } finally {
      exchange.end();
    }
  }
}

/** `flight` settled, or `signal` aborted first (rejects with its reason). */
function untilSettled(flight: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void flight.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
