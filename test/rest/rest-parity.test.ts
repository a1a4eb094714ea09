// The REST compatibility layer, over real HTTP: every answer of the gateway is compared with what
// the sample upstream answers directly for the same request (status, body, ETag, Cache-Control,
// Content-Type), and the sample's request log says which upstream calls the gateway made. The
// parity cases run against each profile of the sample (test/profiles.ts), and against each data
// source: there an operation's answer is hiro's body with null where the source lacks a field,
// named by x-data-source, without ETag (docs/sources.md).
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  BIG_TRANSFER_BLOCK,
  blockHash,
  DELETABLE_CHAINHOOK_UUIDS,
  EMOJI_TICKER,
  ETCHING_COUNT,
  KNOWN_BLOCK_HASH,
  ORDINALS_ETAG,
  PERCENT_TICKER,
  RUNES_ETAG,
  sampleData,
  SPACE_TICKER,
} from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { rest, startStack, type Stack } from '../harness.js';
import {
  SUITE_PROFILES,
  expectAllBelowBase,
  expectCallsOf,
  sampleProfileOf,
  servedBy,
  stackOptions,
  statusOf,
  type SourcedOperation,
} from '../profiles.js';
import { restBrc20FromUnisat, restEtchingFromOrd, restEtchingFromUnisat, restUnisatNewestFirst } from '../sources-expected.js';
import { BYTES_ETAG, callsOf, type UpstreamCall } from '../support.js';

type Answer = Awaited<ReturnType<typeof rest>>;

