// hoistLiterals (pure, no ports): what reaches graphql-jit holds no literal of the client's (only
// variables, and `null` as every variable's default), and graphql-js gives the hoisted document
// with its values the same answer as the client's document. The satgate schema has no input
// objects or enums, so a schema of its own covers them here.
import fc from 'fast-check';
import {
  buildSchema,
  execute,
  Kind,
  parse,
  print,
  valueFromASTUntyped,
  visit,
  type ASTNode,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, test } from 'vitest';
import { hoistLiterals } from '../../src/graphql/hoist-literals.js';

const schema = buildSchema(`
  scalar JSON
  enum Color { RED GREEN }
  input Inner { s: String, l: [Int!] }
  input Outer { inner: Inner, inners: [Inner!], color: Color = RED, n: Int! = 7 }
  type Query {
    echo(s: String, i: Int, f: Float, id: ID, b: Boolean, e: Color, l: [String], ll: [[Int]], o: Outer, os: [Outer], j: JSON): JSON
    nested: Query
  }
`);
// Every field answers its arguments, as graphql-js coerced them.
const rootValue = { echo: (args: unknown) => args, nested: () => rootValue };

/** The values of `node` that are literals, as `kind:printed` (a variable's default is the only place for one). */
function literalsIn(node: ASTNode): string[] {
  const found: string[] = [];
  const literal = (value: ASTNode) => found.push(`${value.kind}:${print(value)}`);
  visit(node, {
    VariableDefinition: () => false, // visited below, on its own
    Argument: (argument) => {
      visit(argument.value, {
        enter: (value) =>
          void (
            value.kind !== Kind.VARIABLE &&
            value.kind !== Kind.LIST &&
            value.kind !== Kind.OBJECT &&
            value.kind !== Kind.OBJECT_FIELD &&
            value.kind !== Kind.NAME &&
            literal(value)
          ),
      });
      return false;
    },
  });
  visit(node, {
    VariableDefinition: (definition) =>
      void (definition.defaultValue && definition.defaultValue.kind !== Kind.NULL && literal(definition.defaultValue)),
  });
  return found;
}

/** The document a shape stands for: its text, with the hoisted definitions added to its (only) operation. */
function fromShape(shape: string): string {
  const [, definitions, ...lines] = shape.split('\n');
  const document = parse(lines.join('\n'));
  const [operation, ...rest] = document.definitions as [OperationDefinitionNode, ...DocumentNode['definitions']];
  const added = definitions
    ? ((parse(`query(${definitions}) { __typename }`).definitions[0] as OperationDefinitionNode).variableDefinitions ?? [])
    : [];
  return print({
    ...document,
    definitions: [{ ...operation, variableDefinitions: [...(operation.variableDefinitions ?? []), ...added] }, ...rest],
  });
}

function hoisted(query: string, operationName?: string) {
  const result = hoistLiterals(schema, parse(query), operationName);
  if (!result) throw new Error('not hoisted');
  return result;
}

/**
 * graphql-js's answer for the client's document, and for the hoisted one with its values and, as
 * compiled-execution.ts sends them, the omitted variables' defaults.
 */
