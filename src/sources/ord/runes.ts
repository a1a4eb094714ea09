/**
 * The etchings list from an `ord server`'s `/runes/{page}` (newest rune id first, `[id, entry]`
 * pairs) in hiro's page shape.
 *
 * Page size: the docs say 100 a page; the code (`runes_paginated(50, page)`) serves 50 and keeps
 * its look-ahead entry, so a full page holds 51 entries whose last is the next page's first. Both
 * are handled without trusting either: rune numbers follow rune ids (both count etchings in chain
 * order), so an entry's place in the list is `newest number - number`. Page 0 gives the newest
 * number (hiro's `total` is it + 1); a page's first entry tells where it starts, which tells the
 * page size (remembered), and entries are placed by number, so a look-ahead is never counted twice.
 *
 * Entries carry no block hash (one `/r/blockhash/{height}` per block on the page, cached) and no
 * mintable flag: it is ord's own rule (`RuneEntry::mintable`) at the next block, above the height
 * from `/blockheight`, as ord's `/rune/{rune}` answers it. No count of burns: null.
 */
import type { CallOptions } from '../../upstream/request.js';
import type { PageQuery } from '../../upstream/ordinals.js';
import { joinPath, segment } from '../../upstream/paths.js';
import { sideBySide, SingleLookup } from '../../upstream/request-slots.js';
import { arrayOf, boolean, checked, object, optional, string, type Shape } from '../../upstream/shapes.js';
import type { Page, SourcedRuneEtching } from '../../upstream/types.js';
import { consistentPages, PagesDisagree } from '../consistent-pages.js';
import { withinDeadline } from '../../upstream/deadline.js';
import { unreadable } from '../errors.js';
import { toEtching, type RawRune } from '../runes.js';
import { marked } from '../provenance.js';
import { createBlockHashes } from './block-hashes.js';
import type { OrdClient } from './client.js';

/** What ord's code serves a page; learnt again from the answers. */
const CODE_PAGE_SIZE = 50;

/** ord's u128 amounts: a larger one is no value of ord's (the reader refuses longer ones sooner). */
const u128: Shape<bigint> = (value): value is bigint => typeof value === 'bigint' && value >= 0n && value < 2n ** 128n;
const u64: Shape<bigint> = (value): value is bigint => typeof value === 'bigint' && value >= 0n && value < 2n ** 64n;
const bool: Shape<boolean> = (value): value is boolean => typeof value === 'boolean';
const pairOf =
  <T>(shape: Shape<T>): Shape<[T | null, T | null]> =>
  (value): value is [T | null, T | null] =>
    Array.isArray(value) && value.length === 2 && value.every((v) => v === null || shape(v));

interface Terms {
  amount: bigint | null;
  cap: bigint | null;
  height: [bigint | null, bigint | null];
  offset: [bigint | null, bigint | null];
}
interface RuneEntry {
  block: bigint;
  burned: bigint;
  divisibility: bigint;
  etching: string;
  mints: bigint;
  number: bigint;
  premine: bigint;
  spaced_rune: string;
  symbol: string | null;
  terms: Terms | null;
  timestamp: bigint;
  turbo: boolean;
}
const isEntry = object<RuneEntry>({
  block: u64,
  burned: u128,
  divisibility: u64,
  etching: string,
  mints: u128,
  number: u64,
  premine: u128,
  spaced_rune: string,
  symbol: optional(string),
  terms: optional(object<Terms>({ amount: optional(u128), cap: optional(u128), height: pairOf(u64), offset: pairOf(u64) })),
  timestamp: u64,
  turbo: bool,
});
const isPair: Shape<[string, RuneEntry]> = (value): value is [string, RuneEntry] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && isEntry(value[1]);
interface RunesPage {
  entries: Array<[string, RuneEntry]>;
  more: boolean;
}
const isRunesPage = checked(object<RunesPage>({ entries: arrayOf(isPair), more: bool }));
/** `/rune/{rune}`: the entry and its id (and `mintable`, `parent`, which the list's rule already gives). */
const isRuneAnswer = checked(object<{ entry: RuneEntry; id: string }>({ entry: isEntry, id: string }));
const isHeight: Shape<bigint> = (value): value is bigint => u64(value);

