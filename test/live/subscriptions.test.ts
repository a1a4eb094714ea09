// Subscriptions with real clients (graphql-sse over SSE, graphql-ws over WebSocket) against the
// sample upstream: one poller per resource (read from the request log), events on change only,
// polling stopped after the last subscriber, bounded subscriptions, no completion on SIGTERM (clients
// that retry subscribe again to the gateway that replaces the stopped one).
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MINTING_TICKER } from '../../src/sample/activity.js';
import { findBrc20Token, sampleData } from '../../src/sample/data.js';
import { liveSettings, pollsPerMinute } from '../../src/live/hub.js';
import { loadConfig } from '../../src/config.js';
import { startStack, type Stack } from '../harness.js';
import { stackOptions } from '../profiles.js';
import { BRC20_FIELDS, STATUS_FIELDS, toBrc20, toEtching, toStatus } from '../support.js';

const INTERVAL_MS = 100;
const LIVE_ENV = { LIVE_POLL_INTERVAL_MS: String(INTERVAL_MS), LIVE_RATE_LIMIT_PER_MINUTE: '0' };

const ETCHING_FIELDS = `id runeId name spacedName number divisibility symbol turbo
  mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
  supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
  location { blockHash blockHeight txId txIndex vout output timestamp }`;
const TOKEN_SUBSCRIPTION = (ticker: string) => `subscription { brc20Token(ticker: ${JSON.stringify(ticker)}) { ${BRC20_FIELDS} } }`;

type Result = { data?: Record<string, unknown> | null; errors?: unknown[] };

/** A running subscription: every result it received, whether it completed, and how to leave. */
interface Watch {
  results: Result[];
  done: Promise<void>;
  completed: boolean;
  stop(): void;
}

function collect(iterator: AsyncIterableIterator<Result>): Watch {
  const watch: Watch = {
    results: [],
    completed: false,
    stop: () => void iterator.return?.(),
    done: Promise.resolve(),
  };
  watch.done = (async () => {
    for await (const result of iterator) watch.results.push(result);
    watch.completed = true;
  })();
  return watch;
}

const sseClients: Array<{ dispose(): void }> = [];
const wsClients: WsClient[] = [];

function sse(stack: Stack, query: string): Watch {
  const client = createSseClient({ url: `${stack.gatewayUrl}/graphql`, retryAttempts: 0 });
  sseClients.push(client);
  return collect(client.iterate({ query }) as AsyncIterableIterator<Result>);
}

function ws(stack: Stack, query: string, client?: WsClient): Watch {
  const used = client ?? wsClient(stack);
  return collect(used.iterate({ query }) as AsyncIterableIterator<Result>);
}

