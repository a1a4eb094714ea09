/**
 * Policy lives on the field: each root field declares, in its own options, what it may cost the
 * upstreams and who may cache its answer (`...policy({ cost: 'page', cache: 'public' })`). The
 * limit walk (limits/cost.ts) and the HTTP caching (plugins/http-caching.ts) read it from the
 * schema's field extensions, once at start (index.ts): a root field without one stops start-up,
 * so a new field can never silently cost 0. Extensions are not printed: schema.graphql is unchanged.
 */
import type { GraphQLSchema, OperationTypeNode } from 'graphql';

/** The cost walk's unit: one upstream call. Each item a field may return costs 1. */
export const UPSTREAM_CALL_COST = 10;

/**
 * What a root field may cost, priced by limits/cost.ts from its arguments:
 * `none` calls no upstream of its own; `call` makes one call; `page` one call plus one per item of
 * its `limit`; `connection` the upstream pages its `first`/`last` window reads plus its items
 * (connectionCost); `tickers` a call per ticker of its `tickers` list plus its items (brc20TokensCost);
 * `node` one global id's refetch, `nodes` one per id of its `ids` list (nodesCost).
 */
export type UpstreamCost = 'none' | 'call' | 'page' | 'connection' | 'tickers' | 'node' | 'nodes';

/**
 * Who may keep a root field's answer: `public` is the same for every client (browsers, CDNs and the
 * response fast path may keep it); `private` depends on who asks (a platform key); `none` is never
 * kept (mutations, subscriptions).
 */
export type HttpCache = 'public' | 'private' | 'none';

export interface FieldPolicy {
  cost: UpstreamCost;
  cache: HttpCache;
}

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    fieldPolicy?: FieldPolicy;
  }
}

/** A root field's policy, spread into its Pothos options: `...policy({ cost: 'call', cache: 'public' })`. */
export function policy(fieldPolicy: FieldPolicy): { extensions: { fieldPolicy: FieldPolicy } } {
  return { extensions: { fieldPolicy } };
}

/** Every root field's policy, read from the schema once. */
export interface RootFieldPolicies {
  /** Per root type name (`Query`; a fragment's type condition names it too), per field name. */
  byType: ReadonlyMap<string, ReadonlyMap<string, FieldPolicy>>;
  /** The root type's name of each operation type (`query` → `Query`). */
  rootType: Readonly<Partial<Record<OperationTypeNode, string>>>;
}

/** Reads the policy of every field of Query, Mutation and Subscription; throws naming one without. */
export function rootFieldPolicies(schema: GraphQLSchema): RootFieldPolicies {
  const byType = new Map<string, ReadonlyMap<string, FieldPolicy>>();
  const rootType: Partial<Record<OperationTypeNode, string>> = {};
  const roots = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() };
  for (const [operation, type] of Object.entries(roots) as Array<[OperationTypeNode, (typeof roots)['query']]>) {
    if (!type) continue;
    const fields = new Map<string, FieldPolicy>();
    for (const field of Object.values(type.getFields())) {
      const declared = field.extensions.fieldPolicy;
      if (!declared)
        throw new Error(
          `${type.name}.${field.name} declares no policy: give it ...policy({ cost, cache }) (graphql/schema/field-policy.ts)`,
        );
      fields.set(field.name, declared);
    }
    byType.set(type.name, fields);
    rootType[operation] = type.name;
  }
  return { byType, rootType };
}
