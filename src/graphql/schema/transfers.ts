import type { SourcedInscriptionLocation, SourcedInscriptionTransfer } from '../../upstream/types.js';
import { merged } from '../../lib/merge.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { pageArgs, pageQuery, pageType } from './pagination.js';
import { parseBlockId } from './scalars.js';

const InscriptionLocationRef = builder.objectRef<SourcedInscriptionLocation>('InscriptionLocation').implement({
  fields: (t) => ({
    blockHeight: t.exposeInt('block_height'),
    blockHash: t.exposeString('block_hash', { nullable: true, description: 'Null where the data source lacks it.' }),
    address: t.exposeString('address', { nullable: true }),
    txId: t.exposeString('tx_id', { nullable: true, description: 'Null where the data source lacks it.' }),
    location: t.exposeString('location', { nullable: true, description: '`output:offset`; null where the data source lacks it.' }),
    output: t.exposeString('output', { nullable: true, description: '`txid:vout`; null where the data source lacks it.' }),
    value: t.expose('value', { type: 'Decimal', nullable: true, description: 'In sats.' }),
    offset: t.expose('offset', { type: 'Decimal', nullable: true }),
    timestamp: t.expose('timestamp', { type: 'Timestamp' }),
  }),
});

export const InscriptionTransferRef = builder.objectRef<SourcedInscriptionTransfer>('InscriptionTransfer').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    number: t.exposeInt('number'),
    from: t.expose('from', {
      type: InscriptionLocationRef,
      nullable: true,
      description: 'The previous location of the sat; null where the data source lacks it (UniSat).',
    }),
    to: t.expose('to', { type: InscriptionLocationRef, description: 'The location in this block.' }),
  }),
});

const InscriptionTransferPage = pageType('InscriptionTransferPage', InscriptionTransferRef);

builder.queryField('transfers', (t) =>
  t.field({
    type: InscriptionTransferPage,
    nullable: true,
    description: 'Newest first. limit 1..60, offset >= 0. Null when the upstream reports the block unknown (404).',
    args: { block: t.arg({ type: 'BlockId', required: true }), ...pageArgs(t.arg) },
    ...policy({ cost: 'page', cache: 'public' }),
    resolve: (_root, { block, offset, limit }, { loaders }) =>
      loaders.transfers.load(merged({ block: parseBlockId(block) }, pageQuery({ offset, limit }))),
  }),
);