async function bothAnswers(query: string) {
  const document = parse(query);
  const result = hoistLiterals(schema, document);
  if (!result) throw new Error('not hoisted');
  const defaults: Record<string, unknown> = {};
  for (const definition of (document.definitions[0] as OperationDefinitionNode).variableDefinitions ?? []) {
    if (definition.defaultValue) defaults[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  const original = await execute({ schema, document, rootValue });
  const fromHoisted = await execute({ schema, document: result.document, rootValue, variableValues: { ...defaults, ...result.values } });
  return { original: JSON.parse(JSON.stringify(original)), fromHoisted: JSON.parse(JSON.stringify(fromHoisted)) };
}

describe('hoistLiterals', () => {
  test('every literal argument becomes a variable of its position type, defaults become null, the rest is kept', () => {
    const query = `query Q($v: Int = 5, $w: String) {
      a: echo(s: "x", i: $v, e: GREEN, l: ["p", $w, null], o: { inner: { s: "y", l: [1, $v] }, color: RED }) @include(if: true)
      ...F
    }
    fragment F on Query { nested { echo(f: 1.5, ll: [[1], [$v]]) @skip(if: false) } }`;
    const document = parse(query);
    const result = hoistLiterals(schema, document, 'Q');
    if (!result) throw new Error('not hoisted');
    expect(result.values).toEqual({
      __literal0: 'x',
      __literal1: 'GREEN',
      __literal2: 'p',
      __literal3: null,
      __literal4: 1,
      __literal5: 'y',
      __literal6: 'RED',
      __literal7: true,
      __literal8: 1.5,
      __literal9: [1],
      __literal10: false,
    });
    expect(print(result.document)).toBe(
      [
        'query Q($v: Int = null, $w: String, $__literal0: String, $__literal1: Color, $__literal2: String, $__literal3: String, $__literal4: Int!, $__literal5: String, $__literal6: Color, $__literal7: Boolean!, $__literal8: Float, $__literal9: [Int], $__literal10: Boolean!) {',
        '  a: echo(',
        '    s: $__literal0',
        '    i: $v',
        '    e: $__literal1',
        '    l: [$__literal2, $w, $__literal3]',
        '    o: {inner: {s: $__literal5, l: [$__literal4, $v]}, color: $__literal6}',
        '  ) @include(if: $__literal7)',
        '  ...F',
        '}',
        '',
        'fragment F on Query {',
        '  nested {',
        '    echo(f: $__literal8, ll: [$__literal9, [$v]]) @skip(if: $__literal10)',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(literalsIn(result.document)).toEqual([]);
    expect(fromShape(result.shape)).toBe(print(result.document));
    // The hoisted nodes keep the client's locations: errors still point into its document.
    const field = (result.document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0];
    expect(field?.loc?.start).toBe(query.indexOf('a: echo'));
    // Its field nodes are its own: graphql-jit writes onto them.
    expect(field).not.toBe((document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0]);
  });

  test('documents that differ only in literals and defaults share a shape; values differ', () => {
    const ordi = hoisted('{ echo(s: "ordi") }');
    const pepe = hoisted('{ echo(s: """pepe, a longer one""") }');
    expect(pepe.shape).toBe(ordi.shape);
    expect(ordi.shape).toBe('\n$__literal0: String\n{ echo(s: $__literal0) }');
    expect([ordi.values, pepe.values]).toEqual([{ __literal0: 'ordi' }, { __literal0: 'pepe, a longer one' }]);
    expect(hoisted('query($v: Int = 1) { echo(i: $v) }').shape).toBe(hoisted('query($v: Int = 2) { echo(i: $v) }').shape);
    expect(hoisted('{ echo(l: ["a", "b"]) }').shape).toBe(hoisted('{ echo(l: "c") }').shape);
    // A different argument, alias, selection or operation is a different shape.
    expect(hoisted('{ echo(i: 1) }').shape).not.toBe(hoisted('{ echo(f: 1) }').shape);
    expect(hoisted('{ echo(s: "x") }').shape).not.toBe(hoisted('{ a: echo(s: "x") }').shape);
    const twoOperations = 'query A { echo(s: "x") } query B { echo(s: "x") }';
    expect(hoisted(twoOperations, 'A').shape).not.toBe(hoisted(twoOperations, 'B').shape);
  });

  test("the names stay clear of the document's own variables; other operations are left out", () => {
    const result = hoisted('query A($__literal0: Int, $__literal_x: Int) { echo(i: $__literal0, s: "x") } query B { echo(s: "y") }', 'A');
    expect(result.values).toEqual({ __literal__0: 'x' });
    expect(result.document.definitions).toHaveLength(1);
  });

  test.each([
    ['a custom scalar holding a variable', 'query($v: String) { echo(j: { a: $v, b: "x" }) }'],
    ['an ID literal a variable would round', '{ echo(id: 12345678901234567890) }'],
    ['an unknown argument', '{ echo(nope: "x") }'],
    ['several operations and no name', 'query A { echo(s: "x") } query B { echo(s: "y") }'],
  ])('%s hoists nothing: the document runs on graphql-js', (_name, query) => {
    expect(hoistLiterals(schema, parse(query))).toBeUndefined();
  });

  test('a literal in a position graphql-js coerces alike is kept by value (ID from an Int, a list from one item)', async () => {
    expect(await bothAnswers('{ echo(id: 12, l: "one", os: { n: 1 }, ll: 3) }')).toEqual({
      original: { data: { echo: { id: '12', l: ['one'], os: [{ n: 1, color: 'RED' }], ll: [[3]] } } },
      fromHoisted: { data: { echo: { id: '12', l: ['one'], os: [{ n: 1, color: 'RED' }], ll: [[3]] } } },
    });
  });

  test('any literal in any position: no literal reaches the hoisted document, and graphql-js answers both alike', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d(globalThis.hoistFuzz=1)',
        '__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8',
      ),
    );
    const str = text.map((s) => JSON.stringify(s));
    const int = fc.integer().map(String);
    const literalFor: Record<string, fc.Arbitrary<string>> = {
      s: str,
      i: int,
      f: fc.oneof(
        int,
        fc
          .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.nat(999), fc.constantFrom('', 'e3', 'E-2', 'e+300'))
          .map(([a, b, e]) => `${a}.${b}${e}`),
      ),
      id: fc.oneof(str, fc.integer({ min: -1e6, max: 1e6 }).map(String)),
      b: fc.constantFrom('true', 'false'),
      e: fc.constantFrom('RED', 'GREEN'),
      l: fc.oneof(
        str,
        fc.array(fc.oneof(str, fc.constant('null'), fc.constant('$s')), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
      ),
      ll: fc
        .array(
          fc.array(fc.oneof(int, fc.constant('$i')), { maxLength: 2 }).map((items) => `[${items.join(' ')}]`),
          { maxLength: 2 },
        )
        .map((items) => `[${items.join(' ')}]`),
      o: fc
        .tuple(str, fc.oneof(int, fc.constant('$i')), fc.constantFrom('RED', 'GREEN'))
        .map(([s, n, color]) => `{ inner: { s: ${s}, l: [${n}] }, color: ${color}, n: ${n === '$i' ? 1 : n} }`),
      j: fc.oneof(str, int, fc.constant('{ a: [1, "x"], b: { c: null } }')),
    };
    const argument = fc.constantFrom(...Object.keys(literalFor)).chain((name) => literalFor[name]!.map((value) => `${name}: ${value}`));
    const document = fc
      .tuple(fc.uniqueArray(argument, { maxLength: 4, selector: (a) => a.split(':')[0] }), fc.boolean(), fc.boolean())
      .map(([args, inFragment, skipped]) => {
        const field = `echo${args.length ? `(${args.join(', ')})` : ''} @skip(if: ${skipped})`;
        return inFragment
          ? `query($s: String = "d", $i: Int = 2) { nested { ...F } }\nfragment F on Query { ${field} }`
          : `query($s: String = "d", $i: Int = 2) { ${field} }`;
      });
    await fc.assert(
      fc.asyncProperty(document, async (query) => {
        const result = hoistLiterals(schema, parse(query));
        if (!result) throw new Error(`not hoisted: ${query}`);
        expect(literalsIn(result.document)).toEqual([]);
        // The shape stands for the hoisted document: equal shapes compile alike.
        expect(fromShape(result.shape)).toBe(print(result.document));
        const { original, fromHoisted } = await bothAnswers(query);
        expect(fromHoisted).toEqual(original);
        expect((globalThis as { hoistFuzz?: number }).hoistFuzz).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  test('a parsed document without locations works too', () => {
    const document: DocumentNode = parse('{ echo(s: "x") }', { noLocation: true });
    const result = hoistLiterals(schema, document);
    expect(result && { values: result.values, shape: result.shape }).toEqual({
      values: { __literal0: 'x' },
      shape: 'print\nquery ($__literal0: String) {\n  echo(s: $__literal0)\n}',
    });
  });
});
