import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { GraphQLContext } from '../context.js';
import { decodeGlobalID, encodeGlobalID } from './global-ids.js';
import { nodeQueryOptions } from './node-lookup.js';

/** The builder only configures: Context and the scalars' input/output types, declared once. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  /** Relay connections: `edges: [Edge!]!`, `node: T!`, and every connection counts its list. */
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Connection: { totalCount: number };
  Scalars: {
    /** Amounts stay strings end to end: never a JS number. */
    Decimal: { Input: string; Output: string };
    Timestamp: { Input: number; Output: number };
    /** Checked by the transfers resolver (parseBlockId), so a bad block fails only that field. */
    BlockId: { Input: unknown; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  // Connections, and Relay's object identification: the Node interface with `node`.
  relay: {
    encodeGlobalID,
    decodeGlobalID,
    idFieldOptions: { description: 'A global id: opaque, stable, unique across types; `node(id:)` refetches it.' },
    nodeTypeOptions: { description: 'An entity with a global id, which `node(id:)` and `nodes(ids:)` refetch.' },
    nodeQueryOptions,
    // nodes.ts: each id fails alone.
    nodesQueryOptions: false,
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
});

builder.queryType({});
builder.mutationType({});
