/**
 * `npm run bench -- --abuse`: does hostile traffic hurt anyone else? One gateway (warm cache) over the
 * sample upstream; normal clients send a fixed rate of ordinary GraphQL and REST requests, first
 * alone, then beside hostile clients:
 * - the request mix: fragment bombs, alias and directive floods, oversized and malformed bodies,
 *   deeply nested variables, lone surrogates, bad escapes, unsafe platform keys, prototype names,
 *   cache-busting tickers, many identical bitcoinNode fields;
 * - slow-header connections;
 * - graphql-jit's marker literals in every literal position, over POST and GET, each document
 *   twice so that its shape is compiled, with a payload that would write a file if it ran
 *   (bench/lib/hostile-http.ts);
 * - Host headers that are no authority, on raw sockets (bench/lib/hostile-http.ts);
 * - subscription churn over many tickers, and one client grabbing every WebSocket and subscription
 *   slot it can (bench/lib/live-attack.ts).
 * Reported: the normal requests' p99 in both phases (must stay within 2×; a third, calm phase after
 * the attack shows the machine's own drift over the run and is not judged), dropped normal answers
 * (must be 0), every hostile answer by class (each must be one its class expects), whether any
 * marker ran, what the slot grabber held, and the gateway's RSS peak.
 *
 * The gateway trusts one proxy (TRUST_PROXY=1) and each client sends its own X-Forwarded-For: the
 * normal clients are one client, each hostile class another, as they would be in production. Were
 * they all 127.0.0.1, the per-client limits (upstream calls, subscriptions, WebSockets) would
 * charge the attackers' use to the normal clients, and the comparison would say nothing.
 *
 * The normal load is open-loop at a fixed rate (BENCH_ABUSE_RPS, default 200) rather than a closed
 * loop at saturation: at saturation any extra work shows up as queueing, whatever the gateway does.
 * Each phase starts with a warm-up that is not measured (WARMUP_SECONDS): it opens the connections
 * and fills the cache in both phases, and under attack it runs beside the hostile clients, so that
 * what is measured is the steady state, not V8 compiling the hostile code paths on first sight.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, Pool } from 'undici';
import {
  cpuMicros,
  forkTs,
  idleSeconds,
  pinCpus,
  rssMiB,
  startGateway,
  startSample,
  waitForMessage,
  type CpuPlacement,
} from './lib/procs.js';
import { ETCHINGS_60, REST_ETCHINGS, TICKERS, aliasedBrc20Query, brc20Query, graphqlBody, restToken } from './lib/queries.js';
import { percentile } from './lib/load.js';
import { fmt, writeResults } from './lib/report.js';
import { MARKER_FILE, VICTIM_TARGET, type HttpSpec } from './lib/hostile-http.js';
import { STATUS_SUBSCRIPTION, tokenSubscription, type ChurnOptions, type SlotOptions, type SlotsHeld } from './lib/live-attack.js';
import { sumMetric } from './lib/prometheus.js';
import { firstAnswer, sseSubscribe } from './lib/subscribe.js';
import { tallyTable, unexpectedCount, type Tally } from './lib/tally.js';
import { SAMPLE_PLATFORM_KEY } from '../src/sample/server.js';

export const PHASE_SECONDS = Number(process.env.BENCH_ABUSE_SECONDS?.trim() || 15) || 15;
const NORMAL_RPS = Number(process.env.BENCH_ABUSE_RPS?.trim() || 200) || 200;
export const HOSTILE_RPS = Number(process.env.BENCH_ABUSE_HOSTILE_RPS?.trim() || 50) || 50;
/** Marker-literal requests and hostile-Host requests a second, beside the request mix. */
export const MARKER_RPS = 20;
export const HOST_RPS = 20;
export const SLOW_CONNECTIONS = 50;

