/**
 * What one root field costs in the limit walk (measure.ts): the upstream work it may cause.
 */
import { Kind, type FieldNode } from 'graphql';
import { brc20TokensCost } from '../schema/brc20.js';
import { connectionCost } from '../schema/cursor-paging.js';
import { MAX_LIMIT } from '../schema/pagination.js';

/** Root fields that cost one upstream call each, and the paged ones whose items cost one each. */
const UPSTREAM_FIELDS = new Set(['status', 'brc20Token', 'transfers', 'etchings', 'bitcoinNode', 'deleteChainhook']);
const PAGED_FIELDS = new Set(['transfers', 'etchings']);
/** Root fields that may make many upstream calls: priced by what they will fetch at most. */
const CONNECTION_FIELDS = new Set(['etchingsConnection', 'transfersConnection']);
export const UPSTREAM_CALL_COST = 10;
const DEFAULT_PAGE = 20;

/** What one root field costs: see measureDocument(). */
export function fieldCost(field: FieldNode): number {
  const name = field.name.value;
  const argument = (argName: string) => field.arguments?.find((a) => a.name.value === argName)?.value;
  if (CONNECTION_FIELDS.has(name)) {
    const [first, last] = [argument('first'), argument('last')];
    const literal = (value: typeof first) => (value?.kind === Kind.INT ? Number(value.value) : undefined);
    const fromVariables = (first !== undefined && first.kind !== Kind.INT) || (last !== undefined && last.kind !== Kind.INT);
    return connectionCost({ first: literal(first), last: literal(last), fromVariables });
  }
  if (name === 'brc20Tokens') {
    // Priced as if `supply.holders` were asked (one call per ticker): the most it can cost.
    const tickers = argument('tickers');
    return brc20TokensCost(tickers?.kind === Kind.LIST ? tickers.values.length : undefined, true);
  }
  if (!UPSTREAM_FIELDS.has(field.name.value)) return 0;
  if (!PAGED_FIELDS.has(field.name.value)) return UPSTREAM_CALL_COST;
  const limit = field.arguments?.find((a) => a.name.value === 'limit')?.value;
  return UPSTREAM_CALL_COST + (!limit ? DEFAULT_PAGE : limit.kind === Kind.INT ? Math.max(0, Number(limit.value)) : MAX_LIMIT);
}
