// The sample upstream itself, over real HTTP: its bodies must match the upstream examples.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG_AMOUNT_TICKER,
  BIG_TRANSFER_BLOCK,
  DELETABLE_CHAINHOOK_UUIDS,
  EMOJI_TICKER,
  KNOWN_BLOCK_HASH,
  NULL_LOCATION_BLOCK,
  NULL_MINT_LIMIT_TICKER,
  PERCENT_TICKER,
  RUNES_ETAG,
  sampleData,
  SELF_MINT_TICKER,
  SPACE_TICKER,
  ORDINALS_ETAG,
} from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY, startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';

const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../src/sample/data/${name}.json`, import.meta.url), 'utf8'));

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream();
});
afterAll(() => sample.close());
afterEach(() => sample.reset());

async function get(path: string, init: RequestInit = {}) {
  const res = await fetch(sample.url + path, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, text, body };
}

const TRANSFERS = '/ordinals/v1/inscriptions/transfers';
const platform = (rest: string, key = SAMPLE_PLATFORM_KEY) => `/v1/ext/${key}/${rest}`;

describe('validation and routing errors are byte-identical to the upstream', () => {
  it.each([
    [`${TRANSFERS}?block=abc`, 'error-validation-block'],
    [`${TRANSFERS}?block=%20775700`, 'error-validation-block'],
    [TRANSFERS, 'error-validation-block-missing'],
    [`${TRANSFERS}?block=775700&limit=61`, 'error-validation-limit'],
    [`${TRANSFERS}?block=775700&limit=0`, 'error-validation-limit-min'],
    [`${TRANSFERS}?block=775700&limit=-5`, 'error-validation-limit-min'],
    [`${TRANSFERS}?block=775700&limit=abc`, 'error-validation-limit-type'],
    [`${TRANSFERS}?block=775700&limit=1.5`, 'error-validation-limit-type'],
    [`${TRANSFERS}?block=775700&limit=`, 'error-validation-limit-type'],
    [`${TRANSFERS}?block=775700&limit=10&limit=20`, 'error-validation-limit-type'],
    [`${TRANSFERS}?block=775700&offset=-1`, 'error-validation-offset'],
    ['/runes/v1/etchings?limit=61', 'error-validation-limit'],
    ['/runes/etchings?limit=abc', 'error-validation-limit-type'],
    ['/runes/v1/etchings?offset=-1', 'error-validation-offset'],
  ])('%s → %s', async (path, file) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(example(file));
    expect(res.headers.get('etag')).toBeNull(); // validation runs before the cache hook
  });

  it('a raw slash in a ticker is a Fastify route-404', async () => {
    const res = await get('/ordinals/v1/brc-20/tokens/or/di');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(example('error-route-not-found'));
  });

  it('a ticker longer than 100 characters is a route-404', async () => {
    const res = await get(`/ordinals/v1/brc-20/tokens/${'a'.repeat(101)}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Not Found', statusCode: 404 });
  });

  it('an etching in none of the four forms is a five-part anyOf 400', async () => {
    const res = await get('/runes/v1/etchings/Sample-Rune');
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message.split(', ')).toHaveLength(5);
  });

  it('unknown query parameters are ignored', async () => {
    expect((await get(`${TRANSFERS}?block=775700&foo=bar`)).status).toBe(200);
  });
});

describe('token metadata status', () => {
  it.each(['/metadata/v1', '/metadata/v1/', '/metadata', '/metadata/'])('%s answers the v1 shape', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(example('status-openapi-example'));
    expect(res.headers.get('etag')).toBe('"163541"');
    expect(res.headers.get('cache-control')).toBe('public, no-cache, must-revalidate');
  });

  it('answers the v2 shape with the index block hash as ETag in the status-v2 profile', async () => {
    const v2 = await startSampleUpstream({ profile: 'status-v2' });
    try {
      const res = await fetch(`${v2.url}/metadata/v1`);
      const body = (await res.json()) as { chain_tip: { index_block_hash: string } };
      expect(Object.keys(body)).toEqual(['server_version', 'status', 'chain_tip']);
      expect(res.headers.get('etag')).toBe(`"${body.chain_tip.index_block_hash}"`);
    } finally {
      await v2.close();
    }
  });
});

