/**
 * `node(id:)` and `nodes(ids:)` (Relay's object identification), as options of the relay plugin
 * (builder.ts): their descriptions, their policy (field-policy.ts) and the 1..50 rule of `nodes`.
 * What each type's refetch asks the upstream is beside the type (brc20.ts, transfers.ts, runes.ts).
 */
import { badUserInput } from '../../errors.js';
import { policy, UPSTREAM_CALL_COST } from './field-policy.js';

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
  const count = Math.min(MAX_NODE_IDS, Math.max(1, ids ?? MAX_NODE_IDS));
  return count * (NODE_CALLS * UPSTREAM_CALL_COST + 1);
}

export const nodeQueryOptions = {
  description: 'Any entity by its global id (the `id` of a Brc20Token, InscriptionTransfer or RuneEtching); null when it no longer exists.',
  ...policy({ cost: 'node', cache: 'public' }),
};

export const nodesQueryOptions = {
  description: `1..${MAX_NODE_IDS} global ids; one entry per id, in the order asked; null where none exists.`,
  ...policy({ cost: 'nodes', cache: 'public' }),
  resolve: <T>(
    _root: unknown,
    { ids }: { ids: Array<{ typename: string; id: string }> },
    _context: unknown,
    _info: unknown,
    resolveNodes: (ids: Array<{ typename: string; id: string }>) => Promise<T[]>,
  ): Promise<T[]> => {
    if (ids.length < 1 || ids.length > MAX_NODE_IDS) {
      throw badUserInput(`ids must hold 1 to ${MAX_NODE_IDS} ids, got ${ids.length}`, 'ids');
    }
    return resolveNodes(ids);
  },
};

/**
 * A refetch whose failure is its entry's value: `nodes` then fails only at that index (graphql-js
 * completes an Error value as that item's error), and `node` as a field error, as any field does.
 */
export function failsAlone<T>(load: Promise<T>): Promise<T> {
  return load.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))) as T);
}
