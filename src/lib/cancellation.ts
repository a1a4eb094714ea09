/**
 * A client request's cancellation and deadline, without an AbortSignal per request.
 *
 * On Node 20 every AbortSignal gets a hidden class of its own (Node builds it as an EventTarget,
 * changes its prototype, then adds properties): each one leaves garbage in the old generation, and
 * one per request made the gateway run a full GC every few seconds under load, with scavenges twice
 * as long (measured in `npm run bench`: the p99 of the REST rows). The upstream layer only needs
 * `aborted`, `reason` and an abort listener, which this plain object gives; a real AbortSignal is
 * made from it only where one is required (an upstream exchange, far rarer than a request).
 */
import type { ServerResponse } from 'node:http';

/** What the upstream layer needs of a client's signal: an AbortSignal has it, and so has Cancellation. */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown;
  private listeners: Set<() => void> | undefined;

  /** Aborts once (later calls do nothing), with an AbortError as AbortController does. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    listeners?.forEach((listener) => listener());
  }

  /** Listeners are called once, on abort: `once` is how they behave anyway. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) (this.listeners ??= new Set()).add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners?.delete(listener);
  }
}

/** A request's cancellation that aborts when its client goes away before the answer was written. */
export function untilClientLeaves(res: ServerResponse): Cancellation {
  const cancellation = new Cancellation();
  // A response closes once: on(), without once()'s wrapper (a warm answer's cost, counted).
  res.on('close', () => {
    if (!res.writableFinished) cancellation.abort();
  });
  return cancellation;
}

/**
 * A request's deadline: what `work` settles with, or, once `timeoutMs` have passed first,
 * `cancellation` aborts (its upstream work stops) and the answer is `late()`.
 */
export function withDeadline<T>(work: () => Promise<T>, timeoutMs: number, cancellation: Cancellation, late: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cancellation.abort();
      resolve(late());
    }, timeoutMs);
    Promise.resolve()
      .then(work)
      .then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
  });
}

/**
 * A Cancellation that aborts when `timeoutMs` have passed (with `expired()`) or when `caller` aborts
 * (with its reason), until `stop()`: one deadline for work of several calls, each of which the
 * upstream pipeline would otherwise give a deadline of its own (a graphql-ws operation's
 * REQUEST_TIMEOUT_MS, a data source's walk of pages). `cut(reason)` ends it at once.
 */
export interface LinkedDeadline {
  cancellation: Cancellation;
  /** The work is done: the timer and the hold on the caller's signal go. */
  stop(): void;
  /** Ends it now: what is still waiting fails with `reason`. */
  cut(reason: unknown): void;
}

export function linkedDeadline(caller: CancelSignal | undefined, timeoutMs: number, expired: () => unknown): LinkedDeadline {
  const cancellation = new Cancellation();
  const callerAborted = () => cancellation.abort(caller!.reason);
  if (caller?.aborted) callerAborted();
  else caller?.addEventListener('abort', callerAborted, { once: true });
  const timer = setTimeout(() => cancellation.abort(expired()), timeoutMs);
  timer.unref();
  return {
    cancellation,
    stop() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', callerAborted);
    },
    cut(reason) {
      cancellation.abort(reason);
    },
  };
}

/**
 * One upstream exchange's AbortSignal (undici takes nothing else), retries included: it aborts when
 * `timeoutMs` have passed (`timedOut`) or when the caller's signal aborts, until `end()`. The timer
 * is cleared at the end: AbortSignal.timeout's runs for the whole timeout after every exchange,
 * keeping its signal alive, then builds a TimeoutError and dispatches an event nobody hears (10 s
 * after each call here: 6% of a core for 10 s after a burst of revalidations).
 */
export class ExchangeSignal {
  timedOut = false;
  /** When the exchange's deadline passes (epoch ms). */
  readonly deadline: number;
  /**
   * The latest an attempt, or a wait before one, may run to (epoch ms): the deadline, or the
   * caller's `notAfter` when nobody waits for the answer past it (what is in flight then still
   * runs to the deadline).
   */
  readonly startBy: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.controller.abort(this.caller!.reason);

  constructor(
    timeoutMs: number,
    private readonly caller?: CancelSignal,
    notAfter = Infinity,
  ) {
    this.deadline = Date.now() + timeoutMs;
    this.startBy = Math.min(this.deadline, notAfter);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  end(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}