describe('ETag and 304', () => {
  it.each([`"${ORDINALS_ETAG}"`, `W/"${ORDINALS_ETAG}"`, ORDINALS_ETAG, `"other", "${ORDINALS_ETAG}"`])(
    'If-None-Match %s gives a bare 304',
    async (ifNoneMatch) => {
      const res = await get('/ordinals/v1/brc-20/tokens/ordi', { headers: { 'if-none-match': ifNoneMatch } });
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.get('cache-control')).toBe('public, no-cache, must-revalidate');
      expect(res.headers.get('etag')).toBeNull();
    },
  );

  it('the ordinals ETag is global: a 404 carries it and an unknown ticker can be a 304', async () => {
    const res = await get('/ordinals/v1/brc-20/tokens/nosuchtoken');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(example('error-not-found'));
    expect(res.headers.get('etag')).toBe(`"${ORDINALS_ETAG}"`);
    expect(res.headers.get('cache-control')).toBe('public, no-cache, must-revalidate');
    const transfers = await get(`${TRANSFERS}?block=1`);
    expect(transfers.headers.get('etag')).toBe(`"${ORDINALS_ETAG}"`);
    const cached = await get('/ordinals/v1/brc-20/tokens/nosuchtoken', { headers: { 'if-none-match': `"${ORDINALS_ETAG}"` } });
    expect(cached.status).toBe(304);
  });

  it('the ordinals ETag is the newest location time in seconds', () => {
    const newest = Math.max(...sampleData.transferBlocks.flatMap((b) => b.transfers.map((t) => t.to.timestamp)));
    expect(ORDINALS_ETAG).toBe(String(newest / 1000));
  });

  it('* never matches', async () => {
    expect((await get('/runes/v1/etchings', { headers: { 'if-none-match': '*' } })).status).toBe(200);
  });

  it('the runes ETag is the chain tip block hash', async () => {
    const res = await get('/runes/v1/etchings?limit=1');
    expect(res.headers.get('etag')).toBe(`"${RUNES_ETAG}"`);
    expect(RUNES_ETAG).toBe(sampleData.etchings[0]!.location.block_hash);
    expect((await get('/runes/v1/etchings', { headers: { 'if-none-match': `"${RUNES_ETAG}"` } })).status).toBe(304);
  });
});

