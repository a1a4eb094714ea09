import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from '../context.js';

/** The builder only configures: Context and the scalars' input/output types, declared once. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    /** Amounts stay strings end to end: never a JS number. */
    Decimal: { Input: string; Output: string };
    Timestamp: { Input: number; Output: number };
    /** Checked by the transfers resolver (parseBlockId), so a bad block fails only that field. */
    BlockId: { Input: unknown; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});
