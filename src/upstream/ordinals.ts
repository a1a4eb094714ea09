import { merged } from '../lib/merge.js';
import type { CallOptions, UpstreamRequest } from './request.js';
import type { UpstreamService } from './service.js';
import { isImpossibleTicker, joinPath, segment, wellFormed } from './paths.js';
import { boolean, checked, decimal, int, object, optional, page, string, timestamp } from './shapes.js';
import type { Brc20Supply, Brc20Token, Brc20TokenDetailsResponse, InscriptionLocation, InscriptionTransfer, Page } from './types.js';

/** The upstreams' largest page. */
const MAX_PAGE = 60;

export interface PageQuery {
  offset: number;
  limit: number;
}

/**
 * The upstream looks tickers up by SQL `lower()`, which maps ASCII A-Z like this on every collation;
 * other scripts are passed as given, so `ORDI`, `ordi` and `Ordi` are one upstream path (and one
 * cache entry) while non-ASCII tickers keep their exact upstream semantics. Every ticker passes
 * here (the loaders key on it), so one with no URL form is refused here, before any batching.
 */
export function normalizeTicker(ticker: string): string {
  return wellFormed(ticker, 'ticker').replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * How long the BRC-20 token list is left alone once this upstream said it has none, before one
 * lookup asks it again (the route may be deployed, or the upstream replaced, meanwhile).
 */
export const BRC20_LIST_REPROBE_MS = 10 * 60_000;

/**
 * Answers that say the token list is not served here, as opposed to a failure of a list that is:
 * 404 (no such route: the list never answers 404 itself, no match is an empty 200 page), 405 and
 * 501 (not implemented), and 400 (it refuses the query: every parameter sent is valid for the
 * upstream's own list, so a 400 means a list without the `ticker` filter or the page size).
 */
const LIST_MISSING_STATUS = new Set([400, 404, 405, 501]);

export interface OrdinalsOptions {
  /** BRC20_LIST_LOOKUPS: `off` never asks the token list. */
  listLookups?: 'auto' | 'off';
}

const brc20Token = object<Brc20Token>({
  id: string,
  number: int,
  block_height: int,
  tx_id: string,
  address: string,
  ticker: string,
  max_supply: decimal,
  mint_limit: optional(decimal),
  decimals: int,
  deploy_timestamp: timestamp,
  minted_supply: decimal,
  tx_count: int,
  self_mint: optional(boolean),
});
export const isBrc20Details = checked(
  object<Brc20TokenDetailsResponse>({
    token: brc20Token,
    supply: object<Brc20Supply>({ max_supply: decimal, minted_supply: decimal, holders: int }),
  }),
);
const isBrc20Page = checked(page(brc20Token));

const location = object<InscriptionLocation>({
  block_height: int,
  block_hash: string,
  address: optional(string),
  tx_id: string,
  location: string,
  output: string,
  value: optional(decimal),
  offset: optional(decimal),
  timestamp,
});
const isTransferPage = checked(page(object<InscriptionTransfer>({ id: string, number: int, from: location, to: location })));

/** Ordinals API: BRC-20 token details and inscription transfers per block. */
export function createOrdinalsClient(service: UpstreamService, { listLookups = 'auto' }: OrdinalsOptions = {}) {
  /** Until when the token list counts as missing on this upstream; 0 while it is not known to be. */
  let listMissingUntil = 0;
  /** A re-probe is in flight: the other lookups keep using the token routes until it answers. */
  let reprobing = false;
  return {
    service,
    brc20TokenRequest: (ticker: string): UpstreamRequest => ({
      path: joinPath('ordinals', 'v1', 'brc-20', 'tokens', segment(normalizeTicker(ticker), 'ticker')),
      route: '/ordinals/v1/brc-20/tokens/:ticker',
    }),
    /** The token list filtered by tickers: a prefix match (see brc20Tokens). */
    brc20TokensRequest: (tickers: string[]): UpstreamRequest => ({
      path: '/ordinals/v1/brc-20/tokens',
      route: '/ordinals/v1/brc-20/tokens',
      query: { ticker: tickers.map(normalizeTicker), offset: 0, limit: MAX_PAGE },
    }),
    transfersRequest: (block: string, page: PageQuery): UpstreamRequest => ({
      path: '/ordinals/v1/inscriptions/transfers',
      route: '/ordinals/v1/inscriptions/transfers',
      query: { block, offset: page.offset, limit: page.limit },
    }),
    /**
     * Null when the token does not exist (the upstream's 404); `.` and `..` cannot be tickers, nor
     * can one longer than a path parameter may be (the upstream's route 404, asked for nothing).
     */
    async brc20Token(ticker: string, call: CallOptions = {}) {
      if (isImpossibleTicker(ticker)) return null;
      return service.json(merged(this.brc20TokenRequest(ticker), call), 'null', isBrc20Details);
    },
    /** Whether brc20Tokens may ask the upstream now. */
    brc20TokensUsable(): boolean {
      if (listLookups === 'off') return false;
      return listMissingUntil === 0 || (!reprobing && Date.now() >= listMissingUntil);
    },
    /**
     * Tokens whose ticker starts with any of `tickers` (SQL `LIKE lower(t) || '%'`, so `_` and `%`
     * are wildcards), without holder counts: one call for many lookups. The list is not part of
     * the documented interface: undefined when this upstream has none (remembered for
     * BRC20_LIST_REPROBE_MS) or list lookups are off. Other failures throw UpstreamError.
     */
    async brc20Tokens(tickers: string[], call: CallOptions = {}): Promise<Page<Brc20Token> | undefined> {
      if (!this.brc20TokensUsable()) return undefined;
      const reprobe = listMissingUntil !== 0;
      if (reprobe) reprobing = true;
      const response = await service.request(merged(this.brc20TokensRequest(tickers), call)).finally(() => {
        if (reprobe) reprobing = false;
      });
      if (LIST_MISSING_STATUS.has(response.status)) {
        listMissingUntil = Date.now() + BRC20_LIST_REPROBE_MS;
        return undefined;
      }
      if (response.status < 200 || response.status >= 300) throw service.statusError(response);
      listMissingUntil = 0;
      return service.parse(response, isBrc20Page);
    },
    /** Null when the upstream reports the block unknown (404). */
    transfers(block: string, page: PageQuery, call: CallOptions = {}) {
      return service.json(merged(this.transfersRequest(block, page), call), 'null', isTransferPage);
    },
  };
}
export type OrdinalsClient = ReturnType<typeof createOrdinalsClient>;
