// Subscriptions live within the quotas: a new poller is charged to the subscribing client
// (CLIENT_UPSTREAM_CALLS_PER_MINUTE), as is the poll an etchingAdded join starts from, and admitted
// through the polling plan (LIVE_QUOTA_SHARE); an unknown ticker is remembered as unknown; a
// client's distinct watched resources are bounded; one client's waiting polls do not hold back another's, and no client holds more than half the plan's window. Real graphql-sse and graphql-ws clients, told
// apart by X-Forwarded-For (TRUST_PROXY=1); the sample upstream's request log says what reached the
// upstream.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStack, type Stack } from '../harness.js';
import { TOKEN_SUBSCRIPTION, disposeAll, sse, tokenPath, until, ws, wsClient, type Watch } from '../live-clients.js';

const A = '198.51.100.1';
const B = '198.51.100.2';
/** Long enough that no steady poll lands during a test: every logged call is a first poll. */
const QUIET = { LIVE_POLL_INTERVAL_MS: '600000', TRUST_PROXY: '1' };
const paths = (stack: Stack) => stack.sample.requests.map((r) => `${r.method} ${r.path}`);
const NULL_TOKEN = { data: { brc20Token: null } };
/** The refusal of a first value, as a query's field gets it when its client's share is spent. */
const rateLimited = (limit: number) => ({
  data: { brc20Token: null },
  errors: [
    {
      message: `This client has used its share of the ordinals service (${limit} calls a minute)`,
      locations: [{ line: 1, column: 16 }],
      path: ['brc20Token'],
      extensions: { code: 'RATE_LIMITED', service: 'ordinals', retryAfter: expect.any(Number), limit },
    },
  ],
});
const retryAfterOf = (watch: Watch) => (watch.results[0]?.errors?.[0] as { extensions: { retryAfter: number } }).extensions.retryAfter;

afterEach(disposeAll);

