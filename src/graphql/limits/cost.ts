/**
 * What one root field costs in the limit walk (measure.ts): the upstream work it may cause, priced
 * from the policy it declares (graphql/schema/field-policy.ts) and its arguments: as written, and
 * a variable's as the request gives it once it is known (the execution's check, query-limits.ts).
 */
import { Kind, valueFromASTUntyped, type FieldNode } from 'graphql';
import { brc20TokensCost, brc20TokensItems } from '../schema/brc20.js';
import { connectionCost, connectionItems } from '../schema/cursor-paging.js';
import { UPSTREAM_CALL_COST, type FieldPolicy } from '../schema/field-policy.js';
import { nodesCost, nodesItems } from '../schema/node-lookup.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../schema/pagination.js';

/**
 * The request's variables with the executed operation's defaults, or undefined while they are not
 * known (validation): a variable is then priced at the most it could ask.
 */
export type KnownVariables = Readonly<Record<string, unknown>> | undefined;

/** What a root field may cost and answer; `fromVariables`: a variable decided it. */
export interface FieldDemand {
  cost: number;
  items: number;
  fromVariables: boolean;
}

/** An argument's value: absent (`null`: the field's default), a count, or `unknown`: price it at the most. */
type Read = number | null | 'unknown';
/** A variable's value while the variables are not known. */
const UNKNOWN = Symbol('unknown');

/**
 * What one root field costs, and the most items (entries of its list) it may answer: see
 * measureDocument(). A field no root type declares (unknown, `__typename`, introspection) costs 0
 * and answers one item.
 */
export function fieldDemand(field: FieldNode, policy: FieldPolicy | undefined, variables: KnownVariables): FieldDemand {
  let fromVariables = false;
  /** The argument's value as the request gives it (undefined when absent), or UNKNOWN. */
  const valueOf = (argName: string): unknown => {
    const node = field.arguments?.find((a) => a.name.value === argName)?.value;
    if (node?.kind !== Kind.VARIABLE) return node && valueFromASTUntyped(node, variables);
    fromVariables = true;
    // Own properties only: a variable named `constructor` the request does not give is absent.
    return variables === undefined ? UNKNOWN : Object.hasOwn(variables, node.name.value) ? variables[node.name.value] : undefined;
  };
  /** An Int argument; anything but an integer (which the field's coercion refuses) is priced at the most. */
  const int = (argName: string): Read => {
    const value = valueOf(argName);
    return value == null ? null : Number.isSafeInteger(value) ? (value as number) : 'unknown';
  };
  /** A list argument's length: a single value is a list of one (input coercion). */
  const length = (argName: string): Read => {
    const value = valueOf(argName);
    return value === UNKNOWN ? 'unknown' : value == null ? null : Array.isArray(value) ? value.length : 1;
  };
  const demand = (cost: number, items: number): FieldDemand => ({ cost, items, fromVariables });
  switch (policy?.cost) {
    case 'connection': {
      const [first, last] = [int('first'), int('last')];
      const size = {
        first: typeof first === 'number' ? first : undefined,
        last: typeof last === 'number' ? last : undefined,
        fromVariables: first === 'unknown' || last === 'unknown',
      };
      return demand(connectionCost(size), connectionItems(size));
    }
    case 'tickers': {
      // Priced as if `supply.holders` were asked (one call per ticker): the most it can cost.
      const tickers = length('tickers');
      const written = typeof tickers === 'number' ? tickers : undefined;
      return demand(brc20TokensCost(written, true), brc20TokensItems(written));
    }
    case 'node':
      return demand(nodesCost(1), 1);
    case 'nodes': {
      const ids = length('ids');
      const written = typeof ids === 'number' ? ids : undefined;
      return demand(nodesCost(written), nodesItems(written));
    }
    case 'page': {
      const limit = int('limit');
      const items = limit === null ? DEFAULT_LIMIT : limit === 'unknown' ? MAX_LIMIT : Math.max(0, limit);
      return demand(UPSTREAM_CALL_COST + items, items);
    }
    case 'call':
      return demand(UPSTREAM_CALL_COST, 1);
    case 'none':
    case undefined:
      return demand(0, 1);
  }
}
