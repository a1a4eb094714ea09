// brc20Tokens(tickers): exact, ordered, case-insensitive batch lookups through the same per-request
// loaders as brc20Token, read from the sample upstream's request log.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { findBrc20Token } from '../../src/sample/data.js';
import { brc20TokensCost } from '../../src/graphql/schema/brc20.js';
import { startStack, type Stack } from '../harness.js';
import { BRC20_FIELDS, callsOf, fieldError, toBrc20 } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.reset());

const SUMMARY_FIELDS = 'token { ticker mintedSupply txCount } supply { maxSupply mintedSupply }';
const summaryOf = (ticker: string) => {
  const { token } = toBrc20(findBrc20Token(ticker)!);
  return {
    token: { ticker: token.ticker, mintedSupply: token.mintedSupply, txCount: token.txCount },
    supply: { maxSupply: token.maxSupply, mintedSupply: token.mintedSupply },
  };
};

it('answers one entry per ticker in the order asked, null for unknown ones, in one list call without holders', async () => {
  const tickers = ['PEPE', 'nope', 'ordi', 'Ordi', 'sats', 'zzzz', 'pepe'];
  const { body } = await stack.graphql(`query($t: [String!]!) { brc20Tokens(tickers: $t) { ${SUMMARY_FIELDS} } }`, { t: tickers });
  expect(body).toEqual({
    data: {
      brc20Tokens: [summaryOf('pepe'), null, summaryOf('ordi'), summaryOf('ordi'), summaryOf('sats'), null, summaryOf('pepe')],
    },
  });
  // Duplicates and case variants are one key each: nope, ordi, pepe, sats, zzzz in one list call.
  expect(callsOf(stack.sample)).toEqual([
    {
      method: 'GET',
      path: '/ordinals/v1/brc-20/tokens',
      query: { ticker: expect.any(String), offset: '0', limit: '60' },
    },
  ]);
  const asked = new URLSearchParams(stack.sample.requests[0]!.url.split('?')[1]).getAll('ticker');
  expect(asked.sort()).toEqual(['nope', 'ordi', 'pepe', 'sats', 'zzzz']);
});

it('with holders, each distinct ticker is one detail call, shared with brc20Token and aliases', async () => {
  const { body } = await stack.graphql(`{
    a: brc20Tokens(tickers: ["ordi", "NOPE", "ORDI"]) { ${BRC20_FIELDS} }
    b: brc20Tokens(tickers: ["sats"]) { ${BRC20_FIELDS} }
    c: brc20Token(ticker: "Sats") { ${BRC20_FIELDS} }
  }`);
  const ordi = toBrc20(findBrc20Token('ordi')!);
  const sats = toBrc20(findBrc20Token('sats')!);
  expect(body).toEqual({ data: { a: [ordi, null, ordi], b: [sats], c: sats } });
  expect(
    callsOf(stack.sample)
      .map((c) => c.path)
      .sort(),
  ).toEqual(['/ordinals/v1/brc-20/tokens/nope', '/ordinals/v1/brc-20/tokens/ordi', '/ordinals/v1/brc-20/tokens/sats']);
});

it('a failed lookup fails only its own entry, at its index', async () => {
  stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/pepe', status: 503, body: { error: 'down' } });
  const { body } = await stack.graphql(`{ brc20Tokens(tickers: ["ordi", "pepe", "sats"]) { ${BRC20_FIELDS} } }`);
  expect(body).toEqual({
    data: { brc20Tokens: [toBrc20(findBrc20Token('ordi')!), null, toBrc20(findBrc20Token('sats')!)] },
    errors: [fieldError(['brc20Tokens', 1], { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 503 })],
  });
});

it.each([
  [[], 0],
  [Array.from({ length: 51 }, (_, i) => `t${i}`), 51],
])('%#: 0 or more than 50 tickers are BAD_USER_INPUT, with no upstream call', async (tickers, count) => {
  const { body } = await stack.graphql('query($t: [String!]!) { brc20Tokens(tickers: $t) { token { ticker } } }', { t: tickers });
  expect(body).toEqual({
    data: null,
    errors: [
      {
        message: `tickers must hold 1 to 50 tickers, got ${count}`,
        locations: expect.any(Array),
        path: ['brc20Tokens'],
        extensions: { code: 'BAD_USER_INPUT', argument: 'tickers' },
      },
    ],
  });
  expect(stack.sample.requests).toEqual([]);
});

it('50 distinct tickers without holders cost 3 list calls (20 per call)', async () => {
  const tickers = Array.from({ length: 50 }, (_, i) => `q${String(i).padStart(3, '0')}`);
  const { body } = await stack.graphql('query($t: [String!]!) { brc20Tokens(tickers: $t) { token { ticker } } }', { t: tickers });
  expect(body).toEqual({ data: { brc20Tokens: tickers.map(() => null) } });
  expect(callsOf(stack.sample).map((c) => c.path)).toEqual(Array(3).fill('/ordinals/v1/brc-20/tokens'));
});

it('brc20TokensCost prices the upstream calls the lookup may make and its items', () => {
  expect([brc20TokensCost(3, true), brc20TokensCost(3, false), brc20TokensCost(50, false), brc20TokensCost(undefined, true)]).toEqual([
    33, 13, 80, 550,
  ]);
});
