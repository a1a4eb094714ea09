/**
 * /metrics for a node:cluster group (WORKERS > 1). The primary does not serve HTTP: the worker that
 * receives a scrape asks the primary over IPC, the primary collects every worker's registry with
 * prom-client's AggregatorRegistry (counters and histograms summed, gauges as each declares) and
 * answers that worker.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'satgate:metrics-ask';
const ANSWER = 'satgate:metrics-answer';
/** prom-client gives up on a silent worker after 5 s; a scrape waits a little longer than that. */
const SCRAPE_TIMEOUT_MS = 6_000;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answers the workers' scrapes with the whole group's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...answer } satisfies Answer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/** In a worker: its registry answers the primary's collection, and a scrape asks the primary. */
export function clusterScrape(registry: Registry): () => Promise<string> {
  // Constructing one installs prom-client's worker-side listener, which serves `registry`.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  process.on('message', (message: Partial<Answer>) => {
    if (message?.type === ANSWER && typeof message.id === 'number') waiting.get(message.id)?.(message as Answer);
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
