/**
 * /metrics for a node:cluster group (WORKERS > 1). The primary does not serve HTTP: the worker that
 * receives a scrape asks the primary over IPC, the primary collects every worker's registry (over
 * IPC too, as JSON), sums them with prom-client's AggregatorRegistry and answers that worker.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

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
 */
export function serveClusterMetrics(): void {
  const last = new Map<number, MetricsJson>();
  /** Gone workers' counters and histograms; merged in the background (every later array starts with the same items). */
  let retired: MetricsJson[] = [];
  cluster.on('exit', (worker) => {
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
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...answer } satisfies Answer);
    };
    collect().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
  let nextId = 0;
  /** Every live worker's registry; a worker silent for COLLECT_TIMEOUT_MS counts as last collected. */
  async function collect(): Promise<string> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined && worker.isConnected());
    const collected = await Promise.all(
      workers.map(async (worker) => {
        const metrics = await collectFrom(worker!, ++nextId).catch(() => last.get(worker!.id));
        if (metrics) last.set(worker!.id, metrics);
        return metrics ?? [];
      }),
    );
    return AggregatorRegistry.aggregate([...collected, ...retired]).metrics();
  }
}

/** One worker's metrics, over IPC. */
function collectFrom(worker: Worker, id: number): Promise<MetricsJson> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(undefined), COLLECT_TIMEOUT_MS);
    function settle(metrics: MetricsJson | undefined) {
      clearTimeout(timer);
      worker.off('message', listen);
      if (metrics) resolve(metrics);
      else reject(new Error('the worker did not answer'));
    }
    function listen(message: Partial<Collected>) {
      if (message?.type === COLLECTED && message.id === id) settle(message.metrics ?? []);
    }
    worker.on('message', listen);
    worker.send({ type: COLLECT, id } satisfies Collect);
  });
}

/** In a worker: its registry answers the primary's collection, and a scrape asks the primary. */
export function clusterScrape(registry: Registry): () => Promise<string> {
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  process.on('message', (message: Partial<Answer | Collect>) => {
    if (message?.type === ANSWER && typeof message.id === 'number') waiting.get(message.id)?.(message as Answer);
    if (message?.type === COLLECT && typeof message.id === 'number') {
      const id = message.id;
      void registry.getMetricsAsJSON().then((metrics) => process.send?.({ type: COLLECTED, id, metrics } satisfies Collected));
    }
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => settle({ type: ANSWER, id, error: 'the primary did not answer' }), SCRAPE_TIMEOUT_MS);
      function settle(answer: Answer) {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`cluster metrics: ${answer.error}`));
      }
      waiting.set(id, settle);
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}
