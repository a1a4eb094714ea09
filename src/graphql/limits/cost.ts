/**
 * What one root field costs in the limit walk (measure.ts): the upstream work it may cause, priced
 * from the policy it declares (graphql/schema/field-policy.ts) and its arguments as written.
 */
import { Kind, type FieldNode } from 'graphql';
import { brc20TokensCost } from '../schema/brc20.js';
import { connectionCost } from '../schema/cursor-paging.js';
import { UPSTREAM_CALL_COST, type FieldPolicy } from '../schema/field-policy.js';
import { nodesCost } from '../schema/node-lookup.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../schema/pagination.js';

/** What one root field costs: see measureDocument(). A field no root type declares (unknown, `__typename`) costs 0. */
export function fieldCost(field: FieldNode, policy: FieldPolicy | undefined): number {
  const argument = (argName: string) => field.arguments?.find((a) => a.name.value === argName)?.value;
  switch (policy?.cost) {
    case 'connection': {
      const [first, last] = [argument('first'), argument('last')];
      const literal = (value: typeof first) => (value?.kind === Kind.INT ? Number(value.value) : undefined);
      const fromVariables = (first !== undefined && first.kind !== Kind.INT) || (last !== undefined && last.kind !== Kind.INT);
      return connectionCost({ first: literal(first), last: literal(last), fromVariables });
    }
    case 'tickers': {
      // Priced as if `supply.holders` were asked (one call per ticker): the most it can cost.
      const tickers = argument('tickers');
      return brc20TokensCost(tickers?.kind === Kind.LIST ? tickers.values.length : undefined, true);
    }
    case 'node':
      return nodesCost(1);
    case 'nodes': {
      const ids = argument('ids');
      // A single literal is a list of one (input coercion); a variable is priced at the most.
      return nodesCost(ids?.kind === Kind.LIST ? ids.values.length : ids?.kind === Kind.STRING ? 1 : undefined);
    }
    case 'page': {
      const limit = argument('limit');
      return UPSTREAM_CALL_COST + (!limit ? DEFAULT_LIMIT : limit.kind === Kind.INT ? Math.max(0, Number(limit.value)) : MAX_LIMIT);
    }
    case 'call':
      return UPSTREAM_CALL_COST;
    case 'none':
    case undefined:
      return 0;
  }
}
