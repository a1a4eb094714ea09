/**
 * BRC-20 token details from UniSat: `GET /v1/indexer/brc20/{ticker}/info` (BRC20InfoItem) mapped
 * onto Hiro's `{ token, supply }` (docs/sources.md has the field table).
 */
import type { CallOptions } from '../../upstream/request.js';
import { normalizeTicker } from '../../upstream/ordinals.js';
import { isImpossibleTicker, joinPath } from '../../upstream/paths.js';
import { checked, int, object, optional, seconds, string } from '../../upstream/shapes.js';
import type { Brc20TokenDetailsResponse } from '../../upstream/types.js';
import { formatUnits, toUnits } from '../amounts.js';
import { unreadable } from '../errors.js';
import { marked } from '../provenance.js';
import { amount } from './amount-shapes.js';
import type { UnisatClient } from './client.js';

/** The fields of UniSat's BRC20InfoItem that the mapping reads (all others pass). */
interface Brc20InfoItem {
  ticker: string;
  creator: string;
  inscriptionId: string;
  inscriptionNumber: number;
  txid: string;
  deployHeight: number;
  deployBlocktime: number;
  max: string;
  limit?: string | null;
  decimal: number;
  confirmedMinted: string;
  historyCount: number;
  holdersCount: number;
}

const isInfo = checked(
  object<Brc20InfoItem>({
    ticker: string,
    creator: string,
    inscriptionId: string,
    inscriptionNumber: int,
    txid: string,
    deployHeight: int,
    // Written × 1000 as a Timestamp; every count and height here is a GraphQL Int (`int`).
    deployBlocktime: seconds,
    // Bounded in length before toUnits makes bigints of them (amount-shapes.ts).
    max: amount,
    limit: optional(amount),
    decimal: int,
    confirmedMinted: amount,
    historyCount: int,
    holdersCount: int,
  }),
);

/**
 * The ticker as UniSat's path takes it: "for tickers containing special characters, please use
 * the hexadecimal encoding format" (the route's notes: `Buffer.from(ticker).toString("hex")`).
 * Letters and digits go as they are, lowercased as hiro looks them up; anything else as the hex
 * of its UTF-8 bytes, which needs no further encoding.
 */
export function unisatTicker(ticker: string): string {
  const normalized = normalizeTicker(ticker);
  return /^[a-z0-9]+$/.test(normalized) ? normalized : Buffer.from(normalized, 'utf8').toString('hex');
}

/**
 * Whether UniSat's token is the one asked for. UniSat decodes a path parameter that reads as hex,
 * so `6f726469` answers ORDI and `f09f90b8` the 🐸 token, and both spellings of 🐸 share one path:
 * only the answer says which token it is. Hiro matches its stored, lowercased key (what toHiro
 * answers as `ticker`; UniSat keeps the deploy's case) against the request with ASCII A-Z
 * lowercased (normalizeTicker), and nothing else.
 */
function isAsked(info: Brc20InfoItem, ticker: string): boolean {
  return info.ticker.toLowerCase() === normalizeTicker(ticker);
}

export function createUnisatBrc20(client: UnisatClient) {
  return {
    /** Null when UniSat has no such token, or the ticker cannot be one (as hiro's route 404). */
    async token(ticker: string, call: CallOptions): Promise<Brc20TokenDetailsResponse | null> {
      if (isImpossibleTicker(ticker)) return null;
      const answer = await client.get(
        { path: joinPath('v1', 'indexer', 'brc20', unisatTicker(ticker), 'info'), route: '/v1/indexer/brc20/:ticker/info' },
        isInfo,
        call,
      );
      if ('absent' in answer || !isAsked(answer.data, ticker)) return null;
      return toHiro(answer.data);
    },
  };
}

function toHiro(info: Brc20InfoItem): Brc20TokenDetailsResponse {
  const { decimal: decimals } = info;
  // Amounts may come with fewer (or no) decimals than the token's: written again as hiro does.
  const written = (value: string) => {
    const units = decimals >= 0 && decimals <= 18 ? toUnits(value, decimals) : undefined;
    if (units === undefined) throw unreadable('unisat');
    return formatUnits(units, decimals);
  };
  const max = written(info.max);
  const minted = written(info.confirmedMinted);
  const limit = info.limit ? written(info.limit) : null;
  const token = marked(
    {
      id: info.inscriptionId,
      number: info.inscriptionNumber,
      block_height: info.deployHeight,
      tx_id: info.txid,
      address: info.creator,
      // Hiro answers the lowercase key it stores.
      ticker: info.ticker.toLowerCase(),
      max_supply: max,
      // Hiro writes a limit it has not (or of 0) as null.
      mint_limit: limit !== null && /[1-9]/.test(limit) ? limit : null,
      decimals,
      deploy_timestamp: info.deployBlocktime * 1000,
      // Hiro counts confirmed blocks only; UniSat's totalMinted includes the mempool.
      minted_supply: minted,
      tx_count: info.historyCount,
      // UniSat's info has no self-mint flag.
      self_mint: null,
    },
    'unisat',
    null,
    ['selfMint'],
  );
  return marked(
    { token, supply: marked({ max_supply: max, minted_supply: minted, holders: info.holdersCount }, 'unisat', null) },
    'unisat',
    null,
  );
}
