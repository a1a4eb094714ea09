import DataLoader from 'dataloader';
import { UpstreamError } from '../errors.js';
import type { CallOptions } from '../upstream/request.js';
import { normalizeTicker, type PageQuery } from '../upstream/ordinals.js';
import type { Upstreams } from '../upstream/index.js';
import { merged } from '../lib/merge.js';
import { pastDeadline, withinDeadline } from '../upstream/deadline.js';
import { isImpossibleTicker } from '../upstream/paths.js';
import { keyedHash } from '../lib/keyed-hash.js';
import type { Brc20Supply, Brc20Token, Brc20TokenDetailsResponse, Page, SourcedInscriptionTransfer } from '../upstream/types.js';
import type { SourcedOperation } from '../sources/index.js';
import { SourcesUsed, markOf } from '../sources/provenance.js';
import { requestLimiter, type LoaderLimits, type RequestLimiter } from './request-limiter.js';

/**
 * Per-request DataLoaders between resolvers and the upstream clients: identical lookups in one
 * GraphQL request make one upstream call. Created fresh for every request, never shared.
 * `limits`: the request's own limiter (a batch's operations share theirs), or the limits to make one.
 */
export function createLoaders(
  upstreams: Upstreams,
  call: CallOptions,
  limits: LoaderLimits | RequestLimiter,
  used = new SourcesUsed(),
): Loaders {
  return new Loaders(loaderMakers(upstreams, call, typeof limits === 'function' ? limits : requestLimiter(limits), used));
}

/**
 * A request's loaders, each made on first use (most requests use one or two, a subscription none).
 * The getters are the class's, shared by every request. V8 keeps what an object literal's getter
 * captures alive through every scavenge until the next full GC; written in a literal, these getters
 * kept the request's loaders, and the upstream pages they had answered, until they were promoted:
 * 467 of the 520 KB that survived a scavenge on W8's body with one client
 * (docs/notes/2026-11-27-literal-getters.md).
 */
export class Loaders {
  constructor(private readonly made: LoaderMakers) {}
  get status() {
    return this.made.status();
  }
  get brc20Token() {
    return this.made.brc20Token();
  }
  get brc20TokenSummary() {
    return this.made.brc20TokenSummary();
  }
  get transfers() {
    return this.made.transfers();
  }
  get transferOffsets(): ReadonlyWeakMap<SourcedInscriptionTransfer, number> {
    return this.made.transferOffsets();
  }
  get etchings() {
    return this.made.etchings();
  }
  get etching() {
    return this.made.etching();
  }
  get bitcoinNode() {
    return this.made.bitcoinNode();
  }
}

type LoaderMakers = ReturnType<typeof loaderMakers>;

