/**
 * Subscription set-ups take turns with everything else the process serves. A new subscription
 * costs a document parse and validation, a context and a place in the hub: about a millisecond.
 * Fifty arriving together (one client's churn, or a page that opens many at once) would run in one
 * turn of the event loop and hold every other request behind them for tens of milliseconds
 * (docs/notes/2026-11-26-abuse-after-hardening.md). Here each set-up waits for a turn of the loop
 * of its own (setImmediate), so the requests that arrived meanwhile are read and answered between
 * them. A subscription lives for minutes; a turn costs it well under a millisecond.
 */
const waiting: Array<() => void> = [];
let scheduled = false;

function next(): void {
  waiting.shift()?.();
  // Scheduled from a check-phase callback, the next one runs on the loop's next turn.
  if (waiting.length > 0) setImmediate(next);
  else scheduled = false;
}

/** Resolves on a turn of the event loop of its own, after the set-ups that asked before it. */
export function setupTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (scheduled) return;
    scheduled = true;
    setImmediate(next);
  });
}
