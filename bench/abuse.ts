/**
 * `npm run bench -- --abuse`: does hostile traffic hurt anyone else? One gateway (warm cache) over the
 * sample upstream; normal clients send a fixed rate of ordinary GraphQL and REST requests, first
 * alone, then beside hostile clients (fragment bombs, alias and directive floods, oversized and
 * malformed bodies, deeply nested variables, lone surrogates, bad escapes, unsafe platform keys,
 * prototype names, cache-busting tickers, many identical bitcoinNode fields, and slow-header
 * connections). Reported: the normal requests' p99 in both phases (must stay within 2×), the
 * gateway's RSS peak, and dropped normal answers (must be 0).
 *
 * The normal load is open-loop at a fixed rate (BENCH_ABUSE_RPS, default 200) rather than a closed
 * loop at saturation: at saturation any extra work shows up as queueing, whatever the gateway does.
 * Each phase starts with a warm-up that is not measured (WARMUP_SECONDS): it opens the connections
 * and fills the cache in both phases, and under attack it runs beside the hostile clients, so that
 * what is measured is the steady state, not V8 compiling the hostile code paths on first sight.
 */
import { connect, type Socket } from 'node:net';
import { Pool } from 'undici';
import { forkTs, rssMiB, startGateway, startSample, waitForMessage } from './lib/procs.js';
import { ETCHINGS_60, REST_ETCHINGS, TICKERS, aliasedBrc20Query, brc20Query, graphqlBody, restToken } from './lib/queries.js';
import { percentile } from './lib/load.js';
import { fmt, writeResults } from './lib/report.js';
import { SAMPLE_PLATFORM_KEY } from '../src/sample/server.js';

export const PHASE_SECONDS = Number(process.env.BENCH_ABUSE_SECONDS?.trim() || 15) || 15;
const NORMAL_RPS = Number(process.env.BENCH_ABUSE_RPS?.trim() || 200) || 200;
export const HOSTILE_RPS = Number(process.env.BENCH_ABUSE_HOSTILE_RPS?.trim() || 50) || 50;
export const SLOW_CONNECTIONS = 50;
export const CLIENT_TIMEOUT_MS = 15_000;
export const WARMUP_SECONDS = 2;

interface Spec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const gql = (query: string): Spec => ({
  method: 'POST',
  path: '/graphql',
  body: JSON.stringify({ query }),
  headers: JSON_HEADERS,
});

const NORMAL: Spec[] = [
  { method: 'POST', path: '/graphql', body: graphqlBody(brc20Query('ordi')), headers: JSON_HEADERS },
  { method: 'POST', path: '/graphql', body: graphqlBody(aliasedBrc20Query(TICKERS.slice(0, 5))), headers: JSON_HEADERS },
  { method: 'POST', path: '/graphql', body: graphqlBody(ETCHINGS_60), headers: JSON_HEADERS },
  { method: 'GET', path: restToken('ordi') },
  { method: 'GET', path: REST_ETCHINGS },
];

