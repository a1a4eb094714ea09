/**
 * Policy lives on the field (src/graphql/schema/field-policy.ts): every root field declares its
 * upstream cost and its cacheability, and the limit walk and the HTTP caching read them from the
 * schema, not from a table of names. Pure: no ports.
 */
import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type GraphQLFieldConfig } from 'graphql';
import { expect, test } from 'vitest';
import { measureDocument } from '../../src/graphql/limits/measure.js';
import { isCacheableOperation } from '../../src/graphql/plugins/http-caching.js';
import { rootFieldPolicies, type FieldPolicy } from '../../src/graphql/schema/field-policy.js';
import { rootPolicies, schema } from '../../src/graphql/schema/index.js';

/** Each root type's fields with the policy their extensions hold (undefined where none). */
function declared(types: Array<GraphQLObjectType | null | undefined>) {
  return Object.fromEntries(
    types.map((type) => [
      type!.name,
      Object.fromEntries(Object.values(type!.getFields()).map((field) => [field.name, field.extensions.fieldPolicy])),
    ]),
  );
}

test('every root field of Query, Mutation and Subscription declares a cost and a cacheability', () => {
  const costs = ['none', 'call', 'page', 'connection', 'tickers', 'node', 'nodes'];
  const caches = ['public', 'private', 'none'];
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  for (const [type, fields] of Object.entries(declared(roots))) {
    for (const [field, policy] of Object.entries(fields)) {
      expect({ field: `${type}.${field}`, cost: costs.includes(policy?.cost ?? ''), cache: caches.includes(policy?.cache ?? '') }).toEqual({
        field: `${type}.${field}`,
        cost: true,
        cache: true,
      });
    }
  }
  // The declarations as they stand: what the cost walk and the caching priced before they were declared.
  expect(declared(roots)).toEqual({
    Query: {
      bitcoinNode: { cost: 'call', cache: 'private' },
      brc20Token: { cost: 'call', cache: 'public' },
      brc20Tokens: { cost: 'tickers', cache: 'public' },
      etchings: { cost: 'page', cache: 'public' },
      etchingsConnection: { cost: 'connection', cache: 'public' },
      node: { cost: 'node', cache: 'public' },
      nodes: { cost: 'nodes', cache: 'public' },
      status: { cost: 'call', cache: 'public' },
      transfers: { cost: 'page', cache: 'public' },
      transfersConnection: { cost: 'connection', cache: 'public' },
    },
    Mutation: { deleteChainhook: { cost: 'call', cache: 'none' } },
    Subscription: {
      brc20Token: { cost: 'call', cache: 'none' },
      etchingAdded: { cost: 'none', cache: 'none' },
      etchingAddedEdge: { cost: 'none', cache: 'none' },
      status: { cost: 'call', cache: 'none' },
    },
  });
});

/** A schema of one query field per entry: the policy it declares, or none. */
function querySchema(fields: Record<string, FieldPolicy | undefined>): GraphQLSchema {
  const config = (policy: FieldPolicy | undefined): GraphQLFieldConfig<unknown, unknown> => ({
    type: GraphQLString,
    ...(policy && { extensions: { fieldPolicy: policy } }),
  });
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: Object.fromEntries(Object.entries(fields).map(([name, policy]) => [name, config(policy)])),
  });
  return new GraphQLSchema({ query });
}

test('a root field without a policy stops start-up, named', () => {
  const schema = querySchema({ priced: { cost: 'call', cache: 'public' }, forgotten: undefined });
  expect(() => rootFieldPolicies(schema)).toThrow(
    new Error('Query.forgotten declares no policy: give it ...policy({ cost, cache }) (graphql/schema/field-policy.ts)'),
  );
});

test('the cost walk prices a field by the policy it declares, whatever its name', () => {
  const policies = rootFieldPolicies(
    querySchema({ lookup: { cost: 'call', cache: 'none' }, list: { cost: 'page', cache: 'none' }, local: { cost: 'none', cache: 'none' } }),
  );
  const measure = measureDocument(parse('{ lookup list(limit: 7) local a: lookup }'), policies);
  expect(measure).toEqual({
    operations: [{ depth: 1, fullDepth: 1, introspections: 0, cost: 10 + 17 + 0 + 10, answered: 4, variablePriced: false }],
    aliases: 1,
    directives: 0,
    comparisons: 4,
    cyclic: false,
  });
});

