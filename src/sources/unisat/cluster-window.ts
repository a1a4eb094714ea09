/**
 * UniSat's call window for a node:cluster group (WORKERS > 1): the primary keeps the one sliding
 * window and each worker asks it for room over IPC, so the workers together send at most
 * UNISAT_RATE_LIMIT_PER_SECOND calls in any second. A fixed share each, floor(limit / WORKERS) but
 * at least 1, could not: with more workers than calls a second, each still sent one. Redis, when
 * set, decides first (call-budget.ts); this is what decides without it, or while it cannot answer.
 */
import cluster from 'node:cluster';
import { primaryRequests } from '../../lib/primary-requests.js';
import { LocalWindow, type Window } from './local-window.js';

const TAKE = 'satgate:call-window-take';
const TAKEN = 'satgate:call-window-taken';
const NOTE = 'satgate:call-window-note';
/** Longest wait for the primary's answer before the worker's own share decides. */
const PRIMARY_WAIT_MS = 200;

interface Take {
  type: typeof TAKE;
  id: number;
  /** Whose window: the budget's service and scope. */
  key: string;
  limit: number;
}
/** A call Redis admitted: the primary's window records it, unanswered. */
interface Note {
  type: typeof NOTE;
  key: string;
  limit: number;
}
interface Taken {
  type: typeof TAKEN;
  id: number;
  waitMs: number;
}

/** In the primary: one window per budget key for every worker. */
export function serveClusterWindows(): void {
  const windows = new Map<string, LocalWindow>();
  cluster.on('message', (worker, message: Partial<Omit<Take, 'type'>> & { type?: unknown }) => {
    if ((message?.type !== TAKE && message?.type !== NOTE) || typeof message.key !== 'string' || typeof message.limit !== 'number') return;
    let window = windows.get(message.key);
    if (!window) windows.set(message.key, (window = new LocalWindow(message.limit)));
    if (message.type === NOTE) return window.note();
    if (typeof message.id !== 'number') return;
    // A worker gone since it asked: the send fails (EPIPE), which must not stop the primary.
    worker.send({ type: TAKEN, id: message.id, waitMs: window.take() } satisfies Taken, () => {});
  });
}

const askPrimary = primaryRequests<Taken>(TAKEN);

/** In a worker: room in the primary's window; the worker's `share` while the primary does not answer. */
export class ClusterWindow implements Window {
  constructor(
    private readonly key: string,
    private readonly limit: number,
    private readonly share: LocalWindow,
  ) {}

  note(): void {
    this.share.note();
    process.send?.({ type: NOTE, key: this.key, limit: this.limit } satisfies Note, () => {});
  }

  async take(): Promise<number> {
    const answer = await askPrimary({ type: TAKE, key: this.key, limit: this.limit } satisfies Omit<Take, 'id'>, PRIMARY_WAIT_MS);
    return answer !== undefined && !(answer instanceof Error) && typeof answer.waitMs === 'number' ? answer.waitMs : this.share.take();
  }
}
