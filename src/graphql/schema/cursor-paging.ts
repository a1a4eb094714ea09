/**
 * Relay connections over the upstreams' newest-first offset lists (pages of at most 60).
 *
 * A window of up to 500 items is read as 60-item pages aligned on multiples of 60, in parallel
 * through the per-request loaders, so overlapping windows of concurrent requests ask the upstream
 * layer for the same pages (its cache and coalescing then answer them once).
 *
 * Offsets shift when items are prepended upstream. A cursor therefore carries the item's position,
 * the list's `total` when it was seen, and the item's id: it is placed again at its position moved
 * by the growth of `total`, checked by id, and searched for in a bounded window around that spot.
 * A cursor whose item is not found there is CURSOR_EXPIRED, never a silently shifted page; so is
 * one whose position is at or past the list's length, learnt from the first page before any page
 * at the cursor's position is asked for (a forged position never becomes an upstream offset).
 * A list that is one of many (a block's transfers) names itself in its cursors, its `scope`: a
 * cursor of another block is CURSOR_INVALID, never placed in this one by an inscription both hold.
 */
import { GraphQLError } from 'graphql';
import { badUserInput, UpstreamError, type ServiceName } from '../../errors.js';
import { pastDeadline, withinDeadline } from '../../upstream/deadline.js';
import type { CallOptions } from '../../upstream/request.js';
import type { Page } from '../../upstream/types.js';
import { UPSTREAM_CALL_COST } from './field-policy.js';
import { MAX_LIMIT } from './pagination.js';

export const MAX_CONNECTION_ITEMS = 500;
export const DEFAULT_CONNECTION_ITEMS = 20;
/** How far from its expected position a cursor's item is looked for, each way. */
const SEARCH_SLACK = MAX_LIMIT;
/** The widest search for a cursor's item (4 upstream pages). */
const MAX_SEARCH = 4 * MAX_LIMIT;
/** Rounds of parallel fetches one connection may take (the end of a list is found by bisection). */
const MAX_ROUNDS = 16;
/** A cursor is at most ~220 characters (a transfer's, scoped by a block hash); anything longer is not one of ours. */
const MAX_CURSOR_LENGTH = 256;

export type ListKind = 'etchings' | 'transfers';
const CURSOR_TAG: Record<ListKind, string> = { etchings: 'e', transfers: 't' };
/** The item ids each list carries: a rune id `block:tx`, an inscription id `<txid>i<index>`. */
const ID_PATTERN: Record<ListKind, RegExp> = { etchings: /^\d{1,10}:\d{1,10}$/, transfers: /^[0-9a-f]{64}i\d{1,10}$/ };

/** Where an item was: its position, the list's total at the time, and its id. */
export interface Anchor {
  pos: number;
  total: number;
  id: string;
}

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface ConnectionRequest {
  count: number;
  /** `last` (or only `before`): the window ends at `before` (or the list's end). */
  backward: boolean;
  after?: Anchor;
  before?: Anchor;
}