function wsClient(stack: Stack): WsClient {
  const client = createWsClient({
    url: `${stack.gatewayUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
  });
  wsClients.push(client);
  return client;
}

/** How a subscription failed: graphql-ws's close code, or graphql-sse's error's name. */
function endOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? `close ${code}` : (error as Error).name;
}

async function until(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${ticker}`;
const requestsTo = (stack: Stack, path: string) => stack.sample.requests.filter((r) => r.path === path);

async function cleanUp() {
  sseClients.splice(0).forEach((c) => c.dispose());
  await Promise.all(wsClients.splice(0).map((c) => c.dispose()));
}

describe('one poller per resource', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(LIVE_ENV);
  });
  afterAll(async () => {
    await cleanUp();
    await stack.close();
  });
  beforeEach(async () => {
    await cleanUp();
    // The server sees the previous test's clients leave a little later than they do (longer under
    // load); a poll its poller already had in flight may still land: let it, then reset.
    await until(() => stack.gateway.live.watched === 0, 'the previous pollers to stop');
    await sleep(INTERVAL_MS);
    stack.sample.reset();
  });

  it('sends the token now, then again only when it changes; unchanged polls are 304s', async () => {
    const watch = sse(stack, TOKEN_SUBSCRIPTION(MINTING_TICKER.toUpperCase()));
    const initial = toBrc20(findBrc20Token(MINTING_TICKER)!);
    await until(() => watch.results.length === 1, 'the first event');
    expect(watch.results).toEqual([{ data: { brc20Token: initial } }]);
    // Several polls of an unchanged token: no event, and each poll asked with If-None-Match.
    await until(() => requestsTo(stack, tokenPath(MINTING_TICKER)).length >= 4, 'polls');
    expect(watch.results).toHaveLength(1);
    const polls = requestsTo(stack, tokenPath(MINTING_TICKER));
    expect(polls.slice(1).map((r) => r.headers['if-none-match'])).toEqual(
      polls.slice(1).map(() => `"${stack.sample.activity.ordinalsEtag()}"`),
    );

    const minted = stack.sample.activity.mint();
    await until(() => watch.results.length === 2, 'the change');
    expect(watch.results[1]).toEqual({ data: { brc20Token: toBrc20(minted) } });
    const seen = requestsTo(stack, tokenPath(MINTING_TICKER)).length;
    await until(() => requestsTo(stack, tokenPath(MINTING_TICKER)).length >= seen + 3, 'more polls');
    expect(watch.results).toHaveLength(2);
    watch.stop();
    await watch.done;
  });

  it('20 subscribers over SSE and WebSocket (case variants) share one poller, which stops after the last leaves', async () => {
    const shared = wsClient(stack);
    const watches = Array.from({ length: 20 }, (_, i) => {
      const ticker = i % 2 ? 'PEPE' : 'pepe';
      return i % 3 === 0 ? sse(stack, TOKEN_SUBSCRIPTION(ticker)) : ws(stack, TOKEN_SUBSCRIPTION(ticker), i % 3 === 1 ? shared : undefined);
    });
    const expected = { data: { brc20Token: toBrc20(findBrc20Token('pepe')!) } };
    await until(() => watches.every((w) => w.results.length === 1), 'every first event');
    watches.forEach((w) => expect(w.results).toEqual([expected]));
    const started = Date.now();
    const before = requestsTo(stack, tokenPath('pepe')).length;
    await sleep(6 * INTERVAL_MS);
    const polls = requestsTo(stack, tokenPath('pepe')).length - before;
    const ticks = (Date.now() - started) / INTERVAL_MS;
    // One poller: about one poll per interval (20 pollers would make 20 times as many).
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(Math.ceil(ticks) + 1);
    expect(stack.sample.requests.filter((r) => r.path !== tokenPath('pepe')).map((r) => r.path)).toEqual([]);

    watches.forEach((w) => w.stop());
    await Promise.all(watches.map((w) => w.done));
    await until(() => stack.gateway.live.watched === 0, 'the server to see every subscriber leave');
    await sleep(INTERVAL_MS); // a poll already in flight may land
    const after = requestsTo(stack, tokenPath('pepe')).length;
    await sleep(4 * INTERVAL_MS);
    expect(requestsTo(stack, tokenPath('pepe')).length).toBe(after);
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    expect(metrics).toMatch(/^satgate_subscriptions_active 0$/m);
    expect(metrics).toMatch(/^satgate_live_polls_total\{resource="brc20",outcome="unchanged"\} [1-9]/m);
    expect(metrics).toMatch(/^satgate_subscription_events_total\{resource="brc20"\} [1-9]/m);
  });

  it('etchingAdded sends each new etching once, older first, and nothing for existing ones', async () => {
    const watch = ws(stack, `subscription { etchingAdded { ${ETCHING_FIELDS} } }`);
    await until(() => requestsTo(stack, '/runes/v1/etchings').length >= 2, 'the baseline poll');
    expect(watch.results).toEqual([]);
    const added = stack.sample.activity.etch(2);
    await until(() => watch.results.length === 2, 'two etchings');
    expect(watch.results).toEqual([...added].reverse().map((e) => ({ data: { etchingAdded: toEtching(e) } })));
    const [third] = stack.sample.activity.etch(1);
    await until(() => watch.results.length === 3, 'one more etching');
    expect(watch.results[2]).toEqual({ data: { etchingAdded: toEtching(third!) } });
    expect(sampleData.etchings.some((e) => watch.results.some((r) => (r.data?.etchingAdded as { runeId: string }).runeId === e.id))).toBe(
      false,
    );
    watch.stop();
    await watch.done;
  });

  it('etchingAddedEdge sends the same etchings as edges of etchingsConnection, cursors included', async () => {
    const watch = sse(stack, `subscription { etchingAddedEdge { cursor node { ${ETCHING_FIELDS} } } }`);
    await until(() => requestsTo(stack, '/runes/v1/etchings').length >= 2, 'the baseline poll');
    const added = stack.sample.activity.etch(2);
    await until(() => watch.results.length === 2, 'two etchings');
    // What a client inserting the edges at its connection's start holds is what the connection answers
    // now: the same nodes and the same cursors (so paging on from them works).
    const { body } = await stack.graphql(`{ etchingsConnection(first: 2) { edges { cursor node { ${ETCHING_FIELDS} } } } }`);
    const edges = (body.data!.etchingsConnection as { edges: unknown[] }).edges;
    expect(edges).toEqual([...added].map((e) => ({ cursor: expect.any(String), node: toEtching(e) })));
    expect(watch.results).toEqual([...edges].reverse().map((edge) => ({ data: { etchingAddedEdge: edge } })));
    const after = await stack.graphql(
      `query ($after: String) { etchingsConnection(first: 1, after: $after) { edges { node { runeId } } } }`,
      {
        after: (watch.results[1]!.data!.etchingAddedEdge as { cursor: string }).cursor,
      },
    );
    expect(after.body).toEqual({ data: { etchingsConnection: { edges: [{ node: { runeId: added[1]!.id } }] } } });
    watch.stop();
    await watch.done;
  });

  it('status: the status now, over both transports', async () => {
    const a = sse(stack, `subscription { status { ${STATUS_FIELDS} } }`);
    const b = ws(stack, `subscription { status { ${STATUS_FIELDS} } }`);
    await until(() => a.results.length === 1 && b.results.length === 1, 'both first events');
    expect([a.results, b.results]).toEqual([
      [{ data: { status: toStatus(sampleData.statusV1) } }],
      [{ data: { status: toStatus(sampleData.statusV1) } }],
    ]);
    a.stop();
    b.stop();
    await Promise.all([a.done, b.done]);
  });

  it('a spent quota (429) pauses polling without ending the subscription', async () => {
    const watch = sse(stack, TOKEN_SUBSCRIPTION('ordi'));
    await until(() => watch.results.length === 1, 'the first event');
    const before = requestsTo(stack, tokenPath('ordi')).length;
    stack.sample.inject({
      path: tokenPath('ordi'),
      status: 429,
      times: 1,
      headers: { 'retry-after': '1' },
      body: { message: 'API rate limit exceeded' },
    });
    await until(() => requestsTo(stack, tokenPath('ordi')).length > before, 'the 429');
    const limited = requestsTo(stack, tokenPath('ordi')).length;
    await sleep(5 * INTERVAL_MS);
    // Paused: no poll while the quota is spent, and the stream is still open.
    expect(requestsTo(stack, tokenPath('ordi')).length).toBe(limited);
    expect(watch.completed).toBe(false);
    stack.sample.clearFaults();
    await until(() => requestsTo(stack, tokenPath('ordi')).length > limited, 'polling again', 3000);
    expect(watch.results).toHaveLength(1);
    watch.stop();
    await watch.done;
  });

  it.each([
    // The value now (etchingAdded: none), then a bad answer: a field missing, or a new etching without its fields.
    ['status', `subscription { status { ${STATUS_FIELDS} } }`, '/metadata/v1', 1, { server_version: null, status: 'ready' }],
    ['brc20Token', TOKEN_SUBSCRIPTION('ordi'), tokenPath('ordi'), 1, { token: null, supply: { holders: 'many' } }],
    // A 404 that is not the handler's "no such token" (a proxy's page): no null sent as if the token were gone.
    ['brc20Token (a 404 page)', TOKEN_SUBSCRIPTION('ordi'), tokenPath('ordi'), 1, '<html><body>404 Not Found</body></html>', 404],
    [
      'etchingAdded',
      `subscription { etchingAdded { id } }`,
      '/runes/v1/etchings',
      0,
      { limit: 60, offset: 0, total: 1, results: [{ id: 'x' }] },
    ],
  ])(
    '%s: an answer that is not the resource sends nothing; the stream keeps its last value',
    async (_name, query, path, events, body, status = 200) => {
      const watch = sse(stack, query);
      const polled = () => requestsTo(stack, path).length;
      // Polls follow one another: by the second, the first one's answer was decoded and sent.
      await until(() => polled() >= 2 && watch.results.length === events, 'the first value');
      const first = [...watch.results];
      stack.sample.inject({ path, status, body });
      const before = polled();
      await until(() => polled() >= before + 3, 'polls of the bad answer');
      // As a query would: the upstream's fault is a failed poll, not an event failing every subscriber.
      expect(watch.results).toEqual(first);
      expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
      expect(watch.completed).toBe(false);
      watch.stop();
      await watch.done;
    },
  );

  it.each([
    ['SSE', sse],
    ['WebSocket', ws],
  ])('a bad ticker over %s is BAD_USER_INPUT and starts no poller', async (_name, transport) => {
    const watch = transport(stack, TOKEN_SUBSCRIPTION('a/b'));
    await watch.done;
    expect(watch.results).toEqual([
      {
        errors: [
          {
            message: 'ticker must be 1 to 16 bytes of printable characters without "/"',
            locations: [{ line: 1, column: 16 }],
            path: ['brc20Token'],
            extensions: { code: 'BAD_USER_INPUT', argument: 'ticker' },
          },
        ],
      },
    ]);
    await sleep(2 * INTERVAL_MS);
    expect(stack.sample.requests).toEqual([]);
  });
});

