/**
 * Hiro's etching shape from a source's raw rune entry: the same rules as hiro's
 * parseEtchingResponse (bitcoin-indexer api/runes/src/api/util/helpers.ts), on bigints: amounts
 * and the cap written with the rune's divisibility, a stored 0 term written as null, the mint
 * percentage to 4 places, and `current` = minted + burned + premine as hiro computes it.
 */
import type { SourcedRuneEtching } from '../upstream/types.js';
import { formatUnits, percent4 } from './amounts.js';
import { marked, type MissableField, type SourceName } from './provenance.js';

/** A rune entry in base units, whatever source it came from. */
export interface RawRune {
  id: string;
  name: string;
  spacedName: string;
  number: number;
  divisibility: number;
  symbol: string | null;
  turbo: boolean | null;
  terms: {
    amount: bigint | null;
    cap: bigint | null;
    heightStart: number | null;
    heightEnd: number | null;
    offsetStart: number | null;
    offsetEnd: number | null;
  } | null;
  mints: bigint;
  minted: bigint;
  premine: bigint;
  burned: bigint;
  mintable: boolean;
  blockHash: string | null;
  blockHeight: number;
  txId: string;
  txIndex: number;
  /** Seconds, as hiro's runes API answers. */
  timestamp: number;
}

/** The GraphQL names of what no source here provides: a count of burns. */
const SUPPLY_MISSING: readonly MissableField[] = ['totalBurns'];

export function toEtching(rune: RawRune, source: SourceName, height: number | null): SourcedRuneEtching {
  const div = rune.divisibility;
  const terms = rune.terms;
  const cap = terms?.cap ?? null;
  return marked(
    {
      id: rune.id,
      name: rune.name,
      spaced_name: rune.spacedName,
      number: rune.number,
      divisibility: div,
      // A rune without a symbol shows the protocol's default, as hiro stores it.
      symbol: rune.symbol ?? '¤',
      turbo: rune.turbo,
      mint_terms: marked(
        {
          // A term of 0 is written 0: hiro reads NUMERIC columns as text, and "0" is truthy there.
          amount: terms?.amount != null ? formatUnits(terms.amount, div) : null,
          cap: cap !== null ? formatUnits(cap, div) : null,
          height_start: terms?.heightStart ?? null,
          height_end: terms?.heightEnd ?? null,
          offset_start: terms?.offsetStart ?? null,
          offset_end: terms?.offsetEnd ?? null,
        },
        source,
        height,
      ),
      supply: marked(
        {
          current: formatUnits(rune.minted + rune.burned + rune.premine, div),
          minted: formatUnits(rune.minted, div),
          total_mints: rune.mints.toString(),
          mint_percentage: cap ? percent4(rune.mints, cap) : '0.0000',
          mintable: rune.mintable,
          burned: formatUnits(rune.burned, div),
          total_burns: null,
          premine: formatUnits(rune.premine, div),
        },
        source,
        height,
        SUPPLY_MISSING,
      ),
      location: marked(
        { block_hash: rune.blockHash, block_height: rune.blockHeight, tx_id: rune.txId, tx_index: rune.txIndex, timestamp: rune.timestamp },
        source,
        height,
        rune.blockHash === null ? ['blockHash'] : [],
      ),
    },
    source,
    height,
    rune.turbo === null ? ['turbo'] : [],
  );
}
