/**
 * At most `max` exchanges at once; the others wait their turn, in order, each until its own signal
 * aborts. Keeps one tenant from holding every connection of a shared pool.
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly max: number) {}

  /** Resolves with the slot's release once one is free; rejects with the reason when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve(this.release());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(grant);
        reject(signal.reason);
      };
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve(this.release());
      };
      this.waiting.add(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const next = this.waiting.values().next();
      if (next.done) return;
      this.waiting.delete(next.value);
      next.value();
    };
  }
}