/** ord's `RuneEntry::mintable(height)`: terms, inside the start..end window, mints below the cap. */
function mintable(entry: RuneEntry, height: bigint): boolean {
  const terms = entry.terms;
  if (!terms) return false;
  const relative = (offset: bigint | null) => (offset === null ? null : entry.block + offset);
  const [startAbs, endAbs] = terms.height;
  const [startRel, endRel] = [relative(terms.offset[0]), relative(terms.offset[1])];
  const start = startRel !== null && startAbs !== null ? (startRel > startAbs ? startRel : startAbs) : (startRel ?? startAbs);
  const end = endRel !== null && endAbs !== null ? (endRel < endAbs ? endRel : endAbs) : (endRel ?? endAbs);
  if (start !== null && height < start) return false;
  if (end !== null && height >= end) return false;
  return entry.mints < (terms.cap ?? 0n);
}

/** GraphQL's Int (32-bit signed), the schema's type (hiro's shape) of each count, height and index read here. */
const INT_MAX = 2n ** 31n - 1n;
/** A rune id's tx is a u32 (ordinals crate, rune_id.rs). */
const U32_MAX = 2n ** 32n - 1n;
/** The schema's Timestamp is milliseconds, a safe integer; ord's timestamps are seconds. */
const SECONDS_MAX = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000));

/** An ord integer where the schema has an Int: one that does not fit is unreadable, never rounded. */
function int(value: bigint): number {
  if (value > INT_MAX) throw unreadable('ord');
  return Number(value);
}
const small = (value: bigint | null) => (value === null ? null : int(value));

/**
 * UNCOMMON•GOODS, the rune ord reserves when it opens a mainnet index (src/index.rs), at whatever
 * height: its entry says block 1 (its id's) and the all-zero txid, where Hiro's seeded row says
 * block 840000, where runes begin, with that block's hash and no transaction (`tx_id: ""`). Given
 * as Hiro gives it, the hash included: an ord still below 840000 lists the rune but cannot answer
 * that block's hash, so it is never asked.
 */
const RESERVED_RUNE = {
  id: '1:0',
  block: 840_000n,
  hash: '0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5',
} as const;

