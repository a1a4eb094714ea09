/**
 * Fault injection against the sample upstream: what the client gets, how many upstream calls were
 * made, and that the process stays up with bounded memory. Retries, the circuit breaker,
 * stale-if-error and quota awareness are each shown on their own stack.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ORDINALS_ETAG, sampleData } from '../../src/sample/data.js';
import type { Fault } from '../../src/sample/server.js';
import { rest, startStack, type Stack } from '../harness.js';
import { callsOf, fieldError } from '../support.js';

const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;
const ORDI_PATH = '/ordinals/v1/brc-20/tokens/ordi';
/** The gateway's probe of the runes service: the first rune's lookup. */
const RUNE_PROBE = '/runes/v1/etchings/1:0';
const ORDI_QUERY = '{ brc20Token(ticker: "ordi") { token { ticker mintLimit } supply { holders } } }';
const ORDI_DATA = {
  brc20Token: { token: { ticker: 'ordi', mintLimit: ordi.token.mint_limit }, supply: { holders: ordi.supply.holders } },
};
const STATUS_QUERY = '{ status { status } }';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page of one etching at `offset` for the client at `address` (an X-Forwarded-For: TRUST_PROXY). */
const etchingsPage = (stack: Stack, offset: number, address: string) =>
  stack.graphql(`{ etchings(offset: ${offset}, limit: 1) { offset } }`, undefined, { 'x-forwarded-for': address });
/** That page's answer when its field failed with `code`. */
const etchingsFailed = (code: string, extensions: Record<string, unknown> = {}) => ({
  status: 200,
  body: { data: { etchings: null }, errors: [fieldError(['etchings'], { code, service: 'runes', ...extensions })] },
});
/** The runes breaker's state in /readyz. */
const runesBreaker = async (stack: Stack) =>
  ((await rest(`${stack.gatewayUrl}/readyz`)).body as { services: { runes: { breaker: string } } }).services.runes.breaker;

