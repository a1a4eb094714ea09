// The vendored graphql-jit's patch (vendor/graphql-jit/README.md) and the schema pass that uses it
// (src/graphql/schema/inline-reads.ts): a field named to the compiler is read inline, never through
// its resolver, and answers exactly what graphql-js answers with the resolver, errors included.
import { execute, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, test } from 'vitest';
import { schema as satgateSchema } from '../../src/graphql/schema/index.js';

let resolverCalls = 0;
/** As Pothos exposes a property under another name, with the extension withInlineReads adds. */
const exposed = (property: string, extra: Record<string, unknown> = {}) => ({
  resolve: (parent: Record<string, unknown>) => {
    resolverCalls++;
    return parent[property];
  },
  extensions: { jitSourceProperty: property, ...extra },
});

const Terms = new GraphQLObjectType({
  name: 'Terms',
  fields: { heightStart: { type: GraphQLInt, ...exposed('height_start') } },
});
const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    spacedName: { type: new GraphQLNonNull(GraphQLString), ...exposed('spaced_name') },
    blockHash: { type: GraphQLString, ...exposed('block_hash') },
    count: { type: GraphQLInt, ...exposed('count') },
    mintTerms: { type: Terms, ...exposed('mint_terms') },
    // Not an identifier: the compiler must call the resolver.
    odd: { type: GraphQLString, ...exposed('odd-name') },
  },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      items: { type: new GraphQLNonNull(new GraphQLList(Item)), resolve: (_root, _args, context: { items: unknown[] }) => context.items },
    },
  }),
});

const DOCUMENT = parse('{ items { spacedName blockHash count mintTerms { heightStart } odd } }');
const ITEMS = [
  { spaced_name: 'A•B', block_hash: 'h', count: 7, mint_terms: { height_start: 840000 }, 'odd-name': 'x' },
  { spaced_name: 'C', block_hash: null, count: 1, mint_terms: null, 'odd-name': null },
  // Errors where graphql-js reports them: an Error as a value, a value the scalar refuses, and then a
  // null for a non-null leaf, alone in its item (graphql-js stops at it, graphql-jit does not).
  {
    spaced_name: 'D',
    block_hash: new Error('no hash here'),
    count: 'many',
    mint_terms: { height_start: new Error('later') },
    'odd-name': 'y',
  },
  { spaced_name: null, block_hash: 'h', count: 1, mint_terms: null, 'odd-name': null },
];

function run(items: unknown[]) {
  const compiled = compileQuery(schema, DOCUMENT);
  if (!isCompiledQuery(compiled)) throw new Error('not compiled');
  resolverCalls = 0;
  const jit = compiled.query(undefined, { items }, {});
  const jitCalls = resolverCalls;
  const js = execute({ schema, document: DOCUMENT, contextValue: { items } });
  return { jit: JSON.parse(JSON.stringify(jit)), js: JSON.parse(JSON.stringify(js)), jitCalls };
}

describe('graphql-jit reads a field named to it inline', () => {
  test('values and nulls: the answer of graphql-js, with only the non-identifier field resolved', () => {
    const { jit, js, jitCalls } = run(ITEMS.slice(0, 2));
    expect(jit).toEqual(js);
    expect(jit).toEqual({
      data: {
        items: [
          { spacedName: 'A•B', blockHash: 'h', count: 7, mintTerms: { heightStart: 840000 }, odd: 'x' },
          { spacedName: 'C', blockHash: null, count: 1, mintTerms: null, odd: null },
        ],
      },
    });
    // `odd` once per item; no other resolver ran.
    expect(jitCalls).toBe(2);
  });

  test('errors carry the message, locations and path graphql-js gives', () => {
    const { jit, js } = run(ITEMS.slice(2));
    expect(jit.data).toEqual(js.data);
    expect(jit.data).toEqual({
      items: [{ spacedName: 'D', blockHash: null, count: null, mintTerms: { heightStart: null }, odd: 'y' }, null],
    });
    const byPath = (errors: Array<{ path: unknown[]; message: string }>) =>
      [...errors].sort((a, b) => String(a.path).localeCompare(String(b.path)));
    expect(byPath(jit.errors)).toEqual(byPath(js.errors));
    expect(byPath(jit.errors).map((error) => error.message)).toEqual([
      'no hash here',
      'Int cannot represent non-integer value: "many"',
      'later',
      'Cannot return null for non-nullable field Item.spacedName.',
    ]);
  });
});

describe("satgate's schema", () => {
  const fieldOf = (coordinate: string) => {
    const [type, field] = coordinate.split('.') as [string, string];
    return (satgateSchema.getType(type) as GraphQLObjectType).getFields()[field]!;
  };

  test('names the renamed exposures to the compiler', () => {
    expect(fieldOf('RuneEtching.spacedName').extensions.jitSourceProperty).toBe('spaced_name');
    expect(fieldOf('RuneSupply.totalMints').extensions.jitSourceProperty).toBe('total_mints');
    expect(fieldOf('RuneEtching.mintTerms').extensions.jitSourceProperty).toBe('mint_terms');
  });

  test('leaves the fields a source may lack, and computed fields, to their resolvers', () => {
    for (const coordinate of [
      'RuneEtching.turbo',
      'RuneSupply.totalBurns',
      'RuneLocation.blockHash',
      'Brc20Token.selfMint',
      'InscriptionLocation.txId',
      'RuneLocation.timestamp',
      'RuneEtching.id',
    ]) {
      expect(fieldOf(coordinate).extensions.jitSourceProperty, coordinate).toBeUndefined();
      expect(fieldOf(coordinate).resolve, coordinate).toBeTypeOf('function');
    }
  });
});