describe('BRC-20 tokens', () => {
  it.each(['ordi', 'ORDI', 'Ordi'])('%s finds the ordi example, ticker lowercase', async (ticker) => {
    const res = await get(`/ordinals/v1/brc-20/tokens/${ticker}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(example('brc20-ordi'));
  });

  it('serves pepe and sats unversioned too', async () => {
    expect((await get('/ordinals/brc-20/tokens/pepe')).body).toEqual(example('brc20-pepe'));
    expect((await get('/ordinals/v1/brc-20/tokens/SATS')).body).toEqual(example('brc20-sats'));
  });

  it.each([EMOJI_TICKER, SELF_MINT_TICKER.toUpperCase(), NULL_MINT_LIMIT_TICKER, BIG_AMOUNT_TICKER, PERCENT_TICKER, SPACE_TICKER])(
    'special ticker %s',
    async (ticker) => {
      const res = await get(`/ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`);
      expect(res.status).toBe(200);
      expect((res.body as { token: { ticker: string } }).token.ticker).toBe(ticker.toLowerCase());
    },
  );

  it('keeps the special tokens special', async () => {
    const big = await get(`/ordinals/v1/brc-20/tokens/${BIG_AMOUNT_TICKER}`);
    expect(big.text).toContain('"max_supply":"9007199254740993.000000000000000001"');
    const selfMint = (await get(`/ordinals/v1/brc-20/tokens/${SELF_MINT_TICKER}`)).body as { token: { self_mint: boolean } };
    expect(selfMint.token.self_mint).toBe(true);
    expect(Buffer.byteLength(SELF_MINT_TICKER)).toBe(5);
    const noLimit = (await get(`/ordinals/v1/brc-20/tokens/${NULL_MINT_LIMIT_TICKER}`)).body as { token: { mint_limit: null } };
    expect(noLimit.token.mint_limit).toBeNull();
  });

  it('formats every amount with exactly `decimals` fractional digits', () => {
    expect(sampleData.brc20Tokens.length).toBeGreaterThanOrEqual(40);
    expect(new Set(sampleData.brc20Tokens.map((t) => t.token.decimals)).size).toBeGreaterThan(2);
    for (const { token, supply } of sampleData.brc20Tokens) {
      const pattern = token.decimals === 0 ? /^[0-9]+$/ : new RegExp(`^[0-9]+\\.[0-9]{${token.decimals}}$`);
      for (const amount of [token.max_supply, token.minted_supply, token.mint_limit ?? '0', supply.minted_supply]) {
        expect(amount).toMatch(pattern);
      }
    }
  });

  it('an empty ticker matches the route and is not found', async () => {
    const res = await get('/ordinals/v1/brc-20/tokens/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(example('error-not-found'));
  });
});

describe('inscription transfers', () => {
  it('reproduces the example pages', async () => {
    expect((await get(`${TRANSFERS}?block=775700`)).body).toEqual(example('transfers-block-775700'));
    expect((await get(`${TRANSFERS}?block=775701&limit=1&offset=1`)).body).toEqual(example('transfers-block-775701-limit1-offset1'));
    expect((await get(`${TRANSFERS}?block=775617`)).body).toEqual(example('transfers-block-775617-empty'));
  });

  it('looks blocks up by hash exactly, and by height numerically', async () => {
    expect((await get(`${TRANSFERS}?block=${KNOWN_BLOCK_HASH}`)).body).toEqual(example('transfers-block-775700'));
    const upper = (await get(`${TRANSFERS}?block=${KNOWN_BLOCK_HASH.toUpperCase()}`)).body;
    expect(upper).toEqual({ limit: 20, offset: 0, total: 0, results: [] });
    expect((await get(`/ordinals/inscriptions/transfers?block=0775700`)).body).toEqual(example('transfers-block-775700'));
  });

  it('an unknown block is a 200 with an empty page', async () => {
    const res = await get(`${TRANSFERS}?block=123&limit=5`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ limit: 5, offset: 0, total: 0, results: [] });
  });

  it('pages newest first through the big block; total is 0 past the end', async () => {
    const block = sampleData.transferBlocks.find((b) => b.height === BIG_TRANSFER_BLOCK)!;
    expect(block.transfers.length).toBeGreaterThan(60);
    const newestFirst = [...block.transfers].reverse();
    const first = await get(`${TRANSFERS}?block=${BIG_TRANSFER_BLOCK}&limit=60`);
    expect(first.body).toEqual({ limit: 60, offset: 0, total: block.transfers.length, results: newestFirst.slice(0, 60) });
    const second = await get(`${TRANSFERS}?block=${block.hash}&limit=60&offset=60`);
    expect(second.body).toEqual({ limit: 60, offset: 60, total: block.transfers.length, results: newestFirst.slice(60) });
    const past = await get(`${TRANSFERS}?block=${BIG_TRANSFER_BLOCK}&offset=${block.transfers.length}`);
    expect(past.body).toEqual({ limit: 20, offset: block.transfers.length, total: 0, results: [] });
  });

  it('keeps null address, value and offset, with a ":null" location', async () => {
    const res = (await get(`${TRANSFERS}?block=${NULL_LOCATION_BLOCK}`)).body as {
      results: { to: { address: null; value: null; offset: null; location: string; timestamp: number } }[];
    };
    expect(res.results.length).toBeGreaterThan(0);
    for (const { to } of res.results) {
      expect(to).toMatchObject({ address: null, value: null, offset: null });
      expect(to.location).toMatch(/^[0-9a-f]{64}:[0-9]+:null$/);
      expect(to.timestamp).toBeGreaterThan(1e12); // milliseconds
    }
  });
});

describe('runes etchings', () => {
  it('lists newest first with total = highest number + 1', async () => {
    const res = await get('/runes/v1/etchings?limit=60&offset=10');
    expect(res.body).toEqual({ limit: 60, offset: 10, total: sampleData.etchingsTotal, results: sampleData.etchings.slice(10, 70) });
    expect(sampleData.etchings.length).toBeGreaterThanOrEqual(300);
    expect(sampleData.etchingsTotal).toBe(Math.max(...sampleData.etchings.map((e) => e.number)) + 1);
  });

  it('ends with the two example etchings, and total is 0 past the end', async () => {
    const n = sampleData.etchings.length;
    const tail = (await get(`/runes/etchings?offset=${n - 2}&limit=2`)).body as { results: unknown };
    expect(tail.results).toEqual((example('etchings-page') as { results: unknown }).results);
    expect((await get(`/runes/v1/etchings?offset=${n}`)).body).toEqual({ limit: 20, offset: n, total: 0, results: [] });
  });

  it('reports timestamps in seconds', () => {
    for (const e of sampleData.etchings) expect(e.location.timestamp).toBeLessThan(1e11);
  });

  it.each(['1:0', '0', 'UNCOMMONGOODS', encodeURIComponent('UNCOMMON•GOODS')])('finds UNCOMMON•GOODS by %s', async (form) => {
    const res = await get(`/runes/v1/etchings/${form}`);
    expect(res.status).toBe(200);
    expect((res.body as { spaced_name: string }).spaced_name).toBe('UNCOMMON•GOODS');
  });

  it('an unknown etching is 404 Not found', async () => {
    const res = await get('/runes/v1/etchings/999999:1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(example('error-not-found'));
    expect(res.headers.get('etag')).toBe(`"${RUNES_ETAG}"`);
  });
});

describe('CORS', () => {
  it('answers with @fastify/cors defaults', async () => {
    const res = await get('/runes/v1/etchings?limit=1', { headers: { origin: 'http://example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await get('/runes/v1/etchings', {
      method: 'OPTIONS',
      headers: { origin: 'http://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD,PUT,PATCH,POST,DELETE');
  });
});

describe('platform', () => {
  const del = (uuid: string, key?: string) => get(platform(`chainhooks/${uuid}`, key), { method: 'DELETE' });

  it('deletes a chainhook once; reset() restores it', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[1]!;
    expect(sampleData.chainhookUuids).toContain(uuid);
    expect((await del(uuid)).body).toEqual({ status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' });
    const again = await del(uuid);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ status: 'error', message: 'Chainhook not found', error: null });
    sample.reset();
    expect((await del(uuid.toUpperCase())).status).toBe(200);
    const withJsonType = await get(platform(`chainhooks/${DELETABLE_CHAINHOOK_UUIDS[2]}`), {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(withJsonType.status).toBe(200);
  });

  it('checks the key: "revoked-key" is 401, other unknown keys 403', async () => {
    const unauthorized = await del(DELETABLE_CHAINHOOK_UUIDS[0]!, 'revoked-key');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toMatchObject({ status: 'error', error: null });
    const forbidden = await get(platform('bitcoin-node/rest/chaininfo.json', '0123456789abcdef0123456789abcdef'));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ status: 'error', error: null });
  });

  it('serves the bitcoind REST interface', async () => {
    const info = await get(platform('bitcoin-node/rest/chaininfo.json'));
    expect(info.body).toEqual((example('bitcoin-node-chaininfo') as { result: unknown }).result);
    expect((await get(platform('bitcoin-node/rest/mempool/info.json'))).body).toMatchObject({ loaded: true });
    const tip = sampleData.bitcoinNode.chainInfo.bestblockhash;
    expect((await get(platform('bitcoin-node/rest/blockhashbyheight/116.json'))).body).toEqual({ blockhash: tip });
    const hexHash = await get(platform('bitcoin-node/rest/blockhashbyheight/116.hex'));
    expect(hexHash.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(hexHash.text.trim()).toBe(tip);
  });

  it('honours the query string of rest/headers', async () => {
    const genesis = sampleData.bitcoinNode.blockHashes[0]!;
    const headers = (await get(platform(`bitcoin-node/rest/headers/${genesis}.json?count=3`))).body as { height: number }[];
    expect(headers.map((h) => h.height)).toEqual([0, 1, 2]);
    expect(sample.requests.at(-1)!.url).toBe(platform(`bitcoin-node/rest/headers/${genesis}.json?count=3`));
  });

  it('answers the root like bitcoind: 405 text, unknown paths an empty 404', async () => {
    for (const path of ['bitcoin-node', 'bitcoin-node/']) {
      const res = await get(platform(path));
      expect(res.status).toBe(405);
      expect(res.text).toBe('JSONRPC server handles only POST requests');
    }
    const unknown = await get(platform('bitcoin-node/extended/v1/tx'));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
  });
});

describe('request log', () => {
  it('records every request raw, errors included, until cleared', async () => {
    await get('/ordinals/v1/brc-20/tokens/x%25y?z=1', { headers: { 'x-api-key': 'k' } });
    await get('/nope');
    await get(`${TRANSFERS}?limit=99`);
    expect(sample.requests.map((r) => [r.method, r.url, r.path])).toEqual([
      ['GET', '/ordinals/v1/brc-20/tokens/x%25y?z=1', '/ordinals/v1/brc-20/tokens/x%25y'],
      ['GET', '/nope', '/nope'],
      ['GET', `${TRANSFERS}?limit=99`, TRANSFERS],
    ]);
    expect(sample.requests[0]!.headers['x-api-key']).toBe('k');
    sample.clearLog();
    expect(sample.requests).toEqual([]);
  });
});

describe('fault injection', () => {
  it('answers a scripted status and JSON body the given number of times, logging it', async () => {
    sample.inject({ path: '/runes/v1/etchings', times: 1, status: 429, body: { message: 'slow down' }, headers: { 'Retry-After': '7' } });
    const limited = await get('/runes/v1/etchings');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'slow down' });
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await get('/runes/v1/etchings')).status).toBe(200);
    expect(sample.requests).toHaveLength(2);
  });

  it('matches prefixes, regexps and methods; text bodies are text/plain', async () => {
    sample.inject({ path: '/ordinals/*', status: 502, body: 'bad gateway' });
    sample.inject({ method: 'DELETE', path: /chainhooks/, status: 500, body: { status: 'error' } });
    const text = await get('/ordinals/v1/brc-20/tokens/ordi');
    expect([text.status, text.text, text.headers.get('content-type')]).toEqual([502, 'bad gateway', 'text/plain; charset=utf-8']);
    expect((await get('/metadata/v1')).status).toBe(200);
    expect((await get(platform(`chainhooks/${DELETABLE_CHAINHOOK_UUIDS[0]}`), { method: 'DELETE' })).status).toBe(500);
    sample.clearFaults();
    expect((await get('/ordinals/v1/brc-20/tokens/ordi')).status).toBe(200);
  });

  it('delays, then answers normally', async () => {
    sample.inject({ path: '/metadata/v1', delayMs: 150 });
    const started = Date.now();
    const res = await get('/metadata/v1');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('resets the connection', async () => {
    sample.inject({ path: '/metadata/v1', reset: true, times: 1 });
    await expect(fetch(`${sample.url}/metadata/v1`)).rejects.toThrow();
    expect((await get('/metadata/v1')).status).toBe(200);
  });

  it('reset() clears faults and the log', async () => {
    sample.inject({ path: '/metadata/v1', status: 503 });
    expect((await get('/metadata/v1')).status).toBe(503);
    sample.reset();
    expect(sample.requests).toEqual([]);
    expect((await get('/metadata/v1')).status).toBe(200);
  });

  it('hangs until close(), which returns promptly', async () => {
    const own = await startSampleUpstream();
    own.inject({ path: '*', hang: true });
    const pending = fetch(`${own.url}/metadata/v1`).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(own.requests).toHaveLength(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });
});

describe('profiles', () => {
  const LIST = '/ordinals/v1/brc-20/tokens?ticker=ordi';
  const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;

  it('hiro (the default) serves the BRC-20 token list', async () => {
    const res = await get(LIST);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ limit: 20, offset: 0, total: 1, results: [ordi.token] });
  });

  it('documented serves only the routes of docs/sources.md: the token list is a route 404', async () => {
    const documented = await startSampleUpstream({ profile: 'documented' });
    try {
      expect(documented.baseUrl).toBe(documented.url);
      for (const path of [LIST, '/ordinals/brc-20/tokens?ticker=ordi']) {
        const res = await fetch(documented.url + path);
        expect({ status: res.status, body: await res.json() }).toEqual({
          status: 404,
          body: { message: `Route GET:${path} not found`, error: 'Not Found', statusCode: 404 },
        });
      }
      const token = await fetch(`${documented.url}/ordinals/v1/brc-20/tokens/ordi`);
      expect(await token.json()).toEqual(ordi);
    } finally {
      await documented.close();
    }
  });

  it('prefixed serves every service below /api; the log and faults use the path below it', async () => {
    const prefixed = await startSampleUpstream({ profile: 'prefixed' });
    try {
      expect(prefixed.baseUrl).toBe(`${prefixed.url}/api`);
      prefixed.inject({ path: '/runes/v1/etchings', status: 503, body: 'busy' });
      const answers = await Promise.all(
        [
          '/api/metadata/v1',
          '/api/metadata',
          `/api${platform('bitcoin-node/rest/chaininfo.json')}`,
          '/api/runes/v1/etchings',
          '/metadata/v1',
          '/apimetadata/v1',
        ].map(async (path) => (await fetch(prefixed.url + path)).status),
      );
      expect(answers).toEqual([200, 200, 200, 503, 404, 404]);
      expect(prefixed.requests.map(({ method, url, path, received }) => ({ method, url, path, received }))).toEqual([
        { method: 'GET', url: '/metadata/v1', path: '/metadata/v1', received: '/api/metadata/v1' },
        { method: 'GET', url: '/metadata', path: '/metadata', received: '/api/metadata' },
        {
          method: 'GET',
          url: platform('bitcoin-node/rest/chaininfo.json'),
          path: platform('bitcoin-node/rest/chaininfo.json'),
          received: `/api${platform('bitcoin-node/rest/chaininfo.json')}`,
        },
        { method: 'GET', url: '/runes/v1/etchings', path: '/runes/v1/etchings', received: '/api/runes/v1/etchings' },
        // Outside the base path: logged as received, answered with a route 404.
        { method: 'GET', url: '/metadata/v1', path: '/metadata/v1', received: '/metadata/v1' },
        { method: 'GET', url: '/apimetadata/v1', path: '/apimetadata/v1', received: '/apimetadata/v1' },
      ]);
      const outside = await fetch(`${prefixed.url}/metadata/v1?x=1`);
      expect(await outside.json()).toEqual({ message: 'Route GET:/metadata/v1?x=1 not found', error: 'Not Found', statusCode: 404 });
    } finally {
      await prefixed.close();
    }
  });
});
