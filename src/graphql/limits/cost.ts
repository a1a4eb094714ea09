/**
 * What one root field costs in the limit walk (measure.ts): the upstream work it may cause, priced
 * from the policy it declares (graphql/schema/field-policy.ts) and its arguments as written.
 */
import { Kind, type FieldNode } from 'graphql';
import { brc20TokensCost, brc20TokensItems } from '../schema/brc20.js';
import { connectionCost, connectionItems } from '../schema/cursor-paging.js';
import { UPSTREAM_CALL_COST, type FieldPolicy } from '../schema/field-policy.js';
import { nodesCost, nodesItems } from '../schema/node-lookup.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../schema/pagination.js';

/**
 * What one root field costs, and the most items (entries of its list) it may answer: see
 * measureDocument(). A field no root type declares (unknown, `__typename`, introspection) costs 0
 * and answers one item.
 */
export function fieldDemand(field: FieldNode, policy: FieldPolicy | undefined): { cost: number; items: number } {
  const argument = (argName: string) => field.arguments?.find((a) => a.name.value === argName)?.value;
  switch (policy?.cost) {
    case 'connection': {
      const [first, last] = [argument('first'), argument('last')];
      const literal = (value: typeof first) => (value?.kind === Kind.INT ? Number(value.value) : undefined);
      const fromVariables = (first !== undefined && first.kind !== Kind.INT) || (last !== undefined && last.kind !== Kind.INT);
      const size = { first: literal(first), last: literal(last), fromVariables };
      return { cost: connectionCost(size), items: connectionItems(size) };
    }
    case 'tickers': {
      // Priced as if `supply.holders` were asked (one call per ticker): the most it can cost.
      const tickers = argument('tickers');
      const written = tickers?.kind === Kind.LIST ? tickers.values.length : undefined;
      return { cost: brc20TokensCost(written, true), items: brc20TokensItems(written) };
    }
    case 'node':
      return { cost: nodesCost(1), items: 1 };
    case 'nodes': {
      const ids = argument('ids');
      // A single literal is a list of one (input coercion); a variable is priced at the most.
      const written = ids?.kind === Kind.LIST ? ids.values.length : ids?.kind === Kind.STRING ? 1 : undefined;
      return { cost: nodesCost(written), items: nodesItems(written) };
    }
    case 'page': {
      const limit = argument('limit');
      const items = !limit ? DEFAULT_LIMIT : limit.kind === Kind.INT ? Math.max(0, Number(limit.value)) : MAX_LIMIT;
      return { cost: UPSTREAM_CALL_COST + items, items };
    }
    case 'call':
      return { cost: UPSTREAM_CALL_COST, items: 1 };
    case 'none':
    case undefined:
      return { cost: 0, items: 1 };
  }
}