const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../src/sample/data/${name}.json`, import.meta.url), 'utf8'));

const CACHE_CONTROL = 'public, no-cache, must-revalidate';
const JSON_TYPE = 'application/json; charset=utf-8';
const KEY = SAMPLE_PLATFORM_KEY;
const TRANSFERS = '/ordinals/v1/inscriptions/transfers';
const TRANSFERS_ALIAS = '/ordinals/inscriptions/transfers';
const ETCHINGS = '/runes/v1/etchings';
const ETCHINGS_ALIAS = '/runes/etchings';
const node = (path: string, key = KEY) => `/v1/ext/${key}/bitcoin-node/${path}`;
const chainhook = (uuid: string, key = KEY) => `/v1/ext/${key}/chainhooks/${uuid}`;
/** Fastify's route 404, except that the gateway never echoes a platform key from the path. */
const routeNotFound = (method: string, url: string) => ({
  message: `Route ${method}:${url.replace(/^\/v1\/ext\/[^/]*/, '/v1/ext/<redacted>')} not found`,
  error: 'Not Found',
  statusCode: 404,
});

let stack: Stack;

/** The upstream requests logged since the last clearLog() (but UniSat's height asks: see callsOf). */
function upstreamCalls(s: Stack = stack): UpstreamCall[] {
  return callsOf(s.sample);
}

/** One request sent as raw bytes below `base`: no client-side URL normalisation (`%2e%2e` stays as it is). */
function raw(base: string, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port, pathname } = new URL(base);
  const target = pathname.replace(/\/$/, '') + path;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: compared as text
        }
        const header = (name: string) => {
          const value = res.headers[name];
          return typeof value === 'string' ? value : null;
        };
        resolve({
          status: res.statusCode ?? 0,
          body,
          etag: header('etag'),
          cacheControl: header('cache-control'),
          contentType: header('content-type'),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends the request to the gateway (log cleared first), records the upstream calls it made, then
 * sends the same request to the sample directly.
 */
async function compare(path: string, init: RequestInit = {}) {
  stack.sample.clearLog();
  const gateway = await rest(stack.gatewayUrl + path, init);
  const calls = upstreamCalls();
  const direct = await rest(stack.sample.baseUrl + path, init);
  stack.sample.clearLog();
  return { gateway, direct, calls };
}

/** As compare(), with raw requests (paths the fetch client would normalise). */
async function compareRaw(path: string, method = 'GET') {
  stack.sample.clearLog();
  const gateway = await raw(stack.gatewayUrl, path, method);
  const calls = upstreamCalls();
  const direct = await raw(stack.sample.baseUrl, path, method);
  stack.sample.clearLog();
  return { gateway, direct, calls };
}

const GET = (path: string, query: Record<string, string> = {}): UpstreamCall => ({ method: 'GET', path, query });

/** A gateway answer of a data source: what rest() sees, and the x-data-source header. */
async function sourcedAnswer(path: string, init: RequestInit = {}) {
  stack.sample.clearLog();
  const response = await fetch(stack.gatewayUrl + path, init);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as unknown) : null,
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    contentType: response.headers.get('content-type'),
    dataSource: response.headers.get('x-data-source'),
  };
}

/** A source's answer as the REST layer gives it: hiro's status and body, an ETag when found, no Cache-Control. */
const fromSource = (source: string, status: number, body: unknown) => ({
  status,
  body,
  etag: status === 200 ? expect.stringMatching(BYTES_ETAG) : null,
  cacheControl: CACHE_CONTROL,
  contentType: JSON_TYPE,
  dataSource: source,
});

describe.each(SUITE_PROFILES)('against the %s upstream', (profile) => {
  const sampleProfile = sampleProfileOf(profile);
  const sourceOf = (operation: SourcedOperation) => servedBy(profile, operation);
  beforeAll(async () => {
    stack = await startStack(...stackOptions(profile));
  });
  afterAll(() => stack?.close());
  afterEach(() => {
    expectAllBelowBase(stack.sample);
    stack.sample.reset();
  });

  // ---------------------------------------------------------------------------------------------
  describe('token metadata status', () => {
    test.each(['/metadata/v1', '/metadata/v1/', '/metadata', '/metadata/'])('GET %s', async (path) => {
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({
        status: 200,
        body: statusOf(sampleProfile).shape === 'v2' ? sampleData.statusV2 : example('status-openapi-example'),
        etag: `"${statusOf(sampleProfile).etag}"`,
        cacheControl: CACHE_CONTROL,
        contentType: JSON_TYPE,
      });
      expect(calls).toEqual([GET('/metadata/v1')]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('BRC-20 token details', () => {
    const tickers: Array<[label: string, encoded: string, decoded: string, found: boolean]> = [
      ['ordi', 'ordi', 'ordi', true],
      ['ORDI (case-insensitive)', 'ORDI', 'ORDI', true],
      ['emoji', encodeURIComponent(EMOJI_TICKER), EMOJI_TICKER, true],
      ['percent x%y', 'x%25y', PERCENT_TICKER, true],
      ['space a b', 'a%20b', SPACE_TICKER, true],
      ['unknown', 'nope', 'nope', false],
      ['50 emojis (100 UTF-16 units, routable, unknown)', encodeURIComponent(EMOJI_TICKER.repeat(50)), EMOJI_TICKER.repeat(50), false],
      ['100 characters only after decoding (routable, unknown)', '%61'.repeat(100), 'a'.repeat(100), false],
      ['empty (matches with "")', '', '', false],
    ];
    const rows = ['/ordinals/v1/brc-20/tokens/', '/ordinals/brc-20/tokens/'].flatMap((prefix) =>
      tickers
        // As hex, 50 emojis make a UniSat path segment of 400 characters, past the sample's one
        // router's limit for hiro's routes (100): a 404 UniSat is not known to give.
        .filter(([label]) => !(sourceOf('brc20') === 'unisat' && label.startsWith('50 emojis')))
        .map(([label, encoded, decoded, found]) => [`${prefix}{${label}}`, prefix, encoded, decoded, found] as const),
    );

    test.each(rows)('GET %s', async (_name, prefix, encoded, decoded, found) => {
      const source = sourceOf('brc20');
      if (source !== 'hiro') {
        const answer = await sourcedAnswer(prefix + encoded);
        const token = sampleData.brc20Tokens.find((t) => t.token.ticker === decoded.toLowerCase());
        expect(answer).toEqual(fromSource(source, found ? 200 : 404, found ? restBrc20FromUnisat(token!) : example('error-not-found')));
        // An empty ticker names no token: nothing to ask.
        expect(upstreamCalls()).toHaveLength(decoded === '' ? 0 : 1);
        return expectCallsOf(profile, 'brc20', stack.sample, []);
      }
      const { gateway, direct, calls } = await compare(prefix + encoded);
      expect(gateway).toEqual(direct);
      const token = sampleData.brc20Tokens.find((t) => t.token.ticker === decoded.toLowerCase());
      expect(gateway).toEqual({
        status: found ? 200 : 404,
        body: found ? token : example('error-not-found'),
        // The ordinals ETag is global: a 404 carries it too.
        etag: `"${ORDINALS_ETAG}"`,
        cacheControl: CACHE_CONTROL,
        contentType: JSON_TYPE,
      });
      // The upstream lookup is case-insensitive: the gateway may send the ticker lowercased.
      const lower = (c: UpstreamCall) => ({ ...c, path: c.path.toLowerCase() });
      expect(calls.map(lower)).toEqual([lower(GET(`/ordinals/v1/brc-20/tokens/${encodeURIComponent(decoded)}`))]);
    });

    test('ordi is the upstream example body', async () => {
      const { gateway } = await compare('/ordinals/v1/brc-20/tokens/ORDI');
      const ordi = example('brc20-ordi') as Parameters<typeof restBrc20FromUnisat>[0];
      expect(gateway.body).toEqual(sourceOf('brc20') === 'unisat' ? restBrc20FromUnisat(ordi) : ordi);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('inscription transfers per block', () => {
    const big = sampleData.transferBlocks.find((b) => b.height === BIG_TRANSFER_BLOCK)!;
    const bigNewestFirst = [...big.transfers].reverse();
    const page = (limit: number, offset: number, results: unknown[], total: number) => ({ limit, offset, total, results });
    const cases: Array<[label: string, query: string, expected: unknown]> = [
      ['by height, defaults', 'block=775700', example('transfers-block-775700')],
      ['by hash', `block=${KNOWN_BLOCK_HASH}`, example('transfers-block-775700')],
      ['by height with leading zeros', 'block=0775700', example('transfers-block-775700')],
      ['paged example', 'block=775701&offset=1&limit=1', example('transfers-block-775701-limit1-offset1')],
      ['block with no transfers', 'block=775617', example('transfers-block-775617-empty')],
      ['big block, first page', `block=${BIG_TRANSFER_BLOCK}&offset=0&limit=60`, page(60, 0, bigNewestFirst.slice(0, 60), 77)],
      ['big block, second page', `block=${BIG_TRANSFER_BLOCK}&offset=60&limit=60`, page(60, 60, bigNewestFirst.slice(60), 77)],
      ['big block, past the end (total 0)', `block=${BIG_TRANSFER_BLOCK}&offset=77`, page(20, 77, [], 0)],
      ['big block, limit only', `block=${BIG_TRANSFER_BLOCK}&limit=3`, page(3, 0, bigNewestFirst.slice(0, 3), 77)],
      ['unknown height', 'block=1', page(20, 0, [], 0)],
      ['unknown hash', `block=00000000${'a'.repeat(56)}`, page(20, 0, [], 0)],
      ['upper-case hash (exact compare)', `block=${KNOWN_BLOCK_HASH.toUpperCase()}`, page(20, 0, [], 0)],
      ['unknown parameters ignored', 'block=775700&foo=bar', example('transfers-block-775700')],
    ];
    const rows = [TRANSFERS, TRANSFERS_ALIAS].flatMap((base) =>
      cases.map(([label, query, expected]) => [`${base} ${label}`, `${base}?${query}`, query, expected] as const),
    );

    /** UniSat's page: the block by height, or by a hash it knows (exact), else hiro's empty page. */
    function unisatPage(query: string) {
      const q = new URLSearchParams(query);
      const [block, offset, limit] = [q.get('block')!, Number(q.get('offset') ?? 0), Number(q.get('limit') ?? 20)];
      const heights = sampleData.transferBlocks.map((b) => b.height);
      const height = /^\d+$/.test(block) ? Number(block) : heights.find((h) => blockHash(h) === block);
      const transfers = height === undefined ? [] : restUnisatNewestFirst(height);
      const results = transfers.slice(offset, offset + limit);
      return page(limit, offset, results, results.length > 0 ? transfers.length : 0);
    }

    test.each(rows)('GET %s', async (_name, path, query, expected) => {
      const source = sourceOf('transfers');
      if (source !== 'hiro') {
        expect(await sourcedAnswer(path)).toEqual(fromSource(source, 200, unisatPage(query)));
        return expectCallsOf(profile, 'transfers', stack.sample, []);
      }
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({
        status: 200,
        body: expected,
        etag: `"${ORDINALS_ETAG}"`,
        cacheControl: CACHE_CONTROL,
        contentType: JSON_TYPE,
      });
      const q = new URLSearchParams(query);
      expect(calls).toEqual([GET(TRANSFERS, { block: q.get('block')!, offset: q.get('offset') ?? '0', limit: q.get('limit') ?? '20' })]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('rune etchings', () => {
    const { etchings, etchingsTotal } = sampleData;
    const cases: Array<[query: string, limit: number, offset: number]> = [
      ['', 20, 0],
      ['?limit=1', 1, 0],
      ['?offset=5', 20, 5],
      ['?offset=0&limit=60', 60, 0],
      [`?offset=${ETCHING_COUNT - 20}&limit=60`, 60, ETCHING_COUNT - 20],
      [`?offset=${ETCHING_COUNT}`, 20, ETCHING_COUNT],
    ];
    const rows = [ETCHINGS, ETCHINGS_ALIAS].flatMap((base) =>
      cases.map(([query, limit, offset]) => [base + query, limit, offset] as const),
    );

    test.each(rows)('GET %s', async (path, limit, offset) => {
      const source = sourceOf('etchings');
      if (source !== 'hiro') {
        const restate = (e: (typeof etchings)[number]): unknown => (source === 'ord' ? restEtchingFromOrd(e) : restEtchingFromUnisat(e));
        const results = etchings.slice(offset, offset + limit).map(restate);
        const body = { limit, offset, total: results.length > 0 ? etchings.length : 0, results };
        expect(await sourcedAnswer(path)).toEqual(fromSource(source, 200, body));
        return expectCallsOf(profile, 'etchings', stack.sample, []);
      }
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      const results = etchings.slice(offset, offset + limit);
      expect(gateway).toEqual({
        status: 200,
        body: { limit, offset, total: results.length > 0 ? etchingsTotal : 0, results },
        etag: `"${RUNES_ETAG}"`,
        cacheControl: CACHE_CONTROL,
        contentType: JSON_TYPE,
      });
      expect(calls).toEqual([GET(ETCHINGS, { offset: String(offset), limit: String(limit) })]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('querystring validation: the upstream 400, answered locally', () => {
    const transferCases: Array<[query: string, example: string]> = [
      ['block=775700&limit=61', 'error-validation-limit'],
      ['block=775700&limit=0', 'error-validation-limit-min'],
      ['block=775700&limit=-5', 'error-validation-limit-min'],
      ['block=775700&limit=abc', 'error-validation-limit-type'],
      ['block=775700&limit=1.5', 'error-validation-limit-type'],
      ['block=775700&limit=', 'error-validation-limit-type'],
      ['block=775700&limit=10&limit=20', 'error-validation-limit-type'],
      ['block=775700&offset=-1', 'error-validation-offset'],
      ['', 'error-validation-block-missing'],
      ['offset=0&limit=5', 'error-validation-block-missing'],
      ['block=abc', 'error-validation-block'],
      ['block=%20123', 'error-validation-block'],
      ['block=+123', 'error-validation-block'],
      ['block=', 'error-validation-block'],
      [`block=0000000${'a'.repeat(57)}`, 'error-validation-block'],
    ];
    const pageCases: Array<[query: string, example: string]> = [
      ['limit=61', 'error-validation-limit'],
      ['limit=0', 'error-validation-limit-min'],
      ['limit=abc', 'error-validation-limit-type'],
      ['limit=1.5', 'error-validation-limit-type'],
      ['limit=', 'error-validation-limit-type'],
      ['limit=10&limit=20', 'error-validation-limit-type'],
      ['offset=-1', 'error-validation-offset'],
    ];
    const rows = [
      ...[TRANSFERS, TRANSFERS_ALIAS].flatMap((base) =>
        transferCases.map(([query, name]) => [query ? `${base}?${query}` : base, name] as const),
      ),
      ...[ETCHINGS, ETCHINGS_ALIAS].flatMap((base) => pageCases.map(([query, name]) => [`${base}?${query}`, name] as const)),
    ];

    test.each(rows)('GET %s → %s.json, no upstream request', async (path, name) => {
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({ status: 400, body: example(name), etag: null, cacheControl: null, contentType: JSON_TYPE });
      expect(calls).toEqual([]);
    });

    // ajv coerces 1e400 to Infinity and lets it pass; Postgres then refuses the page parameter,
    // `offset` first (bound before `limit`), typed `integer` on transfers and `bigint` on runes.
    test.each([
      [`${ETCHINGS}?limit=1e400`, 'bigint', 'Infinity'],
      [`${ETCHINGS_ALIAS}?offset=-1e400`, 'bigint', '-Infinity'],
      [`${ETCHINGS}?limit=1e999&offset=-1e400`, 'bigint', '-Infinity'],
      [`${TRANSFERS}?block=775700&offset=1e400&limit=1e999`, 'integer', 'Infinity'],
      [`${TRANSFERS_ALIAS}?block=775700&limit=-1e999`, 'integer', '-Infinity'],
    ])(
      "GET %s → the upstream's 500 (Postgres 22P02, type %s), answered locally (no quota spent, no breaker failure)",
      async (path, type, value) => {
        const { gateway, direct, calls } = await compare(path);
        const message = `invalid input syntax for type ${type}: "${value}"`;
        const body = { statusCode: 500, code: '22P02', error: 'Internal Server Error', message };
        expect(direct).toEqual({ status: 500, body, etag: expect.any(String), cacheControl: CACHE_CONTROL, contentType: JSON_TYPE });
        // Deliberate difference (docs/rest.md): the upstream's cache hook adds its ETag even to this 500.
        expect(gateway).toEqual({ ...direct, etag: null, cacheControl: null });
        expect(calls).toEqual([]);
      },
    );

    // ajv passes any integer; postgres.js sends it as JavaScript writes it, which Postgres refuses
    // past its type's range (22003) or, in exponent form, as no integer at all (22P02).
    test.each([
      [`${ETCHINGS}?offset=1e23`, '22P02', 'invalid input syntax for type bigint: "1e+23"'],
      [`${ETCHINGS_ALIAS}?offset=9223372036854775808`, '22003', 'value "9223372036854776000" is out of range for type bigint'],
      [`${TRANSFERS}?block=775700&offset=2147483648`, '22003', 'value "2147483648" is out of range for type integer'],
      [
        `${TRANSFERS_ALIAS}?block=775700&offset=123456789012345678901234&limit=5`,
        '22P02',
        'invalid input syntax for type integer: "1.2345678901234569e+23"',
      ],
    ])("GET %s → the upstream's 500 (Postgres %s), answered locally", async (path, code, message) => {
      const { gateway, direct, calls } = await compare(path);
      const body = { statusCode: 500, code, error: 'Internal Server Error', message };
      expect(direct).toEqual({ status: 500, body, etag: expect.any(String), cacheControl: CACHE_CONTROL, contentType: JSON_TYPE });
      expect(gateway).toEqual({ ...direct, etag: null, cacheControl: null });
      expect(calls).toEqual([]);
    });

    test.each([`${ETCHINGS}?offset=1000000000000000000&limit=1`, `${TRANSFERS}?block=775700&offset=2147483647`])(
      'GET %s, an offset its type holds, is asked upstream: an empty page',
      async (path) => {
        const { gateway, direct, calls } = await compare(path);
        // Another source's answer has its own ETag and no Cache-Control: the page is the same.
        expect({ status: gateway.status, body: gateway.body }).toEqual({ status: direct.status, body: direct.body });
        expect([gateway.status, (gateway.body as { results: unknown[] }).results]).toEqual([200, []]);
        expect(calls.length).toBeGreaterThan(0);
      },
    );

    // The upstream routes it to its single-etching route with an empty id; its param schema refuses it.
    test.each([`${ETCHINGS}/`, `${ETCHINGS_ALIAS}/`, `${ETCHINGS}/?limit=5`])(
      "GET %s → the upstream's 400, answered locally",
      async (path) => {
        const { gateway, direct, calls } = await compare(path);
        const message = [
          'params/etching must match pattern "^[0-9]+:[0-9]+$"',
          'params/etching must match pattern "^[0-9]+$"',
          'params/etching must match pattern "^[A-Z]+$"',
          'params/etching must match pattern "^[A-Za-z]+(•[A-Za-z]+)+$"',
          'params/etching must match a schema in anyOf',
        ].join(', ');
        const body = { statusCode: 400, error: 'Bad Request', message };
        expect(gateway).toEqual(direct);
        expect(gateway).toEqual({ status: 400, body, etag: null, cacheControl: null, contentType: JSON_TYPE });
        expect(calls).toEqual([]);
      },
    );

    test('validation runs before the ETag check: a matching If-None-Match still gets the 400', async () => {
      const init = { headers: { 'if-none-match': `"${ORDINALS_ETAG}"` } };
      const { gateway, direct, calls } = await compare(`${TRANSFERS}?block=775700&limit=61`, init);
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({
        status: 400,
        body: example('error-validation-limit'),
        etag: null,
        cacheControl: null,
        contentType: JSON_TYPE,
      });
      expect(calls).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('route not found: Fastify route-404 body, answered locally', () => {
    test('/ordinals/v1/brc-20/tokens/or/di is the upstream example body', async () => {
      const { gateway, direct, calls } = await compare('/ordinals/v1/brc-20/tokens/or/di');
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({
        status: 404,
        body: example('error-route-not-found'),
        etag: null,
        cacheControl: null,
        contentType: JSON_TYPE,
      });
      expect(calls).toEqual([]);
    });

    test.each(['/ORDINALS/v1/brc-20/tokens/ordi', '//ordinals/v1/brc-20/tokens/ordi', '/Metadata/v1', '/nothing/here?x=1'])(
      "GET %s, a path no route serves: the upstream's route 404 (HEAD: its head)",
      async (path) => {
        const { gateway, direct, calls } = await compareRaw(path);
        expect(gateway).toEqual(direct);
        expect(gateway).toEqual({ status: 404, body: routeNotFound('GET', path), etag: null, cacheControl: null, contentType: JSON_TYPE });
        expect(calls).toEqual([]);
        const head = await compareRaw(path, 'HEAD');
        expect(head.gateway).toEqual(head.direct);
      },
    );

    test("the path ends at `;` and `#` as at `?` (the upstream router's rule): what follows is the query string", async () => {
      const seen: Array<[string, number]> = [];
      for (const [path, operation] of [
        ['/metadata/v1;x'],
        ['/ordinals/v1/brc-20/tokens/ordi;x', 'brc20'],
        ['/ordinals/v1/brc-20/tokens/ordi%3Bx', 'brc20'],
        [`${ETCHINGS};limit=2`, 'etchings'],
        [`${ETCHINGS};x?limit=2`, 'etchings'],
        [`${TRANSFERS};x?block=775700`, 'transfers'],
        [`${TRANSFERS};block=775700`, 'transfers'],
      ] as Array<[string, SourcedOperation?]>) {
        const { gateway, direct } = await compareRaw(path);
        // A source's answer is hiro's body with its nulls and no ETag (checked above): here the route is.
        if (operation && sourceOf(operation) !== 'hiro') expect.soft(gateway.status, path).toEqual(direct.status);
        else expect.soft(gateway, path).toEqual(direct);
        seen.push([path, gateway.status]);
      }
      expect(seen.map(([, status]) => status)).toEqual([200, 200, 404, 200, 200, 400, 200]);
    });

    test.each([
      ['GET', '/ordinals/brc-20/tokens/or/di'],
      ['GET', `/ordinals/v1/brc-20/tokens/${'a'.repeat(101)}`],
      ['GET', `/ordinals/brc-20/tokens/${'a'.repeat(101)}`],
      ['GET', `/ordinals/v1/brc-20/tokens/${encodeURIComponent(EMOJI_TICKER.repeat(51))}`],
      ['GET', `/ordinals/v1/brc-20/tokens/${'%61'.repeat(101)}`],
      ['GET', '/ordinals/v1/brc-20/tokens/ordi/'],
      ['GET', '/runes/v1/nope'],
      ['GET', '/runes/nope?limit=5'],
      ['GET', '/metadata/v2'],
      ['GET', '/ordinals/v1/inscriptions'],
      ['GET', chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!)],
      ['DELETE', '/ordinals/v1/brc-20/tokens/ordi'],
      ['POST', ETCHINGS],
    ])('%s %s', async (method, path) => {
      const { gateway, direct, calls } = await compare(path, { method });
      // The same as the upstream, but for a platform key in the message (redacted by the gateway).
      expect(gateway).toEqual({ ...direct, body: { ...(direct.body as object), ...routeNotFound(method, path) } });
      expect(gateway).toEqual({
        status: 404,
        body: routeNotFound(method, path),
        etag: null,
        cacheControl: null,
        contentType: JSON_TYPE,
      });
      expect(calls).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('ETag, If-None-Match and HEAD', () => {
    const notModified = { status: 304, body: null, etag: null, cacheControl: CACHE_CONTROL, contentType: null };
    const allRoutes: Array<[path: string, etag: string, upstreamPath: string, operation?: SourcedOperation]> = [
      ['/ordinals/v1/brc-20/tokens/ordi', ORDINALS_ETAG, '/ordinals/v1/brc-20/tokens/ordi', 'brc20'],
      ['/ordinals/brc-20/tokens/nope', ORDINALS_ETAG, '/ordinals/v1/brc-20/tokens/nope', 'brc20'],
      [`${TRANSFERS}?block=775700`, ORDINALS_ETAG, TRANSFERS, 'transfers'],
      [`${ETCHINGS_ALIAS}?limit=2`, RUNES_ETAG, ETCHINGS, 'etchings'],
      ['/metadata/', statusOf(sampleProfile).etag, '/metadata/v1'],
    ];
    // A source's answers carry an ETag of their own (docs/sources.md): those routes are checked below.
    const routes = allRoutes.filter(([, , , operation]) => operation === undefined || sourceOf(operation) === 'hiro');
    const sourcedRoutes = allRoutes.filter(([, , , operation]) => operation !== undefined && sourceOf(operation) !== 'hiro');
    const forms: Array<[form: string, header: (etag: string) => string]> = [
      ['strong', (etag) => `"${etag}"`],
      ['weak', (etag) => `W/"${etag}"`],
      ['in a list', (etag) => `"nope", W/"${etag}", "other"`],
      // api-toolkit's own reading: its prefix in any case, in a list without spaces.
      ['weak, lowercase prefix', (etag) => `w/"${etag}"`],
      ['in a list, lowercase prefix', (etag) => `"x",w/"${etag}"`],
    ];

    test.each(
      routes.flatMap(([path, etag, upstreamPath]) => forms.map(([form, header]) => [path, form, header(etag), upstreamPath] as const)),
    )('GET %s with a matching If-None-Match (%s) → 304, empty body, only Cache-Control', async (path, _form, ifNoneMatch, upstreamPath) => {
      const { gateway, direct, calls } = await compare(path, { headers: { 'if-none-match': ifNoneMatch } });
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual(notModified);
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${upstreamPath}`]);
    });

    test.each(routes.map(([path]) => path))('GET %s with If-None-Match: * or a stale tag → 200', async (path) => {
      // The upstream strips W/ only with its quote, and one pair of quotes: these name no current tag.
      const etag = allRoutes.find(([p]) => p === path)![1];
      for (const ifNoneMatch of ['*', '"stale"', 'W/"stale", "also-stale"', `W/${etag}`, `""${etag}""`, `"x", W/${etag}`]) {
        const { gateway, direct } = await compare(path, { headers: { 'if-none-match': ifNoneMatch } });
        expect(gateway).toEqual(direct);
        expect(gateway.status).toBe(path.endsWith('nope') ? 404 : 200);
        expect(gateway.body).not.toBeNull();
      }
    });

    test.each(sourcedRoutes.length ? sourcedRoutes.map(([path]) => path) : ['(none)'])(
      'GET %s from a source: an ETag of its answer when found, 304 for it (naming it), 200 for another; HEAD has no body',
      async (path) => {
        if (!sourcedRoutes.length) return;
        const found = !path.endsWith('nope');
        const source = sourceOf(sourcedRoutes.find(([p]) => p === path)![3]!);
        const get = await sourcedAnswer(path);
        expect([get.status, found ? BYTES_ETAG.test(get.etag ?? '') : get.etag, get.dataSource]).toEqual([
          found ? 200 : 404,
          found ? true : null,
          source,
        ]);
        for (const ifNoneMatch of ['*', '"stale"', `"${ORDINALS_ETAG}"`]) {
          expect(await sourcedAnswer(path, { headers: { 'if-none-match': ifNoneMatch } })).toEqual(get);
        }
        if (found) {
          for (const ifNoneMatch of [get.etag!, `W/${get.etag!}`, `"nope", W/${get.etag!}`]) {
            expect(await sourcedAnswer(path, { headers: { 'if-none-match': ifNoneMatch } })).toEqual({
              status: 304,
              body: null,
              etag: get.etag,
              cacheControl: CACHE_CONTROL,
              contentType: null,
              dataSource: source,
            });
          }
        }
        expect(await sourcedAnswer(path, { method: 'HEAD' })).toEqual({ ...get, body: null });
      },
    );

    test.each(routes.map(([path]) => path))('HEAD %s: the GET status and headers, no body', async (path) => {
      const head = await compare(path, { method: 'HEAD' });
      expect(head.gateway).toEqual(head.direct);
      const get = await compare(path);
      expect(head.gateway).toEqual({ ...get.gateway, body: null });
      expect(head.calls).toHaveLength(1);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('platform: DELETE chainhook', () => {
    const platformError = (message: string) => ({ status: 'error', message, error: null });

    test('a platform error that quotes the key is passed on with the key redacted', async () => {
      stack.sample.reset();
      const uuid = DELETABLE_CHAINHOOK_UUIDS[0]!;
      const quoting = { message: `Route DELETE:${chainhook(uuid)} not found`, error: 'Not Found', statusCode: 404 };
      stack.sample.inject({ method: 'DELETE', path: chainhook(uuid), times: 1, status: 404, body: quoting });
      const gateway = await rest(stack.gatewayUrl + chainhook(uuid), { method: 'DELETE' });
      expect([gateway.status, gateway.body]).toEqual([
        404,
        { ...quoting, message: `Route DELETE:${chainhook(uuid, '<redacted>')} not found` },
      ]);
    });

    test('a DELETE whose answer has the ETag the client names is answered whole, not 304: it was carried out', async () => {
      stack.sample.reset();
      const uuid = DELETABLE_CHAINHOOK_UUIDS[0]!;
      const deleted = { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' };
      stack.sample.inject({ method: 'DELETE', path: chainhook(uuid), times: 1, status: 200, headers: { etag: '"d1"' }, body: deleted });
      const gateway = await rest(stack.gatewayUrl + chainhook(uuid), { method: 'DELETE', headers: { 'if-none-match': '"d1"' } });
      expect([gateway.status, gateway.body]).toEqual([200, deleted]);
      expect(upstreamCalls()).toEqual([{ method: 'DELETE', path: chainhook(uuid), query: {} }]);
    });

    test.each(DELETABLE_CHAINHOOK_UUIDS.map((uuid, i) => [i === 1 ? uuid.toUpperCase() : uuid] as const))(
      'DELETE a deletable chainhook %s → 200, exactly one upstream DELETE',
      async (uuid) => {
        stack.sample.reset();
        const gateway = await rest(stack.gatewayUrl + chainhook(uuid), { method: 'DELETE' });
        expect(gateway).toEqual({
          status: 200,
          body: { status: 'success', chainhookUuid: uuid.toLowerCase(), message: 'Chainhook deleted' },
          etag: null,
          cacheControl: null,
          contentType: JSON_TYPE,
        });
        expect(upstreamCalls()).toEqual([{ method: 'DELETE', path: chainhook(uuid), query: {} }]);

        // The deletion reached the upstream and is not answered from a cache.
        stack.sample.clearLog();
        const again = await rest(stack.gatewayUrl + chainhook(uuid), { method: 'DELETE' });
        expect(again).toEqual({ ...gateway, status: 404, body: platformError('Chainhook not found') });
        expect(upstreamCalls()).toHaveLength(1);

        // What the sample answers directly for the same first DELETE (after restoring its data).
        stack.sample.reset();
        expect(await rest(stack.sample.baseUrl + chainhook(uuid), { method: 'DELETE' })).toEqual(gateway);
      },
    );

    test.each([
      ['unknown uuid', chainhook('00000000-0000-4000-8000-000000000000'), 404, platformError('Chainhook not found')],
      [
        'wrong key',
        chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!, 'f'.repeat(32)),
        403,
        platformError('Forbidden: API key is not allowed to access this resource'),
      ],
      [
        'key "revoked-key"',
        chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!, 'revoked-key'),
        401,
        platformError('Unauthorized: missing or invalid API key'),
      ],
    ])('DELETE, %s (%s) → %i', async (_label, path, status, body) => {
      const { gateway, direct, calls } = await compare(path, { method: 'DELETE' });
      expect(gateway).toEqual(direct);
      expect(gateway).toEqual({ status, body, etag: null, cacheControl: null, contentType: JSON_TYPE });
      expect(calls).toEqual([{ method: 'DELETE', path, query: {} }]);
    });

    // Deliberate difference (docs/rest.md): what is not a UUID or not a sane key is never sent on, and is
    // answered as a Fastify route with those param schemas would answer.
    const badParam = (message: string): Answer => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message },
      etag: null,
      cacheControl: null,
      contentType: JSON_TYPE,
    });
    const badUuid = badParam('params/chainhookUuid must be a UUID (8-4-4-4-12 hexadecimal digits)');
    const badKey = badParam('params/apiKey must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", "~" and "-"');
    test.each([
      ['not a uuid', chainhook('not-a-uuid'), badUuid],
      ['a uuid with a suffix', chainhook(`${DELETABLE_CHAINHOOK_UUIDS[0]}%2F..`), badUuid],
      ['a uuid with CRLF', chainhook(`${DELETABLE_CHAINHOOK_UUIDS[0]}%0D%0Ax`), badUuid],
      ['a key with a backslash', chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!, `${KEY}%5C`), badKey],
      ['a key with an encoded slash', chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!, `x%2F..`), badKey],
      ['a key that is a dot segment', chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!, '%2E%2E'), badKey],
      ['a key and a uuid both bad: the key is named', chainhook('x', 'a%00b'), badKey],
    ])('DELETE, %s → 400, no upstream call', async (_label, path, expected) => {
      stack.sample.clearLog();
      expect(await raw(stack.gatewayUrl, path, 'DELETE')).toEqual(expected);
      expect(upstreamCalls()).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('platform: bitcoin-node proxy', () => {
    const { chainInfo, blockHashes } = sampleData.bitcoinNode;

    test.each([
      ['rest/chaininfo.json', 200, chainInfo],
      ['rest/mempool/info.json', 200, sampleData.bitcoinNode.mempoolInfo],
      ['rest/blockhashbyheight/5.hex', 200, `${blockHashes[5]}\n`],
      ['rest/blockhashbyheight/5.json', 200, { blockhash: blockHashes[5] }],
      ['rest/chaininfo.xml', 404, 'output format not found (available: json)\r\n'],
      ['rest/blockhashbyheight/999.json', 404, 'Block height out of range\r\n'],
      ['rest/nope', 404, null],
      ['', 405, 'JSONRPC server handles only POST requests'],
    ])('GET bitcoin-node/%s → %i', async (path, status, body) => {
      const { gateway, direct, calls } = await compare(node(path));
      expect(gateway).toEqual(direct);
      expect(gateway).toMatchObject({ status, body, etag: null, cacheControl: null });
      expect(calls).toEqual([GET(node(path))]);
    });

    test('the .hex body passes through as text with its content-type', async () => {
      const { gateway, direct } = await compare(node('rest/blockhashbyheight/5.hex'));
      expect(gateway).toEqual(direct);
      expect(gateway.contentType).toMatch(/^text\/plain/);
      expect(gateway.body).toBe(`${blockHashes[5]}\n`);
    });

    test('the query string reaches the node: rest/headers/<hash>.json?count=2', async () => {
      const path = node(`rest/headers/${blockHashes[100]}.json?count=2`);
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway).toMatchObject({
        status: 200,
        body: [100, 101].map((h) => expect.objectContaining({ height: h, hash: blockHashes[h] })),
      });
      expect(calls).toEqual([GET(node(`rest/headers/${blockHashes[100]}.json`), { count: '2' })]);
    });

    test('the query string reaches the node byte for byte (?y=%20z is not re-encoded)', async () => {
      const path = node(`rest/headers/${blockHashes[100]}.json?count=2&y=%20z&w=a+b&v=%7e&x`);
      stack.sample.clearLog();
      const gateway = await rest(stack.gatewayUrl + path);
      expect(stack.sample.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${path}`]);
      expect(gateway).toEqual(await rest(stack.sample.baseUrl + path));
      expect(gateway.status).toBe(200);
    });

    test.each([
      ['wrong key', 'f'.repeat(32), 403],
      ['key "revoked-key"', 'revoked-key', 401],
    ])('%s (key %s) → %i', async (_label, key, status) => {
      const path = node('rest/chaininfo.json', key);
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway.status).toBe(status);
      expect(calls).toEqual([GET(path)]);
    });

    test('GET bitcoin-node without a trailing slash is the node root, as upstream', async () => {
      const path = `/v1/ext/${KEY}/bitcoin-node`;
      const { gateway, direct, calls } = await compare(path);
      expect(gateway).toEqual(direct);
      expect(gateway).toMatchObject({ status: 405, body: 'JSONRPC server handles only POST requests' });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.path).toMatch(new RegExp(`^/v1/ext/${KEY}/bitcoin-node/?$`));
    });

    // Sent as raw bytes. Whatever the gateway answers (a 400 in the Fastify format or a route 404), no
    // upstream request may leave /v1/ext/<key>/bitcoin-node/, and none may carry a dot segment.
    const dotSegments = { statusCode: 400, error: 'Bad Request', message: 'path must not contain . or .. segments' };
    const encodedSlashes = { statusCode: 400, error: 'Bad Request', message: 'path must not contain encoded slashes' };
    const json = (status: number, body: unknown): Answer => ({ status, body, etag: null, cacheControl: null, contentType: JSON_TYPE });
    const uuid = DELETABLE_CHAINHOOK_UUIDS[3]!;
    const root = `/v1/ext/${KEY}/bitcoin-node/`;
    test.each([
      [
        'GET',
        'rest/%2e%2e/%2e%2e/chainhooks/x',
        [
          json(400, dotSegments),
          json(404, routeNotFound('GET', `${root}rest/%2e%2e/%2e%2e/chainhooks/x`)),
          // The gateway's URL parser resolves %2e%2e: what is left is a GET on no route.
          json(404, routeNotFound('GET', `/v1/ext/${KEY}/chainhooks/x`)),
        ],
      ],
      [
        'GET',
        'rest/../../chainhooks/x',
        [
          json(400, dotSegments),
          json(404, routeNotFound('GET', `${root}rest/../../chainhooks/x`)),
          json(404, routeNotFound('GET', `/v1/ext/${KEY}/chainhooks/x`)),
        ],
      ],
      ['GET', 'rest%2F..%2F..%2Fchainhooks', [json(400, encodedSlashes)]],
      ['GET', '%252e%252e/x', [json(400, dotSegments)]],
      [
        'GET',
        'rest/%2E%2E/x',
        [
          json(400, dotSegments),
          // resolved inside the root to bitcoin-node/x: the node's bare 404
          { status: 404, body: null, etag: null, cacheControl: null, contentType: null },
        ],
      ],
      [
        'GET',
        '%2e%2e/%2e%2e/%2e%2e/%2e%2e/ordinals/v1/brc-20/tokens/ordi',
        [json(400, dotSegments), json(404, routeNotFound('GET', `${root}%2e%2e/%2e%2e/%2e%2e/%2e%2e/ordinals/v1/brc-20/tokens/ordi`))],
      ],
      [
        'DELETE',
        `%2e%2e/chainhooks/${uuid}`,
        [json(400, dotSegments), json(404, routeNotFound('DELETE', `${root}%2e%2e/chainhooks/${uuid}`))],
      ],
    ] as const)('traversal %s bitcoin-node/%s never leaves the node root', async (method, path, accepted) => {
      stack.sample.clearLog();
      const gateway = await raw(stack.gatewayUrl, root + path, method);
      const calls = upstreamCalls();
      const dotSegment = (p: string) => /(^|\/)\.\.?(\/|$)/.test(decodeURIComponent(decodeURIComponent(p)));
      const escaped = calls.filter((c) => c.method !== 'GET' || !c.path.startsWith(root) || dotSegment(c.path));
      expect(escaped).toEqual([]);
      expect(accepted).toContainEqual(gateway);
    });

    test('an empty first segment (bitcoin-node//host/x) is refused as any empty segment is, not dropped', async () => {
      stack.sample.clearLog();
      const emptySegments = { statusCode: 400, error: 'Bad Request', message: 'path must not contain empty segments' };
      const answers = [await raw(stack.gatewayUrl, `${root}/evil.example/x`), await raw(stack.gatewayUrl, `${root}rest//x`)];
      expect(answers).toEqual([json(400, emptySegments), json(400, emptySegments)]);
      expect(upstreamCalls()).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('raw request paths: answered as the upstream answers the same bytes', () => {
    test.each([
      // Fastify resolves no dot segments: these are route 404s echoing the raw URL.
      ['/ordinals/v1/%2e%2e/v1/brc-20/tokens/ordi', []],
      ['/runes/v1/%2e%2e/nope', []],
      ['/runes/v1/{x}', []],
      // A malformed escape: Fastify 4.15's bad-URL 400 (no `code` field, content-type application/json).
      ['/ordinals/v1/brc-20/tokens/%zz', []],
      ['/ordinals/v1/brc-20/tokens/%zz?x=1', []],
      ['/ordinals/brc-20/tokens/%E0%A4%A', []],
      // find-my-way decodes the whole path before it matches (but for reserved characters): a bad
      // escape anywhere is the bad-URL 400.
      ['/runes/v1/etchings%zz', []],
      ['/ordinals/v1/%zz', []],
    ] as Array<[string, string[]]>)('GET %s', async (path, expectedCalls) => {
      const { gateway, direct, calls } = await compareRaw(path);
      expect(gateway).toEqual(direct);
      expect(calls.map((c) => `${c.method} ${c.path}`.toLowerCase())).toEqual(expectedCalls.map((c) => c.toLowerCase()));
    });
  });

  test.each([
    ['/ordinals/v1/brc%2D20/tokens/ordi', '/ordinals/v1/brc-20/tokens/ordi'],
    ['/runes/v1/etching%73?limit=1', '/runes/v1/etchings?limit=1'],
    ['/ordinals/v1/brc-20/tokens/%25', '/ordinals/v1/brc-20/tokens/%25'],
  ])('GET %s: an escape in a fixed segment is that segment, as find-my-way decodes the path first', async (path, plain) => {
    const answer = await raw(stack.gatewayUrl, path, 'GET');
    expect(answer).toEqual(await raw(stack.gatewayUrl, plain, 'GET'));
    expect([answer.status, answer.body === null]).toEqual([plain.endsWith('%25') ? 404 : 200, false]);
  });

  test.each([
    '/ordinals/v1/brc-20/tokens/%2e%2e',
    '/ordinals/brc-20/tokens/..',
    '/ordinals/v1/brc-20/tokens/.',
    '/ordinals/v1/brc-20/tokens/..%2F..%2F..%2Fmetadata%2Fv1',
    '/ordinals/v1/brc-20/tokens/%252e%252e',
    '/ordinals/v1/brc-20/tokens/a%5C..%5Cb',
  ])('a ticker that reads as a path, %s, is answered Not found locally: no such token exists, and it is not safe to send', async (path) => {
    stack.sample.clearLog();
    const gateway = await raw(stack.gatewayUrl, path, 'GET');
    expect(gateway).toEqual({ status: 404, body: { error: 'Not found' }, etag: null, cacheControl: null, contentType: JSON_TYPE });
    expect(upstreamCalls()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('upstream unreachable → 502', () => {
  let down: Stack;
  let closedPort: number;

  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${closedPort}`;
    down = await startStack({ HIRO_API_URL: url, HIRO_PLATFORM_URL: url });
  });
  afterAll(() => down?.close());

  test.each([
    ['GET', '/metadata/v1'],
    ['GET', '/ordinals/v1/brc-20/tokens/ordi'],
    ['GET', `${TRANSFERS_ALIAS}?block=775700`],
    ['GET', ETCHINGS],
    ['GET', node('rest/chaininfo.json')],
    ['DELETE', chainhook(DELETABLE_CHAINHOOK_UUIDS[0]!)],
  ])('%s %s', async (method, path) => {
    const answer = await rest(down.gatewayUrl + path, { method });
    expect(answer).toEqual({
      status: 502,
      body: { statusCode: 502, error: 'Bad Gateway', message: expect.any(String) },
      etag: null,
      cacheControl: null,
      contentType: JSON_TYPE,
    });
    const { message } = answer.body as { message: string };
    expect(message).not.toMatch(/https?:|127\.0\.0\.1|localhost|ECONNREFUSED/i);
    expect(message).not.toContain(String(closedPort));
    expect(message).not.toContain(KEY);
  });

  test('validation still answers locally while the upstream is down', async () => {
    const answer = await rest(`${down.gatewayUrl}${ETCHINGS}?limit=61`);
    expect(answer).toEqual({
      status: 400,
      body: example('error-validation-limit'),
      etag: null,
      cacheControl: null,
      contentType: JSON_TYPE,
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('upstream hangs → 504 after UPSTREAM_TIMEOUT_MS', () => {
  let slow: Stack;

  beforeAll(async () => {
    slow = await startStack({ UPSTREAM_TIMEOUT_MS: '300' });
  });
  afterAll(() => slow?.close());
  beforeEach(() => slow.sample.reset());
  afterEach(() => slow.sample.reset());

  test.each([
    ['GET', '/ordinals/brc-20/tokens/sats', '/ordinals/v1/brc-20/tokens/sats'],
    ['GET', `${ETCHINGS}?limit=7`, ETCHINGS],
    ['GET', node('rest/chaininfo.json'), node('rest/chaininfo.json')],
    ['DELETE', chainhook(DELETABLE_CHAINHOOK_UUIDS[2]!), chainhook(DELETABLE_CHAINHOOK_UUIDS[2]!)],
  ])('%s %s', async (method, path, upstreamPath) => {
    slow.sample.inject({ path: upstreamPath, hang: true });
    const started = performance.now();
    const answer = await rest(slow.gatewayUrl + path, { method });
    const elapsed = performance.now() - started;
    expect(answer).toEqual({
      status: 504,
      body: { statusCode: 504, error: 'Gateway Timeout', message: expect.any(String) },
      etag: null,
      cacheControl: null,
      contentType: JSON_TYPE,
    });
    expect((answer.body as { message: string }).message).not.toMatch(/https?:|127\.0\.0\.1/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
    const calls = upstreamCalls(slow);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const call of calls) expect(call).toMatchObject({ method, path: upstreamPath });
    // A DELETE is never retried.
    if (method === 'DELETE') expect(calls).toHaveLength(1);
  });
});
