/**
 * The conformance matrix: the sample upstream's profiles (src/sample/server.ts) and what differs
 * between them for the suites that run against each (graphql-operations, rest-parity, conformance),
 * and the data-source profiles those suites also run against (docs/sources.md): the hiro sample
 * with BRC-20, transfers and etchings from its UniSat profile (`unisat`), or the etchings from its
 * ord profile (`ord`).
 */
import { expect } from 'vitest';
import { STATUS_V1_ETAG, STATUS_V2_ETAG, sampleData } from '../src/sample/data.js';
import { SAMPLE_PROFILES, type SampleOptions, type SampleProfile, type SampleUpstream } from '../src/sample/server.js';
import type { ApiStatusResponse } from '../src/upstream/types.js';
import { SOURCE_HEIGHT, UNAVAILABLE } from './sources-expected.js';
import { callsOf, type UpstreamCall } from './support.js';

export const PROFILES = Object.keys(SAMPLE_PROFILES) as SampleProfile[];

/** A data-source profile: which source serves each sourced operation. */
export type SourceName = 'unisat' | 'ord';
export type SourcedOperation = 'brc20' | 'transfers' | 'etchings';
export type SourceProfile = SourceName;
export type SuiteProfile = SampleProfile | SourceProfile;

const UNISAT_KEY = 'unisat-suite-key-52a9';
const ORD_AUTH = 'satgate:ord-suite-password';
const SOURCE_PROFILES: Record<SourceProfile, { served: Partial<Record<SourcedOperation, SourceName>> }> = {
  unisat: { served: { brc20: 'unisat', transfers: 'unisat', etchings: 'unisat' } },
  ord: { served: { etchings: 'ord' } },
};

/** Every profile the operation and parity suites run against. */
export const SUITE_PROFILES: SuiteProfile[] = [...PROFILES, ...(Object.keys(SOURCE_PROFILES) as SourceProfile[])];

const isSource = (profile: SuiteProfile): profile is SourceProfile => profile in SOURCE_PROFILES;

/** The sample profile under a suite profile (sources run beside the hiro sample). */
export const sampleProfileOf = (profile: SuiteProfile): SampleProfile => (isSource(profile) ? 'hiro' : profile);

/** The source serving an operation under the profile, or `hiro`. */
export const servedBy = (profile: SuiteProfile, operation: SourcedOperation): SourceName | 'hiro' =>
  (isSource(profile) ? SOURCE_PROFILES[profile].served[operation] : undefined) ?? 'hiro';

/** startStack's arguments for a profile. */
export function stackOptions(profile: SuiteProfile): [(sample: SampleUpstream) => Record<string, string>, SampleOptions] {
  if (profile === 'unisat') {
    return [
      (sample) => ({
        BRC20_SOURCE: 'unisat',
        TRANSFERS_SOURCE: 'unisat',
        ETCHINGS_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_API_KEY: UNISAT_KEY,
        UNISAT_RATE_LIMIT_PER_SECOND: '10000',
      }),
      { sources: { unisat: { apiKey: UNISAT_KEY } } },
    ];
  }
  if (profile === 'ord') {
    return [
      (sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: `${sample.baseUrl}/ord`, ORD_API_AUTH: ORD_AUTH }),
      { sources: { ord: { auth: ORD_AUTH, prefix: '/ord' } } },
    ];
  }
  return [() => ({}), { profile }];
}

/**
 * A GraphQL body as the profile answers it: `data`, and where a source served an operation,
 * `extensions.sources` (one entry per source, in first-use order), listing what the source lacks
 * for each operation whose answer held objects of it (`filled`).
 */
export function sourcedBody(
  profile: SuiteProfile,
  data: Record<string, unknown>,
  used: Array<[SourcedOperation, filled: boolean, answered?: boolean]>,
): { data: Record<string, unknown>; extensions?: unknown } {
  const entries = new Map<SourceName, { height: number | null; unavailable: Set<string> }>();
  for (const [operation, filled, answered = true] of used) {
    const source = servedBy(profile, operation);
    if (source === 'hiro') continue;
    const entry = entries.get(source) ?? { height: null, unavailable: new Set<string>() };
    entries.set(source, entry);
    const missing: readonly string[] = (UNAVAILABLE[source] as Partial<Record<SourcedOperation, readonly string[]>>)[operation] ?? [];
    if (filled) missing.forEach((coordinate) => entry.unavailable.add(coordinate));
    // A null answer carries no height; the request's is the highest its answers carried.
    const height: number | undefined = (SOURCE_HEIGHT[source] as Partial<Record<SourcedOperation, number>>)[operation];
    if (answered && height !== undefined) entry.height = Math.max(entry.height ?? height, height);
  }
  if (entries.size === 0) return { data };
  const sources = [...entries].map(([source, { height, unavailable }]) => ({
    source,
    height,
    unavailable: [...unavailable].sort(),
  }));
  return { data, extensions: { sources } };
}

/** The sample's routes for each source (its UniSat and ord profiles). */
const SOURCE_ROUTES: Record<SourceName, RegExp> = { unisat: /^\/v1\/indexer\//, ord: /^\/ord\// };

/** Whether a logged path is one of the sample's source routes. */
export const isSourceCall = (path: string): boolean => Object.values(SOURCE_ROUTES).some((route) => route.test(path));

/**
 * The request log of one operation: hiro's calls as `hiroCalls` lists them, or, where a source
 * serves it, calls to that source's routes only (test/sources/ checks each source's calls).
 * (ord's routes are mounted below /ord: its `/runes/{page}` would otherwise take hiro's `/runes/x`.)
 */
export function expectCallsOf(profile: SuiteProfile, operation: SourcedOperation, sample: SampleUpstream, hiroCalls: UpstreamCall[]): void {
  const source = servedBy(profile, operation);
  const calls = callsOf(sample);
  if (source === 'hiro') return void expect(calls).toEqual(hiroCalls);
  expect(calls.filter((call) => !SOURCE_ROUTES[source].test(call.path))).toEqual([]);
}

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
