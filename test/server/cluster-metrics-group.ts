/**
 * A node:cluster group for cluster-metrics.test.ts: the primary runs src/observe/cluster-metrics.ts
 * as main.ts does, with four workers (each listening, as the gateway's do) whose counters add up to
 * 16. It puts the group through the cases below and prints what each scrape summed, as JSON.
 *
 *   node --import tsx test/server/cluster-metrics-group.ts
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:http';
import { Counter, Registry } from 'prom-client';
import { clusterScrape, serveClusterMetrics } from '../../src/observe/cluster-metrics.js';

type Message = { type: string; id?: number; mode?: string; text?: string };

if (cluster.isPrimary) {
  // The workers that listen, as main.ts's supervisor keeps them (a dead one is never asked). The
  // group starts once the primary has seen all four listen: a worker's own word that it listens
  // may reach the primary before node's, and a scrape then would leave that worker out.
  const serving = new Set<number>();
  const listening = new Promise<void>((resolve) =>
    cluster.on('listening', (worker) => {
      serving.add(worker.id);
      if (serving.size === 4) resolve();
    }),
  );
  serveClusterMetrics(serving);
  const [a, b, c, d] = [10, 5, 1, 0].map((count) => cluster.fork({ COUNT: String(count) })) as [Worker, Worker, Worker, Worker];
  await listening;
  let nextId = 0;
  const scraped = new Map<number, (sum: number) => void>();
  cluster.on('message', (_worker, m: Message) => {
    if (m.type === 'scraped') scraped.get(m.id!)?.(Number(/^c_total (\S+)$/m.exec(m.text ?? '')?.[1]));
  });
  /** What `worker`'s scrape of the group sums c_total to. */
  const scrapeVia = (worker: Worker) =>
    new Promise<number>((resolve) => {
      const id = ++nextId;
      scraped.set(id, resolve);
      worker.send({ type: 'scrape', id });
    });
  const mode = async (worker: Worker, name: string) => {
    worker.send({ type: 'mode', mode: name });
    await new Promise((resolve) => setTimeout(resolve, 100));
  };

  const baseline = await scrapeVia(c);
  // A answers the collection and exits while B is still busy: A's answer is also its retired copy.
  await mode(a, 'answer-then-exit');
  await mode(b, 'slow');
  const answeredThenExited = [await scrapeVia(c), await scrapeVia(c)];
  // B exits on the collection without answering: the scrape need not wait out the timeout.
  await mode(b, 'exit-on-collect');
  const started = Date.now();
  const exitedOnCollect = await scrapeVia(c);
  const exitedOnCollectMs = Date.now() - started;
  const concurrent = await Promise.all(Array.from({ length: 12 }, () => scrapeVia(c)));
  // D asks and is gone before the answer: replying to it must not stop the primary.
  d.send({ type: 'ask-then-exit' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const afterAsker = await scrapeVia(c);
  console.log(JSON.stringify({ baseline, answeredThenExited, exitedOnCollect, exitedOnCollectMs, concurrent, afterAsker }));
  for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
} else {
  const registry = new Registry();
  new Counter({ name: 'c_total', help: 'counted', registers: [registry] }).inc(Number(process.env.COUNT));
  let mode = '';
  // Added before clusterScrape's listener, so it sees the primary's collection first.
  process.on('message', (m: Message) => {
    if (m.type === 'mode') mode = m.mode ?? '';
    if (m.type !== 'satgate:metrics-collect') return;
    if (mode === 'answer-then-exit') setTimeout(() => process.exit(0), 50);
    if (mode === 'exit-on-collect') process.exit(0);
    if (mode === 'slow') for (const until = Date.now() + 400; Date.now() < until;);
  });
  const scrape = clusterScrape(registry);
  process.on('message', (m: Message) => {
    if (m.type === 'scrape') void scrape().then((text) => process.send?.({ type: 'scraped', id: m.id, text }));
    if (m.type === 'ask-then-exit') {
      scrape().catch(() => {});
      setImmediate(() => process.exit(0));
    }
  });
  createServer().listen(0, '127.0.0.1');
}
