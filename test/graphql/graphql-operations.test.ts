// Every GraphQL operation over HTTP against the sample upstream, compared as whole objects with
// answers computed from sampleData or the upstream example files: against each profile of the
// sample (test/profiles.ts), so the gateway is shown to need nothing beyond the documented routes,
// and against each data source (the same answers, null where the source lacks a field, and
// `extensions.sources` naming it). Each request is also sent to a twin gateway on a sample of its
// own that runs every operation on graphql-js, while the stack under test compiles every document
// from its first sighting (COMPILED_EXECUTION): the two answers must be the same bytes.
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
  SELF_MINT_TICKER,
  SPACE_TICKER,
  devnetHeader,
  sampleData,
  type Brc20TokenDetails,
  type TransferBlock,
} from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { startExecutorPair, type ExecutorPair } from '../executor-pair.js';
import type { Stack } from '../harness.js';
import {
  SUITE_PROFILES,
  expectAllBelowBase,
  expectCallsOf,
  hasTokenList,
  isSourceCall,
  sampleProfileOf,
  servedBy,
  sourcedBody,
  stackOptions,
  statusOf,
  summaryCalls,
  tokenCall,
  type SourcedOperation,
} from '../profiles.js';
import {
  brc20FromUnisat,
  etchingFromOrd,
  etchingFromUnisat,
  hiroNewestFirst,
  transferFromUnisat,
  unisatNewestFirst,
} from '../sources-expected.js';
import {
  BRC20_FIELDS,
  ETCHING_PAGE_FIELDS,
  STATUS_FIELDS,
  TRANSFER_PAGE_FIELDS,
  callsOf,
  example,
  normalizeEscapes,
  toBrc20,
  toEtching,
  toPage,
  toStatus,
  toTransfer,
  type UpstreamStatus,
} from '../support.js';

function token(ticker: string): Brc20TokenDetails {
  const found = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker);
  if (!found) throw new Error(`no sample token ${ticker}`);
  return found;
}

function block(height: number): TransferBlock {
  const found = sampleData.transferBlocks.find((b) => b.height === height);
  if (!found) throw new Error(`no sample block ${height}`);
  return found;
}

const transfersCall = (blockId: string, offset: number, limit: number) => ({
  method: 'GET',
  path: '/ordinals/v1/inscriptions/transfers',
  query: { block: blockId, offset: String(offset), limit: String(limit) },
});