/** Each loader's maker, `onFirstUse`: plain properties, so the object's hidden class is shared. */
function loaderMakers(upstreams: Upstreams, call: CallOptions, limit: RequestLimiter, used: SourcesUsed) {
  // A source's further pages are lookups of this request too (see CallOptions.lookups). Set on the
  // request's own options, not a copy: the instrumentation sets `call.trace` on them later.
  call.lookups = { take: limit.charge, spread: limit.spread };
  const { sources } = upstreams;
  /** A source other than hiro serves the operation: the request's answer names it (extensions.sources). */
  const sourced =
    <A extends unknown[], T>(operation: SourcedOperation<A, T>) =>
    (...args: [...A, CallOptions]): Promise<T> => {
      used.used(operation.source, null);
      return operation.run(...args).then((value) => {
        // A source that knows its indexed height marks its answer with it.
        const mark = markOf(value);
        if (mark) used.used(mark.source, mark.height);
        return value;
      });
    };
  /**
   * A batch function run under its own span when the request is traced (the operation's span is
   * `call.trace` by the time batches run): its upstream calls are the span's children.
   */
  const traced =
    <K, V>(name: string, run: (keys: readonly K[], call: CallOptions) => Promise<V[]>) =>
    (keys: readonly K[]): Promise<V[]> => {
      const batch = batchCall(name, keys.length);
      return batch.span ? run(keys, batch.call).finally(() => batch.span!.end()) : run(keys, call);
    };
  /** A batch's call options: under its own span when the request is traced. */
  const batchCall = (name: string, size: number) => {
    const span = call.trace?.child(`dataloader.batch ${name}`, { 'satgate.loader': name, 'satgate.loader.batch_size': size });
    return { span, call: span ? merged(call, { trace: span }) : call };
  };
  /**
   * A loader over a single-key fetch: keys are deduplicated by `cacheKey`, and each one is a lookup
   * within the request's limits. Each key is answered when its own call lands, its failure its own:
   * DataLoader answers a batch's keys together, so the batch hands out each key's promise in a box
   * and only the batch's span waits for all of them. One slow call never holds the other fields of
   * the batch (nor the landed pages of a streamed connection).
   */
  const loader = <K, V>(name: string, fetch: (key: K, call: CallOptions) => Promise<V>, cacheKey?: (key: K) => string) => {
    const boxes = new DataLoader<K, { answer: Promise<V> }, string | K>(
      (keys: readonly K[]) => {
        const batch = batchCall(name, keys.length);
        const answers = keys.map((key) => limit(() => fetch(key, batch.call)));
        // Each answer is awaited by its load (below); the span ends with the batch's last.
        if (batch.span) void Promise.allSettled(answers).then(() => batch.span!.end());
        return Promise.resolve(answers.map((answer) => ({ answer })));
      },
      cacheKey ? { cacheKeyFn: cacheKey } : {},
    );
    return { load: (key: K): Promise<V> => boxes.load(key).then((box) => box.answer) };
  };
  /** Tickers are case-insensitive upstream: `ORDI`, `ordi` and `Ordi` share one call. */
  const brc20Source = sources.brc20 && sourced(sources.brc20);
  const brc20Token = onFirstUse(() =>
    loader(
      'brc20Token',
      (ticker: string, call) => (brc20Source ? brc20Source(ticker, call) : upstreams.ordinals.brc20Token(ticker, call)),
      normalizeTicker,
    ),
  );
  /**
   * The token list's answer for a batch of tickers (asked only where hiro serves BRC-20 and its
   * list is usable), or undefined when it gives none: no list on this upstream, or a failed call.
   * The list is an optimisation, so a call that brought nothing is not charged to the request's
   * budget: each ticker then pays its own lookup. Throws only when the call was cancelled: the
   * client has gone, or the field's deadline has passed (no fallback is owed then).
   */
  async function listed(tickers: string[], call: CallOptions): Promise<Page<Brc20Token> | undefined> {
    try {
      const page = await limit(() => upstreams.ordinals.brc20Tokens(tickers, call));
      if (page) return page;
    } catch (error) {
      if (call.signal?.aborted) throw error;
    }
    limit.refund();
    return undefined;
  }
  /**
   * Each transfer's offset in its block's newest-first list, learnt from the page that carried it,
   * for its global id (schema/transfers.ts). A mined block's list no longer changes, so neither does
   * the offset. Per request, like the loaders.
   */
  const transferOffsets = onFirstUse(() => new WeakMap<SourcedInscriptionTransfer, number>());
  const transferPage = async ({ block, ...page }: PageQuery & { block: string }, call: CallOptions) => {
    const answer = sources.transfers
      ? await sourced(sources.transfers)(block, page, call)
      : await upstreams.ordinals.transfers(block, page, call);
    answer?.results.forEach((transfer, i) => transferOffsets().set(transfer, page.offset + i));
    return answer;
  };
  const status = onFirstUse(() => loader('status', (_: 'status', call) => upstreams.metadata.status(call)));
  /**
   * Token details without `supply.holders`, up to 20 tickers per upstream call through the list
   * endpoint's ticker filter. That filter is a prefix match with `_`/`%` wildcards, so only exact
   * matches count; a ticker it cannot settle (a truncated answer, non-ASCII case folding) falls
   * back to its own detail lookup. Without a list answer every ticker does, so each field gets
   * exactly what the detail route gives it (null, or its own upstream error).
   */
  const brc20TokenSummary = onFirstUse(
    () =>
      new DataLoader<string, Brc20TokenDetailsResponse | null, string>(
        traced('brc20TokenSummary', async (tickers: readonly string[], batchCall) => {
          // A ticker no token can have is null without a call (brc20Token); the list is not asked for it.
          const listable = tickers.filter((ticker) => !isImpossibleTicker(ticker));
          const lookup = (ticker: string) => brc20Token().load(ticker).catch(toError);
          // A BRC-20 source other than hiro has no list: each ticker is its own lookup.
          if (listable.length === 0 || brc20Source || !upstreams.ordinals.brc20TokensUsable()) return Promise.all(tickers.map(lookup));
          // The list's call, then the lookups it could not settle: one UPSTREAM_TIMEOUT_MS for both,
          // as for any field's calls (each would otherwise wait it once).
          return withinDeadline(batchCall, upstreams.timeoutMs, 'ordinals', async (call) => {
            let page: Page<Brc20Token> | undefined;
            try {
              page = await listed(listable, call);
            } catch (error) {
              return tickers.map(() => toError(error));
            }
            // The list landed past the deadline: the field has had its answer, no lookup is owed.
            if (pastDeadline(call)) return tickers.map(() => new UpstreamError('ordinals', 'timeout'));
            const complete = page ? page.results.length >= page.total : false;
            return Promise.all(
              tickers.map(async (ticker) => {
                const token = page?.results.find((t) => t.ticker === ticker.toLowerCase());
                if (token) return summary(token);
                // Absent from a complete answer: no such token (ASCII, whose lowercasing SQL shares).
                if (complete && /^[\x20-\x7e]*$/.test(ticker)) return null;
                return lookup(ticker);
              }),
            );
          });
        }),
        { cacheKeyFn: normalizeTicker, maxBatchSize: 20 },
      ),
  );
  const transfers = onFirstUse(() => loader('transfers', transferPage, ({ block, offset, limit }) => `${block}|${offset}|${limit}`));
  const etchings = onFirstUse(() =>
    loader(
      'etchings',
      (page: PageQuery, call) => (sources.etchings ? sourced(sources.etchings)(page, call) : upstreams.runes.etchings(page, call)),
      ({ offset, limit }) => `${offset}|${limit}`,
    ),
  );
  /** One etching by its rune id (`block:tx`): null when the source knows none. */
  const etching = onFirstUse(() =>
    loader('etching', (runeId: string, call) =>
      sources.etching ? sourced(sources.etching)(runeId, call) : upstreams.runes.etching(runeId, call),
    ),
  );
  /**
   * Platform answers are not cached: identical fields (aliases) share one call here. The key is
   * a keyed hash, so the platform key is not kept in clear even in the loader's map.
   */
  const bitcoinNode = onFirstUse(() =>
    loader(
      'bitcoinNode',
      ({ apiKey, path }: { apiKey: string; path: string }, call) => upstreams.platform.bitcoinNode(apiKey, path, call),
      ({ apiKey, path }) => keyedHash(JSON.stringify([apiKey, path])),
    ),
  );
  return { status, brc20Token, brc20TokenSummary, transfers, transferOffsets, etchings, etching, bitcoinNode };
}

type ReadonlyWeakMap<K extends WeakKey, V> = Pick<WeakMap<K, V>, 'get' | 'has'>;

/** The token list carries no holder count: a summary answers everything else. */
function summary(token: Brc20Token): Brc20TokenDetailsResponse {
  return { token, supply: { max_supply: token.max_supply, minted_supply: token.minted_supply } as Brc20Supply };
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** `make`'s value, made on the first call and the same on every later one. */
function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
