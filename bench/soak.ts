/**
 * `npm run bench -- --soak`: a bounded run (BENCH_SOAK_SECONDS, default 60) of mixed GraphQL and
 * REST load on one gateway (CACHE_TTL_MS=1000, STALE_IF_ERROR_MS=300000) while the sample upstream
 * fails ~5% of its requests (503s and connection resets) and goes fully down for ~3 s every ~15 s.
 * Every answer is classified data / stale / error / dropped; the gateway's RSS is sampled.
 */
import { cpus } from 'node:os';
import { Pool } from 'undici';
import { cpuMicros, rssMiB, startGateway, startSample, stderrCheck } from './lib/procs.js';
import {
  ETCHINGS_60,
  EVERYTHING,
  REST_ETCHINGS,
  REST_STATUS,
  REST_TRANSFERS,
  TICKERS,
  TICKERS_5,
  TRANSFERS_60,
  aliasedBrc20Query,
  brc20Query,
  graphqlBody,
  restToken,
} from './lib/queries.js';
import { fmt, writeResults } from './lib/report.js';

const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS?.trim() || 60) || 60;
const CONNECTIONS = Math.min(50, Math.max(20, Number(process.env.BENCH_SOAK_CONNECTIONS?.trim() || 32) || 32));
const ERROR_RATE = 0.05;
const OUTAGE_EVERY_S = 15;
const OUTAGE_FIRST_S = 10;
const OUTAGE_LENGTH_S = 3;
/** A request with no complete answer by then is dropped (the gateway's own upstream deadline is 10 s). */
const CLIENT_TIMEOUT_MS = 15_000;

type Outcome = 'data' | 'stale' | 'error' | 'dropped';
type Counts = Record<Outcome, number>;
const zero = (): Counts => ({ data: 0, stale: 0, error: 0, dropped: 0 });

interface Spec {
  protocol: 'GraphQL' | 'REST';
  name: string;
  path: string;
  body?: string;
}

const TEN = TICKERS.slice(0, 10);
const GRAPHQL_SPECS: Spec[] = [
  ...TEN.map((t) => ({ protocol: 'GraphQL' as const, name: `brc20Token ${t}`, path: '/graphql', body: graphqlBody(brc20Query(t)) })),
  { protocol: 'GraphQL', name: '20 aliases', path: '/graphql', body: graphqlBody(aliasedBrc20Query(TICKERS_5)) },
  { protocol: 'GraphQL', name: 'etchings 60', path: '/graphql', body: graphqlBody(ETCHINGS_60) },
  { protocol: 'GraphQL', name: 'transfers 60', path: '/graphql', body: graphqlBody(TRANSFERS_60) },
  { protocol: 'GraphQL', name: 'everything', path: '/graphql', body: graphqlBody(EVERYTHING) },
];
const REST_SPECS: Spec[] = [
  ...TEN.map((t) => ({ protocol: 'REST' as const, name: `token ${t}`, path: restToken(t) })),
  { protocol: 'REST', name: 'transfers', path: REST_TRANSFERS },
  { protocol: 'REST', name: 'etchings', path: REST_ETCHINGS },
  { protocol: 'REST', name: 'status', path: REST_STATUS },
];

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;

interface GraphQLAnswer {
  data?: unknown;
  errors?: Array<{ extensions?: { code?: string } }>;
  extensions?: Record<string, unknown>;
}

function classifyGraphQL(status: number, text: string): { outcome: Outcome; reason?: string } {
  let body: GraphQLAnswer;
  try {
    body = JSON.parse(text) as GraphQLAnswer;
  } catch {
    return { outcome: 'error', reason: `GraphQL HTTP ${status} (not JSON)` };
  }
  if (body.extensions?.stale) return { outcome: 'stale' };
  if (body.errors?.length) return { outcome: 'error', reason: `GraphQL ${body.errors[0]?.extensions?.code ?? 'error'}` };
  if (status < 200 || status >= 300) return { outcome: 'error', reason: `GraphQL HTTP ${status}` };
  if (body.extensions && /stale/i.test(JSON.stringify(body.extensions))) return { outcome: 'stale' };
  return { outcome: 'data' };
}

function classifyRest(status: number, headers: Record<string, string | string[] | undefined>): { outcome: Outcome; reason?: string } {
  if ((status >= 200 && status < 300) || status === 304) {
    return headers.warning !== undefined || headers.age !== undefined ? { outcome: 'stale' } : { outcome: 'data' };
  }
  return { outcome: 'error', reason: `REST ${status}` };
}