const CLASSES = ['mix', 'slow', 'markers', 'host', 'churn', 'slots'] as const;
export type AbuseClass = (typeof CLASSES)[number];
/** BENCH_ABUSE_ONLY=churn,slots runs only those hostile classes (to find which one costs what); default all. */
export const ABUSE_CLASSES: AbuseClass[] = (() => {
  const only = (process.env.BENCH_ABUSE_ONLY ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !(CLASSES as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`BENCH_ABUSE_ONLY: unknown class ${unknown.join(', ')} (known: ${CLASSES.join(', ')})`);
  return only.length ? (only as AbuseClass[]) : [...CLASSES];
})();
export const CLIENT_TIMEOUT_MS = 15_000;
export const WARMUP_SECONDS = 2;
/** Between the attack's end and the calm phase after it. */
const DRIFT_SETTLE_MS = 3000;

/** Who each client is (X-Forwarded-For, documentation ranges of RFC 5737). */
export const CLIENTS = {
  normal: '192.0.2.10',
  mix: '203.0.113.1',
  markers: '203.0.113.2',
  host: '203.0.113.3',
  churn: '203.0.113.4',
  slots: '203.0.113.5',
} as const;

/**
 * The gateway's per-client and live settings, given explicitly so the attackers can be sized past
 * them and the report can judge against them (these are the defaults without HIRO_API_KEY, but
 * CLIENT_UPSTREAM_CALLS_PER_MINUTE: the sample advertises no rate limit, so the default fair share
 * would be no limit at all).
 */
export const LIMITS = {
  clientUpstreamCallsPerMinute: 300,
  liveRateLimitPerMinute: 50,
  liveQuotaShare: 0.2,
  maxSubscriptionsPerClient: 100,
  maxWatchedResourcesPerClient: 50,
  maxWebSocketsPerClient: 20,
  subscriptionStartsPerClientPerMinute: 60,
};

/**
 * Five churn workers past the watched-resources cap, ten of them over graphql-ws; each holds a
 * subscription for at most 2.5 s: about 22 new subscriptions a second.
 */
export const CHURN: ChurnOptions = { sseWorkers: LIMITS.maxWatchedResourcesPerClient - 5, wsWorkers: 10, cycleMs: 2500 };
/** Past both caps: 25 sockets × 3 subscriptions and 60 SSE subscriptions, for 20 sockets and 100 subscriptions. */
export const SLOTS: SlotOptions = { sockets: LIMITS.maxWebSocketsPerClient + 5, perSocket: 3, sse: 60, settleMs: 3000 };

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const gql = (query: string): HttpSpec => ({
  method: 'POST',
  path: '/graphql',
  body: JSON.stringify({ query }),
  headers: JSON_HEADERS,
});

const NORMAL_HEADERS = { 'x-forwarded-for': CLIENTS.normal };
const NORMAL: HttpSpec[] = [
  { method: 'POST', path: '/graphql', body: graphqlBody(brc20Query('ordi')), headers: { ...JSON_HEADERS, ...NORMAL_HEADERS } },
  {
    method: 'POST',
    path: '/graphql',
    body: graphqlBody(aliasedBrc20Query(TICKERS.slice(0, 5))),
    headers: { ...JSON_HEADERS, ...NORMAL_HEADERS },
  },
  { method: 'POST', path: '/graphql', body: graphqlBody(ETCHINGS_60), headers: { ...JSON_HEADERS, ...NORMAL_HEADERS } },
  { method: 'GET', path: restToken('ordi'), headers: NORMAL_HEADERS },
  { method: 'GET', path: REST_ETCHINGS, headers: NORMAL_HEADERS },
];

/** Fragments that each spread the next one twice: 2^depth expansions for a naive walk. */
function fragmentBomb(depth: number, leaf = 'status { status }'): string {
  const fragments = Array.from({ length: depth }, (_, i) =>
    i === depth - 1 ? `fragment F${i} on Query { ${leaf} }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
  );
  return `query Bomb { ...F0 }\n${fragments.join('\n')}`;
}

/** A request body whose variable `t` is `depth` nested lists (built as text: JSON.stringify recurses). */
function nestedVariable(depth: number): HttpSpec {
  const query = 'query ($t: String!) { brc20Token(ticker: $t) { token { ticker } } }';
  const body = `{"query":${JSON.stringify(query)},"variables":{"t":${'['.repeat(depth)}"x"${']'.repeat(depth)}}}`;
  return { method: 'POST', path: '/graphql', body, headers: JSON_HEADERS };
}

/** A mix request, and its expected answer when that is not simply any answer below 500. */
export type MixSpec = HttpSpec & { judge?: (status: number, body: string) => string | undefined };

/** docs/rest.md: an infinite limit gets the real upstream's own 500 (Postgres on runes' bigint offset), answered locally. */
const INFINITE_LIMIT = JSON.stringify({
  statusCode: 500,
  code: '22P02',
  error: 'Internal Server Error',
  message: 'invalid input syntax for type bigint: "Infinity"',
});

let bust = 0;
// Built once (the load generator must not be what slows the machine), but for the cache-busting ones.
const once = (spec: MixSpec) => () => spec;
/** The request mix: each must be answered, and never with a 5xx but the one docs/rest.md documents. */
export const HOSTILE: Array<() => MixSpec> = [
  once(gql(fragmentBomb(30))),
  once(gql(fragmentBomb(20, 'a: status { status } b: status { status } c: etchings(limit: 60) { total }'))),
  once(gql(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: status { status }`).join(' ')} }`)),
  once(gql(`{ status ${'@include(if: true) '.repeat(3000)} { status } }`)),
  once(gql(`{ ${'status { chainTip { '.repeat(400)}blockHeight${' } }'.repeat(400)} }`)),
  once(nestedVariable(5000)),
  once(gql('{ brc20Token(ticker: "\ud800") { token { ticker } } }')),
  once(gql(`{ status { status } } # ${'x'.repeat(95_000)}`)),
  once({
    method: 'POST',
    path: '/graphql',
    body: `{"query": "{ status { status } }", "x-api-key": "${SAMPLE_PLATFORM_KEY}"`,
    headers: JSON_HEADERS,
  }),
  once(
    gql(
      `{ ${Array.from({ length: 25 }, (_, i) => `n${i}: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}")`).join(' ')} }`,
    ),
  ),
  once(gql(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "a\\r\\nb/../..") }`)),
  () => gql(`{ brc20Token(ticker: "nosuch${bust++}") { token { ticker } } }`),
  () => ({ method: 'GET', path: restToken(`nosuch${bust++}`) }),
  once({ method: 'GET', path: '/ordinals/v1/brc-20/tokens/%E0%A4%A' }),
  once({ method: 'GET', path: '/graphiql/constructor' }),
  once({ method: 'GET', path: '/graphiql/__proto__' }),
  once({ method: 'GET', path: `/v1/ext/a%0d%0ab%2f..%2f/bitcoin-node/x` }),
  once({ method: 'DELETE', path: `/v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/not-a-uuid%2f..` }),
  once({
    method: 'GET',
    path: '/runes/v1/etchings?limit=1e400&offset=-0',
    judge: (status, body) => (status === 500 && body === INFINITE_LIMIT ? '500 Infinity (upstream parity)' : undefined),
  }),
];

/**
 * Calls `fire(i)` `rate` times a second, open-loop, for `seconds`, and waits for what they started.
 * Answers the number fired.
 */
export async function openLoop(rate: number, seconds: number, fire: (i: number) => Promise<void>): Promise<number> {
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let sent = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = started + sent * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(fire(sent++));
  }
  // A frozen gateway must not freeze the bench: past the client timeout, what is left counts as dropped.
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, CLIENT_TIMEOUT_MS + 1000).unref())]);
  return sent;
}

/** Holds connections open by sending one header byte a second, as a slowloris client does. */
export function slowClients(url: URL, count: number): () => void {
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => {});
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    timers.push(setInterval(() => socket.write('X'), 1000));
    sockets.push(socket);
  }
  return () => {
    timers.forEach(clearInterval);
    sockets.forEach((s) => s.destroy());
  };
}

/** What the attacker process reports at the end. */
export interface AttackReport {
  sent: number;
  /** From 'started' to the end. */
  seconds: number;
  /** The attacker process's own CPU time over those seconds: on a small machine it competes with the gateway. */
  cpuSeconds: number;
  tally: Tally;
  slotsHeld: SlotsHeld;
}

/** The normal client's own subscriptions during the attack: the first answer of each, and when it came. */
interface NormalSubscriptions {
  status: { answer: string; ms: number | undefined };
  freshToken: { answer: string; ms: number | undefined };
}

interface PhaseResult {
  sent: number;
  answered: number;
  dropped: number;
  non2xx: number;
  p50: number;
  p99: number;
  /** p99 of the warm-up (not checked): under attack, V8 meeting the hostile code paths for the first time. */
  warmupP99: number;
  attack: AttackReport | undefined;
  subscriptions: NormalSubscriptions | undefined;
  /** Wall-clock seconds from the first scrape of /metrics to the last. */
  seconds: number;
  /** The gateway's CPU from the warm-up (the attack's start) to the end, as a share of one core. */
  gatewayCpuPercent: number;
  /** Over the same span: the share of the machine's CPUs left idle, and the 1-minute load average at the end. */
  machineIdlePercent: number | undefined;
  loadAverage: number;
  /** From the gateway's /metrics, over the phase and its warm-up. */
  livePolls: number;
  executions: { compiled: number; fallback: number };
}

async function scrape(gatewayUrl: string): Promise<{ livePolls: number; compiled: number; fallback: number }> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  return {
    // Polls that went upstream (`paused` ones did not).
    livePolls: sumMetric(text, 'satgate_live_polls_total', { outcome: ['changed', 'unchanged', 'error'] }),
    compiled: sumMetric(text, 'satgate_graphql_executions_total', { engine: 'compiled' }),
    fallback: sumMetric(text, 'satgate_graphql_executions_total', { engine: 'fallback' }),
  };
}

/**
 * Subscribes as the normal client to the status (a resource the slot grabber watches: answered at
 * once) and to a token nobody else watches (a new poll, which waits its turn in the polling plan).
 */
function subscribeAsNormal(gatewayUrl: string) {
  const agent = new Agent({ connections: 4 });
  const started = performance.now();
  const watch = (query: string) => {
    const w = sseSubscribe(gatewayUrl, query, CLIENTS.normal, agent);
    const at = { ms: undefined as number | undefined };
    void w.first.then(() => (at.ms = performance.now() - started));
    return { w, at };
  };
  const status = watch(STATUS_SUBSCRIPTION);
  const token = watch(tokenSubscription('ordi'));
  return async (): Promise<NormalSubscriptions> => {
    const result = {
      status: { answer: firstAnswer(status.w), ms: status.at.ms },
      freshToken: { answer: firstAnswer(token.w), ms: token.at.ms },
    };
    status.w.stop();
    token.w.stop();
    await agent.destroy();
    return result;
  };
}

async function phase(gatewayUrl: string, pid: number, hostile: boolean, rss: { max: number }, markerDir: string): Promise<PhaseResult> {
  const normalPool = new Pool(gatewayUrl, {
    connections: 32,
    pipelining: 1,
    headersTimeout: CLIENT_TIMEOUT_MS,
    bodyTimeout: CLIENT_TIMEOUT_MS,
  });
  const latencies: number[] = [];
  let non2xx = 0;
  const sampler = setInterval(() => {
    try {
      rss.max = Math.max(rss.max, rssMiB(pid));
    } catch {
      // exited: the phase's drops say so
    }
  }, 250);
  const before = await scrape(gatewayUrl);
  const startedAt = performance.now();
  // The hostile clients run in a process of their own, as real ones would: handling their answers
  // must not delay the normal clients' event loop, which times the normal answers.
  const attacker = hostile ? runAttacker(gatewayUrl, markerDir) : undefined;
  await attacker?.started;
  const cpuFrom = { at: performance.now(), micros: cpuMicros(pid), idle: idleSeconds() };
  const normalRequest = (onAnswer: (ms: number, status: number) => void, onDrop: () => void) => (i: number) => {
    const spec = NORMAL[i % NORMAL.length]!;
    const t0 = performance.now();
    return normalPool
      .request({ method: spec.method, path: spec.path, headers: spec.headers, body: spec.body })
      .then(async (response) => {
        await response.body.dump();
        onAnswer(performance.now() - t0, response.statusCode);
      })
      .catch(onDrop);
  };
  // Warm-up (excluded): opens the connections and fills the cache, beside the attack's first seconds.
  const warmup: number[] = [];
  await openLoop(
    NORMAL_RPS,
    WARMUP_SECONDS,
    normalRequest(
      (ms) => warmup.push(ms),
      () => warmup.push(Infinity),
    ),
  );
  const attack = attacker?.done ?? Promise.resolve(undefined);
  const subscriptions = hostile ? subscribeAsNormal(gatewayUrl) : undefined;
  const normal = openLoop(
    NORMAL_RPS,
    PHASE_SECONDS,
    normalRequest(
      (ms, status) => {
        latencies.push(ms);
        if (status < 200 || status >= 300) non2xx++;
      },
      () => {},
    ),
  );
  const sent = await normal;
  const normalSubscriptions = await subscriptions?.();
  const report = await attack;
  clearInterval(sampler);
  await normalPool.destroy();
  const after = await scrape(gatewayUrl);
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuSpanMs = performance.now() - cpuFrom.at;
  const gatewayCpuPercent = ((cpuMicros(pid) - cpuFrom.micros) / (cpuSpanMs * 1000)) * 100;
  const idleNow = idleSeconds();
  const machineIdlePercent =
    idleNow === undefined || cpuFrom.idle === undefined
      ? undefined
      : ((idleNow - cpuFrom.idle) / ((cpuSpanMs / 1000) * cpus().length)) * 100;
  const answered = latencies.length;
  // An unanswered request counts as infinitely slow, so drops can never improve a percentile.
  for (let i = latencies.length; i < sent; i++) latencies.push(Infinity);
  latencies.sort((a, b) => a - b);
  return {
    sent,
    answered,
    // Failed or still unanswered past the client timeout.
    dropped: sent - answered,
    non2xx,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    warmupP99: percentile(
      warmup.sort((a, b) => a - b),
      0.99,
    ),
    attack: report,
    subscriptions: normalSubscriptions,
    seconds,
    gatewayCpuPercent,
    machineIdlePercent,
    loadAverage: loadavg()[0]!,
    livePolls: after.livePolls - before.livePolls,
    executions: { compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback },
  };
}

/**
 * Where the attacker runs. In production it is someone else's machine: here it shares the load
 * CPU with the normal clients, which time their own answers, so it runs at the lowest priority.
 * Otherwise the normal clients' p99 measured the attacker's CPU competing with their own event
 * loop, not what the gateway does to them. The gateway still gets the hostile requests: the
 * attacker waits only while the normal clients need the CPU.
 */
function placeAttacker(pid: number | undefined): void {
  if (pid === undefined) return;
  placement?.place(pid, 'load');
  setPriority(pid, 19);
}

let placement: CpuPlacement | undefined;

/** Runs bench/abuse-attacker.ts for a warm-up and one phase: when it started, and its report. */
function runAttacker(gatewayUrl: string, markerDir: string): { started: Promise<unknown>; done: Promise<AttackReport> } {
  const child = forkTs('abuse-attacker.ts', { ABUSE_TARGET: gatewayUrl, ABUSE_MARKER_DIR: markerDir });
  placeAttacker(child.pid);
  const ofType =
    <T>(type: string) =>
    (m: unknown) =>
      (m as { type?: string }).type === type ? (m as T) : undefined;
  return {
    // Slot grabbing takes its slots before it reports started.
    started: waitForMessage(child, ofType('started'), 'abuse attacker start', 60_000),
    done: waitForMessage(
      child,
      ofType<AttackReport & { type: 'done' }>('done'),
      'abuse attacker',
      (WARMUP_SECONDS + PHASE_SECONDS + 60) * 1000,
    ),
  };
}

/** What the browser's document answers after the attack: its own result, not a smuggled one's. */
async function victimTicker(gatewayUrl: string): Promise<unknown> {
  const response = await fetch(`${gatewayUrl}${VICTIM_TARGET}`, {
    headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1', ...NORMAL_HEADERS },
  });
  const body = (await response.json()) as { data?: { brc20Token?: { token?: { ticker?: string } } } };
  return body.data?.brc20Token?.token?.ticker;
}

export async function runAbuse(): Promise<void> {
  const startedAt = new Date().toISOString();
  console.error(
    `abuse: ${PHASE_SECONDS} s per phase, normal ${NORMAL_RPS} req/s; hostile: mix ${HOSTILE_RPS} req/s, markers ${MARKER_RPS} req/s, ` +
      `bad Host ${HOST_RPS} req/s, ${SLOW_CONNECTIONS} slow-header connections, ${CHURN.sseWorkers + CHURN.wsWorkers} churn workers, slot grabbing`,
  );
  // A marker payload that ran would write a file here.
  const markerDir = mkdtempSync(join(tmpdir(), 'satgate-abuse-'));
  const sample = await startSample(0);
  const gateway = await startGateway(sample.url, {
    CACHE_TTL_MS: '600000',
    CACHE_NOT_FOUND_TTL_MS: '1000',
    TRUST_PROXY: '1',
    CLIENT_UPSTREAM_CALLS_PER_MINUTE: String(LIMITS.clientUpstreamCallsPerMinute),
    LIVE_RATE_LIMIT_PER_MINUTE: String(LIMITS.liveRateLimitPerMinute),
    LIVE_QUOTA_SHARE: String(LIMITS.liveQuotaShare),
    MAX_SUBSCRIPTIONS_PER_CLIENT: String(LIMITS.maxSubscriptionsPerClient),
    MAX_WATCHED_RESOURCES_PER_CLIENT: String(LIMITS.maxWatchedResourcesPerClient),
    MAX_WEBSOCKETS_PER_CLIENT: String(LIMITS.maxWebSocketsPerClient),
    SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE: String(LIMITS.subscriptionStartsPerClientPerMinute),
  });
  // As in the main run: the gateway alone on CPU 0, the normal clients and the sample on the others.
  placement = pinCpus([sample.pid]);
  placement.place(gateway.pid, 'server');
  console.error(`abuse: ${placement.description}; the attacker with the load, at the lowest priority`);
  const rss = { max: rssMiB(gateway.pid) };
  const rssStart = rss.max;
  // A gateway fresh from start spends its first seconds compiling: in the first calm phase the same
  // load cost twice the CPU it did later, with a p99 nearly twice as long. So one calm phase runs
  // unmeasured first, and the calm that is judged is a warm gateway's, as under attack.
  await phase(gateway.url, gateway.pid, false, rss, markerDir);
  const calm = await phase(gateway.url, gateway.pid, false, rss, markerDir);
  const attacked = await phase(gateway.url, gateway.pid, true, rss, markerDir);
  const markerRan = existsSync(join(markerDir, MARKER_FILE));
  rmSync(markerDir, { recursive: true, force: true });
  const victim = await victimTicker(gateway.url);
  // Not judged: the calm load once more, after the attacker has gone, to show how far the machine
  // itself drifted over the run (on a shared VM the same calm load has cost 13-25% of a core).
  await sleep(DRIFT_SETTLE_MS);
  const calmAfter = await phase(gateway.url, gateway.pid, false, rss, markerDir);
  const attack = attacked.attack!;
  const subscriptions = attacked.subscriptions!;
  const ratio = attacked.p99 / calm.p99;
  // The plan admits at most its capacity in any sliding minute.
  const planPolls = Math.floor(LIMITS.liveQuotaShare * LIMITS.liveRateLimitPerMinute) * Math.ceil(attacked.seconds / 60);
  const checks = [
    { name: 'normal p99 under attack ≤ 2× the calm p99', pass: ratio <= 2, value: `${fmt(ratio, 2)}×` },
    { name: 'dropped normal answers = 0', pass: calm.dropped + attacked.dropped === 0, value: String(calm.dropped + attacked.dropped) },
    { name: 'normal answers all 2xx', pass: calm.non2xx + attacked.non2xx === 0, value: String(calm.non2xx + attacked.non2xx) },
    {
      name: 'every hostile answer one its class expects',
      pass: unexpectedCount(attack.tally) === 0,
      value: `${unexpectedCount(attack.tally)} unexpected`,
    },
    { name: `no marker payload ran (${MARKER_FILE} not written)`, pass: !markerRan, value: markerRan ? 'written' : 'not written' },
    { name: "the browser's document answers its own result after the smuggling Hosts", pass: victim === 'ordi', value: String(victim) },
    {
      name: `slot grabber held ≤ ${LIMITS.maxSubscriptionsPerClient} subscriptions and ≤ ${LIMITS.maxWebSocketsPerClient} WebSockets`,
      pass: attack.slotsHeld.subscriptions <= LIMITS.maxSubscriptionsPerClient && attack.slotsHeld.sockets <= LIMITS.maxWebSocketsPerClient,
      value: `${attack.slotsHeld.subscriptions} subscriptions, ${attack.slotsHeld.sockets} WebSockets`,
    },
    {
      name: "a normal client's status subscription during the attack gets its first value",
      pass: subscriptions.status.answer === 'value',
      value: `${subscriptions.status.answer}${subscriptions.status.ms === undefined ? '' : ` after ${fmt(subscriptions.status.ms, 0)} ms`}`,
    },
    {
      name: `live polls during the attack (${fmt(attacked.seconds, 0)} s) ≤ the plan's ${planPolls}`,
      pass: attacked.livePolls <= planPolls,
      value: String(attacked.livePolls),
    },
    { name: 'gateway alive at the end', pass: gateway.child.exitCode === null, value: gateway.child.exitCode === null ? 'yes' : 'no' },
  ];
  const out: string[] = [];
  out.push(`## satgate abuse — ${startedAt}`, '');
  out.push(
    `| phase | normal sent | answered | dropped | non-2xx | p50 ms | p99 ms | warm-up p99 ms (first ${WARMUP_SECONDS} s, not checked) | hostile sent | gateway CPU | attacker CPU | machine idle (${cpus().length} CPUs) | load average |`,
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['calm', calm],
    ['under attack', attacked],
    ['calm again, after the attack (not judged)', calmAfter],
  ] as const) {
    const attackerCpu = r.attack ? `${fmt((r.attack.cpuSeconds / r.attack.seconds) * 100, 0)}%` : '–';
    out.push(
      `| ${name} | ${r.sent} | ${r.answered} | ${r.dropped} | ${r.non2xx} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.warmupP99, 2)} | ${r.attack?.sent ?? 0} | ` +
        `${fmt(r.gatewayCpuPercent, 0)}% | ${attackerCpu} | ${r.machineIdlePercent === undefined ? '–' : `${fmt(r.machineIdlePercent, 0)}%`} | ${fmt(r.loadAverage, 2)} |`,
    );
  }
  out.push('', '### Hostile answers by class', '', tallyTable(attack.tally), '');
  out.push(
    `The normal client's subscription to a token nobody else watched (a new poll, in the plan's queue behind the churn): ` +
      `${subscriptions.freshToken.answer}${subscriptions.freshToken.ms === undefined ? ` within the ${PHASE_SECONDS} s phase` : ` after ${fmt(subscriptions.freshToken.ms, 0)} ms`}.`,
  );
  out.push(
    `Executions (gateway /metrics): calm ${calm.executions.compiled} compiled, ${calm.executions.fallback} on graphql-js; ` +
      `under attack ${attacked.executions.compiled} compiled, ${attacked.executions.fallback} on graphql-js.`,
  );
  out.push(`Gateway RSS: ${fmt(rssStart, 1)} MiB at start, ${fmt(rss.max, 1)} MiB peak.`);
  out.push(
    `Drift over the run (not judged): the calm load's p99 was ${fmt(calm.p99, 2)} ms before the attack and ${fmt(calmAfter.p99, 2)} ms after it, ` +
      `at ${fmt(calm.gatewayCpuPercent, 0)}% and ${fmt(calmAfter.gatewayCpuPercent, 0)}% of the gateway's core.`,
    '',
  );
  for (const check of checks) out.push(`- **${check.pass ? 'PASS' : 'MISS'}** ${check.name}: ${check.value}`);
  const file = writeResults(
    {
      kind: 'abuse',
      startedAt,
      settings: {
        phaseSeconds: PHASE_SECONDS,
        normalRps: NORMAL_RPS,
        hostileRps: HOSTILE_RPS,
        markerRps: MARKER_RPS,
        hostRps: HOST_RPS,
        slowConnections: SLOW_CONNECTIONS,
        churn: CHURN,
        slots: SLOTS,
        limits: LIMITS,
        clients: CLIENTS,
      },
      calm,
      attacked,
      calmAfter,
      p99Ratio: ratio,
      markerRan,
      victim,
      rssMiB: { start: rssStart, peak: rss.max },
      checks,
    },
    '-abuse',
  );
  out.push('', `Results: ${file}`);
  console.log(out.join('\n'));
}
