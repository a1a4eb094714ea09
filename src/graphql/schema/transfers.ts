import type { SourcedInscriptionLocation, SourcedInscriptionTransfer } from '../../upstream/types.js';
import { merged } from '../../lib/merge.js';
import type { Loaders } from '../loaders.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { invalidGlobalID } from './global-ids.js';
import { refetched } from './node-lookup.js';
import { MAX_LIMIT, pageArgs, pageQuery, pageType } from './pagination.js';
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

/**
 * A transfer's local id: its block's height, its offset in the block's newest-first list (a mined
 * block's list no longer changes) and its inscription id, `<height>:<offset>:<inscriptionId>`. Two
 * transfers of one inscription, in one block or two, have two ids. Offsets stay below 10^9, so the
 * page a forged one asks for is one the upstream can answer (its offsets are int4).
 */
interface TransferKey {
  height: number;
  offset: number;
  inscriptionId: string;
}
const TRANSFER_ID = /^(0|[1-9]\d{0,8}):(0|[1-9]\d{0,8}):([0-9a-f]{64}i(?:0|[1-9]\d{0,9}))$/;

export function parseTransferId(id: string): TransferKey {
  const match = TRANSFER_ID.exec(id);
  if (!match) throw invalidGlobalID();
  return { height: Number(match[1]), offset: Number(match[2]), inscriptionId: match[3]! };
}

function transferId(transfer: SourcedInscriptionTransfer, loaders: Loaders): string {
  const offset = loaders.transferOffsets.get(transfer);
  // Every transfer comes from a block's page, which records its offset: a miss is a bug here.
  if (offset === undefined) throw new Error('A transfer without its offset in the block');
  return `${transfer.to.block_height}:${offset}:${transfer.id}`;
}

/**
 * Refetches a transfer through the block's page that holds it: the 60-item page aligned as
 * `transfers`/`transfersConnection` read them (so they share it), one call. Null when the
 * inscription is no longer there.
 */
async function transferAt({ height, offset, inscriptionId }: TransferKey, loaders: Loaders): Promise<SourcedInscriptionTransfer | null> {
  const aligned = offset - (offset % MAX_LIMIT);
  const page = await loaders.transfers.load({ block: String(height), offset: aligned, limit: MAX_LIMIT });
  const transfer = page?.results[offset - aligned];
  return transfer?.id === inscriptionId ? transfer : null;
}

export const InscriptionTransferRef = builder
  .nodeRef<SourcedInscriptionTransfer, TransferKey>('InscriptionTransfer', {
    id: { resolve: (transfer, _args, { loaders }) => transferId(transfer, loaders), parse: parseTransferId },
    loadOne: (key, { loaders }) => refetched('InscriptionTransfer', transferAt(key, loaders)),
  })
  .implement({
    fields: (t) => ({
      inscriptionId: t.exposeString('id', { description: 'The inscription id (the `id` of versions before 0.2.0).' }),
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
