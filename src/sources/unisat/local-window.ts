/** A sliding one-second window of calls (call-budget.ts): the interface, and one kept in memory. */

/**
 * UniSat counts calls in one second; the window is kept 50 ms wider. Calls admitted exactly 1,000 ms
 * apart reached the upstream up to 20 ms out of order (connection pools, event-loop turns), so a
 * window of exactly a second let 6 to 8 arrive within a strict second at a limit of 5.
 */
export const WINDOW_MS = 1_050;

/** Admits one call now (0), or says how many ms until one may be admitted. */
export interface Window {
  take(): number | Promise<number>;
  /** Records a call another window admitted (Redis's): this one must know it should it decide next. */
  note(): void;
}

/** The last `limit` call times of this process. */
export class LocalWindow implements Window {
  private readonly times: number[] = [];

  constructor(private readonly limit: number) {}

  take(now = Date.now()): number {
    this.trim(now);
    if (this.times.length < this.limit) {
      this.times.push(now);
      return 0;
    }
    // Noted calls can hold more than `limit` times: room comes when all but limit - 1 have left.
    return this.times[this.times.length - this.limit]! + WINDOW_MS - now;
  }

  note(now = Date.now()): void {
    this.trim(now);
    this.times.push(now);
  }

  private trim(now: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - WINDOW_MS) this.times.shift();
  }
}