export interface Connection<T> {
  totalCount: number;
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/**
 * One list of the upstream: a page by offset (null when the list itself is unknown), an item's id,
 * and which list of its kind it is when there are many (`scope`: a block's transfers, blockScope).
 */
export interface ListSource<T> {
  kind: ListKind;
  scope?: string;
  /** UPSTREAM_TIMEOUT_MS: the whole time the field may wait on its pages, every round together. */
  timeoutMs: number;
  page(offset: number, limit: number): Promise<Page<T> | null>;
  id(item: T): string;
}

/** A block's scope: the same block named as `7` and `007`, or in either case of hex, is one list. */
export function blockScope(block: string): string {
  return /^\d+$/.test(block) ? block.replace(/^0+(?=\d)/, '') : block.toLowerCase();
}

export function encodeCursor(kind: ListKind, anchor: Anchor, scope?: string): string {
  const text = `${CURSOR_TAG[kind]}:${anchor.pos}:${anchor.total}:${anchor.id}${scope === undefined ? '' : `@${scope}`}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** Decodes strictly and cheaply (bounded length, one regular expression): no upstream call. */
export function decodeCursor(kind: ListKind, cursor: string, argument: 'after' | 'before', scope?: string): Anchor {
  const invalid = () => cursorError(`${argument} is not a cursor of this connection`, argument, 'CURSOR_INVALID');
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const match = /^([a-z]):(\d{1,10}):(\d{1,10}):([^@]+)(?:@(.+))?$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || match[1] !== CURSOR_TAG[kind] || !ID_PATTERN[kind].test(match[4]!) || match[5] !== scope) throw invalid();
  const pos = Number(match[2]);
  const total = Number(match[3]);
  if (pos >= total) throw invalid();
  return { pos, total, id: match[4]! };
}

function cursorError(message: string, argument: string, reason: 'CURSOR_INVALID' | 'CURSOR_EXPIRED'): GraphQLError {
  const error = badUserInput(message, argument);
  return new GraphQLError(error.message, { extensions: { ...error.extensions, reason } });
}

function expired(argument: 'after' | 'before'): GraphQLError {
  return cursorError(`${argument} points at an item that is no longer in the list`, argument, 'CURSOR_EXPIRED');
}

/**
 * Validates the arguments before any upstream call: first/last 1..500, not both; cursors decoded,
 * and of this list (`scope`).
 */
export function connectionRequest(kind: ListKind, args: ConnectionArgs, scope?: string): ConnectionRequest {
  const { first, last } = args;
  if (first != null && last != null) throw badUserInput('first and last cannot be used together', 'last');
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value != null && (value < 1 || value > MAX_CONNECTION_ITEMS)) {
      throw badUserInput(`${name} must be from 1 to ${MAX_CONNECTION_ITEMS}, got ${value}`, name);
    }
  }
  return {
    count: first ?? last ?? DEFAULT_CONNECTION_ITEMS,
    backward: last != null || (first == null && args.before != null),
    after: args.after != null ? decodeCursor(kind, args.after, 'after', scope) : undefined,
    before: args.before != null ? decodeCursor(kind, args.before, 'before', scope) : undefined,
  };
}

/** Upstream pages a window of `count` items may need: the window and one more item, unaligned. */
export function connectionPages(count: number): number {
  return Math.ceil((count + 1) / MAX_LIMIT) + 1;
}

/**
 * The query cost of one connection field, in the cost walk's units (UPSTREAM_CALL_COST per upstream
 * call, 1 per item): `first`/`last` as literals, or `fromVariables` when either comes from a variable
 * (then the largest window is priced). Pure, for the cost walk (limits/cost.ts).
 */
export function connectionCost(args: ConnectionSize): number {
  const count = connectionItems(args);
  return UPSTREAM_CALL_COST * connectionPages(count) + count;
}

type ConnectionSize = { first?: number | null; last?: number | null; fromVariables?: boolean };

/** The items a connection field may answer, as connectionCost prices them. */
export function connectionItems(args: ConnectionSize): number {
  const asked = args.fromVariables ? MAX_CONNECTION_ITEMS : (args.first ?? args.last ?? DEFAULT_CONNECTION_ITEMS);
  return Math.min(MAX_CONNECTION_ITEMS, Math.max(1, asked));
}

/**
 * The pages read so far, as one list: each item at its position in the newest frame (the largest
 * `total` seen; a page read with a smaller total is moved by the difference, as a cursor is), and
 * `end`, from where positions are known to be empty.
 */
export class ListView<T> {
  private readonly pages: Array<{ offset: number; limit: number; page: Page<T> }> = [];
  readonly fetched = new Set<string>();
  total: number | undefined;
  end = Infinity;
  readonly items = new Map<number, T>();

  add(offset: number, limit: number, page: Page<T>): void {
    this.pages.push({ offset, limit, page });
    this.fetched.add(`${offset}|${limit}`);
    const filled = this.pages.filter((p) => p.page.results.length > 0);
    // The upstream reports total 0 for an empty page: only filled pages tell the total.
    this.total = filled.length > 0 ? Math.max(...filled.map((p) => p.page.total)) : undefined;
    this.items.clear();
    this.end = this.total ?? Infinity;
    // Older frames first, so the newest answer wins a position.
    for (const { offset: at, limit: size, page: read } of [...this.pages].sort((a, b) => a.page.total - b.page.total)) {
      const shift = read.results.length > 0 ? this.total! - read.total : 0;
      read.results.forEach((item, i) => this.items.set(at + i + shift, item));
      if (read.results.length < size) this.end = Math.min(this.end, at + read.results.length + shift);
    }
  }

  known(pos: number): boolean {
    return pos >= this.end || this.items.has(pos);
  }
}

type Step<T> = { need: number[] } | { result: Connection<T> };

/**
 * Reads the window a connection asks for, fetching pages in parallel rounds, within the source's
 * timeoutMs from the start: each page's call has that deadline of its own, and rounds one after
 * another would wait it once a round. Null: the list is unknown. `landed` is told of the view each
 * time a page is added to it (connection-stream.ts).
 */
export async function readConnection<T>(
  source: ListSource<T>,
  request: ConnectionRequest,
  landed?: (view: ListView<T>) => void,
): Promise<Connection<T> | null> {
  return withinDeadline({}, source.timeoutMs, serviceOf(source.kind), (call) => readRounds(source, request, call, landed));
}

/** `within`: the field's deadline (withinDeadline), past which no round starts. */
async function readRounds<T>(
  source: ListSource<T>,
  request: ConnectionRequest,
  within: CallOptions,
  landed?: (view: ListView<T>) => void,
): Promise<Connection<T> | null> {
  const view = new ListView<T>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // Past the deadline the field has its answer: another round would spend quota for nobody.
    if (pastDeadline(within)) throw new UpstreamError(serviceOf(source.kind), 'timeout');
    const step = plan(source, view, request);
    if ('result' in step) return step.result;
    const offsets = pagesFor(step.need, view);
    if (offsets.length === 0) break;
    let unknown = false;
    // Each page joins the view as it lands: the same view whatever the order (see ListView.add).
    await Promise.all(
      offsets.map(async (offset) => {
        const page = await source.page(offset, MAX_LIMIT);
        if (page === null) unknown = true;
        if (page === null || unknown) return;
        view.add(offset, MAX_LIMIT, page);
        landed?.(view);
      }),
    );
    if (unknown) return null;
  }
  // Only when answers kept contradicting each other (the list changing under every round).
  throw listChanged(source.kind);
}

/** The list's answers contradicted each other while a window was read: the client asks again. */
export function listChanged(kind: ListKind): GraphQLError {
  return new GraphQLError('The list changed while it was being read; ask again', {
    extensions: { code: 'UPSTREAM_ERROR', service: serviceOf(kind) },
  });
}

const serviceOf = (kind: ListKind): ServiceName => (kind === 'etchings' ? 'runes' : 'ordinals');

/** The aligned pages holding the needed positions; a position in a page already read comes unaligned. */
function pagesFor(need: number[], view: ListView<unknown>): number[] {
  const offsets = new Set<number>();
  let coveredUpTo = -1;
  for (const pos of [...new Set(need)].sort((a, b) => a - b)) {
    const aligned = pos - (pos % MAX_LIMIT);
    if (!view.fetched.has(`${aligned}|${MAX_LIMIT}`)) offsets.add(aligned);
    else if (pos > coveredUpTo && !view.fetched.has(`${pos}|${MAX_LIMIT}`)) {
      offsets.add(pos);
      coveredUpTo = pos + MAX_LIMIT - 1;
    }
  }
  return [...offsets];
}

/** Decides from what is known: either the positions still needed, or the answer. */
function plan<T>(source: ListSource<T>, view: ListView<T>, request: ConnectionRequest): Step<T> {
  // A cursor's position is client input: it becomes an upstream offset only once the list's length
  // is known (the first page tells it), and one at or past that length is expired, never asked for.
  if (request.after || request.before) {
    const length = view.total ?? view.end;
    if (length === Infinity) return { need: [0] };
    for (const [anchor, argument] of [
      [request.after, 'after'],
      [request.before, 'before'],
    ] as const) {
      if (anchor && anchor.pos >= length) throw expired(argument);
    }
  }
  const need: number[] = [];
  const place = (anchor: Anchor, argument: 'after' | 'before'): number => {
    const found = locate(source, view, anchor);
    if (found.pos === undefined) throw expired(argument);
    need.push(...found.need);
    return found.pos;
  };
  const afterPos = request.after ? place(request.after, 'after') : -1;
  const beforePos = request.before ? place(request.before, 'before') : undefined;
  const lowest = afterPos + 1;
  let start: number;
  let stop: number;
  if (!request.backward) {
    start = lowest;
    stop = Math.max(start, Math.min(start + request.count, beforePos ?? Infinity));
    // One item past the window says whether there is a next page.
    need.push(...range(start, stop + 1).filter((p) => !view.known(p)));
  } else {
    const end = beforePos ?? listEnd(view, need);
    if (end === undefined) return { need };
    stop = Math.max(lowest, end);
    start = Math.max(lowest, stop - request.count);
    need.push(...range(start, stop + 1).filter((p) => !view.known(p)));
  }
  if (need.length > 0) return { need };
  const total = view.total ?? 0;
  const edges = range(start, stop)
    .filter((pos) => view.items.has(pos))
    .map((pos) => {
      const node = view.items.get(pos)!;
      return { cursor: encodeCursor(source.kind, { pos, total, id: source.id(node) }, source.scope), node };
    });
  return {
    result: {
      totalCount: total,
      edges,
      pageInfo: {
        hasNextPage: view.items.has(stop),
        // Positions are contiguous from 0: anything before the window exists.
        hasPreviousPage: start > 0,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    },
  };
}

/**
 * Where a cursor's item is now: expected at its position moved by the growth of the total, then
 * searched nearest first within SEARCH_SLACK of both its old and its expected position (at most
 * MAX_SEARCH wide). While the view cannot tell yet, the expected position stands in and the
 * positions to read are returned in `need`; `pos` undefined means the item is gone.
 */
export function locate<T>(source: ListSource<T>, view: ListView<T>, anchor: Anchor): { pos?: number; need: number[] } {
  const expected = Math.max(0, anchor.pos + (view.total ?? anchor.total) - anchor.total);
  if (!view.known(expected)) return { pos: expected, need: [expected] };
  let low = Math.min(anchor.pos, expected) - SEARCH_SLACK;
  let high = Math.max(anchor.pos, expected) + SEARCH_SLACK;
  if (high - low > MAX_SEARCH) [low, high] = [expected - SEARCH_SLACK, expected + SEARCH_SLACK];
  const candidates = range(Math.max(0, low), high + 1).sort((a, b) => Math.abs(a - expected) - Math.abs(b - expected));
  const pos = candidates.find((p) => {
    const item = view.items.get(p);
    return item !== undefined && source.id(item) === anchor.id;
  });
  if (pos !== undefined) return { pos, need: [] };
  const unknown = candidates.filter((p) => !view.known(p));
  return unknown.length > 0 ? { pos: expected, need: unknown } : { need: [] };
}

/**
 * The list's length, when the view tells it; otherwise undefined, with the positions to read next
 * pushed to `need`: the first page (for the total, an upper bound of the length), then the end,
 * bisecting when the total overcounts by more than a few pages (runes that are not listed).
 */
function listEnd(view: ListView<unknown>, need: number[]): number | undefined {
  const upper = view.end;
  if (upper === Infinity) {
    need.push(0);
    return undefined;
  }
  let lower = 0;
  for (const pos of view.items.keys()) if (pos < upper) lower = Math.max(lower, pos + 1);
  if (lower >= upper) return upper;
  need.push(...(upper - lower > MAX_SEARCH ? [Math.floor((lower + upper) / 2)] : range(lower, upper)));
  return undefined;
}

function range(from: number, to: number): number[] {
  return to > from ? Array.from({ length: to - from }, (_, i) => from + i) : [];
}
