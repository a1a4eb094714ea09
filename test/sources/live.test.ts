/**
 * Subscriptions over a data source: the brc20Token subscription's poller asks UniSat (with its
 * Bearer key) instead of hiro, and sends hiro's shape with null where UniSat has nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { disposeAll, sse, until } from '../live-clients.js';
import { dataRequests, globalId } from '../support.js';

const UNISAT_KEY = 'unisat-secret-key-live-51aa';

describe('brc20Token subscription with BRC20_SOURCE=unisat', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      (sample) => ({
        BRC20_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_API_KEY: UNISAT_KEY,
        UNISAT_RATE_LIMIT_PER_SECOND: '50',
        LIVE_POLL_INTERVAL_MS: '100',
      }),
      { sources: { unisat: { apiKey: UNISAT_KEY } } },
    );
  });
  afterAll(async () => {
    await disposeAll();
    await stack.close();
  });

  test('the first event is UniSat’s token in hiro’s shape; every poll went to UniSat', async () => {
    const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;
    const watch = sse(
      stack.gatewayUrl,
      'subscription { brc20Token(ticker: "ORDI") { token { id inscriptionId ticker selfMint mintedSupply } supply { holders } } }',
      '203.0.113.9',
    );
    await until(() => watch.results.length >= 1, 'the first event');
    expect(watch.results[0]!.data).toEqual({
      brc20Token: {
        token: {
          id: globalId('Brc20Token', 'ordi'),
          inscriptionId: ordi.token.id,
          ticker: 'ordi',
          selfMint: null,
          mintedSupply: ordi.token.minted_supply,
        },
        supply: { holders: ordi.supply.holders },
      },
    });
    await until(() => dataRequests(stack.sample).length >= 3, 'more polls');
    watch.stop();
    await watch.done;
    expect(new Set(dataRequests(stack.sample).map((r) => r.path))).toEqual(new Set(['/v1/indexer/brc20/ordi/info']));
    expect(dataRequests(stack.sample).every((r) => r.headers.authorization === `Bearer ${UNISAT_KEY}`)).toBe(true);
    // Unchanged answers send nothing more.
    expect(watch.results).toHaveLength(1);
  });

  test('a ticker that reads as hex watches itself, not the token UniSat decodes it to: null', async () => {
    stack.sample.clearLog();
    const watch = sse(stack.gatewayUrl, 'subscription { brc20Token(ticker: "6f726469") { token { id } } }', '203.0.113.10');
    await until(() => watch.results.length >= 1, 'the first event');
    await until(() => dataRequests(stack.sample).length >= 2, 'another poll');
    watch.stop();
    await watch.done;
    // UniSat answered ORDI each time (it decodes hex parameters): no event carried it.
    expect(watch.results).toEqual([{ data: { brc20Token: null } }]);
    expect(new Set(dataRequests(stack.sample).map((r) => r.path))).toEqual(new Set(['/v1/indexer/brc20/6f726469/info']));
  });
});
