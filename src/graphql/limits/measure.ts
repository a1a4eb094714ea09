/**
 * The limit walk: one walk over the document measures every limit, each fragment once however
 * often it is spread, without recursion (a long chain of fragments cannot overflow the stack).
 */
import { Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { FieldPolicy, RootFieldPolicies } from '../schema/field-policy.js';
import { fieldDemand, type KnownVariables } from './cost.js';

/** The root fields that answer introspection: their results are the schema's, which MAX_RESULT_FIELDS does not see. */
const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/** Counts that can grow exponentially (a fragment spread twice by each of a chain) stop at 2^53 - 1. */
export const saturate = (count: number) => Math.min(count, Number.MAX_SAFE_INTEGER);

/** One operation or fragment, walked once without following its spreads. */
interface Scan {
  /** The deepest field nesting inside it (introspection exempt). */
  depth: number;
  /** The same, introspection included. */
  fullDepth: number;
  /** Its root-level introspection fields (`__schema`, `__type`). */
  introspections: number;
  /** The cost of its own root-level fields. */
  cost: number;
  /** Some root-level field of its own is priced by a variable. */
  variablePriced: boolean;
  /** Its own aliases and fields, at every level (not its spreads'). */
  aliases: number;
  fields: number;
  /** Its root-level fields as the result holds them: see RootField. */
  roots: RootField[];
  /**
   * Per fragment it spreads: the deepest nesting of a spread (-1: only inside introspection), how
   * often it is spread at root level, and how often anywhere.
   */
  spreads: Map<string, { depth: number; fullDepth: number; atRoot: number; count: number }>;
}

/**
 * A root-level field: the most items it answers (its list's entries; 1 for an object), and what
 * each item holds, written below it: its fields and the fragments it spreads, each with how often.
 */
interface RootField {
  items: number;
  fields: number;
  spreads: Map<string, number>;
}

/**
 * One selection set as graphql-js's overlapping-fields rule sees it (its inline fragments merged
 * in): the rule compares every two fields of one response name, and the fields with every
 * fragment reached through the set's spreads, and those fragments pairwise.
 */
interface SetShape {
  fields: number;
  /** The sum, over response names, of the square of their fields' count. */
  sameNamePairs: number;
  /** Fragments spread directly in the set (each name once). */
  spreads: Set<string>;
}

/**
 * `rootFields`: the policies of the root type the set belongs to (an operation's, or the one a
 * fragment names), which price its root-level fields; undefined for any other type.
 */
function scan(
  selectionSet: SelectionSetNode,
  counts: { directives: number },
  shapes: SetShape[],
  rootFields: ReadonlyMap<string, FieldPolicy> | undefined,
  variables: KnownVariables,
): Scan {
  const result: Scan = {
    depth: 0,
    fullDepth: 0,
    introspections: 0,
    cost: 0,
    variablePriced: false,
    aliases: 0,
    fields: 0,
    roots: [],
    spreads: new Map(),
  };
  // [selection set, its nesting depth, at root level, inside an introspection field (`__schema`,
  // `__type`), the root-level field it is below]
  const pending: Array<[SelectionSetNode, number, boolean, boolean, RootField | undefined]> = [[selectionSet, 0, true, false, undefined]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [root, depth, atRoot, introspection, below] = next;
    const shape: SetShape = { fields: 0, sameNamePairs: 0, spreads: new Set() };
    const names = new Map<string, number>();
    const merged = [root];
    for (let set = merged.pop(); set; set = merged.pop()) {
      for (const selection of set.selections) {
        counts.directives += selection.directives?.length ?? 0;
        if (selection.kind === Kind.FIELD) {
          if (selection.alias) result.aliases++;
          const name = (selection.alias ?? selection.name).value;
          const count = (names.get(name) ?? 0) + 1;
          names.set(name, count);
          shape.fields++;
          shape.sameNamePairs += 2 * count - 1; // count² - (count - 1)²
          const exempt = introspection || selection.name.value.startsWith('__');
          if (!exempt) result.depth = Math.max(result.depth, depth + 1);
          result.fullDepth = Math.max(result.fullDepth, depth + 1);
          if (atRoot && INTROSPECTION_ROOTS.has(selection.name.value)) result.introspections++;
          result.fields++;
          let owner = below;
          if (atRoot) {
            const { cost, items, fromVariables } = fieldDemand(selection, rootFields?.get(selection.name.value), variables);
            result.cost = saturate(result.cost + cost);
            if (fromVariables) result.variablePriced = true;
            owner = { items, fields: 0, spreads: new Map() };
            result.roots.push(owner);
          } else if (owner) {
            owner.fields++;
          }
          if (selection.selectionSet) pending.push([selection.selectionSet, depth + 1, false, exempt, owner]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          merged.push(selection.selectionSet);
        } else {
          shape.spreads.add(selection.name.value);
          const spread = result.spreads.get(selection.name.value) ?? { depth: -1, fullDepth: 0, atRoot: 0, count: 0 };
          if (!introspection) spread.depth = Math.max(spread.depth, depth);
          spread.fullDepth = Math.max(spread.fullDepth, depth);
          if (atRoot) spread.atRoot++;
          spread.count++;
          result.spreads.set(selection.name.value, spread);
          below?.spreads.set(selection.name.value, (below.spreads.get(selection.name.value) ?? 0) + 1);
        }
      }
    }
    shapes.push(shape);
  }
  return result;
}

export interface DocumentMeasure {
  /**
   * Per operation: its depth (field nesting, introspection exempt; `fullDepth` with it), its
   * introspection fields at root level (each spread counted), its upstream cost, and the
   * fields its result may hold: per root-level field, its items times the fields written below it,
   * each fragment's counted at every spread (aliases of a list, or of a field above a fragment,
   * multiply what a small document answers).
   */
  operations: Array<{
    depth: number;
    fullDepth: number;
    introspections: number;
    cost: number;
    answered: number;
    /** A variable prices some root-level field it reaches: its cost and answered are the most it may ask until the variables are known. */
    variablePriced: boolean;
  }>;
  /**
   * Aliases, each fragment's counted at every spread (its copies answer apart in the result, so
   * each one multiplies what the fields below it answer), summed over the operations.
   */
  aliases: number;
  /** Directives written in the document. */
  directives: number;
  /** A bound on the field comparisons graphql-js's overlapping-fields rule makes: see SetShape. */
  comparisons: number;
  /** Some fragment spreads itself, directly or through others. */
  cyclic: boolean;
}

/**
 * Measures a document for the limits in time linear in its size: each operation and fragment is
 * walked once, and a fragment's totals are memoised, then added wherever it is spread.
 *
 * Cost is the upstream work a query may cause, as each root field's policy declares it
 * (`policies`, graphql/schema/field-policy.ts): UPSTREAM_CALL_COST per upstream call, plus one per
 * item a page may return (its `limit`, 20 by default). A connection costs the upstream pages it
 * reads for its window plus its items (connectionCost); `brc20Tokens` one call per ticker plus one
 * per item (brc20TokensCost). An argument from a variable is read from `variables` (the request's,
 * with the operation's defaults); while they are not known (undefined), it is priced at the most
 * it may ask: 60 items a page, the largest window, 50 tickers. Each alias, and each spread of a
 * fragment, counts: the gateway may dedupe them, the limit stays honest. A root-level field is
 * priced by the root type its operation, or its fragment's type condition, names.
 */
export function measureDocument(document: DocumentNode, policies: RootFieldPolicies, variables?: KnownVariables): DocumentMeasure {
  const rootFields = (typeName: string | undefined) => (typeName === undefined ? undefined : policies.byType.get(typeName));
  const counts = { directives: 0 };
  const shapes: SetShape[] = [];
  const fragments = new Map<string, Scan>();
  const operations: Scan[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      counts.directives += definition.directives?.length ?? 0;
      const rootType = rootFields(definition.typeCondition.name.value);
      fragments.set(definition.name.value, scan(definition.selectionSet, counts, shapes, rootType, variables));
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      counts.directives += definition.directives?.length ?? 0;
      for (const variable of definition.variableDefinitions ?? []) counts.directives += variable.directives?.length ?? 0;
      operations.push(scan(definition.selectionSet, counts, shapes, rootFields(policies.rootType[definition.operation]), variables));
    }
  }
  /** Per fragment, through the fragments it spreads; `reach`: the fragments its own selection set reaches, each path counted. */
  const totals = new Map<
    string,
    Pick<Scan, 'depth' | 'fullDepth' | 'introspections' | 'cost' | 'variablePriced' | 'aliases' | 'fields'> & {
      answered: number;
      reach: number;
    }
  >();
  /** The fields of `spreads` (fragment names, each with how often it is spread), expanded. */
  const spreadFields = (spreads: ReadonlyMap<string, number>) => {
    let fields = 0;
    for (const [name, count] of spreads) fields = saturate(fields + count * (totals.get(name)?.fields ?? 0));
    return fields;
  };
  const withSpreads = (own: Scan) => {
    let { depth, fullDepth, introspections, cost, variablePriced, aliases, fields } = own;
    let answered = 0;
    for (const root of own.roots) answered = saturate(answered + 1 + root.items * saturate(root.fields + spreadFields(root.spreads)));
    let reach = 0;
    for (const [name, spread] of own.spreads) {
      const fragment = totals.get(name);
      if (!fragment) continue; // unknown, or spread from inside itself (a cycle)
      if (spread.depth >= 0) depth = Math.max(depth, spread.depth + fragment.depth);
      fullDepth = Math.max(fullDepth, spread.fullDepth + fragment.fullDepth);
      introspections = saturate(introspections + spread.atRoot * fragment.introspections);
      cost = saturate(cost + spread.atRoot * fragment.cost);
      if (spread.atRoot > 0 && fragment.variablePriced) variablePriced = true;
      aliases = saturate(aliases + spread.count * fragment.aliases);
      fields = saturate(fields + spread.count * fragment.fields);
      answered = saturate(answered + spread.atRoot * fragment.answered);
      if (spread.atRoot > 0) reach = saturate(reach + 1 + fragment.reach);
    }
    return { depth, fullDepth, introspections, cost, variablePriced, aliases, fields, answered, reach };
  };
  // Fragments in depth-first post-order, with an explicit stack. `entered` holds the fragments on
  // the current path: a spread of one of them closes a cycle.
  const entered = new Set<string>();
  let cyclic = false;
  for (const root of fragments.keys()) {
    const pending = [root];
    while (pending.length > 0) {
      const name = pending[pending.length - 1]!;
      const own = fragments.get(name)!;
      if (totals.has(name)) {
        pending.pop();
      } else if (!entered.has(name)) {
        entered.add(name);
        for (const spread of own.spreads.keys()) {
          if (entered.has(spread)) cyclic = true;
          else if (fragments.has(spread) && !totals.has(spread)) pending.push(spread);
        }
      } else {
        totals.set(name, withSpreads(own));
        entered.delete(name);
        pending.pop();
      }
    }
  }
  let comparisons = 0;
  for (const shape of shapes) {
    let reached = 0;
    for (const name of shape.spreads) reached = saturate(reached + 1 + (totals.get(name)?.reach ?? 0));
    comparisons = saturate(comparisons + shape.sameNamePairs + reached * (2 * shape.fields + reached));
  }
  const measured = operations.map(withSpreads);
  const aliases = saturate(measured.reduce((sum, operation) => sum + operation.aliases, 0));
  return {
    operations: measured.map(({ depth, fullDepth, introspections, cost, answered, variablePriced }) => ({
      depth,
      fullDepth,
      introspections,
      cost,
      answered,
      variablePriced,
    })),
    aliases,
    ...counts,
    comparisons,
    cyclic,
  };
}
