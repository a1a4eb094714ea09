/**
 * /metrics for a node:cluster group (WORKERS > 1). The primary does not serve HTTP: the worker that
 * receives a scrape asks the primary over IPC, the primary collects every worker's registry (over
 * IPC too, as JSON), sums them with prom-client's AggregatorRegistry and answers that worker.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { primaryRequests } from '../lib/primary-requests.js';

const ASK = 'satgate:metrics-ask';
const ANSWER = 'satgate:metrics-answer';
const COLLECT = 'satgate:metrics-collect';
const COLLECTED = 'satgate:metrics-collected';
/** How long the primary waits for a worker's metrics (prom-client's own cluster collection waits 5 s). */
const COLLECT_TIMEOUT_MS = 5_000;
/** Metric types whose sums only grow: a gone worker's are kept. */
const MONOTONIC = new Set(['counter', 'histogram']);
/** A scrape waits a little longer than the primary waits for a worker. */
const SCRAPE_TIMEOUT_MS = 6_000;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Collect {
  type: typeof COLLECT;
  id: number;
}
interface Collected {
  type: typeof COLLECTED;
  id: number;
  metrics?: MetricsJson;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** What a worker's registry reads as (prom-client's getMetricsAsJSON). */
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/**
 * In the primary: answers the workers' scrapes with the whole group's metrics, summed by
 * prom-client's AggregatorRegistry (counters and histograms summed, gauges as each declares).
 *
 * The group's counters never go back: a worker that exits takes its counts with it, and Prometheus
 * reads a smaller sum as a reset (rate() then counts the whole sum again as new). So the counters
 * and histograms of each worker's last collection are kept when it exits, and added to every later
 * sum. What it counted after that collection is lost, as a process's unscraped counts are.
 *
 * `serving`: the ids of the workers that listen, as the supervisor keeps them (main.ts). Only they
 * are asked: one still starting has counted nothing, and would answer only once started.
 */
export function serveClusterMetrics(serving: ReadonlySet<number>): void {
  /** Each live worker's last collection. */
  const last = new Map<number, MetricsJson>();
  /** Gone workers' counters and histograms; merged in the background (every later array starts with the same items). */
  let retired: MetricsJson[] = [];
  /** Collections waiting for a worker's answer, by collection id. */
  const waiting = new Map<number, { worker: number; settle: (metrics?: MetricsJson) => void }>();
  let nextId = 0;

  cluster.on('exit', (worker) => {
    for (const wait of waiting.values()) if (wait.worker === worker.id) wait.settle();
    const final = last.get(worker.id);
    last.delete(worker.id);
    if (!final) return;
    retired = [...retired, final.filter((metric) => MONOTONIC.has(String(metric.type)))];
    const merging = retired;
    if (merging.length < 2) return;
    void AggregatorRegistry.aggregate(merging)
      .getMetricsAsJSON()
      .then((summed) => (retired = [summed, ...retired.slice(merging.length)]));
  });

  cluster.on('message', (worker, message: Partial<Ask | Collected>) => {
    if (typeof message?.id !== 'number') return;
    if (message.type === COLLECTED) waiting.get(message.id)?.settle(message.metrics ?? []);
    if (message.type !== ASK) return;
    const id = message.id;
    // A worker gone since it asked: the send fails (EPIPE), which must not stop the primary.
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => worker.send({ type: ANSWER, id, ...answer } satisfies Answer, () => {});
    collect().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });

  /** One worker's metrics; undefined when it did not answer within COLLECT_TIMEOUT_MS or is gone. */
  function collectFrom(worker: Worker): Promise<MetricsJson | undefined> {
    const id = ++nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(), COLLECT_TIMEOUT_MS);
      function settle(metrics?: MetricsJson) {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      }
      waiting.set(id, { worker: worker.id, settle });
      worker.send({ type: COLLECT, id } satisfies Collect, (error: Error | null) => error && settle());
    });
  }

  /**
   * Every live worker's metrics (a silent one's last collection) and the gone workers' counts. A
   * worker that exits during the collection is counted once: its last answer went to `retired`.
   */
  async function collect(): Promise<string> {
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && serving.has(worker.id) && !worker.isDead(),
    );
    const collected = await Promise.all(
      workers.map(async (worker) => {
        const metrics = await collectFrom(worker);
        if (metrics && !worker.isDead()) last.set(worker.id, metrics);
        return worker.id;
      }),
    );
    const live = collected.flatMap((id) => {
      const metrics = last.get(id);
      return metrics ? [metrics] : [];
    });
    return AggregatorRegistry.aggregate([...live, ...retired]).metrics();
  }
}

/** In a worker: its registry answers the primary's collection, and a scrape asks the primary. */
export function clusterScrape(registry: Registry): () => Promise<string> {
  const ask = primaryRequests<Answer>(ANSWER);
  process.on('message', (message: Partial<Collect>) => {
    if (message?.type === COLLECT && typeof message.id === 'number') {
      const id = message.id;
      void registry.getMetricsAsJSON().then((metrics) => process.send?.({ type: COLLECTED, id, metrics } satisfies Collected, () => {}));
    }
  });
  return async () => {
    const answer = await ask({ type: ASK } satisfies Omit<Ask, 'id'>, SCRAPE_TIMEOUT_MS);
    if (answer !== undefined && !(answer instanceof Error) && answer.text !== undefined) return answer.text;
    const error = answer === undefined ? 'the primary did not answer' : answer instanceof Error ? answer.message : answer.error;
    throw new Error(`cluster metrics: ${error}`);
  };
}
