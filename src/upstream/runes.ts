import { merged } from '../lib/merge.js';
import type { CallOptions, UpstreamRequest } from './request.js';
import type { UpstreamService } from './service.js';
import type { PageQuery } from './ordinals.js';
import { joinPath, segment } from './paths.js';
import { boolean, checked, count, decimal, int, object, optional, page, seconds, string } from './shapes.js';
import type { Page, RuneEtching } from './types.js';

type Part<K extends keyof RuneEtching> = RuneEtching[K];
const isEtching = object<RuneEtching>({
  id: string,
  name: string,
  spaced_name: string,
  number: int,
  // A rune's decimals: 0 to 38 (ord's MAX_DIVISIBILITY); the amounts are written with them.
  divisibility: (value: unknown): value is number => count(value) && value <= 38,
  symbol: string,
  turbo: boolean,
  mint_terms: object<Part<'mint_terms'>>({
    amount: optional(decimal),
    cap: optional(decimal),
    height_start: optional(int),
    height_end: optional(int),
    offset_start: optional(int),
    offset_end: optional(int),
  }),
  supply: object<Part<'supply'>>({
    current: decimal,
    minted: decimal,
    total_mints: decimal,
    mint_percentage: decimal,
    mintable: boolean,
    burned: decimal,
    total_burns: decimal,
    premine: decimal,
  }),
  location: object<Part<'location'>>({
    block_hash: string,
    block_height: int,
    tx_id: string,
    tx_index: int,
    vout: optional(int),
    output: optional(string),
    timestamp: seconds,
  }),
});
export const isEtchingPage = checked(page(isEtching));
const isEtchingAnswer = checked(isEtching);

/** Runes API: the etchings list, and one etching by its rune id (`block:tx`). */
export function createRunesClient(service: UpstreamService) {
  return {
    service,
    etchingsRequest: (page: PageQuery): UpstreamRequest => ({
      path: '/runes/v1/etchings',
      route: '/runes/v1/etchings',
      query: { offset: page.offset, limit: page.limit },
    }),
    etchings(page: PageQuery, call: CallOptions = {}) {
      return service.json(merged(this.etchingsRequest(page), call), 'error', isEtchingPage) as Promise<Page<RuneEtching>>;
    },
    etchingRequest: (runeId: string): UpstreamRequest => ({
      path: joinPath('runes', 'v1', 'etchings', segment(runeId, 'id')),
      route: '/runes/v1/etchings/:etching',
    }),
    /** Null when the upstream knows no such rune (its 404). */
    etching(runeId: string, call: CallOptions = {}) {
      return service.json(merged(this.etchingRequest(runeId), call), 'null', isEtchingAnswer) as Promise<RuneEtching | null>;
    },
  };
}
export type RunesClient = ReturnType<typeof createRunesClient>;
