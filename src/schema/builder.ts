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
    /** Parsed into the upstream's query form: a digit string or a 64-hex hash. */
    BlockId: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});