export function createOrdEtchings(client: OrdClient) {
  /** Runes per page, as the last full page 0 showed it. */
  let pageSize = CODE_PAGE_SIZE;
  const runesPage = async (index: number, call: CallOptions, fresh: boolean) => {
    // Pages past the first are more lookups of the request (see CallOptions.lookups).
    if (index > 0 || fresh) call.lookups?.take();
    // ord answers every page, an empty one past the end: a 404 is not ord's runes route (a wrong
    // ORD_API_URL, a proxy in front), never "no runes".
    const page = await client.get({ path: joinPath('runes', String(index)), route: '/runes/:page', fresh }, isRunesPage, call, false);
    return page!;
  };

  const indexHeight = (call: CallOptions) => client.get({ path: '/blockheight', route: '/blockheight' }, isHeight, call);
  const blockHashOf = createBlockHashes(client);

  /**
   * The request's bound on calls in flight (GraphQL's and REST's alike); one at a time where no
   * client request gives one (a live poller's page).
   */
  const lookupsOf = (call: CallOptions) => call.lookups ?? new SingleLookup(1);

  return {
    /**
     * One etching by its rune id: `/rune/{id}` (ord's 404: null), with the index height and the
     * block's hash as the list has them (both cached by the pipeline).
     */
    async etching(runeId: string, call: CallOptions): Promise<SourcedRuneEtching | null> {
      // ord parses a rune id's tx as a u32 and answers 400 to a larger one; hiro finds no such rune.
      if (BigInt(runeId.slice(runeId.indexOf(':') + 1)) > U32_MAX) return null;
      // The rune, then its block's hash: one deadline for both (upstream/deadline.ts).
      return withinDeadline(call, client.timeoutMs, 'ord', (within) => etchingOf(runeId, within));
    },
    /**
     * Pages are cached one by one, and a new etching moves every rune down ord's pages: pages read
     * before and after one disagree, and are read again together (consistentPages). Every call of
     * the walk within one deadline (upstream/deadline.ts). `fresh` (a live poll's baseline) asks
     * the runes pages past the cache; the block hashes and height stay cached.
     */
    etchings: (page: PageQuery, { fresh = false, ...call }: CallOptions): Promise<Page<SourcedRuneEtching>> =>
      withinDeadline(call, client.timeoutMs, 'ord', (within) =>
        consistentPages(
          (again) => etchingsWindow(page, within, fresh || again),
          () => unreadable('ord'),
        ),
      ),
  };

  async function etchingOf(runeId: string, call: CallOptions): Promise<SourcedRuneEtching | null> {
    const [answer, height] = await sideBySide(
      lookupsOf(call),
      () => client.get({ path: joinPath('rune', segment(runeId, 'id')), route: '/rune/:rune' }, isRuneAnswer, call),
      () => indexHeight(call),
    );
    if (!answer) return null;
    if (answer.id !== runeId || height === undefined) throw unreadable('ord');
    const hash = answer.id === RESERVED_RUNE.id ? RESERVED_RUNE.hash : await blockHashOf(answer.entry.block, height, call);
    return toEtching(raw(answer.id, answer.entry, hash, height), 'ord', int(height));
  }

  async function etchingsWindow({ offset, limit }: PageQuery, call: CallOptions, fresh: boolean): Promise<Page<SourcedRuneEtching>> {
    const lookups = lookupsOf(call);
    const [first, height] = await sideBySide(
      lookups,
      () => runesPage(0, call, fresh),
      () => indexHeight(call),
    );
    const newest = first.entries[0]?.[1].number;
    if (newest === undefined) {
      // ord lists no runes without a rune index (off by default): an empty list that is not the chain's.
      const status = await client.get({ path: '/status', route: '/status' }, isStatus, call);
      if (status?.rune_index === false) throw noRuneIndex();
      return { limit, offset, total: 0, results: [] };
    }
    if (height === undefined) throw unreadable('ord');
    const total = int(newest + 1n);
    // A full page 0 says the size: 50 or 100 entries, plus the code's look-ahead if it is there.
    if (first.more) pageSize = first.entries.length % 50 === 0 ? first.entries.length : first.entries.length - 1;
    const last = Math.min(offset + limit, total) - 1;
    /** Entries by their place in the list (newest first). */
    const placed = new Map<number, [string, RuneEntry]>();
    const place = (page: RunesPage) => placeAll(placed, page, newest);
    place(first);
    let more = first.more;
    // Pages until the window is covered: each one's first entry says where it starts.
    // None when the window starts past the last rune (offset >= total): no page holds it.
    for (let position = first.entries.length; more && offset <= last && position <= last && !placed.has(last);) {
      const wanted = Math.max(position, offset);
      let index = Math.floor(wanted / pageSize);
      let page = await runesPage(index, call, fresh);
      const start = page.entries[0] ? placeOf(page.entries[0][1].number, newest) : undefined;
      if (start !== undefined && index > 0 && start !== index * pageSize && start % index === 0) {
        // Another page size than assumed: learnt, and the right page asked.
        pageSize = start / index;
        index = Math.floor(wanted / pageSize);
        page = await runesPage(index, call, fresh);
      }
      if (page.entries.length === 0) break;
      place(page);
      more = page.more;
      const next = placeOf(page.entries[page.entries.length - 1]![1].number, newest) + 1;
      if (next <= position) throw new PagesDisagree();
      position = next;
    }
    const window: Array<[string, RuneEntry]> = [];
    for (let p = offset; p <= last; p++) {
      const pair = placed.get(p);
      // Every number up to the newest is a rune's: a hole is a page of another time, or one that lied.
      if (!pair) throw new PagesDisagree();
      window.push(pair);
    }
    // One block hash per block on the page (recursive endpoint, cached by the pipeline), within
    // the request's concurrency.
    const blocks = [...new Set(window.flatMap(([id, entry]) => (id === RESERVED_RUNE.id ? [] : [entry.block])))];
    const hashes = new Map(await lookups.spread(blocks, async (block) => [block, await blockHashOf(block, height, call)] as const));
    const indexed = int(height);
    const hashOf = (id: string, entry: RuneEntry) => (id === RESERVED_RUNE.id ? RESERVED_RUNE.hash : hashes.get(entry.block)!);
    const results = window.map(([id, entry]) => toEtching(raw(id, entry, hashOf(id, entry), height), 'ord', indexed));
    return marked({ limit, offset, total: results.length > 0 ? total : 0, results }, 'ord', indexed);
  }
}

