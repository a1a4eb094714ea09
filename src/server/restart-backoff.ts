/**
 * How long the supervisor waits before it replaces a worker that died (WORKERS > 1). A worker that
 * dies once is replaced at once; one that keeps dying soon after it starts (a bug on a timer, a
 * leak that runs out of memory under steady load) is replaced after longer and longer waits, so the
 * group does not spend a core starting workers in a loop.
 */

/** The wait after the second death in a row; it doubles with each further one. */
const FIRST_WAIT_MS = 500;
/** The longest wait between two starts. */
const MAX_WAIT_MS = 30_000;
/** A death this long after the previous one starts the count again: the group had been serving. */
const CALM_AFTER_MS = 60_000;

export class RestartBackoff {
  private waitMs = 0;
  private lastDeath = -Infinity;

  /** A worker died at `now`: the wait before its replacement starts. */
  next(now = Date.now()): number {
    this.waitMs = now - this.lastDeath >= CALM_AFTER_MS ? 0 : Math.min(MAX_WAIT_MS, Math.max(FIRST_WAIT_MS, this.waitMs * 2));
    this.lastDeath = now;
    return this.waitMs;
  }
}