/** Fragments that each spread the next one twice: 2^depth expansions for a naive walk. */
function fragmentBomb(depth: number, leaf = 'status { status }'): string {
  const fragments = Array.from({ length: depth }, (_, i) =>
    i === depth - 1 ? `fragment F${i} on Query { ${leaf} }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
  );
  return `query Bomb { ...F0 }\n${fragments.join('\n')}`;
}

/** A request body whose variable `t` is `depth` nested lists (built as text: JSON.stringify recurses). */
function nestedVariable(depth: number): Spec {
  const query = 'query ($t: String!) { brc20Token(ticker: $t) { token { ticker } } }';
  const body = `{"query":${JSON.stringify(query)},"variables":{"t":${'['.repeat(depth)}"x"${']'.repeat(depth)}}}`;
  return { method: 'POST', path: '/graphql', body, headers: JSON_HEADERS };
}

let bust = 0;
// Built once (the load generator must not be what slows the machine), but for the cache-busting ones.
const once = (spec: Spec) => () => spec;
export const HOSTILE: Array<() => Spec> = [
  once(gql(fragmentBomb(30))),
  once(gql(fragmentBomb(20, 'a: status { status } b: status { status } c: etchings(limit: 60) { total }'))),
  once(gql(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: status { status }`).join(' ')} }`)),
  once(gql(`{ status ${'@include(if: true) '.repeat(3000)} { status } }`)),
  once(gql(`{ ${'status { chainTip { '.repeat(400)}blockHeight${' } }'.repeat(400)} }`)),
  once(nestedVariable(5000)),
  once(gql('{ brc20Token(ticker: "\ud800") { token { ticker } } }')),
  once(gql(`{ status { status } } # ${'x'.repeat(95_000)}`)),
  once({ method: 'POST', path: '/graphql', body: `{"query": "{ status { status } }", "x-api-key": "${SAMPLE_PLATFORM_KEY}"`, headers: JSON_HEADERS }),
  once(gql(`{ ${Array.from({ length: 25 }, (_, i) => `n${i}: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}")`).join(' ')} }`)),
  once(gql(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "a\\r\\nb/../..") }`)),
  () => gql(`{ brc20Token(ticker: "nosuch${bust++}") { token { ticker } } }`),
  () => ({ method: 'GET', path: restToken(`nosuch${bust++}`) }),
  once({ method: 'GET', path: '/ordinals/v1/brc-20/tokens/%E0%A4%A' }),
  once({ method: 'GET', path: '/graphiql/constructor' }),
  once({ method: 'GET', path: '/graphiql/__proto__' }),
  once({ method: 'GET', path: `/v1/ext/a%0d%0ab%2f..%2f/bitcoin-node/x` }),
  once({ method: 'DELETE', path: `/v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/not-a-uuid%2f..` }),
  once({ method: 'GET', path: '/runes/v1/etchings?limit=1e400&offset=-0' }),
];

interface PhaseResult {
  sent: number;
  answered: number;
  dropped: number;
  non2xx: number;
  p50: number;
  p99: number;
  /** p99 of the warm-up (not checked): under attack, V8 meeting the hostile code paths for the first time. */
  warmupP99: number;
  hostileSent: number;
  hostileStatus: Record<string, number>;
}

/** Sends `rate` requests a second from `pick`, open-loop, for `seconds`; latencies of the answers. */
export async function openLoop(
  pool: Pool,
  rate: number,
  seconds: number,
  pick: (i: number) => Spec,
  onAnswer: (ms: number, status: number) => void,
  onDrop: () => void,
): Promise<number> {
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let sent = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = started + sent * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const spec = pick(sent++);
    const t0 = performance.now();
    pending.push(
      pool
        .request({ method: spec.method, path: spec.path, headers: spec.headers, body: spec.body })
        .then(async (response) => {
          await response.body.dump();
          onAnswer(performance.now() - t0, response.statusCode);
        })
        .catch(() => onDrop()),
    );
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

async function phase(gatewayUrl: string, pid: number, hostile: boolean, rss: { max: number }): Promise<PhaseResult> {
  const normalPool = new Pool(gatewayUrl, { connections: 32, pipelining: 1, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
  const latencies: number[] = [];
  let non2xx = 0;
  const sampler = setInterval(() => {
    try {
      rss.max = Math.max(rss.max, rssMiB(pid));
    } catch {
      // exited: the phase's drops say so
    }
  }, 250);
  // The hostile clients run in a process of their own, as real ones would: handling their answers
  // must not delay the normal clients' event loop, which times the normal answers.
  const attacker = hostile ? runAttacker(gatewayUrl) : undefined;
  await attacker?.started;
  // Warm-up (excluded): opens the connections and fills the cache, beside the attack's first seconds.
  const warmup: number[] = [];
  await openLoop(normalPool, NORMAL_RPS, WARMUP_SECONDS, (i) => NORMAL[i % NORMAL.length]!, (ms) => warmup.push(ms), () => warmup.push(Infinity));
  const attack = attacker?.done ?? Promise.resolve({ sent: 0, status: {} });
  const normal = openLoop(
    normalPool,
    NORMAL_RPS,
    PHASE_SECONDS,
    (i) => NORMAL[i % NORMAL.length]!,
    (ms, status) => {
      latencies.push(ms);
      if (status < 200 || status >= 300) non2xx++;
    },
    () => {},
  );
  const [sent, { sent: hostileSent, status: hostileStatus }] = await Promise.all([normal, attack]);
  clearInterval(sampler);
  await normalPool.destroy();
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
    warmupP99: percentile(warmup.sort((a, b) => a - b), 0.99),
    hostileSent,
    hostileStatus,
  };
}

/** Runs bench/abuse-attacker.ts for a warm-up and one phase: when it started, what it sent and its answers by status. */
function runAttacker(gatewayUrl: string): { started: Promise<unknown>; done: Promise<{ sent: number; status: Record<string, number> }> } {
  const child = forkTs('abuse-attacker.ts', { ABUSE_TARGET: gatewayUrl });
  const ofType = <T>(type: string) => (m: unknown) => ((m as { type?: string }).type === type ? (m as T) : undefined);
  return {
    started: waitForMessage(child, ofType('started'), 'abuse attacker start'),
    done: waitForMessage(child, ofType<{ sent: number; status: Record<string, number> }>('done'), 'abuse attacker', (WARMUP_SECONDS + PHASE_SECONDS + 30) * 1000),
  };
}

export async function runAbuse(): Promise<void> {
  const startedAt = new Date().toISOString();
  console.error(`abuse: ${PHASE_SECONDS} s per phase, normal ${NORMAL_RPS} req/s, hostile ${HOSTILE_RPS} req/s + ${SLOW_CONNECTIONS} slow-header connections`);
  const sample = await startSample(0);
  const gateway = await startGateway(sample.url, { CACHE_TTL_MS: '600000', CACHE_NOT_FOUND_TTL_MS: '1000' });
  const rss = { max: rssMiB(gateway.pid) };
  const rssStart = rss.max;
  const calm = await phase(gateway.url, gateway.pid, false, rss);
  const attacked = await phase(gateway.url, gateway.pid, true, rss);
  const ratio = attacked.p99 / calm.p99;
  const checks = [
    { name: 'normal p99 under attack ≤ 2× the calm p99', pass: ratio <= 2, value: `${fmt(ratio, 2)}×` },
    { name: 'dropped normal answers = 0', pass: calm.dropped + attacked.dropped === 0, value: String(calm.dropped + attacked.dropped) },
    { name: 'normal answers all 2xx', pass: calm.non2xx + attacked.non2xx === 0, value: String(calm.non2xx + attacked.non2xx) },
    { name: 'gateway alive at the end', pass: gateway.child.exitCode === null, value: gateway.child.exitCode === null ? 'yes' : 'no' },
  ];
  const out: string[] = [];
  out.push(`## satgate abuse — ${startedAt}`, '');
  out.push(`| phase | normal sent | answered | dropped | non-2xx | p50 ms | p99 ms | warm-up p99 ms (first ${WARMUP_SECONDS} s, not checked) | hostile sent |`);
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of [['calm', calm], ['under attack', attacked]] as const) {
    out.push(`| ${name} | ${r.sent} | ${r.answered} | ${r.dropped} | ${r.non2xx} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.warmupP99, 2)} | ${r.hostileSent} |`);
  }
  out.push('', `Hostile answers by status: ${Object.entries(attacked.hostileStatus).map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  out.push(`Gateway RSS: ${fmt(rssStart, 1)} MiB at start, ${fmt(rss.max, 1)} MiB peak.`, '');
  for (const check of checks) out.push(`- **${check.pass ? 'PASS' : 'MISS'}** ${check.name}: ${check.value}`);
  const file = writeResults(
    {
      kind: 'abuse',
      startedAt,
      settings: { phaseSeconds: PHASE_SECONDS, normalRps: NORMAL_RPS, hostileRps: HOSTILE_RPS, slowConnections: SLOW_CONNECTIONS },
      calm,
      attacked,
      p99Ratio: ratio,
      rssMiB: { start: rssStart, peak: rss.max },
      checks,
    },
    '-abuse',
  );
  out.push('', `Results: ${file}`);
  console.log(out.join('\n'));
}
