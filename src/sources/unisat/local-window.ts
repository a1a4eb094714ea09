/** A sliding one-second window of calls (call-budget.ts): the interface, and one kept in memory. */

export const WINDOW_MS = 1000;

/** Admits one call now (0), or says how many ms until one may be admitted. */
export interface Window {
  take(): number | Promise<number>;
}

/** The last `limit` call times of this process. */
export class LocalWindow implements Window {
  private readonly times: number[] = [];

  constructor(private readonly limit: number) {}

  take(now = Date.now()): number {
    while (this.times.length > 0 && this.times[0]! <= now - WINDOW_MS) this.times.shift();
    if (this.times.length < this.limit) {
      this.times.push(now);
      return 0;
    }
    return this.times[0]! + WINDOW_MS - now;
  }
}