/** ord's `/status` (StatusHtml): whether it indexes runes. */
const isStatus = checked(object<{ rune_index: boolean }>({ rune_index: boolean }));

const noRuneIndex = () => unreadable('ord', 200, 'The ord server has no rune index: start it with --index-runes');

/** A rune's place in the list (newest first); no rune is numbered above the newest. */
function placeOf(number: bigint, newest: bigint): number {
  if (number > newest) throw new PagesDisagree();
  return Number(newest - number);
}

/**
 * Places a page's entries. ord numbers runes one by one in rune-id order, the list's order: a page
 * whose numbers do not go strictly down, or that puts another rune where one is placed, lies.
 */
function placeAll(placed: Map<number, [string, RuneEntry]>, page: RunesPage, newest: bigint): void {
  let previous: bigint | undefined;
  for (const pair of page.entries) {
    const number = pair[1].number;
    if (previous !== undefined && number >= previous) throw new PagesDisagree();
    previous = number;
    const place = placeOf(number, newest);
    // The code's look-ahead entry repeats the next page's first: the same rune, placed once.
    const held = placed.get(place);
    if (held && held[0] !== pair[0]) throw new PagesDisagree();
    placed.set(place, pair);
  }
}

function raw(id: string, entry: RuneEntry, blockHash: string, height: bigint): RawRune {
  // The id's block is the etching's, but for the reserved rune (RESERVED_RUNE). A rune id is a u64
  // block and a u32 tx.
  const tx = id.split(':')[1];
  if (!/^\d{1,20}:\d{1,10}$/.test(id) || entry.divisibility > 38n || entry.timestamp > SECONDS_MAX) throw unreadable('ord');
  const t = entry.terms;
  return {
    id,
    name: entry.spaced_rune.replaceAll('•', ''),
    spacedName: entry.spaced_rune,
    number: int(entry.number),
    divisibility: Number(entry.divisibility),
    symbol: entry.symbol,
    turbo: entry.turbo,
    terms: t
      ? {
          amount: t.amount,
          cap: t.cap,
          heightStart: small(t.height[0]),
          heightEnd: small(t.height[1]),
          offsetStart: small(t.offset[0]),
          offsetEnd: small(t.offset[1]),
        }
      : null,
    mints: entry.mints,
    minted: entry.mints * (t?.amount ?? 0n),
    premine: entry.premine,
    burned: entry.burned,
    mintable: mintable(entry, height + 1n),
    blockHash,
    blockHeight: int(id === RESERVED_RUNE.id ? RESERVED_RUNE.block : entry.block),
    txId: id === RESERVED_RUNE.id ? '' : entry.etching,
    txIndex: int(BigInt(tx!)),
    timestamp: Number(entry.timestamp),
  };
}
