/**
 * `nodes(ids:)`, Relay's refetch of many: defined here rather than by the relay plugin, whose
 * arguments decode every id before the resolver runs, so that one id that is not ours (an old one,
 * one cut short by a cache) failed the whole list, and since the list is non-null (CONTRACT), every
 * other root field of the operation with it. Here such an id is its entry's error at [nodes, i],
 * the other entries are loaded, and the 1..50 rule still fails the field.
 */
import { resolveNodes } from '@pothos/plugin-relay';
import { badUserInput } from '../../errors.js';
import { parseTicker } from './brc20.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';
import { decodeGlobalID, type NodeType } from './global-ids.js';
import { MAX_NODE_IDS } from './node-lookup.js';
import { parseRuneId } from './runes.js';
import { parseTransferId } from './transfers.js';

/** Each type's local-id rule, as the relay plugin applies it to `node(id:)` (the type's `id.parse`). */
const LOCAL_IDS: Record<NodeType, (id: string) => unknown> = {
  Brc20Token: parseTicker,
  Brc20TokenDetails: parseTicker,
  InscriptionTransfer: parseTransferId,
  RuneEtching: parseRuneId,
};

/** The id's type and parsed local id, or the BAD_USER_INPUT error an id that is not ours gets. */
function decodedOrError(globalId: string): { typename: NodeType; id: unknown } | Error {
  try {
    const { typename, id } = decodeGlobalID(globalId);
    return { typename, id: LOCAL_IDS[typename](id) };
  } catch (error) {
    return error as Error;
  }
}

builder.queryField('nodes', (t) =>
  t.field({
    description: `1..${MAX_NODE_IDS} global ids; one entry per id, in the order asked; null where none exists.`,
    ...policy({ cost: 'nodes', cache: 'public' }),
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_root, { ids }, context, info) => {
      if (ids.length < 1 || ids.length > MAX_NODE_IDS) {
        throw badUserInput(`ids must hold 1 to ${MAX_NODE_IDS} ids, got ${ids.length}`, 'ids');
      }
      const decoded = ids.map((id) => decodedOrError(String(id)));
      // graphql-js completes an Error item as that item's error (refetched does the same for loads).
      const loaded = await resolveNodes(
        builder,
        context,
        info,
        decoded.map((one) => (one instanceof Error ? null : one)),
      );
      return decoded.map((one, i) => (one instanceof Error ? one : loaded[i]));
    },
  }),
);
