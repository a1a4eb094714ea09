/**
 * The conformance matrix: the sample upstream's profiles (src/sample/server.ts) and what differs
 * between them for the suites that run against each (graphql-operations, rest-parity, conformance).
 */
import { expect } from 'vitest';
import { STATUS_V1_ETAG, STATUS_V2_ETAG, sampleData } from '../src/sample/data.js';
import { SAMPLE_PROFILES, type SampleProfile, type SampleUpstream } from '../src/sample/server.js';
import type { ApiStatusResponse } from '../src/upstream/types.js';

export const PROFILES = Object.keys(SAMPLE_PROFILES) as SampleProfile[];

/** Whether the profile serves the BRC-20 token list (an optional route). */
export const hasTokenList = (profile: SampleProfile): boolean => SAMPLE_PROFILES[profile].tokenList;

/** The status shape, body and ETag of the profile's token-metadata service. */
export function statusOf(profile: SampleProfile): { shape: 'v1' | 'v2'; body: ApiStatusResponse; etag: string } {
  return SAMPLE_PROFILES[profile].statusShape === 'v2'
    ? { shape: 'v2', body: sampleData.statusV2, etag: STATUS_V2_ETAG }
    : { shape: 'v1', body: sampleData.statusV1, etag: STATUS_V1_ETAG };
}

/** Every logged request reached the sample below its base path (the gateway kept the prefix). */
export function expectAllBelowBase(sample: SampleUpstream): void {
  const below = `${SAMPLE_PROFILES[sample.profile].basePath}/`;
  expect(sample.requests.map((r) => r.received).filter((received) => !received.startsWith(below))).toEqual([]);
}

/** The token list request for a batch (tickers lowercased by the gateway), as logged. */
export function listCall(tickers: string[]): string {
  const query = new URLSearchParams([...tickers.map((t) => ['ticker', t]), ['offset', '0'], ['limit', '60']]);
  return `GET /ordinals/v1/brc-20/tokens?${query}`;
}

/** A token's own route, as logged. */
export const tokenCall = (ticker: string): string => `GET /ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`;

/** What a gateway asks for token lookups without holders: the list where there is one, else each token's route. */
export function summaryCalls(profile: SampleProfile, tickers: string[]): string[] {
  return hasTokenList(profile) ? [listCall(tickers)] : tickers.map(tokenCall);
}