describe.each(SUITE_PROFILES)('against the %s upstream', (profile) => {
  const sampleProfile = sampleProfileOf(profile);
  let pair: ExecutorPair;
  let stack: Stack;
  beforeAll(async () => {
    pair = await startExecutorPair(...stackOptions(profile));
    stack = pair.stack;
  });

  /** The body the profile answers with `data` (see sourcedBody). */
  const answer = (data: Record<string, unknown>, ...used: Array<[SourcedOperation, boolean, boolean?]>) => sourcedBody(profile, data, used);
  const expectCalls = (operation: SourcedOperation, hiroCalls: ReturnType<typeof callsOf>) =>
    expectCallsOf(profile, operation, stack.sample, hiroCalls);

  /** A token as the profile answers it. */
  const brc20 = (details: Brc20TokenDetails) =>
    servedBy(profile, 'brc20') === 'unisat' ? brc20FromUnisat(toBrc20(details)) : toBrc20(details);

  const transfersFromUnisat = servedBy(profile, 'transfers') === 'unisat';
  /** A block's transfers, newest first, as the profile answers them. */
  const newestFirst = (height: number) => (transfersFromUnisat ? unisatNewestFirst(height) : hiroNewestFirst(height));
  /** A block's page: newest first, total 0 when the page is empty (upstream's quirk, kept by the sources). */
  function transferPage(height: number, offset: number, limit: number) {
    const transfers = newestFirst(height);
    const results = transfers.slice(offset, offset + limit);
    return { limit, offset, total: results.length > 0 ? transfers.length : 0, results };
  }
  /** An upstream page fixture as the profile answers it. */
  const fixturePage = (name: string) => {
    const page = toPage(example<{ limit: number; offset: number; total: number; results: [] }>(name), toTransfer);
    return transfersFromUnisat ? { ...page, results: page.results.map(transferFromUnisat) } : page;
  };
  const transfersAnswer = <P extends { results: unknown[] }>(page: P) =>
    answer({ transfers: page }, ['transfers', page.results.length > 0]);

  /** The etchings list as the profile answers it. */
  const etching = (e: (typeof sampleData.etchings)[number]) => {
    const source = servedBy(profile, 'etchings');
    return source === 'unisat' ? etchingFromUnisat(e) : source === 'ord' ? etchingFromOrd(e) : toEtching(e);
  };
  afterAll(() => pair.close());
  afterEach(() => {
    expectAllBelowBase(stack.sample);
    pair.reset();
  });

  /** Runs a query with a clean request log, on both executors (test/executor-pair.ts). */
  async function run(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
    stack.sample.clearLog();
    return pair.graphql(query, variables, headers);
  }

  describe('status', () => {
    const STATUS = `{ status { ${STATUS_FIELDS} } }`;

    it(`answers the upstream's ${statusOf(sampleProfile).shape} shape (v1: every count; v2: the index block hash, no counts)`, async () => {
      const { status, body } = await run(STATUS);
      expect(status).toBe(200);
      const v1 = {
        serverVersion: 'token-metadata-api v0.0.1 (master:a1b2c3)',
        status: 'ready',
        chainTip: { blockHeight: 163541, indexBlockHash: null },
        tokens: { ft: 512, nft: 493452, sft: 44 },
        tokenContracts: { sip009: 3101, sip010: 512, sip013: 11 },
        jobQueue: { pending: 430562, queued: 512, done: 12532, failed: 11, invalid: 20 },
      };
      const v2 = {
        serverVersion: sampleData.statusV2.server_version,
        status: 'ready',
        chainTip: {
          blockHeight: sampleData.statusV2.chain_tip.block_height,
          indexBlockHash: sampleData.statusV2.chain_tip.index_block_hash,
        },
        tokens: null,
        tokenContracts: null,
        jobQueue: null,
      };
      expect(body).toEqual({ data: { status: statusOf(sampleProfile).shape === 'v2' ? v2 : v1 } });
      // The literals above and the mapping of the example files agree.
      expect(toStatus(example<UpstreamStatus>('status-openapi-example'))).toEqual(v1);
      expect(body.data?.status).toEqual(toStatus(statusOf(sampleProfile).body));
      expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: '/metadata/v1', query: {} }]);
    });

    it('counts the upstream leaves out are 0 (the status.json test fixture)', async () => {
      const fixture = example<UpstreamStatus>('status');
      // The sample's own route serves the OpenAPI example; a 200 fault serves the fixture verbatim.
      pair.inject({ path: '/metadata/v1', status: 200, body: fixture });
      const { body } = await run(STATUS);
      expect(body).toEqual({
        data: {
          status: {
            serverVersion: 'token-metadata-api v0.0.1 (test:123456)',
            status: 'ready',
            chainTip: { blockHeight: 100, indexBlockHash: null },
            tokens: { ft: 0, nft: 4, sft: 0 },
            tokenContracts: { sip009: 1, sip010: 0, sip013: 0 },
            jobQueue: { pending: 1, queued: 1, done: 1, failed: 1, invalid: 1 },
          },
        },
      });
      expect(body.data?.status).toEqual(toStatus(fixture));
      expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: '/metadata/v1', query: {} }]);
    });

    it('a v1 answer without count objects has null counts (status-empty-v1.json)', async () => {
      pair.inject({ path: '/metadata/v1', status: 200, body: example('status-empty-v1') });
      const { body } = await run(STATUS);
      expect(body).toEqual({
        data: {
          status: {
            serverVersion: 'token-metadata-api v0.0.1 (test:123456)',
            status: 'ready',
            chainTip: { blockHeight: 1, indexBlockHash: null },
            tokens: null,
            tokenContracts: null,
            jobQueue: null,
          },
        },
      });
    });

    it('a v2 answer with a null chain tip (status-v2-empty.json)', async () => {
      pair.inject({ path: '/metadata/v1', status: 200, body: example('status-v2-empty') });
      const { body } = await run(STATUS);
      expect(body).toEqual({
        data: {
          status: {
            serverVersion: 'token-metadata-api v0.0.1 (test:123456)',
            status: 'ready',
            chainTip: null,
            tokens: null,
            tokenContracts: null,
            jobQueue: null,
          },
        },
      });
    });
  });

  describe('brc20Token', () => {
    const QUERY = `query($ticker: String!) { brc20Token(ticker: $ticker) { ${BRC20_FIELDS} } }`;

    it.each(['ORDI', 'ordi', 'Ordi'])('%s answers the ordi token, ticker lowercase (brc20-ordi.json)', async (ticker) => {
      const { status, body } = await run(QUERY, { ticker });
      expect(status).toBe(200);
      expect(body).toEqual(answer({ brc20Token: brc20(example<Brc20TokenDetails>('brc20-ordi')) }, ['brc20', true]));
      expect((body.data?.brc20Token as { token: { ticker: string } }).token.ticker).toBe('ordi');
      if (servedBy(profile, 'brc20') !== 'hiro') return expectCalls('brc20', []);
      const calls = callsOf(stack.sample);
      expect(calls).toHaveLength(1);
      // Either case reaches the same token: the upstream lowercases.
      expect({ ...calls[0], path: calls[0]!.path.toLowerCase() }).toEqual({
        method: 'GET',
        path: '/ordinals/v1/brc-20/tokens/ordi',
        query: {},
      });
    });

    it.each(['pepe', 'sats'])('%s answers the upstream test fixture', async (ticker) => {
      const { body } = await run(QUERY, { ticker });
      expect(body).toEqual(answer({ brc20Token: brc20(example<Brc20TokenDetails>(`brc20-${ticker}`)) }, ['brc20', true]));
    });

    it('an unknown ticker is null without an error', async () => {
      const { status, body } = await run(QUERY, { ticker: 'zzzz' });
      expect(status).toBe(200);
      expect(body).toEqual(answer({ brc20Token: null }, ['brc20', false, false]));
      expectCalls('brc20', [{ method: 'GET', path: '/ordinals/v1/brc-20/tokens/zzzz', query: {} }]);
    });

    it.each([
      ['emoji', EMOJI_TICKER, '/ordinals/v1/brc-20/tokens/%F0%9F%90%B8'],
      ['percent', PERCENT_TICKER, '/ordinals/v1/brc-20/tokens/x%25y'],
      ['space', SPACE_TICKER, '/ordinals/v1/brc-20/tokens/a%20b'],
    ])('the %s ticker %j is percent-encoded as one path segment', async (_name, ticker, path) => {
      const { body } = await run(QUERY, { ticker });
      expect(body).toEqual(answer({ brc20Token: brc20(token(ticker)) }, ['brc20', true]));
      if (servedBy(profile, 'brc20') !== 'hiro') return expectCalls('brc20', []);
      const calls = callsOf(stack.sample);
      expect(calls.map((c) => ({ ...c, path: normalizeEscapes(c.path) }))).toEqual([{ method: 'GET', path, query: {} }]);
    });

    it('a token without a mint limit has mintLimit null', async () => {
      const { body } = await run(QUERY, { ticker: NULL_MINT_LIMIT_TICKER });
      expect(token(NULL_MINT_LIMIT_TICKER).token.mint_limit).toBeNull();
      expect(body).toEqual(answer({ brc20Token: brc20(token(NULL_MINT_LIMIT_TICKER)) }, ['brc20', true]));
    });

    it('a 5-byte self-mint token has selfMint true', async () => {
      const { body } = await run(QUERY, { ticker: SELF_MINT_TICKER.toUpperCase() });
      expect(toBrc20(token(SELF_MINT_TICKER)).token.selfMint).toBe(true);
      expect(body).toEqual(answer({ brc20Token: brc20(token(SELF_MINT_TICKER)) }, ['brc20', true]));
    });

    it('amounts above 2^53 come back as the exact same strings', async () => {
      const { body } = await run(QUERY, { ticker: BIG_AMOUNT_TICKER });
      const expected = toBrc20(token(BIG_AMOUNT_TICKER));
      // What a float64 would have rounded away.
      expect(expected.token.maxSupply).toBe('9007199254740993.000000000000000001');
      expect(expected.token.mintLimit).toBe('4503599627370497.000000000000000001');
      expect(expected.token.mintedSupply).toBe('9007199254740991.999999999999999999');
      expect(body).toEqual(answer({ brc20Token: brc20(token(BIG_AMOUNT_TICKER)) }, ['brc20', true]));
    });

    it('several tickers in one query each get their token', async () => {
      const { body } = await run(
        `{ a: brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } b: brc20Token(ticker: "PEPE") { ${BRC20_FIELDS} }
           c: brc20Token(ticker: "nope") { ${BRC20_FIELDS} } }`,
      );
      expect(body).toEqual(
        answer(
          {
            a: brc20(example<Brc20TokenDetails>('brc20-ordi')),
            b: brc20(example<Brc20TokenDetails>('brc20-pepe')),
            c: null,
          },
          ['brc20', true],
        ),
      );
    });
  });

  describe('brc20Token without holders (the token list where the upstream has one)', () => {
    const SUMMARY = BRC20_FIELDS.replace(' holders', '');
    const summaryOf = (ticker: string) => {
      const { supply, ...rest } = brc20(token(ticker));
      return { ...rest, supply: { maxSupply: supply.maxSupply, mintedSupply: supply.mintedSupply } };
    };

    beforeAll(async () => {
      if (hasTokenList(sampleProfile)) return;
      // No token list here: the first lookup learns it from the route 404 and asks the token's own
      // route; no later lookup asks the list again (until the re-probe, minutes away).
      stack.sample.clearLog();
      const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { ${SUMMARY} } }`);
      expect(body).toEqual({ data: { brc20Token: summaryOf('ordi') } });
      expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60', tokenCall('ordi')]);
    });

    it('found, unknown, prefix-only and wildcard tickers: exact matches only, null where none', async () => {
      const tickers = ['ORDI', 'zz_nope', 'ord', PERCENT_TICKER, SPACE_TICKER, EMOJI_TICKER];
      const { body } = await run(
        `{ ${tickers.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t)}) { ${SUMMARY} }`).join(' ')} }`,
      );
      expect(body).toEqual(
        answer(
          {
            t0: summaryOf('ordi'),
            t1: null,
            t2: null,
            t3: summaryOf(PERCENT_TICKER),
            t4: summaryOf(SPACE_TICKER),
            t5: summaryOf(EMOJI_TICKER),
          },
          ['brc20', true],
        ),
      );
      if (servedBy(profile, 'brc20') !== 'hiro') return expectCalls('brc20', []);
      const calls = stack.upstreamCalls();
      expect(calls.sort()).toEqual(
        summaryCalls(
          sampleProfile,
          tickers.map((t) => t.toLowerCase()),
        ).sort(),
      );
    });
  });

  describe('transfers', () => {
    const QUERY = `query($block: BlockId!, $offset: Int! = 0, $limit: Int! = 20) {
      transfers(block: $block, offset: $offset, limit: $limit) { ${TRANSFER_PAGE_FIELDS} } }`;
    const block775700 = fixturePage('transfers-block-775700');

    it('by Int height answers the upstream fixture (transfers-block-775700.json)', async () => {
      const { body } = await run(`{ transfers(block: 775700) { ${TRANSFER_PAGE_FIELDS} } }`);
      expect(body).toEqual(transfersAnswer(block775700));
      expect(body.data?.transfers).toEqual(transferPage(775700, 0, 20));
      expectCalls('transfers', [transfersCall('775700', 0, 20)]);
    });

    it('by a String of digits', async () => {
      const { body } = await run(QUERY, { block: '775700' });
      expect(body).toEqual(transfersAnswer(block775700));
      expectCalls('transfers', [transfersCall('775700', 0, 20)]);
    });

    it('by an Int variable', async () => {
      const { body } = await run(QUERY, { block: 775700 });
      expect(body).toEqual(transfersAnswer(block775700));
      expectCalls('transfers', [transfersCall('775700', 0, 20)]);
    });

    it('by block hash', async () => {
      const { body } = await run(QUERY, { block: KNOWN_BLOCK_HASH });
      expect(body).toEqual(transfersAnswer(block775700));
      expectCalls('transfers', [transfersCall(KNOWN_BLOCK_HASH, 0, 20)]);
    });

    it('limit 1, offset 1 answers the pagination fixture (transfers-block-775701-limit1-offset1.json)', async () => {
      const { body } = await run(`{ transfers(block: "775701", limit: 1, offset: 1) { ${TRANSFER_PAGE_FIELDS} } }`);
      expect(body).toEqual(transfersAnswer(fixturePage('transfers-block-775701-limit1-offset1')));
      expectCalls('transfers', [transfersCall('775701', 1, 1)]);
    });

    it('a block with no transfers answers the empty fixture (transfers-block-775617-empty.json)', async () => {
      const { body } = await run(QUERY, { block: 775617 });
      expect(body).toEqual(transfersAnswer(example<{ results: [] }>('transfers-block-775617-empty')));
    });

    describe(`paging through block ${BIG_TRANSFER_BLOCK} (more than 60 transfers)`, () => {
      it('holds more than 60 transfers', () => {
        expect(block(BIG_TRANSFER_BLOCK).transfers.length).toBeGreaterThan(60);
      });

      it.each([
        [0, 60],
        [60, 60],
        [30, 7],
        [0, 1],
        [76, 5],
      ])('offset %i, limit %i: newest first with the total', async (offset, limit) => {
        const { body } = await run(QUERY, { block: BIG_TRANSFER_BLOCK, offset, limit });
        const expected = transferPage(BIG_TRANSFER_BLOCK, offset, limit);
        expect(expected.total).toBeGreaterThan(60);
        expect(body).toEqual(transfersAnswer(expected));
        expectCalls('transfers', [transfersCall(String(BIG_TRANSFER_BLOCK), offset, limit)]);
      });

      it('the first result is the last transfer of the block', async () => {
        const { body } = await run(QUERY, { block: String(BIG_TRANSFER_BLOCK), limit: 1 });
        const transfers = block(BIG_TRANSFER_BLOCK).transfers;
        // From UniSat, the block's last event moves an inscription a second time: one transfer more.
        const last = transfersFromUnisat ? unisatNewestFirst(BIG_TRANSFER_BLOCK)[0]! : toTransfer(transfers.at(-1)!);
        const total = transfers.length + (transfersFromUnisat ? 1 : 0);
        expect(body).toEqual(transfersAnswer({ limit: 1, offset: 0, total, results: [last] }));
      });

      it('the pages of 60 together are the whole block, newest first', async () => {
        const first = await run(QUERY, { block: BIG_TRANSFER_BLOCK, offset: 0, limit: 60 });
        const second = await run(QUERY, { block: BIG_TRANSFER_BLOCK, offset: 60, limit: 60 });
        const pages = [first, second].map((r) => (r.body.data?.transfers as { results: unknown[] }).results);
        expect([...pages[0]!, ...pages[1]!]).toEqual(newestFirst(BIG_TRANSFER_BLOCK));
      });

      it('an offset past the end: empty page, total 0 (the upstream quirk)', async () => {
        const { body } = await run(QUERY, { block: BIG_TRANSFER_BLOCK, offset: 100, limit: 10 });
        expect(body).toEqual(transfersAnswer({ limit: 10, offset: 100, total: 0, results: [] }));
      });
    });

    it(`block ${NULL_LOCATION_BLOCK}: null address, value and offset`, async () => {
      const { body } = await run(QUERY, { block: NULL_LOCATION_BLOCK });
      const hiro = hiroNewestFirst(NULL_LOCATION_BLOCK).slice(0, 20);
      expect(hiro.length).toBeGreaterThan(0);
      for (const t of hiro) {
        expect(t.to).toMatchObject({ address: null, value: null, offset: null, location: `${t.to.output}:null` });
      }
      expect(body).toEqual(transfersAnswer(transferPage(NULL_LOCATION_BLOCK, 0, 20)));
    });

    it.each([
      ['an unknown height', 999999],
      ['an unknown hash', `00000000${'ab'.repeat(28)}`],
    ])('%s: total 0, no results', async (_name, blockId) => {
      const { status, body } = await run(QUERY, { block: blockId });
      expect(status).toBe(200);
      expect(body).toEqual(transfersAnswer({ limit: 20, offset: 0, total: 0, results: [] }));
      expectCalls('transfers', [transfersCall(String(blockId), 0, 20)]);
    });
  });

  describe('etchings', () => {
    const etchingsCall = (offset: number, limit: number) => ({
      method: 'GET',
      path: '/runes/v1/etchings',
      query: { offset: String(offset), limit: String(limit) },
    });
    const etchingPage = (offset: number, limit: number) => {
      const results = sampleData.etchings.slice(offset, offset + limit);
      return { limit, offset, total: results.length > 0 ? sampleData.etchingsTotal : 0, results: results.map(etching) };
    };
    const etchingsAnswer = <P extends { results: unknown[] }>(page: P) => answer({ etchings: page }, ['etchings', page.results.length > 0]);

    it('the default page: 20 newest, timestamps in ms', async () => {
      const { body } = await run(`{ etchings { ${ETCHING_PAGE_FIELDS} } }`);
      const expected = etchingPage(0, 20);
      expect(expected.results[0]!.location.timestamp).toBe(sampleData.etchings[0]!.location.timestamp * 1000);
      expect(body).toEqual(etchingsAnswer(expected));
      expectCalls('etchings', [etchingsCall(0, 20)]);
    });

    it('a page with offset and limit', async () => {
      const { body } = await run(`query($o: Int!, $l: Int!) { etchings(offset: $o, limit: $l) { ${ETCHING_PAGE_FIELDS} } }`, {
        o: 45,
        l: 60,
      });
      expect(body).toEqual(etchingsAnswer(etchingPage(45, 60)));
      expectCalls('etchings', [etchingsCall(45, 60)]);
    });

    it('an etching without mint terms has every term null', async () => {
      const index = sampleData.etchings.findIndex((e) => Object.values(e.mint_terms).every((v) => v === null));
      expect(index).toBeGreaterThanOrEqual(0);
      const { body } = await run(`{ etchings(offset: ${index}, limit: 1) { ${ETCHING_PAGE_FIELDS} } }`);
      const expected = etchingPage(index, 1);
      expect(expected.results[0]!.mintTerms).toEqual({
        amount: null,
        cap: null,
        heightStart: null,
        heightEnd: null,
        offsetStart: null,
        offsetEnd: null,
      });
      expect(body).toEqual(etchingsAnswer(expected));
    });

    it('an etching with some terms null and others set', async () => {
      const index = sampleData.etchings.findIndex(
        (e) => e.mint_terms.amount !== null && e.mint_terms.height_start === null && e.mint_terms.offset_end !== null,
      );
      expect(index).toBeGreaterThanOrEqual(0);
      const { body } = await run(`{ etchings(offset: ${index}, limit: 1) { ${ETCHING_PAGE_FIELDS} } }`);
      expect(body).toEqual(etchingsAnswer(etchingPage(index, 1)));
    });

    it('an offset past the end: empty page, total 0', async () => {
      const offset = sampleData.etchings.length + 10;
      const { body } = await run(`{ etchings(offset: ${offset}, limit: 5) { ${ETCHING_PAGE_FIELDS} } }`);
      expect(body).toEqual(etchingsAnswer({ limit: 5, offset, total: 0, results: [] }));
    });
  });

  describe('bitcoinNode', () => {
    const QUERY = 'query($path: String!) { bitcoinNode(path: $path) }';
    const key = { 'x-api-key': SAMPLE_PLATFORM_KEY };
    const nodePath = (rest: string) => `/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/${rest}`;

    it('rest/chaininfo.json answers the JSON object', async () => {
      const { body } = await run(QUERY, { path: 'rest/chaininfo.json' }, key);
      expect(body).toEqual({ data: { bitcoinNode: sampleData.bitcoinNode.chainInfo } });
      expect(body.data?.bitcoinNode).toEqual(example<{ result: unknown }>('bitcoin-node-chaininfo').result);
      expect(stack.upstreamCalls()).toEqual([`GET ${nodePath('rest/chaininfo.json')}`]);
    });

    it('rest/mempool/info.json answers the JSON object', async () => {
      const { body } = await run(QUERY, { path: 'rest/mempool/info.json' }, key);
      expect(body).toEqual({ data: { bitcoinNode: sampleData.bitcoinNode.mempoolInfo } });
    });

    it('a 2xx answer that is not JSON (.hex) comes back as a JSON string', async () => {
      const { body } = await run(QUERY, { path: 'rest/blockhashbyheight/5.hex' }, key);
      expect(body).toEqual({ data: { bitcoinNode: `${sampleData.bitcoinNode.blockHashes[5]}\n` } });
      expect(stack.upstreamCalls()).toEqual([`GET ${nodePath('rest/blockhashbyheight/5.hex')}`]);
    });

    it('a query string is kept', async () => {
      const hash = sampleData.bitcoinNode.blockHashes[10]!;
      const { body } = await run(QUERY, { path: `rest/headers/${hash}.json?count=3` }, key);
      expect(body).toEqual({ data: { bitcoinNode: [10, 11, 12].map(devnetHeader) } });
      expect(stack.upstreamCalls()).toEqual([`GET ${nodePath(`rest/headers/${hash}.json`)}?count=3`]);
    });

    it('the query string reaches the node byte for byte, escapes and all', async () => {
      const hash = sampleData.bitcoinNode.blockHashes[10]!;
      const query = 'count=2&y=%20z&w=a+b&v=%7e&v=%7E&x';
      const { body } = await run(QUERY, { path: `rest/headers/${hash}.json?${query}` }, key);
      expect(body).toEqual({ data: { bitcoinNode: [10, 11].map(devnetHeader) } });
      expect(stack.upstreamCalls()).toEqual([`GET ${nodePath(`rest/headers/${hash}.json`)}?${query}`]);
    });
  });

  describe('deleteChainhook', () => {
    it('deletes a chainhook with exactly one DELETE', async () => {
      const uuid = DELETABLE_CHAINHOOK_UUIDS[1]!;
      const { status, body } = await run(
        'mutation($uuid: String!, $key: String) { deleteChainhook(uuid: $uuid, apiKey: $key) { status chainhookUuid message } }',
        { uuid, key: SAMPLE_PLATFORM_KEY },
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } },
      });
      expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
    });
  });

  describe('all operations in one document', () => {
    it('each field answers', async () => {
      const { body } = await run(
        `{ status { ${STATUS_FIELDS} } brc20Token(ticker: "sats") { ${BRC20_FIELDS} }
           transfers(block: 775700) { ${TRANSFER_PAGE_FIELDS} } etchings(limit: 3) { ${ETCHING_PAGE_FIELDS} }
           bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`,
      );
      expect(body).toEqual(
        answer(
          {
            status: toStatus(statusOf(sampleProfile).body),
            brc20Token: brc20(example<Brc20TokenDetails>('brc20-sats')),
            transfers: transferPage(775700, 0, 20),
            etchings: { limit: 3, offset: 0, total: sampleData.etchingsTotal, results: sampleData.etchings.slice(0, 3).map(etching) },
            bitcoinNode: sampleData.bitcoinNode.chainInfo,
          },
          ['brc20', true],
          ['transfers', true],
          ['etchings', true],
        ),
      );
      // Hiro's calls but for the operations a source serves; the rest went to the sources.
      const hiroCalls: Array<[SourcedOperation | 'hiro', string]> = [
        ['hiro', 'GET /metadata/v1'],
        ['brc20', 'GET /ordinals/v1/brc-20/tokens/sats'],
        ['transfers', 'GET /ordinals/v1/inscriptions/transfers'],
        ['etchings', 'GET /runes/v1/etchings'],
        ['hiro', `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/chaininfo.json`],
      ];
      const calls = callsOf(stack.sample).filter((c) => !isSourceCall(c.path));
      expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(
        hiroCalls
          .filter(([operation]) => operation === 'hiro' || servedBy(profile, operation) === 'hiro')
          .map(([, call]) => call)
          .sort(),
      );
    });
  });

  // Last, over what the tests above sent: the comparison compared the two executors.
  it('ran every operation compiled on the stack, and on graphql-js on its twin', async () => {
    const { compiled, reference } = await pair.executions();
    expect(reference).toEqual({ compiled: 0, fallback: expect.any(Number) });
    expect(reference.fallback).toBeGreaterThan(0);
    // The stack's own warm-up lookups (no token list) ran on it alone.
    expect(compiled).toEqual({ compiled: expect.any(Number), fallback: 0 });
    expect(compiled.compiled).toBeGreaterThanOrEqual(reference.fallback);
  });
});