export async function runSoak({ onStopping }: { onStopping: () => void }): Promise<void> {
  const startedAt = new Date().toISOString();
  console.error(
    `soak: ${SOAK_SECONDS} s, ${CONNECTIONS} connections, ~${ERROR_RATE * 100}% upstream faults, ` +
      `${OUTAGE_LENGTH_S} s outage every ${OUTAGE_EVERY_S} s from t=${OUTAGE_FIRST_S} s`,
  );
  const sample = await startSample(Number(process.env.BENCH_UPSTREAM_DELAY_MS?.trim() || 0) || 0);
  const gateway = await startGateway(sample.url, { CACHE_TTL_MS: '1000', STALE_IF_ERROR_MS: '300000' });
  let gatewayDied: string | undefined;
  gateway.child.once('exit', (code, signal) => {
    gatewayDied = `gateway exited (${code ?? signal}) during the soak:\n${gateway.tail().join('\n')}`;
  });

  const rssStart = rssMiB(gateway.pid);
  let rssMax = rssStart;
  const cpuStart = cpuMicros(gateway.pid);
  const upstreamStart = await sample.count();
  const counts = { GraphQL: zero(), REST: zero(), outage: zero(), normal: zero() };
  const reasons: Record<string, number> = {};
  const dropReasons: Record<string, number> = {};
  const outages: Array<{ kind: 'status' | 'reset'; fromS: number; toS: number }> = [];
  let inOutage = false;

  const client = new Pool(gateway.url, {
    connections: CONNECTIONS,
    pipelining: 1,
    headersTimeout: CLIENT_TIMEOUT_MS,
    bodyTimeout: CLIENT_TIMEOUT_MS,
  });
  const t0 = Date.now();
  const deadline = t0 + SOAK_SECONDS * 1000;
  const elapsedS = () => (Date.now() - t0) / 1000;

  await sample.setChaos(ERROR_RATE);
  const timers: NodeJS.Timeout[] = [];
  for (let at = OUTAGE_FIRST_S, n = 0; at + OUTAGE_LENGTH_S <= SOAK_SECONDS; at += OUTAGE_EVERY_S, n++) {
    const kind = n % 2 === 0 ? 'status' : 'reset';
    timers.push(
      setTimeout(() => {
        inOutage = true;
        outages.push({ kind, fromS: elapsedS(), toS: NaN });
        void sample.setOutage(kind).catch(() => {});
      }, at * 1000),
      setTimeout(
        () => {
          void sample.setOutage(null).then(
            () => {
              inOutage = false;
              const last = outages.at(-1);
              if (last) last.toS = elapsedS();
            },
            () => {},
          );
        },
        (at + OUTAGE_LENGTH_S) * 1000,
      ),
    );
  }
  const sampler = setInterval(() => {
    try {
      rssMax = Math.max(rssMax, rssMiB(gateway.pid));
    } catch {
      // exited: reported below
    }
  }, 1000);
  const progress = setInterval(() => {
    const all = sum(counts.GraphQL, counts.REST);
    console.error(
      `  t=${fmt(elapsedS(), 0)} s: data ${all.data}, stale ${all.stale}, error ${all.error}, dropped ${all.dropped}` +
        (inOutage ? ' (outage)' : ''),
    );
  }, 5000);

  const record = (spec: Spec, outcome: Outcome, reason?: string) => {
    counts[spec.protocol][outcome]++;
    counts[inOutage ? 'outage' : 'normal'][outcome]++;
    if (reason) reasons[reason] = (reasons[reason] ?? 0) + 1;
  };

  async function worker(): Promise<void> {
    while (Date.now() < deadline && !gatewayDied) {
      const spec = Math.random() < 0.5 ? pick(GRAPHQL_SPECS) : pick(REST_SPECS);
      try {
        const response = await client.request({
          method: spec.body ? 'POST' : 'GET',
          path: spec.path,
          headers: spec.body ? { 'content-type': 'application/json', accept: 'application/json' } : {},
          body: spec.body,
        });
        const text = await response.body.text();
        const { outcome, reason } =
          spec.protocol === 'GraphQL' ? classifyGraphQL(response.statusCode, text) : classifyRest(response.statusCode, response.headers);
        record(spec, outcome, reason);
      } catch (error) {
        const code = (error as { code?: string }).code ?? (error as Error).name;
        dropReasons[code] = (dropReasons[code] ?? 0) + 1;
        record(spec, 'dropped');
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, () => worker()));
  } finally {
    timers.forEach(clearTimeout);
    clearInterval(sampler);
    clearInterval(progress);
    await client.close().catch(() => {});
  }
  const seconds = elapsedS();
  if (gatewayDied) throw new Error(gatewayDied);
  await sample.setChaos(0);
  await sample.setOutage(null);
  const rssEnd = rssMiB(gateway.pid);
  rssMax = Math.max(rssMax, rssEnd);
  const all = sum(counts.GraphQL, counts.REST);
  const total = all.data + all.stale + all.error + all.dropped;
  const cpuUs = (cpuMicros(gateway.pid) - cpuStart) / Math.max(total, 1);
  const upstreamCalls = (await sample.count()) - upstreamStart;
  const faultsArmed = await sample.injected();
  onStopping();

  const line = (name: string, c: Counts) => {
    const n = c.data + c.stale + c.error + c.dropped;
    return `| ${name} | ${c.data} | ${c.stale} | ${c.error} | ${c.dropped} | ${n} |`;
  };
  const out: string[] = [];
  out.push(`## satgate soak — ${startedAt}`);
  out.push('');
  out.push(
    `${fmt(seconds, 1)} s, ${CONNECTIONS} connections, ${fmt(total / seconds, 0)} req/s, gateway CPU ${fmt(cpuUs, 0)} µs/req, ` +
      `${upstreamCalls} upstream calls, ~${faultsArmed} one-shot upstream faults armed (503/reset), ` +
      `outages: ${outages.map((o) => `${o.kind === 'status' ? '503' : 'reset'} ${fmt(o.fromS, 1)}–${fmt(o.toS, 1)} s`).join(', ') || 'none'}.`,
  );
  out.push('');
  out.push('| answers | data | stale | error | dropped | total |');
  out.push('|---|---|---|---|---|---|');
  out.push(line('GraphQL', counts.GraphQL));
  out.push(line('REST', counts.REST));
  out.push(line('**all**', all));
  out.push(line('  during outages', counts.outage));
  out.push(line('  outside outages', counts.normal));
  out.push('');
  out.push('| gateway RSS (MiB) | start | end | max sampled |');
  out.push('|---|---|---|---|');
  out.push(`| VmRSS | ${fmt(rssStart, 1)} | ${fmt(rssEnd, 1)} | ${fmt(rssMax, 1)} |`);
  out.push('');
  const top = Object.entries(reasons)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  if (top.length) out.push(`Errors by kind: ${top.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  if (all.dropped)
    out.push(
      `**Dropped (must be 0): ${Object.entries(dropReasons)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ')}**`,
    );
  out.push(`- **${all.dropped === 0 ? 'PASS' : 'MISS'}** dropped answers = 0: ${all.dropped}`);
  const quiet = stderrCheck([gateway]);
  out.push(`- **${quiet.pass ? 'PASS' : 'MISS'}** ${quiet.target}: ${quiet.measured}`);

  const file = writeResults(
    {
      kind: 'soak',
      startedAt,
      finishedAt: new Date().toISOString(),
      settings: {
        seconds: SOAK_SECONDS,
        connections: CONNECTIONS,
        errorRate: ERROR_RATE,
        outageEverySeconds: OUTAGE_EVERY_S,
        outageLengthSeconds: OUTAGE_LENGTH_S,
        gatewayEnv: { CACHE_TTL_MS: '1000', STALE_IF_ERROR_MS: '300000' },
        node: process.version,
        cpus: cpus().length,
      },
      durationSeconds: seconds,
      requestsPerSecond: total / seconds,
      counts: { ...counts, all },
      errorsByKind: reasons,
      droppedByCode: dropReasons,
      outages,
      upstreamCalls,
      upstreamFaultsArmed: faultsArmed,
      gatewayCpuUsPerRequest: cpuUs,
      rssMiB: { start: rssStart, end: rssEnd, max: rssMax },
    },
    '-soak',
  );
  out.push('');
  out.push(`Results: ${file}`);
  console.log(out.join('\n'));
}

function sum(a: Counts, b: Counts): Counts {
  return { data: a.data + b.data, stale: a.stale + b.stale, error: a.error + b.error, dropped: a.dropped + b.dropped };
}
