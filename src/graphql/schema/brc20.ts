import { badUserInput } from '../../errors.js';
import { normalizeTicker } from '../../upstream/ordinals.js';
import type { Brc20Supply, Brc20Token, Brc20TokenDetailsResponse } from '../../upstream/types.js';
import { builder } from './builder.js';
import { policy, UPSTREAM_CALL_COST } from './field-policy.js';
import { invalidGlobalID } from './global-ids.js';
import { refetched } from './node-lookup.js';
import { selects } from './selection.js';

/** The longest ticker any BRC-20 indexer takes, in UTF-8 bytes (as the brc20Token subscription). */
const MAX_TICKER_BYTES = 16;

/**
 * A token's local id is its ticker as the upstream stores it (lowercase): one spelling per token.
 * Refetched through the same loader as `brc20Tokens` without holders: one call (hiro's token list
 * answers up to 20 tickers at once; UniSat one route per ticker).
 */
export function parseTicker(id: string): string {
  // A `/` is a ticker's character like any other (brc20Token takes it: the upstream decodes %2F), so
  // the id a token with one is handed is refetched too; dot segments are refused as REST refuses them.
  const printable = !/[\x00-\x1f\x7f]/.test(id) && id !== '.' && id !== '..';
  if (!printable || Buffer.byteLength(id, 'utf8') > MAX_TICKER_BYTES || /\p{Cs}/u.test(id) || normalizeTicker(id) !== id) {
    throw invalidGlobalID();
  }
  return id;
}

const Brc20TokenRef = builder
  .nodeRef<Brc20Token, string>('Brc20Token', {
    id: { resolve: (token) => normalizeTicker(token.ticker), parse: parseTicker },
    loadOne: (ticker, { loaders }) =>
      refetched(
        'Brc20Token',
        loaders.brc20TokenSummary.load(ticker).then((details) => details?.token ?? null),
      ),
  })
  .implement({
    fields: (t) => ({
      inscriptionId: t.exposeString('id', { description: 'The deploy inscription id (the `id` of versions before 0.2.0).' }),
      number: t.exposeInt('number', { description: 'The deploy inscription number.' }),
      blockHeight: t.exposeInt('block_height'),
      txId: t.exposeString('tx_id'),
      address: t.exposeString('address'),
      ticker: t.exposeString('ticker', { description: 'Lowercase, as the upstream stores it.' }),
      maxSupply: t.expose('max_supply', { type: 'Decimal' }),
      mintLimit: t.expose('mint_limit', { type: 'Decimal', nullable: true }),
      decimals: t.exposeInt('decimals'),
      deployTimestamp: t.expose('deploy_timestamp', { type: 'Timestamp' }),
      mintedSupply: t.expose('minted_supply', { type: 'Decimal' }),
      txCount: t.exposeInt('tx_count'),
      selfMint: t.boolean({
        nullable: true,
        description: 'A 5-byte self-mint ticker. Null where the upstream is too old to say.',
        resolve: (token) => token.self_mint ?? null,
      }),
    }),
  });

const Brc20SupplyRef = builder.objectRef<Brc20Supply>('Brc20Supply').implement({
  fields: (t) => ({
    maxSupply: t.expose('max_supply', { type: 'Decimal' }),
    mintedSupply: t.expose('minted_supply', { type: 'Decimal' }),
    holders: t.exposeInt('holders', { description: 'Addresses holding a balance above zero.' }),
  }),
});

/**
 * The details are an entity of their own, keyed by the same ticker: without an id, normalised caches
 * keep them (and their supply) under each root field, so a `brc20Token` subscription's new supply
 * never reached the query that shows it, beside a token whose minted supply did change (Apollo and
 * urql keep a subscription's root apart from the query's). Refetched with holders: one call.
 */
export const Brc20TokenDetails = builder
  .nodeRef<Brc20TokenDetailsResponse, string>('Brc20TokenDetails', {
    id: { resolve: (details) => normalizeTicker(details.token.ticker), parse: parseTicker },
    loadOne: (ticker, { loaders }) => refetched('Brc20TokenDetails', loaders.brc20Token.load(ticker)),
  })
  .implement({
    fields: (t) => ({
      token: t.expose('token', { type: Brc20TokenRef }),
      supply: t.expose('supply', { type: Brc20SupplyRef }),
    }),
  });

builder.queryField('brc20Token', (t) =>
  t.field({
    type: Brc20TokenDetails,
    nullable: true,
    description: 'Case-insensitive. Null when no such token exists.',
    args: { ticker: t.arg.string({ required: true }) },
    ...policy({ cost: 'call', cache: 'public' }),
    // Holder counts come only from the detail route; without them many tickers share one call.
    resolve: (_root, { ticker }, { loaders }, info) =>
      selects(info, 'holders') ? loaders.brc20Token.load(ticker) : loaders.brc20TokenSummary.load(ticker),
  }),
);

/** The most tickers one `brc20Tokens` lookup may ask for. */
export const MAX_BATCH_TICKERS = 50;

/**
 * The query cost of one `brc20Tokens` field in the cost walk's units (UPSTREAM_CALL_COST per upstream
 * call, 1 per item): one call per ticker with `supply.holders`, one per 20 without; `tickers`
 * undefined when it comes from a variable (then the most). Pure, for the cost walk (limits/cost.ts).
 */
export function brc20TokensCost(tickers: number | undefined, holders: boolean): number {
  const count = brc20TokensItems(tickers);
  return UPSTREAM_CALL_COST * (holders ? count : Math.ceil(count / 20)) + count;
}

/** The entries `brc20Tokens` answers for `tickers` written (undefined from a variable: the most). */
export function brc20TokensItems(tickers: number | undefined): number {
  return Math.min(MAX_BATCH_TICKERS, Math.max(1, tickers ?? MAX_BATCH_TICKERS));
}

builder.queryField('brc20Tokens', (t) =>
  t.field({
    type: [Brc20TokenDetails],
    nullable: { list: false, items: true },
    description:
      '1..50 tickers, case-insensitive, exact matches only. One entry per ticker, in the order asked; null where no such token exists.',
    args: { tickers: t.arg.stringList({ required: true }) },
    ...policy({ cost: 'tickers', cache: 'public' }),
    // The same per-request loaders as brc20Token: aliases, duplicates and case variants share calls,
    // and a failed lookup rejects only its own entry (an error at [brc20Tokens, i]).
    resolve: (_root, { tickers }, { loaders }, info) => {
      if (tickers.length < 1 || tickers.length > MAX_BATCH_TICKERS) {
        throw badUserInput(`tickers must hold 1 to ${MAX_BATCH_TICKERS} tickers, got ${tickers.length}`, 'tickers');
      }
      const loader = selects(info, 'holders') ? loaders.brc20Token : loaders.brc20TokenSummary;
      return tickers.map((ticker) => loader.load(ticker));
    },
  }),
);
