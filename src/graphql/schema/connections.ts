import type { ObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import type { Page } from '../../upstream/types.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { runsIncrementally } from '../incremental-delivery.js';
import { streamConnection } from './connection-stream.js';
import { blockScope, connectionRequest, readConnection, type ConnectionArgs, type ListKind, type ListSource } from './cursor-paging.js';
import { streams } from './selection.js';
import { RuneEtchingRef } from './runes.js';
import { parseBlockId } from './scalars.js';
import { InscriptionTransferRef } from './transfers.js';

type Types = typeof builder.$inferSchemaTypes;

const PAGING =
  'first/last 1..500 (default 20 when neither is given), not both; spans as many upstream pages as needed. ' +
  'Cursors are opaque and survive new items: a malformed one is BAD_USER_INPUT (reason CURSOR_INVALID), ' +
  'one whose item is gone is BAD_USER_INPUT (reason CURSOR_EXPIRED). ' +
  "totalCount is the upstream's total";

/** `totalCount` beside the plugin's edges and pageInfo, and the contract's type names. */
function connectionTypes<T>(node: ObjectRef<Types, T>, name: string) {
  return [
    {
      name: `${name}Connection`,
      fields: (t: PothosSchemaTypes.ObjectFieldBuilder<Types, { totalCount: number }>) => ({
        totalCount: t.exposeInt('totalCount'),
      }),
    },
    { name: `${name}Edge` },
  ] as const;
}

/** Edges asked for with @stream, in an execution that streams: handed out as their pages land. */
function reader(context: object, info: GraphQLResolveInfo) {
  return runsIncrementally(context) && streams(info, 'edges') ? streamConnection : readConnection;
}

function source<T extends { id: string }>(
  kind: ListKind,
  timeoutMs: number,
  page: (offset: number, limit: number) => Promise<Page<T> | null>,
  scope?: string,
): ListSource<T> {
  return { kind, scope, timeoutMs, page, id: (item) => item.id };
}

const [etchingConnection] = connectionTypes(RuneEtchingRef, 'RuneEtching');
/** Its own ref, so the `etchingAddedEdge` subscription (live.ts) answers the same edge type. */
export const RuneEtchingEdgeRef = builder.edgeObject({ type: RuneEtchingRef, name: 'RuneEtchingEdge' });
builder.queryField('etchingsConnection', (t) =>
  t.connection(
    {
      type: RuneEtchingRef,
      nullable: true,
      description: `Newest first, as a Relay connection. ${PAGING} (it counts runes that are not listed).`,
      ...policy({ cost: 'connection', cache: 'public' }),
      resolve: (_root, args: ConnectionArgs, context, info) =>
        reader(context, info)(
          source('etchings', context.upstreams.timeoutMs, (offset, limit) => context.loaders.etchings.load({ offset, limit })),
          connectionRequest('etchings', args),
        ),
    },
    etchingConnection,
    RuneEtchingEdgeRef,
  ),
);

const [transferConnection, transferEdge] = connectionTypes(InscriptionTransferRef, 'InscriptionTransfer');
builder.queryField('transfersConnection', (t) =>
  t.connection(
    {
      type: InscriptionTransferRef,
      nullable: true,
      description: `The block's transfers as a Relay connection, newest first; null when the upstream reports the block unknown. ${PAGING}.`,
      args: { block: t.arg({ type: 'BlockId', required: true }) },
      ...policy({ cost: 'connection', cache: 'public' }),
      resolve: (_root, { block, ...args }, context, info) => {
        const id = parseBlockId(block);
        // Checked before the cursors: a bad block is the field's error, not its cursor's.
        const scope = blockScope(id);
        return reader(context, info)(
          source(
            'transfers',
            context.upstreams.timeoutMs,
            (offset, limit) => context.loaders.transfers.load({ block: id, offset, limit }),
            scope,
          ),
          connectionRequest('transfers', args, scope),
        );
      },
    },
    transferConnection,
    transferEdge,
  ),
);