describe('each new poller is charged to the subscribing client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      ...QUIET,
      LIVE_RATE_LIMIT_PER_MINUTE: '0',
      CLIENT_UPSTREAM_CALLS_PER_MINUTE: '5',
      MAX_WATCHED_RESOURCES_PER_CLIENT: '100',
      // 100 subscriptions at once: past the default starts of a minute, which are not this suite's subject.
      SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE: '1000',
      // brc20Token queries ask each token's own route, as the subscriptions do.
      BRC20_LIST_LOOKUPS: 'off',
    });
  });
  afterAll(() => stack.close());

  it('one client subscribing to 100 distinct tickers causes its 5 calls; the others get RATE_LIMITED and end', async () => {
    const client = wsClient(stack.gatewayUrl, A);
    const tickers = Array.from({ length: 100 }, (_, i) => `zq${String(i).padStart(2, '0')}`);
    const watches = tickers.map((ticker) => ws(client, TOKEN_SUBSCRIPTION(ticker)));
    await until(() => watches.every((w) => w.results.length > 0), 'an answer on every subscription');
    await sleep(200); // a late call would show in the log
    const served = tickers.filter((_, i) => !watches[i]!.completed);
    const refused = watches.filter((w) => w.completed);
    // Before: 100 upstream calls in a burst.
    expect(paths(stack).sort()).toEqual(served.map((t) => `GET ${tokenPath(t)}`).sort());
    expect(served).toHaveLength(5);
    for (const ticker of served) expect(watches[tickers.indexOf(ticker)]!.results).toEqual([NULL_TOKEN]);
    expect(refused).toHaveLength(95);
    for (const watch of refused) {
      expect(watch.results).toEqual([rateLimited(5)]);
      expect(retryAfterOf(watch)).toBeGreaterThanOrEqual(1);
      expect(retryAfterOf(watch)).toBeLessThanOrEqual(60);
    }

    // Another client has its own share, over SSE too; joining a poller that has its value is free.
    stack.sample.clearLog();
    const b = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('zqb1'), B);
    const joined = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION(served[0]!), B);
    await until(() => b.results.length > 0 && joined.results.length > 0, "B's first values");
    expect([b.results, joined.results, b.completed, joined.completed]).toEqual([[NULL_TOKEN], [NULL_TOKEN], false, false]);
    expect(paths(stack)).toEqual([`GET ${tokenPath('zqb1')}`]);
    // And A, its share spent, is refused over SSE as over WebSocket.
    const again = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('zqa9'), A);
    await again.done;
    expect(again.results).toEqual([rateLimited(5)]);
    expect(paths(stack)).toEqual([`GET ${tokenPath('zqb1')}`]);
  });

  it("etchingAdded's baseline poll, made at each join, is charged to the joining client like a first poll", async () => {
    stack.sample.clearLog();
    const etchingsPolls = () => stack.sample.requests.filter((r) => r.path === '/runes/v1/etchings').length;
    const query = 'subscription { etchingAdded { runeId } }';
    const client = wsClient(stack.gatewayUrl, '198.51.100.4');
    // Each join asks the list again (nothing else polls it in this suite): five of the client's five calls.
    const held: Watch[] = [];
    for (let i = 1; i <= 5; i++) {
      held.push(ws(client, query));
      await until(() => etchingsPolls() === i, `the poll of join ${i}`);
    }
    const refused = ws(client, query);
    await refused.done;
    expect(refused.results).toEqual([
      {
        data: null,
        errors: [
          {
            message: 'This client has used its share of the runes service (5 calls a minute)',
            locations: [{ line: 1, column: 16 }],
            path: ['etchingAdded'],
            extensions: { code: 'RATE_LIMITED', service: 'runes', retryAfter: expect.any(Number), limit: 5 },
          },
        ],
      },
    ]);
    // Another client's join is its own: polled, and kept.
    const other = sse(stack.gatewayUrl, query, '198.51.100.5');
    await until(() => etchingsPolls() === 6, "the other client's join");
    expect([...held, other].map((w) => [w.results, w.completed])).toEqual(Array.from({ length: 6 }, () => [[], false]));
    expect(paths(stack)).toEqual(Array.from({ length: 6 }, () => 'GET /runes/v1/etchings'));
  });

  it('queries over WebSocket are charged to the client as over HTTP', async () => {
    stack.sample.clearLog();
    const client = wsClient(stack.gatewayUrl, '198.51.100.3');
    const query = (ticker: string) => `query { brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const watch = ws(client, query(`zw0${i}`));
      await watch.done;
      answers.push(...watch.results);
    }
    // Before: no client was known over WebSocket, and all six went upstream.
    expect(answers).toEqual([
      ...Array.from({ length: 5 }, () => NULL_TOKEN),
      {
        data: { brc20Token: null },
        errors: [
          {
            message: 'This client has used its share of the ordinals service (5 calls a minute)',
            locations: [{ line: 1, column: 9 }],
            path: ['brc20Token'],
            extensions: { code: 'RATE_LIMITED', service: 'ordinals', retryAfter: expect.any(Number), limit: 5 },
          },
        ],
      },
    ]);
    expect(paths(stack)).toEqual([0, 1, 2, 3, 4].map((i) => `GET ${tokenPath(`zw0${i}`)}`));
  });
});

describe('new pollers are admitted through the polling plan', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A plan of 5 polls a minute (half of 10); no per-client limit, so only the plan can hold calls back.
    stack = await startStack({
      ...QUIET,
      LIVE_RATE_LIMIT_PER_MINUTE: '10',
      LIVE_QUOTA_SHARE: '0.5',
      CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
    });
  });
  afterAll(() => stack.close());

  it('8 new tickers of one client and 4 of another: each within its share, together within the plan', async () => {
    const a = wsClient(stack.gatewayUrl, A);
    const aTickers = Array.from({ length: 8 }, (_, i) => `zp0${i}`);
    const aWatches = aTickers.map((ticker) => ws(a, TOKEN_SUBSCRIPTION(ticker)));
    // A client holds at most half the plan's window (3 of 5).
    await until(() => aWatches.filter((w) => w.results.length > 0).length >= 3, "A's three first values");
    const bTickers = Array.from({ length: 4 }, (_, i) => `zpb${i}`);
    const bWatches = bTickers.map((ticker) => sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION(ticker), B));
    await until(() => bWatches.filter((w) => w.results.length > 0).length >= 2, "B's two first values");
    await sleep(500);
    const answered = (tickers: string[], watches: Array<{ results: unknown[] }>) =>
      tickers.filter((_, i) => watches[i]!.results.length > 0);
    const [aAnswered, bAnswered] = [answered(aTickers, aWatches), answered(bTickers, bWatches)];
    // Before: 8 calls at once against a plan of 5 a minute; then A held the whole window.
    expect(paths(stack).sort()).toEqual([...aAnswered, ...bAnswered].map((t) => `GET ${tokenPath(t)}`).sort());
    expect([aAnswered.length, bAnswered.length]).toEqual([3, 2]);
    expect(aWatches.map((w) => [w.results.length === 0 ? [] : w.results, w.completed])).toEqual(
      aTickers.map((t) => [aAnswered.includes(t) ? [NULL_TOKEN] : [], false]),
    );
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    expect(metrics).toMatch(/^satgate_subscriptions_active 12$/m);
  });
});

describe('waiting polls take turns by client', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A plan of 5 polls a minute, no per-client limit: only the plan holds calls back.
    stack = await startStack({
      ...QUIET,
      LIVE_RATE_LIMIT_PER_MINUTE: '10',
      LIVE_QUOTA_SHARE: '0.5',
      CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
    });
  });
  afterAll(() => stack.close());

  it("a client's backlog of first polls delays only itself: another client's new ticker goes at once", async () => {
    const client = wsClient(stack.gatewayUrl, A);
    const tickers = Array.from({ length: 15 }, (_, i) => `zr${String(i).padStart(2, '0')}`);
    const watches = tickers.map((ticker) => ws(client, TOKEN_SUBSCRIPTION(ticker)));
    await until(() => paths(stack).length === 3, "A's share of the window");
    await sleep(500);
    expect(paths(stack)).toHaveLength(3);
    // Before: the window was A's in its first second, and B waited a minute behind A's backlog.
    const b = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('zrb0'), B);
    await until(() => b.results.length > 0, "B's first value");
    await sleep(500);
    const aCalls = paths(stack).filter((path) => path !== `GET ${tokenPath('zrb0')}`);
    expect([b.results, b.completed, paths(stack).length - aCalls.length]).toEqual([[NULL_TOKEN], false, 1]);
    // A's other 12 first values wait for its share to free, though the plan has a slot left.
    expect(aCalls.sort()).toEqual(tickers.filter((_, i) => watches[i]!.results.length > 0).map((t) => `GET ${tokenPath(t)}`));
    expect(watches.filter((w) => w.results.length === 0)).toHaveLength(12);
  });
});

describe('unknown tickers are remembered as unknown', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The gateway's own cache forgets 404s at once here (CACHE_NOT_FOUND_TTL_MS=0): only the hub remembers.
    stack = await startStack({ ...QUIET, LIVE_RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => stack.close());

  it('subscribing again and again to an unknown ticker asks the upstream once', async () => {
    for (const [i, address] of [A, A, B, A, B, '198.51.100.9'].entries()) {
      const watch =
        i % 2
          ? sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ZZZZ'), address)
          : ws(wsClient(stack.gatewayUrl, address), TOKEN_SUBSCRIPTION('zzzz'));
      await until(() => watch.results.length > 0, 'null');
      expect([watch.results, watch.completed]).toEqual([[NULL_TOKEN], false]);
      watch.stop();
      await watch.done;
      await until(() => stack.gateway.live.watched === 0, 'the poller to stop');
    }
    // Before: one call per new poller, six.
    expect(paths(stack)).toEqual([`GET ${tokenPath('zzzz')}`]);
  });
});

describe("a client's distinct watched resources are bounded", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...QUIET, LIVE_RATE_LIMIT_PER_MINUTE: '0', MAX_WATCHED_RESOURCES_PER_CLIENT: '3' });
  });
  afterAll(() => stack.close());

  it('past 3 resources a new one is TOO_MANY_SUBSCRIPTIONS; the same resources and other clients are served', async () => {
    const client = wsClient(stack.gatewayUrl, A);
    const first = ['status { status }', 'etchingAdded { id }', 'brc20Token(ticker: "ordi") { token { ticker } }'].map((field) =>
      ws(client, `subscription { ${field} }`),
    );
    await until(
      () => first[0]!.results.length > 0 && first[2]!.results.length > 0 && stack.gateway.live.watched === 3,
      'three resources watched',
    );
    stack.sample.clearLog();
    const fourth = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('sats'), A);
    await fourth.done;
    // Before: a fourth poller, and its call.
    expect(fourth.results).toEqual([
      {
        errors: [
          {
            message: 'This client watches its maximum of 3 distinct resources; end a subscription to one first',
            locations: [{ line: 1, column: 16 }],
            path: ['brc20Token'],
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3 },
          },
        ],
      },
    ]);
    // A case variant is the same resource: served from the poller's value.
    const same = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ORDI'), A);
    const other = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('sats'), B);
    await until(() => same.results.length > 0 && other.results.length > 0, 'both first values');
    expect([same.results, other.results]).toEqual([
      [{ data: { brc20Token: { token: { ticker: 'ordi' } } } }],
      [{ data: { brc20Token: { token: { ticker: 'sats' } } } }],
    ]);
    expect(paths(stack)).toEqual([`GET ${tokenPath('sats')}`]);
    // Leaving one resource makes room for another.
    first[1]!.stop();
    await first[1]!.done;
    await until(() => stack.gateway.live.watched === 3, 'the server to see A leave etchings');
    const fresh = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('pepe'), A);
    await until(() => fresh.results.length > 0, 'the new resource');
    expect(fresh.results).toEqual([{ data: { brc20Token: { token: { ticker: 'pepe' } } } }]);
  });
});
