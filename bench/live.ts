/**
 * The subscription row of `npm run bench`: 1,000 concurrent SSE subscribers of one token on one
 * gateway. Reports the gateway's RSS and CPU while idle, upstream polls per minute, and the time from
 * an upstream change (a mint in the sample) to the last subscriber's event (target: p99 ≤ poll
 * interval + 250 ms).
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { cpuMicros, rssMiB, startGateway, type SampleProcess } from './lib/procs.js';
import { fmt } from './lib/report.js';

export interface LiveResult {
  subscribers: number;
  intervalMs: number;
  rssMiB: number;
  idleCpuPercent: number;
  upstreamPollsPerMinute: number;
  changes: number;
  /** Per change: ms from the mint to each subscriber's event. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  missed: number;
  target: { text: string; pass: boolean };
}

const TICKER = 'bitai';
const QUERY = JSON.stringify({ query: `subscription { brc20Token(ticker: "${TICKER}") { token { txCount } } }` });

export async function runSubscribers(sample: SampleProcess, subscribers = 1000, intervalMs = 1000, changes = 5): Promise<LiveResult> {
  // Each subscriber is a client of its own (X-Forwarded-For through one trusted proxy), as 1,000
  // browsers are: from one address, MAX_SUBSCRIPTIONS_PER_CLIENT would refuse all but 100.
  const gateway = await startGateway(sample.url, {
    LIVE_POLL_INTERVAL_MS: String(intervalMs),
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    CACHE_TTL_MS: '0',
    TRUST_PROXY: '1',
  });
  const agent = new Agent({ connections: subscribers + 10, pipelining: 0 });
  /** Per subscriber: when each txCount arrived. */
  const arrivals = Array.from({ length: subscribers }, () => new Map<number, number>());
  const controller = new AbortController();
  // One signal ends every stream at the end.
  setMaxListeners(subscribers + 10, controller.signal);
  const streams = arrivals.map(async (seen, i) => {
    const response = await request(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` },
      body: QUERY,
      dispatcher: agent,
      signal: controller.signal,
    });
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          const txCount = data
            ? (JSON.parse(data) as { data?: { brc20Token?: { token: { txCount: number } } } }).data?.brc20Token?.token.txCount
            : undefined;
          if (txCount !== undefined) seen.set(txCount, performance.now());
        }
      }
    } catch {
      // aborted at the end
    }
  });
  const firstDeadline = Date.now() + 30_000;
  while (arrivals.some((a) => a.size === 0) && Date.now() < firstDeadline) await sleep(50);
  const connected = arrivals.filter((a) => a.size > 0).length;
  console.error(`  live: ${connected}/${subscribers} subscribers have their first event`);

  // Idle: nothing changes; the one poller asks every interval and gets 304s.
  await sleep(intervalMs);
  const idleSeconds = 10;
  const cpu0 = cpuMicros(gateway.pid);
  const count0 = await sample.count();
  await sleep(idleSeconds * 1000);
  const idleCpuPercent = ((cpuMicros(gateway.pid) - cpu0) / (idleSeconds * 1e6)) * 100;
  const upstreamPollsPerMinute = ((await sample.count()) - count0) * (60 / idleSeconds);
  const rss = rssMiB(gateway.pid);

  // Changes: mint, then wait for every subscriber's event with the new txCount.
  const delays: number[] = [];
  let missed = 0;
  let txCount = Math.max(...arrivals[0]!.keys());
  for (let i = 0; i < changes; i++) {
    txCount++;
    const minted = performance.now();
    await sample.activity({ mint: TICKER });
    const deadline = Date.now() + intervalMs * 3 + 5000;
    while (arrivals.some((a) => a.size > 0 && !a.has(txCount)) && Date.now() < deadline) await sleep(5);
    for (const seen of arrivals) {
      const at = seen.get(txCount);
      if (at === undefined) missed++;
      else delays.push(at - minted);
    }
    // A new change at a random point of the poll cycle.
    await sleep(Math.random() * intervalMs);
  }
  controller.abort();
  await Promise.allSettled(streams);
  await agent.close();
  gateway.child.kill('SIGTERM');

  delays.sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? NaN;
  const p99 = at(0.99);
  const result: LiveResult = {
    subscribers: connected,
    intervalMs,
    rssMiB: rss,
    idleCpuPercent,
    upstreamPollsPerMinute,
    changes,
    p50Ms: at(0.5),
    p99Ms: p99,
    maxMs: delays.at(-1) ?? NaN,
    missed,
    target: {
      text: `${subscribers} subscribers of one token: change → event p99 ≤ interval + 250 ms (${intervalMs + 250} ms)`,
      pass: p99 <= intervalMs + 250 && missed === 0 && connected === subscribers,
    },
  };
  console.error(
    `  live: RSS ${fmt(rss, 0)} MiB, idle CPU ${fmt(idleCpuPercent, 2)}%, ${fmt(upstreamPollsPerMinute, 0)} polls/min, ` +
      `change→event p50 ${fmt(result.p50Ms, 0)} ms p99 ${fmt(p99, 0)} ms, ${missed} missed`,
  );
  return result;
}

export function liveTable(r: LiveResult): string {
  return [
    '| subscribers | poll interval ms | gateway RSS MiB | idle CPU % | upstream polls/min | change → event p50 ms | p99 ms | max ms | missed |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${r.subscribers} | ${r.intervalMs} | ${fmt(r.rssMiB, 0)} | ${fmt(r.idleCpuPercent, 2)} | ${fmt(r.upstreamPollsPerMinute, 0)} | ${fmt(r.p50Ms, 0)} | ${fmt(r.p99Ms, 0)} | ${fmt(r.maxMs, 0)} | ${r.missed} |`,
  ].join('\n');
}
