/**
 * A connection whose `edges` the client asked for with @stream: its edges are handed to the
 * executor as their upstream pages land, in order, instead of once the whole window is read.
 *
 * The connection itself (null or not) is known from the first page; `totalCount` is the total that
 * page reported; `pageInfo` needs the item past the window, so it is ready when the read is done
 * (a client that wants the first edges at once asks for pageInfo under @defer). Once the read is
 * done, any edge of its answer not streamed yet follows (the list grew under the read and moved an
 * item), so the stream holds what the answer without @stream holds. Only forward windows stream
 * (`first`, with or without `after`): a backward one is placed from the list's end, known last.
 */
import {
  encodeCursor,
  listChanged,
  locate,
  readConnection,
  type Connection,
  type ConnectionRequest,
  type ListSource,
  type ListView,
} from './cursor-paging.js';

type Edge<T> = Connection<T>['edges'][number];

/** What the Relay plugin's fields read: a promise or an async iterable where the read is still going. */
export interface StreamedConnection<T> {
  totalCount: number;
  edges: AsyncIterable<Edge<T>> | Edge<T>[];
  pageInfo: Promise<Connection<T>['pageInfo']> | Connection<T>['pageInfo'];
}

export async function streamConnection<T>(source: ListSource<T>, request: ConnectionRequest): Promise<StreamedConnection<T> | null> {
  if (request.backward || request.before) return readConnection(source, request);
  const edges = new EdgeQueue<T>();
  // An edge is its id's n-th occurrence in list order: one id can be two items (an inscription
  // moved twice in one block is two transfers), and each pass below meets the items in list order.
  const streamed = new Set<string>();
  const pusher = () => {
    const seen = new Map<string, number>();
    return (edge: Edge<T>) => {
      const id = source.id(edge.node);
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      const key = `${nth}:${id}`;
      if (streamed.size >= request.count || streamed.has(key)) return;
      streamed.add(key);
      edges.push(edge);
    };
  };
  const push = pusher();
  let told: (total: number) => void = () => {};
  const firstTotal = new Promise<number>((resolve) => (told = resolve));
  let next: number | undefined;
  const landed = (view: ListView<T>) => {
    if (view.total === undefined) return;
    told(view.total);
    next ??= startOf(source, view, request);
    // Contiguous positions from the window's start, as far as the pages read so far reach.
    while (next !== undefined && streamed.size < request.count && next < view.end && view.items.has(next)) {
      const node = view.items.get(next)!;
      push({ cursor: encodeCursor(source.kind, { pos: next, total: view.total, id: source.id(node) }, source.scope), node });
      next++;
    }
  };
  const read = readConnection(source, request, landed);
  const answer = read.then((result) => {
    // A page after the first answered that the list is unknown.
    if (!result) throw listChanged(source.kind);
    result.edges.forEach(pusher());
    edges.end();
    return result;
  });
  answer.catch((error: unknown) => edges.fail(error));
  // Null, an error (expired cursor, upstream failure), or the first page's total: whichever comes first.
  const first = await Promise.race([read.then((result) => (result ? result.totalCount : null)), firstTotal]);
  if (first === null) return null;
  return new StreamingConnection(first, edges, answer);
}

/**
 * A connection still being read. `pageInfo` is the class's getter, not an object literal's: V8
 * keeps what a literal's getter captures (here the read, and every page it landed) alive through
 * every scavenge until the next full GC (Loaders in loaders.ts).
 */
class StreamingConnection<T> implements StreamedConnection<T> {
  constructor(
    readonly totalCount: number,
    readonly edges: EdgeQueue<T>,
    private readonly answer: Promise<Connection<T>>,
  ) {}

  /** Asked for only when selected: a failure nobody asked for is not left unhandled. */
  get pageInfo(): Promise<Connection<T>['pageInfo']> {
    return this.answer.then((result) => result.pageInfo);
  }
}

/** The window's first position once the view tells it: 0, or the one after the `after` cursor's item. */
function startOf<T>(source: ListSource<T>, view: ListView<T>, request: ConnectionRequest): number | undefined {
  if (!request.after) return 0;
  if (request.after.pos >= view.total!) return undefined;
  const found = locate(source, view, request.after);
  return found.pos !== undefined && found.need.length === 0 ? found.pos + 1 : undefined;
}

/** Edges handed out in order as they are pushed; the iterator ends, or throws, when the read does. */
class EdgeQueue<T> implements AsyncIterable<Edge<T>> {
  private readonly buffered: Edge<T>[] = [];
  private waiting: { resolve: (result: IteratorResult<Edge<T>>) => void; reject: (error: unknown) => void } | undefined;
  private done = false;
  private failure: { error: unknown } | undefined;

  push(edge: Edge<T>): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.resolve({ value: edge, done: false });
    else this.buffered.push(edge);
  }

  end(): void {
    this.done = true;
    this.waiting?.resolve({ value: undefined, done: true });
    this.waiting = undefined;
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.waiting?.reject(error);
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<Edge<T>> {
    return {
      next: () => {
        const edge = this.buffered.shift();
        if (edge) return Promise.resolve({ value: edge, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
      // The client went away: the read ends with its request (the loaders' signal), nothing to free here.
      return: () => Promise.resolve({ value: undefined, done: true }),
    };
  }
}
