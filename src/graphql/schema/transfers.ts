import type { InscriptionLocation, InscriptionTransfer } from '../../upstream/types.js';
import { merged } from '../../lib/merge.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { pageArgs, pageQuery, pageType } from './pagination.js';
import { parseBlockId } from './scalars.js';

const InscriptionLocationRef = builder.objectRef<InscriptionLocation>('InscriptionLocation').implement({
  fields: (t) => ({
    blockHeight: t.exposeInt('block_height'),
    blockHash: t.exposeString('block_hash'),
    address: t.exposeString('address', { nullable: true }),
    txId: t.exposeString('tx_id'),
    location: t.exposeString('location', { description: '`output:offset`' }),
    output: t.exposeString('output', { description: '`txid:vout`' }),
    value: t.expose('value', { type: 'Decimal', nullable: true, description: 'In sats.' }),
    offset: t.expose('offset', { type: 'Decimal', nullable: true }),
    timestamp: t.expose('timestamp', { type: 'Timestamp' }),
  }),
});

export const InscriptionTransferRef = builder.objectRef<InscriptionTransfer>('InscriptionTransfer').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    number: t.exposeInt('number'),
    from: t.expose('from', { type: InscriptionLocationRef, description: 'The previous location of the sat.' }),
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
