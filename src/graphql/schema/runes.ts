import type { SourcedRuneEtching as RuneEtching } from '../../upstream/types.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { invalidGlobalID } from './global-ids.js';
import { refetched } from './node-lookup.js';
import { pageArgs, pageQuery, pageType } from './pagination.js';

const RuneMintTerms = builder.objectRef<RuneEtching['mint_terms']>('RuneMintTerms').implement({
  description: 'Null where the rune sets no such term (the upstream also reports a stored 0 as null).',
  fields: (t) => ({
    amount: t.expose('amount', { type: 'Decimal', nullable: true }),
    cap: t.expose('cap', { type: 'Decimal', nullable: true }),
    heightStart: t.exposeInt('height_start', { nullable: true }),
    heightEnd: t.exposeInt('height_end', { nullable: true }),
    offsetStart: t.exposeInt('offset_start', { nullable: true }),
    offsetEnd: t.exposeInt('offset_end', { nullable: true }),
  }),
});

const RuneSupply = builder.objectRef<RuneEtching['supply']>('RuneSupply').implement({
  fields: (t) => ({
    current: t.expose('current', { type: 'Decimal' }),
    minted: t.expose('minted', { type: 'Decimal' }),
    totalMints: t.expose('total_mints', { type: 'Decimal' }),
    mintPercentage: t.expose('mint_percentage', { type: 'Decimal' }),
    mintable: t.exposeBoolean('mintable'),
    burned: t.expose('burned', { type: 'Decimal' }),
    totalBurns: t.expose('total_burns', {
      type: 'Decimal',
      nullable: true,
      description: 'Null where the data source does not count burns.',
    }),
    premine: t.expose('premine', { type: 'Decimal' }),
  }),
});

const RuneLocation = builder.objectRef<RuneEtching['location']>('RuneLocation').implement({
  fields: (t) => ({
    blockHash: t.exposeString('block_hash', { nullable: true, description: 'Null where the data source lacks it.' }),
    blockHeight: t.exposeInt('block_height'),
    txId: t.exposeString('tx_id'),
    txIndex: t.exposeInt('tx_index'),
    vout: t.exposeInt('vout', { nullable: true }),
    output: t.exposeString('output', { nullable: true }),
    timestamp: t.field({
      type: 'Timestamp',
      description: 'Milliseconds: the Runes API answers seconds, converted here.',
      resolve: (location) => location.timestamp * 1000,
    }),
  }),
});

/** An etching's local id is its rune id, `block:tx`, in one spelling (no leading zeros). */
const RUNE_ID = /^(0|[1-9]\d{0,9}):(0|[1-9]\d{0,9})$/;

export function parseRuneId(id: string): string {
  if (!RUNE_ID.test(id)) throw invalidGlobalID();
  return id;
}

/** Refetched by its rune id from the etchings' source: hiro's `/runes/v1/etchings/{id}`, UniSat's rune info, ord's `/rune/{id}`. */
export const RuneEtchingRef = builder
  .nodeRef<RuneEtching, string>('RuneEtching', {
    id: { resolve: (etching) => etching.id, parse: parseRuneId },
    loadOne: (runeId, { loaders }) => refetched('RuneEtching', loaders.etching.load(runeId)),
  })
  .implement({
    fields: (t) => ({
      runeId: t.exposeString('id', { description: '`block:tx` (the `id` of versions before 0.2.0).' }),
      name: t.exposeString('name'),
      spacedName: t.exposeString('spaced_name'),
      number: t.exposeInt('number'),
      divisibility: t.exposeInt('divisibility'),
      symbol: t.exposeString('symbol'),
      turbo: t.exposeBoolean('turbo', { nullable: true, description: 'Null where the data source lacks it (UniSat).' }),
      mintTerms: t.expose('mint_terms', { type: RuneMintTerms }),
      supply: t.expose('supply', { type: RuneSupply }),
      location: t.expose('location', { type: RuneLocation }),
    }),
  });

const RuneEtchingPage = pageType('RuneEtchingPage', RuneEtchingRef);

builder.queryField('etchings', (t) =>
  t.field({
    type: RuneEtchingPage,
    nullable: true,
    description: 'Newest first. limit 1..60, offset >= 0.',
    args: pageArgs(t.arg),
    ...policy({ cost: 'page', cache: 'public' }),
    resolve: (_root, args, { loaders }) => loaders.etchings.load(pageQuery(args)),
  }),
);