test("a result's fields: each root field's items times the fields below it, a fragment's (and its aliases) at every spread", () => {
  const policies = rootFieldPolicies(querySchema({ lookup: { cost: 'call', cache: 'none' }, list: { cost: 'page', cache: 'none' } }));
  const measured = (query: string) => {
    const { operations, aliases } = measureDocument(parse(query), policies);
    return { answered: operations.map((operation) => operation.answered), aliases };
  };
  expect([
    measured('{ list(limit: 7) { a b c } lookup }'),
    measured('{ list(limit: 7) { ...F x: c ...F } } fragment F on T { a y: b }'),
    measured('{ ...Q a: lookup { ...Q } } fragment Q on Query { list(limit: 3) { e: a b } }'),
  ]).toEqual([
    { answered: [1 + 7 * 3 + 1], aliases: 0 },
    // Below the list: x, and F's two fields at each of its two spreads; F's alias twice.
    { answered: [1 + 7 * (1 + 2 * 2)], aliases: 3 },
    // Q at root answers its list; Q below `a` adds its fields to a's item (one).
    { answered: [1 + 3 * 2 + (1 + 1 * 3)], aliases: 3 },
  ]);
});

test("each root field is priced by its operation's root type, or its fragment's type condition", () => {
  const cost = (query: string) => measureDocument(parse(query), rootPolicies).operations.map((operation) => operation.cost);
  expect([
    cost('{ status { status } brc20Token(ticker: "x") { token { id } } bitcoinNode(path: "p") }'),
    cost('{ transfers(block: 1, limit: 5) { total } etchings { total } etchingsConnection(first: 100) { totalCount } }'),
    cost('query ($n: Int!) { etchings(limit: $n) { total } brc20Tokens(tickers: ["a", "b"]) { token { id } } }'),
    cost('mutation { deleteChainhook(uuid: "u") { status } }'),
    cost('subscription { etchingAdded { id } } subscription S { status { status } }'),
    cost('{ ...F ...F } fragment F on Query { status { status } }'),
    cost('{ __typename unknown }'),
  ]).toEqual([[30], [10 + 5 + (10 + 20) + (10 * 3 + 100)], [10 + 60 + (10 * 2 + 2)], [10], [0, 10], [20], [0]]);
});

test('a variable prices its argument at the value the request gives, its default when none; unknown, at the most', () => {
  const query = parse(
    'query ($n: Int, $t: [String!]!) { etchings(limit: $n) { total } brc20Tokens(tickers: $t) { token { id } } etchingsConnection(first: $n) { totalCount } }',
  );
  const measured = (variables?: Record<string, unknown>) =>
    measureDocument(query, rootPolicies, variables).operations.map(({ cost, answered, variablePriced }) => ({
      cost,
      answered,
      variablePriced,
    }));
  expect([measured(), measured({ n: 5, t: ['a', 'b'] }), measured({ t: 'a' }), measured({ n: 'x', t: null })]).toEqual([
    // Unknown: 60 items a page, 50 tickers, the largest window (500 items, 10 pages).
    [{ cost: 10 + 60 + (10 * 50 + 50) + (10 * 10 + 500), answered: 3 + 60 + 50 * 2 + 500, variablePriced: true }],
    [{ cost: 10 + 5 + (10 * 2 + 2) + (10 * 2 + 5), answered: 3 + 5 + 2 * 2 + 5, variablePriced: true }],
    // None given: the fields' defaults (20 items); a single ticker is a list of one.
    [{ cost: 10 + 20 + (10 + 1) + (10 * 2 + 20), answered: 3 + 20 + 2 + 20, variablePriced: true }],
    // Values the fields' coercion refuses ('x' for an Int, null for a non-null list): the most.
    [{ cost: 10 + 60 + (10 * 50 + 50) + (10 * 10 + 500), answered: 3 + 60 + 50 * 2 + 500, variablePriced: true }],
  ]);
});

test('HTTP caching marks a query by the cacheability its fields declare, whatever their names', () => {
  const policies = rootFieldPolicies(querySchema({ open: { cost: 'call', cache: 'public' }, mine: { cost: 'call', cache: 'private' } }));
  expect(
    ['{ open }', '{ open __typename }', '{ open mine }', '{ status }'].map((query) =>
      isCacheableOperation(parse(query), undefined, policies),
    ),
  ).toEqual([true, true, false, false]);
});
