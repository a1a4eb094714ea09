// The sample upstream's activity (src/sample/activity.ts): new etchings and mints change the data
// the REST routes answer, and the ETags change exactly when the data does.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINTING_TICKER } from '../../src/sample/activity.js';
import { findBrc20Token, ORDINALS_ETAG, RUNES_ETAG, sampleData } from '../../src/sample/data.js';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream();
});
afterAll(() => sample.close());
beforeEach(() => sample.reset());

async function get(path: string) {
  const response = await fetch(sample.url + path);
  return { etag: response.headers.get('etag'), body: (await response.json()) as Record<string, unknown> };
}

it('etch prepends new etchings in new blocks; the runes ETag follows the chain tip', async () => {
  const before = await get('/runes/v1/etchings?limit=2');
  expect(before).toEqual({
    etag: `"${RUNES_ETAG}"`,
    body: { limit: 2, offset: 0, total: sampleData.etchingsTotal, results: sampleData.etchings.slice(0, 2) },
  });
  expect((await get('/runes/v1/etchings?limit=2')).etag).toBe(`"${RUNES_ETAG}"`);
  const added = sample.activity.etch(2);
  expect(added.map((e) => [e.number, e.location.block_height])).toEqual([
    [sampleData.etchingsTotal + 1, sampleData.etchings[0]!.location.block_height + 2],
    [sampleData.etchingsTotal, sampleData.etchings[0]!.location.block_height + 1],
  ]);
  const after = await get('/runes/v1/etchings?limit=3');
  expect(after).toEqual({
    etag: `"${added[0]!.location.block_hash}"`,
    body: { limit: 3, offset: 0, total: sampleData.etchingsTotal + 2, results: [...added, sampleData.etchings[0]] },
  });
  expect((await get(`/runes/v1/etchings/${added[1]!.id}`)).body).toEqual(added[1]);
});

it('mint raises the minted supply and tx count; the ordinals ETag moves on', async () => {
  const initial = findBrc20Token(MINTING_TICKER)!;
  expect((await get(`/ordinals/v1/brc-20/tokens/${MINTING_TICKER}`)).etag).toBe(`"${ORDINALS_ETAG}"`);
  sample.activity.mint();
  const minted = sample.activity.mint();
  // 1,234,567.12345678 + 2 mints of 1,000
  expect(minted.token.minted_supply).toBe('1236567.12345678');
  expect(minted).toEqual({
    token: { ...initial.token, minted_supply: '1236567.12345678', tx_count: initial.token.tx_count + 2 },
    supply: { ...initial.supply, minted_supply: '1236567.12345678' },
  });
  const answer = await get(`/ordinals/v1/brc-20/tokens/${MINTING_TICKER.toUpperCase()}`);
  expect(answer).toEqual({ etag: `"${Number(ORDINALS_ETAG) + 1200}"`, body: minted });
  const list = await get(`/ordinals/v1/brc-20/tokens?ticker=${MINTING_TICKER}`);
  expect(list.body.results).toEqual([minted.token]);
  sample.reset();
  expect(await get(`/ordinals/v1/brc-20/tokens/${MINTING_TICKER}`)).toEqual({ etag: `"${ORDINALS_ETAG}"`, body: initial });
});