describe('retries (UPSTREAM_RETRIES=2)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '2', UPSTREAM_TIMEOUT_MS: '3000' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test.each([
    ['a 503', { status: 503, body: { message: 'unavailable' } }],
    ['a 502', { status: 502, body: 'bad gateway' }],
    ['a 504', { status: 504, body: { message: 'timeout' } }],
    ['a connection reset', { reset: true }],
    ['a reset mid-body', { truncate: true }],
  ])('a single %s followed by success is invisible to the client', async (_name, fault) => {
    stack.sample.inject({ path: ORDI_PATH, times: 1, ...fault });
    expect(await stack.graphql(ORDI_QUERY)).toEqual({ status: 200, body: { data: ORDI_DATA } });
    expect(stack.upstreamCalls()).toEqual([`GET ${ORDI_PATH}`, `GET ${ORDI_PATH}`]);
  });

  test('a 429 with a short Retry-After is retried after it, within the deadline', async () => {
    stack.sample.inject({ path: ORDI_PATH, times: 1, status: 429, headers: { 'retry-after': '1' }, body: {} });
    const started = Date.now();
    expect(await stack.graphql(ORDI_QUERY)).toEqual({ status: 200, body: { data: ORDI_DATA } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(stack.upstreamCalls()).toEqual([`GET ${ORDI_PATH}`, `GET ${ORDI_PATH}`]);
  });

  test('persistent failure: at most 1 + UPSTREAM_RETRIES calls, then the contract code', async () => {
    stack.sample.inject({ path: ORDI_PATH, status: 503, body: { message: 'down' } });
    const answer = await stack.graphql(`${ORDI_QUERY.slice(0, -1)} status { status } }`);
    expect(answer.body).toEqual({
      data: { brc20Token: null, status: { status: 'ready' } },
      errors: [
        {
          message: 'The ordinals service answered with HTTP 503',
          path: ['brc20Token'],
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 503 },
        },
      ],
    });
    expect(stack.upstreamCalls().filter((call) => call === `GET ${ORDI_PATH}`)).toHaveLength(3);
  });

  test('malformed JSON in a 200 is not retried (the upstream answered) and is UPSTREAM_ERROR', async () => {
    stack.sample.inject({ path: ORDI_PATH, times: 1, status: 200, body: '{"token": {"id": "x"' });
    const answer = await stack.graphql(ORDI_QUERY);
    expect(answer.body.errors?.map((e) => e.extensions)).toEqual([{ code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 }]);
    expect(stack.upstreamCalls()).toEqual([`GET ${ORDI_PATH}`]);
  });

  test('the DELETE is never retried', async () => {
    const uuid = sampleData.chainhookUuids[0]!;
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', status: 503, body: { status: 'error' } });
    const answer = await stack.graphql(`mutation { deleteChainhook(uuid: "${uuid}", apiKey: "k") { status } }`);
    expect(answer.body.errors?.map((e) => e.extensions)).toEqual([{ code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 503 }]);
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/k/chainhooks/${uuid}`]);
  });
});

describe('timeouts (UPSTREAM_TIMEOUT_MS=400)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '2', UPSTREAM_TIMEOUT_MS: '400' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test.each([
    ['a hung connection', { hang: true }],
    ['an answer after the deadline', { delayMs: 1000 }],
  ])('%s costs the field UPSTREAM_TIMEOUT within the deadline, retries included', async (_name, fault) => {
    stack.sample.inject({ path: ORDI_PATH, ...fault });
    const started = Date.now();
    const answer = await stack.graphql(`${ORDI_QUERY.slice(0, -1)} status { status } }`);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(answer.body.data).toEqual({ brc20Token: null, status: { status: 'ready' } });
    expect(answer.body.errors?.map((e) => e.extensions)).toEqual([{ code: 'UPSTREAM_TIMEOUT', service: 'ordinals' }]);
    // The deadline is the whole wait: a timed-out attempt is not retried past it.
    expect(stack.upstreamCalls().filter((call) => call === `GET ${ORDI_PATH}`)).toEqual([`GET ${ORDI_PATH}`]);
  });
});

describe('circuit breaker (BREAKER_THRESHOLD=3, BREAKER_COOLDOWN_MS=500)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '500' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test('opens after a run of failures, fails fast without calling, and a probe closes it again', async () => {
    stack.sample.inject({ path: '/ordinals/*', reset: true });
    for (let i = 0; i < 3; i++) {
      const failed = await stack.graphql(ORDI_QUERY);
      expect(failed.body.errors?.map((e) => e.extensions?.code)).toEqual(['UPSTREAM_UNAVAILABLE']);
    }
    expect(stack.upstreamCalls()).toHaveLength(3);
    stack.sample.clearLog();

    // Open: no upstream call, no waiting; other services are not affected.
    const open = await stack.graphql(`${ORDI_QUERY.slice(0, -1)} etchings(limit: 1) { total } }`);
    expect(open.body).toEqual({
      data: { brc20Token: null, etchings: { total: sampleData.etchingsTotal } },
      errors: [
        {
          message: 'The ordinals service could not be reached',
          path: ['brc20Token'],
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'UPSTREAM_UNAVAILABLE', service: 'ordinals', retryAfter: 1 },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=0&limit=1']);
    const ready = await rest(`${stack.gatewayUrl}/readyz`);
    // Opened by this one client's failures: another client's request would still be sent.
    expect(ready.body).toMatchObject({ status: 'ready', services: { ordinals: { breaker: 'half-open' }, runes: { breaker: 'closed' } } });

    // After the cooldown the gateway probes the service itself (ordi's lookup); the upstream is
    // back, so the breaker closes and the request that waited for the probe is sent.
    stack.sample.clearFaults();
    await pause(550);
    stack.sample.clearLog();
    expect(await stack.graphql(ORDI_QUERY)).toEqual({ status: 200, body: { data: ORDI_DATA } });
    expect(await stack.graphql(ORDI_QUERY)).toEqual({ status: 200, body: { data: ORDI_DATA } });
    // The probe is the first BRC-20 token's lookup: ordi's, as these requests'.
    expect(stack.upstreamCalls()).toEqual([`GET ${ORDI_PATH}`, `GET ${ORDI_PATH}`, `GET ${ORDI_PATH}`]);
  });
});

describe('circuit breaker against inputs the upstream is slow on (BREAKER_THRESHOLD=3, UPSTREAM_TIMEOUT_MS=300)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '60000', UPSTREAM_TIMEOUT_MS: '300', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  const page = (offset: number, address: string) => etchingsPage(stack, offset, address);
  const TIMED_OUT = etchingsFailed('UPSTREAM_TIMEOUT');
  const served = (offset: number) => ({ status: 200, body: { data: { etchings: { offset } } } });
  const breaker = () => runesBreaker(stack);

  test('a few clients’ timeouts, all at once, open no breaker while others are served; everyone’s do', async () => {
    // Offsets from 8880 on take the upstream a second: past the deadline.
    stack.sample.inject({ path: '/runes/v1/etchings', query: /offset=888\d/, delayMs: 1000 });
    const victim = '198.51.100.7';
    expect(await page(1, victim)).toEqual(served(1));
    // One attacker, two addresses.
    const attack = await Promise.all(Array.from({ length: 8 }, (_, i) => page(8880 + i, `203.0.113.${9 + (i % 2)}`)));
    expect(attack).toEqual(Array.from({ length: 8 }, () => TIMED_OUT));
    expect(await breaker()).toBe('closed');
    stack.sample.clearLog();
    expect(await page(2, victim)).toEqual(served(2));
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=2&limit=1']);

    // A run of failures from every client served lately is the service failing: it opens.
    const run = await Promise.all([page(8888, '203.0.113.9'), page(8889, '203.0.113.9'), page(8887, victim)]);
    expect(run).toEqual([TIMED_OUT, TIMED_OUT, TIMED_OUT]);
    expect(await breaker()).toBe('open');
  });
});

describe('circuit breaker opened by one client alone (BREAKER_THRESHOLD=3, BREAKER_COOLDOWN_MS=60000)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '60000', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());

  const page = (offset: number, address: string) => etchingsPage(stack, offset, address);
  const failed = etchingsFailed;
  const breaker = () => runesBreaker(stack);

  test('fails fast for that client only: another is asked for, and its answer closes it', async () => {
    // The upstream's proxy times out on one deep offset only, which a lone client asks for.
    stack.sample.inject({ path: '/runes/v1/etchings', query: /offset=7777/, status: 504 });
    const attacker = '203.0.113.9';
    for (let i = 0; i < 3; i++) expect(await page(7777, attacker)).toEqual(failed('UPSTREAM_ERROR', { httpStatus: 504 }));
    // Open for that client; to every other, half-open: their requests are sent.
    expect(await breaker()).toBe('half-open');
    stack.sample.clearLog();
    // Its next request (it would take every probe) fails fast, nothing sent.
    expect(await page(7777, attacker)).toEqual(failed('UPSTREAM_UNAVAILABLE', { retryAfter: expect.any(Number) }));
    expect(stack.upstreamCalls()).toEqual([]);
    // Another client's is sent, and served: the service answers, so the breaker closes.
    expect(await page(1, '198.51.100.7')).toEqual({ status: 200, body: { data: { etchings: { offset: 1 } } } });
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=1&limit=1']);
    expect(await breaker()).toBe('closed');
  });
});

describe("the breaker's probe is the gateway's own (BREAKER_THRESHOLD=3, BREAKER_COOLDOWN_MS=500, UPSTREAM_TIMEOUT_MS=300)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '500', UPSTREAM_TIMEOUT_MS: '300', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  const page = (offset: number, address: string) => etchingsPage(stack, offset, address);
  const failed = etchingsFailed;
  const breaker = () => runesBreaker(stack);

  test('two addresses whose inputs time out cannot keep it open by taking each probe', async () => {
    // Offsets from 8880 on take the upstream a second: past the deadline. Nobody else asks.
    stack.sample.inject({ path: '/runes/v1/etchings', query: /offset=888\d/, delayMs: 1000 });
    const attack = await Promise.all([page(8880, '203.0.113.9'), page(8881, '203.0.113.10'), page(8882, '203.0.113.9')]);
    expect(attack).toEqual([failed('UPSTREAM_TIMEOUT'), failed('UPSTREAM_TIMEOUT'), failed('UPSTREAM_TIMEOUT')]);
    expect(await breaker()).toBe('open');
    await pause(550);
    stack.sample.clearLog();
    // Past the cooldown the attacker asks first, as it would to take the probe: the gateway asks
    // the first rune's lookup itself, which answers, and both requests are sent.
    const held = page(8883, '203.0.113.10');
    while (!stack.upstreamCalls().includes('GET /runes/v1/etchings?offset=8883&limit=1')) await pause(5);
    expect(await page(1, '198.51.100.7')).toEqual({ status: 200, body: { data: { etchings: { offset: 1 } } } });
    expect(await held).toEqual(failed('UPSTREAM_TIMEOUT'));
    expect(stack.upstreamCalls()).toEqual([
      `GET ${RUNE_PROBE}`,
      'GET /runes/v1/etchings?offset=8883&limit=1',
      'GET /runes/v1/etchings?offset=1&limit=1',
    ]);
    // The client served holds it closed against the attacker's next run.
    const again = await Promise.all([page(8884, '203.0.113.9'), page(8885, '203.0.113.10'), page(8886, '203.0.113.9')]);
    expect(again).toEqual([failed('UPSTREAM_TIMEOUT'), failed('UPSTREAM_TIMEOUT'), failed('UPSTREAM_TIMEOUT')]);
    expect(await breaker()).toBe('closed');
  });

  test('the probe failing too: it opens the breaker again for everyone, and the waiting request is not sent', async () => {
    stack.sample.inject({ path: '/runes/*', status: 504 });
    const down = await Promise.all([page(1, '198.51.100.7'), page(2, '198.51.100.8'), page(3, '198.51.100.7')]);
    expect(down).toEqual([504, 504, 504].map((httpStatus) => failed('UPSTREAM_ERROR', { httpStatus })));
    await pause(550);
    stack.sample.clearLog();
    expect(await page(4, '198.51.100.9')).toEqual(failed('UPSTREAM_UNAVAILABLE', { retryAfter: 1 }));
    expect(stack.upstreamCalls()).toEqual([`GET ${RUNE_PROBE}`]);
    expect(await breaker()).toBe('open');
  });

  test("the origin down behind Cloudflare (its 521 page): the breaker opens, and the CDN's answer to the probe does not close it", async () => {
    // What the case before left open cools down, and the gateway's probe closes it.
    await pause(550);
    expect(await page(0, '198.51.100.7')).toEqual({ status: 200, body: { data: { etchings: { offset: 0 } } } });
    const cdnPage = '<!DOCTYPE html><html><head><title>api.hiro.so | 521: Web server is down</title></head><body>Cloudflare</body></html>';
    stack.sample.inject({ path: '/runes/*', status: 521, body: cdnPage });
    const down = await Promise.all([page(1, '198.51.100.7'), page(2, '198.51.100.8'), page(3, '198.51.100.7')]);
    expect(down).toEqual([521, 521, 521].map((httpStatus) => failed('UPSTREAM_ERROR', { httpStatus })));
    expect(await breaker()).toBe('open');
    await pause(550);
    stack.sample.clearLog();
    expect(await page(4, '198.51.100.9')).toEqual(failed('UPSTREAM_UNAVAILABLE', { retryAfter: 1 }));
    expect(stack.upstreamCalls()).toEqual([`GET ${RUNE_PROBE}`]);
    expect(await breaker()).toBe('open');
  });
});

describe('the probe reads what clients read (BREAKER_THRESHOLD=2, UPSTREAM_TIMEOUT_MS=300)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      BREAKER_THRESHOLD: '2',
      BREAKER_COOLDOWN_MS: '300',
      UPSTREAM_TIMEOUT_MS: '300',
      UPSTREAM_RETRIES: '0',
      TRUST_PROXY: 'on',
    });
  });
  afterAll(() => stack.close());

  const page = (offset: number, address: string) => etchingsPage(stack, offset, address);

  test('the status route answering while the data routes hang keeps it open: no request reaches the upstream', async () => {
    // The etchings' routes take a second, past the deadline; `/runes/v1` (status) answers at once.
    stack.sample.inject({ path: '/runes/v1/etchings*', delayMs: 1000 });
    const timedOut = etchingsFailed('UPSTREAM_TIMEOUT');
    expect(await Promise.all([page(1, '198.51.100.7'), page(2, '198.51.100.8')])).toEqual([timedOut, timedOut]);
    await pause(350);
    stack.sample.clearLog();
    const first = page(3, '198.51.100.7');
    while (stack.upstreamCalls().length === 0) await pause(5);
    const others = await Promise.all([4, 5, 6, 7].map((offset) => page(offset, `198.51.100.${offset + 6}`)));
    // The first waited for the probe past its deadline; the others failed fast, nothing sent.
    expect([await first, others]).toEqual([timedOut, [4, 5, 6, 7].map(() => etchingsFailed('UPSTREAM_UNAVAILABLE', { retryAfter: 1 }))]);
    expect(stack.upstreamCalls()).toEqual([`GET ${RUNE_PROBE}`]);
  });
});

describe("while the gateway's probe is in flight (BREAKER_THRESHOLD=2, UPSTREAM_RETRIES=0)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '300', UPSTREAM_RETRIES: '0', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());

  const page = (offset: number, address: string) => etchingsPage(stack, offset, address);

  test("the client whose request sent it waits for it and is served; another's fails fast, unsent", async () => {
    stack.sample.inject({ path: '/runes/v1/etchings', status: 504, times: 2 });
    const [a, b] = ['198.51.100.7', '198.51.100.8'];
    const failed = etchingsFailed('UPSTREAM_ERROR', { httpStatus: 504 });
    expect(await Promise.all([page(1, a), page(2, b)])).toEqual([failed, failed]);
    await pause(350);
    stack.sample.inject({ path: RUNE_PROBE, delayMs: 1500 });
    stack.sample.clearLog();
    const probed = page(3, a);
    while (stack.upstreamCalls().length === 0) await pause(5);
    expect(await page(4, b)).toEqual(etchingsFailed('UPSTREAM_UNAVAILABLE', { retryAfter: 1 }));
    expect(await probed).toEqual({ status: 200, body: { data: { etchings: { offset: 3 } } } });
    expect(stack.upstreamCalls()).toEqual([`GET ${RUNE_PROBE}`, 'GET /runes/v1/etchings?offset=3&limit=1']);
  });
});

describe("the gateway's probe answered 429 (BREAKER_THRESHOLD=2, UPSTREAM_RETRIES=0)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ BREAKER_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '300', UPSTREAM_RETRIES: '0', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());

  test('it closes the breaker, but the request that waited for it is not sent into the spent quota', async () => {
    stack.sample.inject({ path: '/runes/v1/etchings', status: 504, times: 2 });
    const failed = etchingsFailed('UPSTREAM_ERROR', { httpStatus: 504 });
    expect(await Promise.all([etchingsPage(stack, 1, '198.51.100.7'), etchingsPage(stack, 2, '198.51.100.8')])).toEqual([failed, failed]);
    await pause(350);
    stack.sample.inject({
      path: RUNE_PROBE,
      status: 429,
      times: 1,
      headers: { 'retry-after': '30' },
      body: { error: 'Too Many Requests' },
    });
    stack.sample.clearLog();
    expect(await etchingsPage(stack, 3, '198.51.100.7')).toEqual(etchingsFailed('RATE_LIMITED', { httpStatus: 429, retryAfter: 30 }));
    expect([stack.upstreamCalls(), await runesBreaker(stack)]).toEqual([[`GET ${RUNE_PROBE}`], 'closed']);
  });
});

describe('stale-if-error (CACHE_TTL_MS=100, STALE_IF_ERROR_MS=60000)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '100', STALE_IF_ERROR_MS: '60000', BREAKER_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '60000' });
  });
  afterAll(() => stack.close());

  test('while the upstream fails, and while the breaker is open, the stored answer is served, marked stale', async () => {
    expect(await stack.graphql(ORDI_QUERY)).toEqual({ status: 200, body: { data: ORDI_DATA } });
    await pause(150);
    stack.sample.inject({ path: '/ordinals/*', status: 503, body: { message: 'down' } });
    const graphql = await stack.graphql(ORDI_QUERY);
    expect(graphql).toEqual({ status: 200, body: { data: ORDI_DATA, extensions: { stale: { ageSeconds: 0 } } } });
    const restAnswer = await fetch(`${stack.gatewayUrl}${ORDI_PATH}`);
    expect({
      status: restAnswer.status,
      body: await restAnswer.json(),
      etag: restAnswer.headers.get('etag'),
      age: restAnswer.headers.get('age'),
      warning: restAnswer.headers.get('warning'),
    }).toEqual({ status: 200, body: ordi, etag: `"${ORDINALS_ETAG}"`, age: '0', warning: '111 - "Revalidation Failed"' });
    // Two failures opened the breaker: now stale answers come without any upstream call.
    stack.sample.clearLog();
    expect((await stack.graphql(ORDI_QUERY)).body).toEqual({ data: ORDI_DATA, extensions: { stale: { ageSeconds: 0 } } });
    expect(stack.upstreamCalls()).toEqual([]);
    // What was never cached still fails with its code.
    const uncached = await stack.graphql('{ brc20Token(ticker: "pepe") { token { ticker } } }');
    expect(uncached.body.errors?.map((e) => e.extensions?.code)).toEqual(['UPSTREAM_UNAVAILABLE']);
  });
});

describe('quota awareness', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '2', UPSTREAM_TIMEOUT_MS: '2000' });
  });
  afterAll(() => stack.close());

  test('a 429 whose Retry-After outlasts the deadline stops all sending to that service until then', async () => {
    stack.sample.inject({ path: '/ordinals/*', times: 1, status: 429, headers: { 'retry-after': '30' }, body: {} });
    const limited = await stack.graphql(`${ORDI_QUERY.slice(0, -1)} status { status } }`);
    expect(limited.body).toEqual({
      data: { brc20Token: null, status: { status: 'ready' } },
      errors: [
        {
          message: 'The ordinals service answered with HTTP 429',
          path: ['brc20Token'],
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 30 },
        },
      ],
    });
    stack.sample.clearLog();
    // The quota is spent: the next request is answered without asking, GraphQL and REST alike.
    const again = await stack.graphql('{ transfers(block: 775700) { total } }');
    expect(again.body.errors?.map((e) => [e.extensions?.code, e.extensions?.retryAfter])).toEqual([['RATE_LIMITED', expect.any(Number)]]);
    const restAnswer = await fetch(`${stack.gatewayUrl}${ORDI_PATH}`);
    expect([restAnswer.status, await restAnswer.json(), Number(restAnswer.headers.get('retry-after')) > 25]).toEqual([
      429,
      { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded: retry later' },
      true,
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
    // Other services keep their own quota.
    expect((await stack.graphql(STATUS_QUERY)).body).toEqual({ data: { status: { status: 'ready' } } });
  });

  test("a spent per-second window blocks for that second, not until the reset of Hiro's other window", async () => {
    // Hiro's answer to the 20th call of a second: nothing left this second, most of the minute left.
    stack.sample.inject({
      path: '/metadata/v1',
      times: 1,
      status: 200,
      headers: {
        'ratelimit-limit': '500',
        'ratelimit-remaining': '480',
        'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 55),
        'x-ratelimit-limit-stacks-second': '20',
        'x-ratelimit-remaining-stacks-second': '0',
        'x-ratelimit-remaining-stacks-minute': '480',
      },
      body: { server_version: 'token-metadata-api v1.3.2 (master:abc1234)', status: 'ready', chain_tip: { block_height: 1 } },
    });
    expect((await stack.graphql(STATUS_QUERY)).body).toEqual({ data: { status: { status: 'ready' } } });
    const blocked = await stack.graphql(STATUS_QUERY);
    expect(blocked.body).toEqual({
      data: { status: null },
      errors: [fieldError(['status'], { code: 'RATE_LIMITED', service: 'metadata', httpStatus: 429, retryAfter: 1 })],
    });
    await pause(1100);
    stack.sample.clearLog();
    expect((await stack.graphql(STATUS_QUERY)).body).toEqual({ data: { status: { status: 'ready' } } });
    expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1']);
  });

  test('ratelimit-remaining 0 with a reset time is respected before any 429', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 60);
    stack.sample.inject({
      path: '/runes/*',
      times: 1,
      status: 200,
      headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
      body: { limit: 1, offset: 0, total: 0, results: [] },
    });
    expect((await stack.graphql('{ etchings(limit: 1) { total } }')).body).toEqual({ data: { etchings: { total: 0 } } });
    stack.sample.clearLog();
    const blocked = await stack.graphql('{ etchings(limit: 2) { total } }');
    expect(blocked.body.errors?.map((e) => e.extensions?.code)).toEqual(['RATE_LIMITED']);
    expect(stack.upstreamCalls()).toEqual([]);
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    expect(metrics).toContain('satgate_upstream_quota_remaining{service="runes"} 0');
  });
});

describe('an upstream that is down, then back', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '1', BREAKER_THRESHOLD: '1000' });
  });
  afterAll(() => stack.close());

  test('every request gets an answer while it is down, and data once it is back; memory stays bounded', async () => {
    const round = async (n: number) => {
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => stack.graphql(`{ brc20Token(ticker: "t${i % 7}") { token { ticker } } status { status } }`)),
      );
      return answers;
    };
    stack.sample.inject({ path: '/ordinals/*', reset: true });
    const gc = (globalThis as { gc?: () => void }).gc;
    await round(100);
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const down = await round(200);
    gc?.();
    const after = process.memoryUsage().heapUsed;
    expect(
      new Set(down.map((a) => JSON.stringify([a.status, a.body.data?.status, a.body.errors?.map((e) => e.extensions?.code)]))),
    ).toEqual(new Set([JSON.stringify([200, { status: 'ready' }, ['UPSTREAM_UNAVAILABLE']])]));
    // 200 failed requests must not leave anything behind (a leak would grow with every request).
    expect(after - before).toBeLessThan(8 * 1024 * 1024);
    stack.sample.clearFaults();
    expect((await stack.graphql(ORDI_QUERY)).body).toEqual({ data: ORDI_DATA });
    expect((await rest(`${stack.gatewayUrl}/healthz`)).status).toBe(200);
  });
});

describe("answers that one client's input decides (BREAKER_THRESHOLD=5, CLIENT_UPSTREAM_CALLS_PER_MINUTE=50)", () => {
  // A stack per case: what one case cached cannot answer for the next.
  let stack: Stack;
  beforeEach(async () => {
    stack = await startStack({
      BREAKER_THRESHOLD: '5',
      BREAKER_COOLDOWN_MS: '60000',
      UPSTREAM_RETRIES: '2',
      UPSTREAM_MAX_RESPONSE_BYTES: '65536',
      CLIENT_UPSTREAM_CALLS_PER_MINUTE: '50',
      TRUST_PROXY: 'on',
    });
  });
  afterEach(() => stack.close());

  const TRANSFERS = '/ordinals/v1/inscriptions/transfers';
  // The real ordinals API fails on every block hash: it queries a column its migrations never create.
  const byHash = { path: TRANSFERS, query: /(^|&)block=[0-9a-f]{64}(&|$)/ };
  const serverError = { statusCode: 500, error: 'Internal Server Error', message: 'column "block_hash" does not exist' };
  const tooLarge = 'x'.repeat(100_000);
  // A distinct block hash per request: the upstream is asked 50 times, not once.
  const hash = (i: number) => `00000000${i.toString(16).padStart(56, 'a')}`;
  const TOKEN_FIELDS = 'token { ticker } supply { holders }';

  test.each<[string, Partial<Fault>, string, { status: number; body: unknown }, Record<string, unknown>]>([
    ['a 500', { status: 500, body: serverError }, '203.0.113.1', { status: 500, body: serverError }, { httpStatus: 500 }],
    [
      'an answer past UPSTREAM_MAX_RESPONSE_BYTES',
      { status: 200, body: tooLarge },
      '203.0.113.2',
      {
        status: 502,
        body: { statusCode: 502, error: 'Bad Gateway', message: 'The ordinals service sent an answer larger than the gateway accepts' },
      },
      {},
    ],
  ])(
    '50 requests answered %s cost their client its share and open no breaker: every other route is served',
    async (_name, fault, attacker, restFailure, status) => {
      stack.sample.inject({ ...byHash, ...fault });
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let i = 0; i < 50; i += 2) {
        const graphql = await stack.graphql(`{ transfers(block: "${hash(i)}") { total } }`, undefined, from(attacker));
        expect(graphql.body).toEqual({
          data: { transfers: null },
          errors: [fieldError(['transfers'], { code: 'UPSTREAM_ERROR', service: 'ordinals', ...status })],
        });
        const answer = await rest(`${stack.gatewayUrl}${TRANSFERS}?block=${hash(i + 1)}`, { headers: from(attacker) });
        expect({ status: answer.status, body: answer.body }).toEqual(restFailure);
      }
      // Each reached the upstream once: an answer is not retried, and nothing was refused.
      expect(callsOf(stack.sample).map(({ path, query }) => `${path} ${query.block}`)).toEqual(
        Array.from({ length: 50 }, (_, i) => `${TRANSFERS} ${hash(i)}`),
      );
      stack.sample.clearLog();

      // The 50 calls were the attacker's own share: its next call is refused, without calling.
      const ordiQuery = `{ brc20Token(ticker: "ordi") { ${TOKEN_FIELDS} } }`;
      expect((await stack.graphql(ordiQuery, undefined, from(attacker))).body).toEqual({
        data: { brc20Token: null },
        errors: [fieldError(['brc20Token'], { code: 'RATE_LIMITED', service: 'ordinals', retryAfter: expect.any(Number), limit: 50 })],
      });
      expect(stack.upstreamCalls()).toEqual([]);

      // Another client: every route is served, a 404 is a 404, and a 503 is still retried.
      const victim = from('198.51.100.7');
      stack.sample.inject({ path: ORDI_PATH, times: 1, status: 503, body: { message: 'busy' } });
      const block = sampleData.transferBlocks.find((b) => b.height === 775700)!;
      const everything = await stack.graphql(
        `{ brc20Token(ticker: "ordi") { ${TOKEN_FIELDS} } missing: brc20Token(ticker: "zzzz") { ${TOKEN_FIELDS} }
         transfers(block: 775700, limit: 1) { total } etchings(limit: 1) { total } status { status } }`,
        undefined,
        victim,
      );
      expect(everything.body).toEqual({
        data: {
          brc20Token: { token: { ticker: 'ordi' }, supply: { holders: ordi.supply.holders } },
          missing: null,
          transfers: { total: block.transfers.length },
          etchings: { total: sampleData.etchingsTotal },
          status: { status: 'ready' },
        },
      });
      const notFound = await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/zzzz`, { headers: victim });
      expect({ status: notFound.status, body: notFound.body }).toEqual({ status: 404, body: { error: 'Not found' } });
      const transfers = await rest(`${stack.gatewayUrl}${TRANSFERS}?block=775700&limit=1`, { headers: victim });
      expect([transfers.status, (transfers.body as { total: number }).total]).toEqual([200, block.transfers.length]);
      expect(
        callsOf(stack.sample)
          .map(({ path, query }) => [path, query.block ?? null])
          .sort(),
      ).toEqual(
        [
          [ORDI_PATH, null],
          [ORDI_PATH, null],
          ['/ordinals/v1/brc-20/tokens/zzzz', null],
          ['/ordinals/v1/brc-20/tokens/zzzz', null],
          [TRANSFERS, '775700'],
          [TRANSFERS, '775700'],
          ['/runes/v1/etchings', null],
          ['/metadata/v1', null],
        ].sort(),
      );
      const ready = await rest(`${stack.gatewayUrl}/readyz`);
      expect(ready.body).toMatchObject({ services: { ordinals: { breaker: 'closed' } } });
    },
  );
});

describe('a client past its share, with the answer stored, stale but within STALE_IF_ERROR_MS', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '0', STALE_IF_ERROR_MS: '300000', CLIENT_UPSTREAM_CALLS_PER_MINUTE: '2' });
  });
  afterAll(() => stack.close());

  test('is told to wait (RATE_LIMITED), not handed the old answer as a failed revalidation', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await stack.graphql(ORDI_QUERY)).body);
    expect(answers).toEqual([
      { data: ORDI_DATA },
      { data: ORDI_DATA },
      {
        data: { brc20Token: null },
        errors: [fieldError(['brc20Token'], { code: 'RATE_LIMITED', service: 'ordinals', retryAfter: expect.any(Number), limit: 2 })],
      },
    ]);
    expect(stack.upstreamCalls()).toHaveLength(2);
  });
});
