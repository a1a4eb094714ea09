/**
 * `node(id:)` (Relay's object identification), as options of the relay plugin (builder.ts): its
 * description and policy (field-policy.ts); `nodes(ids:)` is nodes.ts. What each type's refetch
 * asks the upstream is beside the type (brc20.ts, transfers.ts, runes.ts).
 */
import { brandWithType } from '@pothos/core';
import { policy, UPSTREAM_CALL_COST } from './field-policy.js';
import type { NodeType } from './global-ids.js';

/** The most ids one `nodes` lookup may ask for. */
export const MAX_NODE_IDS = 50;

/** Upstream calls one id's refetch makes, whatever its type (see each type's loadOne). */
export const NODE_CALLS = 1;

/**
 * The query cost of `node` (ids undefined) or `nodes` (the number of ids written; undefined from a
 * variable, then the most), in the cost walk's units: a call and an item per id. Pure, for
 * the cost walk (limits/cost.ts).
 */
export function nodesCost(ids: number | undefined): number {
  return nodesItems(ids) * (NODE_CALLS * UPSTREAM_CALL_COST + 1);
}

/** The entries `nodes` answers for `ids` written (undefined from a variable: the most). */
export function nodesItems(ids: number | undefined): number {
  return Math.min(MAX_NODE_IDS, Math.max(1, ids ?? MAX_NODE_IDS));
}

export const nodeQueryOptions = {
  description:
    'Any entity by its global id (the `id` of a Brc20Token, Brc20TokenDetails, InscriptionTransfer or RuneEtching); null when it no longer exists.',
  ...policy({ cost: 'node', cache: 'public' }),
};

/**
 * A refetch's answer for `node` and `nodes`. It fails alone: a failure is its entry's value, so
 * `nodes` fails only at that index (graphql-js completes an Error value as that item's error) and
 * `node` as a field error, as any field does. And it is branded with its type here: the relay
 * plugin answers a second lookup of one id in a request from its request cache, whose entry is this
 * promise, and brands the value only after the first lookup's batch settles, so the second field
 * could complete first, unbranded, and fail as a Node that resolves to no type.
 */
export function refetched<T>(typename: NodeType, load: Promise<T>): Promise<T> {
  return load.then(
    (value) => {
      // By name, as the relay plugin brands: the builder declares no Objects map to type it with.
      brandWithType(value, typename as never);
      return value;
    },
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))) as T,
  );
}
