/**
 * What the gateway answers over GraphQL when a data source serves an operation (docs/sources.md,
 * the sources table): hiro's answer with what the source lacks null, and, where a source computes
 * a value itself, its own reading. Independent restatements of the sample's data, shared by the
 * source tests and the suites that run against each source profile (test/profiles.ts).
 */
import { BIG_TRANSFER_BLOCK, blockHash, sampleData, type BlockTransfer, type Brc20TokenDetails, type Etching } from '../src/sample/data.js';
import { MOVED_TWICE_INDEX, ORD_HEIGHT, UNISAT_TIP } from '../src/sample/sources-data.js';
import { BRC20_HEIGHT, RUNES_HEIGHT } from '../src/sample/unisat.js';
import { formatUnits, percent4 } from '../src/sample/util.js';
import { globalId, toBrc20, toEtching, toTransfer } from './support.js';

/** The schema coordinates each source cannot fill, per operation (`extensions.sources[i].unavailable`). */
export const UNAVAILABLE = {
  unisat: {
    brc20: ['Brc20Token.selfMint'],
    transfers: [
      'InscriptionLocation.address',
      'InscriptionLocation.location',
      'InscriptionLocation.offset',
      'InscriptionLocation.output',
      'InscriptionLocation.txId',
      'InscriptionTransfer.from',
    ],
    etchings: ['RuneEtching.turbo', 'RuneLocation.blockHash', 'RuneSupply.totalBurns'],
  },
  ord: { etchings: ['RuneSupply.totalBurns'] },
} as const;

/**
 * The indexed height each source reports with an operation's answer: ord's `/blockheight`;
 * UniSat's BRC-20 and runes indexes' own heights, and its chain height for inscription events.
 */
export const SOURCE_HEIGHT = {
  unisat: { brc20: BRC20_HEIGHT, transfers: UNISAT_TIP, etchings: RUNES_HEIGHT },
  ord: { etchings: ORD_HEIGHT },
} as const;

type Brc20 = ReturnType<typeof toBrc20>;
type Transfer = ReturnType<typeof toTransfer>;
type GraphQLEtching = ReturnType<typeof toEtching>;

/** A hiro token as the gateway answers it from UniSat: the same, but UniSat has no self-mint flag. */
export const brc20FromUnisat = (token: Brc20): Brc20 => ({ ...token, token: { ...token.token, selfMint: null } });

/**
 * A hiro transfer as the gateway answers it from UniSat: what UniSat's events lack is null. An
 * event's `satoshi` is never null: the sample writes 546 (the usual postage) where hiro has none.
 */
export function transferFromUnisat(transfer: Transfer) {
  const to = { ...transfer.to, address: null, txId: null, location: null, output: null, offset: null, value: transfer.to.value ?? '546' };
  return { ...transfer, from: null, to };
}

/** The hiro sample's transfers of a block, newest first, as GraphQL answers them. */
export function hiroNewestFirst(height: number): Transfer[] {
  return [...(sampleData.transferBlocks.find((b) => b.height === height)?.transfers ?? [])].reverse().map(toTransfer);
}

/**
 * A block's transfers, newest first, as the gateway answers them from UniSat's events: in
 * BIG_TRANSFER_BLOCK one inscription moves a second time, the block's last transfer.
 */
export function unisatNewestFirst(height: number) {
  const hiro = hiroNewestFirst(height);
  if (height !== BIG_TRANSFER_BLOCK) return hiro.map(transferFromUnisat);
  const moved = hiro[hiro.length - 1 - MOVED_TWICE_INDEX]!;
  // Every transfer a place further down the list than on hiro: a global id names its own offset.
  return [transferFromUnisat({ ...moved, to: { ...moved.to, value: '330' } }), ...hiro.map(transferFromUnisat)].map((t, offset) => ({
    ...t,
    id: globalId('InscriptionTransfer', `${height}:${offset}:${t.inscriptionId}`),
  }));
}

/** Base units of a hiro sample amount written with `decimals` places (or fewer, as one fixture does). */
export function units(value: string, decimals: number): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/**
 * An etching as hiro's rules write the sample's raw values (parseEtchingResponse), as a source's
 * base units come out. The sample's constructed fixture (etchings-page.json item 1, from
 * inconsistent schema examples) is the only one whose own text breaks them.
 */
export function restatedEtching(e: Etching): GraphQLEtching {
  return toEtching(restatedHiro(e));
}

/** restatedEtching in hiro's REST shape. */
export function restatedHiro(e: Etching): Etching {
  const div = e.divisibility;
  const amount = (value: string) => formatUnits(units(value, div), div);
  const t = e.mint_terms;
  const cap = t.cap === null ? null : units(t.cap, div);
  const [minted, burned, premine] = [e.supply.minted, e.supply.burned, e.supply.premine].map((v) => units(v, div)) as [
    bigint,
    bigint,
    bigint,
  ];
  return {
    ...e,
    mint_terms: {
      amount: t.amount === null ? null : amount(t.amount),
      cap: cap === null ? null : formatUnits(cap, div),
      height_start: t.height_start,
      height_end: t.height_end,
      offset_start: t.offset_start,
      offset_end: t.offset_end,
    },
    supply: {
      ...e.supply,
      current: formatUnits(minted + burned + premine, div),
      minted: formatUnits(minted, div),
      burned: formatUnits(burned, div),
      premine: formatUnits(premine, div),
      mint_percentage: cap ? percent4(BigInt(e.supply.total_mints), cap) : '0.0000',
    },
  };
}

