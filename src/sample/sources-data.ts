// The sample's data as the other data sources publish it (docs/sources.md): UniSat's open
// API (unisat-wallet/unisat-dev-docs open-api/swagger-source/*.yaml) and `ord server`'s JSON
// (ordinals/ord docs/src/guides/api.md, src/index/entry.rs). Built from the same chain as the hiro
// sample (data.ts), in each source's own shapes and units, plus what exercises the hard parts: a
// block with more than 60 transfer events among mints, one inscription moved twice in it, events of
// the next block in the same answer, u128 amounts above 2^53, tickers that need hex encoding.
import { blockHash, blockTime, BIG_TRANSFER_BLOCK, sampleData, type Brc20TokenDetails, type Etching } from './data.js';
import { address, hex, randInt } from './util.js';

// ---------- amounts ----------

/** Base units of a decimal string written with `decimals` places (the hiro sample's amounts). */
function units(value: string, decimals: number): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** An amount as UniSat writes it: a decimal string without trailing zeros ("21000000", "0.5"). */
function unisatAmount(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

// ---------- UniSat: BRC-20 ----------

/** UniSat's BRC20InfoItem. */
export interface UnisatBrc20Info {
  ticker: string;
  creator: string;
  totalMinted: string;
  confirmedMinted: string;
  confirmedMinted1h: string;
  confirmedMinted24h: string;
  /** When the last mint confirmed (0 while minting goes on). */
  completeBlocktime: number;
  completeHeight: number;
  /** The inscription numbers of the first and last mint. */
  inscriptionNumberStart: number;
  inscriptionNumberEnd: number;
  minted: string;
  mintTimes: number;
  historyCount: number;
  holdersCount: number;
  txid: string;
  deployHeight: number;
  deployBlocktime: number;
  inscriptionId: string;
  inscriptionNumber: number;
  max: string;
  decimal: number;
  limit: string;
}

/** Tickers UniSat shows in their deploy's case (hiro answers its lowercase key). */
const UPPERCASE_DEPLOYS = new Set(['pepe']);

export function unisatBrc20(details: Brc20TokenDetails): UnisatBrc20Info {
  const { token, supply } = details;
  // Mints in the mempool: totalMinted runs ahead of what confirmed blocks hold (hiro's minted_supply).
  const pending = token.mint_limit && supply.minted_supply !== supply.max_supply ? units(token.mint_limit, token.decimals) : 0n;
  const total = units(supply.minted_supply, token.decimals) + pending;
  const completeHeight =
    supply.minted_supply === supply.max_supply ? token.block_height + randInt(`unisat-complete:${token.ticker}`, 1, 5000) : 0;
  const totalText = unisatAmount(
    `${total / 10n ** BigInt(token.decimals)}.${(total % 10n ** BigInt(token.decimals)).toString().padStart(token.decimals, '0')}`,
  );
  return {
    ticker: UPPERCASE_DEPLOYS.has(token.ticker) ? token.ticker.toUpperCase() : token.ticker,
    creator: token.address,
    totalMinted: token.decimals === 0 ? total.toString() : totalText,
    confirmedMinted: unisatAmount(supply.minted_supply),
    confirmedMinted1h: '0',
    confirmedMinted24h: '0',
    completeBlocktime: completeHeight === 0 ? 0 : blockTime(completeHeight),
    completeHeight,
    inscriptionNumberStart: token.number + 1,
    inscriptionNumberEnd: token.number + token.tx_count,
    minted: token.decimals === 0 ? total.toString() : totalText,
    mintTimes: token.tx_count,
    historyCount: token.tx_count,
    holdersCount: supply.holders,
    txid: token.tx_id,
    deployHeight: token.block_height,
    deployBlocktime: token.deploy_timestamp / 1000,
    inscriptionId: token.id,
    inscriptionNumber: token.number,
    max: unisatAmount(token.max_supply),
    decimal: token.decimals,
    // UniSat writes a deploy without `lim` as 0.
    limit: token.mint_limit === null ? '0' : unisatAmount(token.mint_limit),
  };
}

const sampleTokens = new Map(sampleData.brc20Tokens.map((t) => [t.token.ticker.toLowerCase(), t]));
/** `bestheight`'s `total`: the tickers the index holds. */
export const brc20TickerCount = sampleTokens.size;

/**
 * The info route's ticker: plain, or the hex of its UTF-8 bytes (UniSat's note on the route).
 * `find`: the token's details as they are now (the sample's activity mints), by lowercase ticker.
 */
export function findUnisatBrc20(
  param: string,
  find: (ticker: string) => Brc20TokenDetails | undefined = (ticker) => sampleTokens.get(ticker),
): UnisatBrc20Info | undefined {
  const found = (ticker: string) => {
    const details = sampleTokens.has(ticker) ? find(ticker) : undefined;
    return details && unisatBrc20(details);
  };
  if (/^[A-Za-z0-9]+$/.test(param) && sampleTokens.has(param.toLowerCase())) return found(param.toLowerCase());
  if (/^(?:[0-9a-f]{2})+$/i.test(param)) return found(Buffer.from(param, 'hex').toString('utf8').toLowerCase());
  return undefined;
}

// ---------- UniSat: inscription events ----------

/** UniSat's InscriptionEvent. */
export interface UnisatInscriptionEvent {
  isTransfer: boolean;
  inscriptionId: string;
  inscriptionNumber: number;
  /** The inscription's current address, not the one this event sent it to. */
  address: string;
  contentBody?: string;
  contentType?: string;
  inSatoshi: number;
  outSatoshi: number;
  pkScript: string;
  satoshi: number;
  timestamp: number;
  /** The inscription's genesis txid (and `i` its index): the event's own transaction is not given. */
  txid: string;
  i: number;
  vout: number;
  sequence: number;
  height: number;
  txidx: number;
}

/** The block after the big one: its events come in the same answer when a range reaches it. */
export const NEXT_TO_BIG_BLOCK = BIG_TRANSFER_BLOCK + 1;
/** In BIG_TRANSFER_BLOCK, this transfer's inscription moves again later in the block. */
export const MOVED_TWICE_INDEX = 9;

function mint(height: number, k: number, txidx: number): UnisatInscriptionEvent {
  const l = `unisat-mint:${height}:${k}`;
  const txid = hex(`${l}:tx`);
  const body = JSON.stringify({ p: 'brc-20', op: 'mint', tick: 'rats', amt: '1000' });
  return {
    isTransfer: false,
    inscriptionId: `${txid}i0`,
    inscriptionNumber: 60_000_000 + height - 800_000 + k,
    address: address(`${l}:owner`),
    contentBody: Buffer.from(body).toString('base64'),
    contentType: 'text/plain;charset=utf-8',
    inSatoshi: 10_000,
    outSatoshi: 9_454,
    pkScript: '5120' + hex(`${l}:pk`),
    satoshi: 546,
    timestamp: blockTime(height),
    txid,
    i: 0,
    vout: 0,
    sequence: 4294967293,
    height,
    txidx,
  };
}

/** A hiro sample block's transfers as UniSat's events, with mints between them, in block order. */
function blockEvents(height: number): UnisatInscriptionEvent[] {
  const block = sampleData.transferBlocks.find((b) => b.height === height);
  const transfers = block?.transfers ?? [];
  const events: UnisatInscriptionEvent[] = [];
  transfers.forEach((t, index) => {
    if (index % 3 === 0) events.push(mint(height, index, events.length * 2 + 1));
    const [genesis, i] = t.id.split('i');
    events.push({
      isTransfer: true,
      inscriptionId: t.id,
      inscriptionNumber: t.number,
      address: t.to.address ?? address(`unisat-owner:${t.id}`),
      inSatoshi: Number(t.to.value ?? 546) + 1_000,
      outSatoshi: Number(t.to.value ?? 546) + 400,
      pkScript: '5120' + hex(`unisat-pk:${height}:${index}`),
      satoshi: Number(t.to.value ?? 546),
      timestamp: t.to.timestamp / 1000,
      txid: genesis!,
      i: Number(i),
      vout: Number(t.to.output?.split(':')[1] ?? 0),
      sequence: 4294967295,
      height,
      txidx: events.length * 2 + 1,
    });
  });
  if (height === BIG_TRANSFER_BLOCK) {
    // The inscription of transfer MOVED_TWICE_INDEX moves again: both rows name its current owner.
    const first = events.find((e) => e.isTransfer && e.inscriptionId === transfers[MOVED_TWICE_INDEX]!.id)!;
    const owner = address(`unisat-owner:twice:${first.inscriptionId}`);
    first.address = owner;
    events.push({
      ...first,
      address: owner,
      satoshi: 330,
      vout: 1,
      txidx: events.length * 2 + 1,
      pkScript: '5120' + hex('unisat-pk:twice'),
    });
  }
  return events;
}

const EVENT_HEIGHTS = [...sampleData.transferBlocks.map((b) => b.height), NEXT_TO_BIG_BLOCK];
/** Every block's events, ordered by height then position in the block. */
export const unisatEvents: readonly UnisatInscriptionEvent[] = EVENT_HEIGHTS.flatMap((height) =>
  height === NEXT_TO_BIG_BLOCK ? [0, 1, 2, 3].map((k) => mint(height, k, 10 + k)) : blockEvents(height),
);

/** The heights UniSat's blockchain routes know (the sample's chain up to its tip). */
export const UNISAT_TIP = 900_000;

// ---------- UniSat: runes ----------

/** UniSat's RuneEntry. */
export interface UnisatRuneEntry {
  runeid: string;
  rune: string;
  spacedRune: string;
  number: number;
  height: number;
  txidx: number;
  timestamp: number;
  divisibility: number;
  symbol?: string;
  etching: string;
  premine: string;
  terms?: { amount?: string; cap?: string; heightStart?: number; heightEnd?: number; offsetStart?: number; offsetEnd?: number };
  mints: string;
  burned: string;
  holders: number;
  transactions: number;
  supply: string;
  start?: number;
  end?: number;
  mintable: boolean;
  remaining: string;
}

export function unisatRune(e: Etching): UnisatRuneEntry {
  const div = e.divisibility;
  const premine = units(e.supply.premine, div);
  const minted = units(e.supply.minted, div);
  const cap = e.mint_terms.cap === null ? undefined : units(e.mint_terms.cap, div);
  const terms =
    e.mint_terms.amount === null && cap === undefined
      ? undefined
      : {
          ...(e.mint_terms.amount === null ? {} : { amount: units(e.mint_terms.amount, div).toString() }),
          ...(cap === undefined ? {} : { cap: cap.toString() }),
          ...(e.mint_terms.height_start === null ? {} : { heightStart: e.mint_terms.height_start }),
          ...(e.mint_terms.height_end === null ? {} : { heightEnd: e.mint_terms.height_end }),
          ...(e.mint_terms.offset_start === null ? {} : { offsetStart: e.mint_terms.offset_start }),
          ...(e.mint_terms.offset_end === null ? {} : { offsetEnd: e.mint_terms.offset_end }),
        };
  return {
    runeid: e.id,
    rune: e.name,
    spacedRune: e.spaced_name,
    number: e.number,
    height: e.location.block_height,
    txidx: e.location.tx_index,
    timestamp: e.location.timestamp,
    divisibility: div,
    // A rune without a symbol: UniSat leaves it out (`Option<char>`), hiro shows the default ¤.
    ...(e.symbol === '¤' ? {} : { symbol: e.symbol }),
    etching: e.location.tx_id,
    premine: premine.toString(),
    ...(terms ? { terms } : {}),
    mints: e.supply.total_mints,
    burned: units(e.supply.burned, div).toString(),
    holders: randInt(`unisat-holders:${e.id}`, 0, 5000),
    transactions: randInt(`unisat-txs:${e.id}`, 1, 90000),
    supply: (premine + minted).toString(),
    mintable: e.supply.mintable,
    remaining: cap === undefined ? '0' : (cap - BigInt(e.supply.total_mints)).toString(),
  };
}

/** Newest first, as `sort=timestamp` lists them. */
export const unisatRunes: readonly UnisatRuneEntry[] = sampleData.etchings.map(unisatRune);

// ---------- ord ----------

/** ord's RuneEntry as its JSON has it: every integer a bare JSON number, u128 ones included. */
export interface OrdRuneEntry {
  block: bigint;
  burned: bigint;
  divisibility: bigint;
  etching: string;
  mints: bigint;
  number: bigint;
  premine: bigint;
  spaced_rune: string;
  symbol: string | null;
  terms: {
    amount: bigint | null;
    cap: bigint | null;
    height: [bigint | null, bigint | null];
    offset: [bigint | null, bigint | null];
  } | null;
  timestamp: bigint;
  turbo: boolean;
}

const big = (value: number | null) => (value === null ? null : BigInt(value));

export function ordRune(e: Etching): [string, OrdRuneEntry] {
  const div = e.divisibility;
  const t = e.mint_terms;
  const hasTerms = t.amount !== null || t.cap !== null;
  // ord reserves UNCOMMON•GOODS at start-up (src/index.rs) with its id's block, the all-zero txid
  // and turbo, where Hiro's seeded row says block 840000, no txid and no turbo.
  const reserved = e.id === '1:0';
  return [
    e.id,
    {
      block: reserved ? 1n : BigInt(e.location.block_height),
      burned: units(e.supply.burned, div),
      divisibility: BigInt(div),
      etching: reserved ? '0'.repeat(64) : e.location.tx_id,
      mints: BigInt(e.supply.total_mints),
      number: BigInt(e.number),
      premine: units(e.supply.premine, div),
      spaced_rune: e.spaced_name,
      symbol: e.symbol === '¤' ? null : e.symbol,
      terms: hasTerms
        ? {
            amount: t.amount === null ? null : units(t.amount, div),
            cap: t.cap === null ? null : units(t.cap, div),
            height: [big(t.height_start), big(t.height_end)],
            offset: [big(t.offset_start), big(t.offset_end)],
          }
        : null,
      timestamp: BigInt(e.location.timestamp),
      turbo: reserved || e.turbo,
    },
  ];
}

/** ord's index height: the newest etching's block. */
export const ORD_HEIGHT = sampleData.etchings[0]!.location.block_height;
export { blockHash };