// Polls far apart: the poller's last answer is well older than a join.
const SLOW_MS = 1000;
// The poller's last answer still fresh in the cache at the join: the baseline is asked past it.
const CACHED = { CACHE_TTL_MS: String(SLOW_MS * 0.8) };
/** The etchings list's path at each source of the sample. */
const LIST_PATH = /^(\/runes\/v1\/etchings|\/v1\/indexer\/runes\/info-list|\/ord\/runes\/0)$/;
describe.each([
  ['hiro', 'without a cache', {}],
  ['hiro', 'with the last answer cached', CACHED],
  ['unisat', 'with the last answer cached', CACHED],
  ['ord', 'with the last answer cached', CACHED],
] as const)('etchingAdded from %s starts from a poll after the join (%s)', (profile, _name, env) => {
  let stack: Stack;
  beforeAll(async () => {
    const [sourceEnv, options] = stackOptions(profile);
    stack = await startStack(
      (sample) => ({ ...sourceEnv(sample), ...LIVE_ENV, LIVE_POLL_INTERVAL_MS: String(SLOW_MS), STALE_IF_ERROR_MS: '60000', ...env }),
      options,
    );
  });
  afterAll(async () => {
    await cleanUp();
    await stack.close();
  });
  beforeEach(async () => {
    await cleanUp();
    await until(() => stack.gateway.live.watched === 0, 'the previous poller to stop');
    stack.sample.reset();
  });

  /** The etchings polls the gateway has answered, by outcome (changed, unchanged). */
  const etchingPolls = async (outcome: string) => {
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    const line = new RegExp(`^satgate_live_polls_total\\{resource="etchings",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics);
    return Number(line?.[1] ?? 0);
  };
  // Fields every source gives.
  const query = `subscription { etchingAdded { runeId name spacedName number } }`;
  const event = (etching: ReturnType<typeof stack.sample.activity.etch>[number] | undefined) => {
    const { runeId, name, spacedName, number } = toEtching(etching!);
    return { data: { etchingAdded: { runeId, name, spacedName, number } } };
  };

  /**
   * A first subscriber and its baseline, then right after that poll (the poller's next is an
   * interval away) an etching, `meanwhile`, and a second subscriber; then one more etching.
   * Answers what each subscriber received, and the two etchings.
   */
  async function joinAfterAnEtching(meanwhile: () => void = () => {}) {
    const baselines = await etchingPolls('changed');
    const first = ws(stack, query);
    for (let tries = 0; (await etchingPolls('changed')) === baselines; tries++) {
      if (tries > 300) throw new Error("timed out waiting for the first subscriber's baseline");
      await sleep(10);
    }
    const [before] = stack.sample.activity.etch(1);
    meanwhile();
    const second = sse(stack, query);
    await until(() => first.results.length === 1, 'the earlier etching, to the first subscriber');
    const [after] = stack.sample.activity.etch(1);
    await until(() => first.results.length === 2 && second.results.length >= 1, 'the later etching, to both');
    first.stop();
    second.stop();
    await Promise.all([first.done, second.done]);
    return { received: [first.results, second.results], before, after };
  }

  it('an etching that appeared since the last poll, before a join, is not sent to the new subscriber', async () => {
    const { received, before, after } = await joinAfterAnEtching();
    expect(received).toEqual([[event(before), event(after)], [event(after)]]);
  });

  it('a stored answer served because the upstream failed is no baseline: the next poll is', async () => {
    const { received, before, after } = await joinAfterAnEtching(() =>
      stack.sample.inject({ path: LIST_PATH, status: 500, times: 1, body: { error: 'Internal Server Error' } }),
    );
    expect(received).toEqual([[event(before), event(after)], [event(after)]]);
  });
});

describe('bounds and shutdown', () => {
  let stack: Stack;
  let closed = false;
  beforeAll(async () => {
    stack = await startStack({ ...LIVE_ENV, MAX_SUBSCRIPTIONS: '3', MAX_SUBSCRIPTIONS_PER_CONNECTION: '2' });
  });
  afterAll(async () => {
    await cleanUp();
    if (!closed) await stack.close();
  });

  it('caps subscriptions per connection and per process; SIGTERM ends every stream without a complete', async () => {
    const client = wsClient(stack);
    const first = ws(stack, TOKEN_SUBSCRIPTION('ordi'), client);
    const second = ws(stack, TOKEN_SUBSCRIPTION('sats'), client);
    await until(() => first.results.length === 1 && second.results.length === 1, 'two first events');
    // A third on the same connection: refused by the per-connection cap.
    const third = ws(stack, TOKEN_SUBSCRIPTION('pepe'), client);
    await expect(third.done).rejects.toEqual([
      { message: 'A connection may hold 2 operations at once', extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 2 } },
    ]);
    expect(third.results).toEqual([]);
    const sseWatch = sse(stack, `subscription { status { status } }`);
    await until(() => sseWatch.results.length === 1, 'the SSE first event');
    // A fourth in the process: refused by MAX_SUBSCRIPTIONS.
    const fourth = ws(stack, TOKEN_SUBSCRIPTION('pepe'));
    await fourth.done;
    expect(fourth.results).toEqual([
      {
        errors: [
          {
            message: 'This server holds its maximum of 3 subscriptions; try again later',
            locations: [{ line: 1, column: 16 }],
            path: ['brc20Token'],
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3 },
          },
        ],
      },
    ]);

    // Without retries, each client reports the broken connection: a `complete` would have ended
    // the stream as finished (see the rolling restart below for what retrying clients do).
    const ends = Promise.all([first.done, second.done, sseWatch.done].map((done) => done.then(() => 'complete', endOf)));
    closed = true;
    await stack.close();
    expect(await ends).toEqual(['close 1001', 'close 1001', 'NetworkError']);
    expect([first.completed, second.completed, sseWatch.completed]).toEqual([false, false, false]);
  });
});

describe('a rolling restart', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    await cleanUp();
    await Promise.all(stacks.map((stack) => stack.close().catch(() => {})));
  });

  it('graphql-ws and graphql-sse clients that retry subscribe again to the gateway that replaces the stopped one', async () => {
    const first = await startStack(LIVE_ENV);
    const url = `${first.gatewayUrl}/graphql`;
    // Both published clients as an app would set them up to outlive a deploy: retries, short waits.
    const wsRetrying = createWsClient({
      url: url.replace('http', 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 30,
      retryWait: () => sleep(100),
      lazy: true,
    });
    wsClients.push(wsRetrying);
    const sseRetrying = createSseClient({ url, retryAttempts: 30, retry: () => sleep(100) });
    sseClients.push(sseRetrying);
    const overWs = collect(wsRetrying.iterate({ query: TOKEN_SUBSCRIPTION('ordi') }) as AsyncIterableIterator<Result>);
    const overSse = collect(sseRetrying.iterate({ query: TOKEN_SUBSCRIPTION('ordi') }) as AsyncIterableIterator<Result>);
    const ended = Promise.all([overWs.done, overSse.done].map((done) => done.then(() => 'complete', endOf)));
    await until(() => overWs.results.length === 1 && overSse.results.length === 1, 'the first events');

    await first.close();
    // Dropped on purpose: nothing the operator must look at.
    expect(first.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 40)).toEqual([]);
    // The replacement: a new process on the same address, with an upstream of its own.
    const second = await startStack({ ...LIVE_ENV, PORT: new URL(first.gatewayUrl).port });
    stacks.push(second);
    await until(() => overWs.results.length === 2 && overSse.results.length === 2, 'the events of the new gateway', 10_000);

    const token = { data: { brc20Token: toBrc20(findBrc20Token('ordi')!) } };
    expect([overWs.results, overSse.results]).toEqual([
      [token, token],
      [token, token],
    ]);
    expect(second.sample.requests.map((r) => r.path)).toContain(tokenPath('ordi'));
    expect([overWs.completed, overSse.completed]).toEqual([false, false]);
    await cleanUp();
    expect(await ended).toEqual(['complete', 'complete']);
  });
});

it("polling a resource UniSat serves plans with UniSat's budget when it is the smaller", () => {
  const planned = (env: Record<string, string>) => liveSettings(loadConfig(env)).rateLimitPerMinute;
  expect([
    planned({ HIRO_API_KEY: 'k' }),
    // 5 calls a second: 300 a minute, under the keyed Hiro limit's 500.
    planned({ HIRO_API_KEY: 'k', BRC20_SOURCE: 'unisat' }),
    planned({ HIRO_API_KEY: 'k', ETCHINGS_SOURCE: 'unisat' }),
    planned({ BRC20_SOURCE: 'unisat' }),
    planned({ HIRO_API_KEY: 'k', BRC20_SOURCE: 'unisat', UNISAT_RATE_LIMIT_PER_SECOND: '20' }),
    planned({ LIVE_RATE_LIMIT_PER_MINUTE: '0', ETCHINGS_SOURCE: 'unisat' }),
    // Transfers are never watched: their source does not change the plan.
    planned({ HIRO_API_KEY: 'k', TRANSFERS_SOURCE: 'unisat' }),
  ]).toEqual([500, 300, 300, 50, 500, 300, 500]);
});

it('with WORKERS, each process polls within its part of the share: the group stays within LIVE_QUOTA_SHARE', () => {
  const perMinute = (env: Record<string, string>) => pollsPerMinute(liveSettings(loadConfig(env)));
  expect([
    perMinute({}),
    // 20% of the keyless 50 a minute, 10 polls, for the four workers together.
    perMinute({ WORKERS: '4' }),
    perMinute({ WORKERS: '2', HIRO_API_KEY: 'k' }),
    perMinute({ WORKERS: '4', REDIS_URL: 'redis://127.0.0.1:6379' }),
    perMinute({ WORKERS: '4', LIVE_RATE_LIMIT_PER_MINUTE: '0' }),
  ]).toEqual([10, 2.5, 50, 2.5, Infinity]);
});