/** Hiro's etching but what UniSat's list lacks: turbo, a count of burns, the block hash. */
export function etchingFromUnisat(e: Etching) {
  const hiro = restatedEtching(e);
  return { ...hiro, turbo: null, supply: { ...hiro.supply, totalBurns: null }, location: { ...hiro.location, blockHash: null } };
}

/** ord's RuneEntry::mintable at the next block, from the hiro sample's fields (an independent reading of entry.rs). */
export function ordMintable(e: Etching, height = ORD_HEIGHT): boolean {
  const t = e.mint_terms;
  if (t.amount === null && t.cap === null) return false;
  const block = e.location.block_height;
  const rel = (offset: number | null) => (offset === null ? null : block + offset);
  const pick = (a: number | null, b: number | null, f: (x: number, y: number) => number) => (a !== null && b !== null ? f(a, b) : (a ?? b));
  const start = pick(rel(t.offset_start), t.height_start, Math.max);
  const end = pick(rel(t.offset_end), t.height_end, Math.min);
  const next = height + 1;
  if (start !== null && next < start) return false;
  if (end !== null && next >= end) return false;
  const cap = t.cap === null ? 0n : units(t.cap, e.divisibility);
  return BigInt(e.supply.total_mints) < cap;
}

/**
 * Hiro's etching as ord gives it: no count of burns, ord's own mintable, the hash of the block, and
 * minted as ord counts it (mints x amount: the constructed fixture's own `minted` disagrees).
 */
export function etchingFromOrd(e: Etching) {
  return etchingFromOrdAt(ORD_HEIGHT)(e);
}

/** As ord answers it with its index at `height` (mintable depends on it). */
export function etchingFromOrdAt(height: number) {
  return (e: Etching) => {
    const hiro = restatedEtching(e);
    const { minted, current } = ordSupply(e);
    return {
      ...hiro,
      turbo: ordTurbo(e),
      supply: { ...hiro.supply, minted, current, totalBurns: null, mintable: ordMintable(e, height) },
      location: { ...hiro.location, blockHash: ordBlockHash(e) },
    };
  };
}

/** The hash ord's `/r/blockhash` gives the etching's block; UNCOMMON•GOODS (1:0) is located as hiro has it, without asking. */
function ordBlockHash(e: Etching): string {
  return e.id === '1:0' ? e.location.block_hash : blockHash(e.location.block_height);
}

/** ord reserves UNCOMMON•GOODS (1:0) as a turbo rune (src/index.rs); Hiro's seeded row says false. */
function ordTurbo(e: Etching): boolean {
  return e.id === '1:0' || e.turbo;
}

/** ord's minted (mints x amount) and current supply. */
function ordSupply(e: Etching): { minted: string; current: string } {
  const div = e.divisibility;
  const minted = BigInt(e.supply.total_mints) * (e.mint_terms.amount === null ? 0n : units(e.mint_terms.amount, div));
  const current = minted + units(e.supply.burned, div) + units(e.supply.premine, div);
  return { minted: formatUnits(minted, div), current: formatUnits(current, div) };
}

// ---------- the same over REST: hiro's bodies, with the same nulls ----------

export const restBrc20FromUnisat = (d: Brc20TokenDetails) => ({ ...d, token: { ...d.token, self_mint: null } });

export function restTransferFromUnisat(t: BlockTransfer) {
  const to = { ...t.to, address: null, tx_id: null, location: null, output: null, offset: null, value: t.to.value ?? '546' };
  return { id: t.id, number: t.number, from: null, to };
}

/** A block's transfers, newest first, as the REST layer answers them from UniSat (see unisatNewestFirst). */
export function restUnisatNewestFirst(height: number) {
  const hiro = [...(sampleData.transferBlocks.find((b) => b.height === height)?.transfers ?? [])].reverse();
  if (height !== BIG_TRANSFER_BLOCK) return hiro.map(restTransferFromUnisat);
  const moved = hiro[hiro.length - 1 - MOVED_TWICE_INDEX]!;
  return [restTransferFromUnisat({ ...moved, to: { ...moved.to, value: '330' } }), ...hiro.map(restTransferFromUnisat)];
}

export function restEtchingFromUnisat(e: Etching) {
  const hiro = restatedHiro(e);
  return { ...hiro, turbo: null, supply: { ...hiro.supply, total_burns: null }, location: { ...hiro.location, block_hash: null } };
}

export function restEtchingFromOrd(e: Etching) {
  const hiro = restatedHiro(e);
  return {
    ...hiro,
    turbo: ordTurbo(e),
    supply: { ...hiro.supply, ...ordSupply(e), total_burns: null, mintable: ordMintable(e) },
    location: { ...hiro.location, block_hash: ordBlockHash(e) },
  };
}
