// The rules merged per syntax kind on first use (merged-rules.ts) must say exactly what graphql-js's
// `validate` says with the rules as they are: the same errors, messages, locations and order, the
// same abort at maxErrors, and the same per-rule skipping (a rule returning false or BREAK).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { BREAK, GraphQLError, Kind, parse, specifiedRules, validate, type GraphQLFormattedError, type ValidationRule } from 'graphql';
import { expect, test } from 'vitest';
import { mergeRules } from '../../src/graphql/limits/merged-rules.js';
import { schema } from '../../src/graphql/schema/index.js';

const asJson = (errors: readonly GraphQLError[]) => errors.map((error) => error.toJSON());

function bothWays(text: string, rules: readonly ValidationRule[] = specifiedRules, maxErrors?: number) {
  const document = parse(text);
  const options = maxErrors === undefined ? undefined : { maxErrors };
  // graphql-js's own rules may throw (SingleFieldSubscriptionsRule on a directive argument of the
  // wrong type): then both ways must throw the same error.
  const run = (given: readonly ValidationRule[]) => {
    try {
      return asJson(validate(schema, document, given, options));
    } catch (error) {
      return { thrown: String(error) };
    }
  };
  return { expected: run(rules), merged: run([mergeRules(rules)]) };
}

/** The errors of a validation that did not throw. */
function listed(result: ReturnType<typeof bothWays>['expected']): GraphQLFormattedError[] {
  if (!Array.isArray(result)) throw new Error(`validation threw: ${result.thrown}`);
  return result;
}

const FRONTEND = ['frontend', 'overview'].map((name) => readFileSync(new URL(`../documents/${name}.graphql`, import.meta.url), 'utf8'));

test("the frontends' documents: valid both ways", () => {
  for (const text of FRONTEND) {
    const { expected, merged } = bothWays(text);
    expect(expected).toEqual([]);
    expect(merged).toEqual([]);
  }
});

const INVALID = [
  '{ nosuch }',
  '{ status }',
  '{ status { status nosuch } brc20Token { token { ticker } } }',
  '{ brc20Token(ticker: 1) { token { ticker } } }',
  'query ($t: String) { brc20Token(ticker: $t) { token { ticker } } }',
  'query ($t: String!, $u: Int) { brc20Token(ticker: $t) { token { ticker } } }',
  'query { brc20Token(ticker: $t) { token { ticker } } }',
  '{ ...F } fragment F on Query { ...G } fragment G on Query { status { status } } fragment H on Query { status { status } }',
  '{ ...Missing } fragment F on Nope { status { status } }',
  'query A { status { status } } query A { status { status } } { status { status } }',
  '{ a: status { status } a: etchings(limit: 1) { total } }',
  '{ a: brc20Token(ticker: "x") { token { ticker } } a: brc20Token(ticker: "y") { token { ticker } } }',
  '{ status @include(if: true) @include(if: false) { status } }',
  '{ status @nosuch { status } }',
  'query ($v: Boolean!) { status @skip(if: $v, if: $v) { status } }',
  'type T { a: Int } { status { status } }',
  'subscription { a: brc20Token(ticker: "x") { token { ticker } } b: status { status } }',
  '{ ... on Nope { status { status } } }',
  '{ etchings(limit: "x", limit: 2) { total } }',
];

test('documents with errors: the same errors, locations and order', () => {
  for (const text of INVALID) {
    const { expected, merged } = bothWays(text);
    expect(listed(expected).length, text).toBeGreaterThan(0);
    expect(merged, text).toEqual(expected);
  }
});

test('the abort at maxErrors comes at the same error', () => {
  const text = `{ ${Array.from({ length: 8 }, (_, i) => `f${i}: nosuch${i}`).join(' ')} }`;
  const { expected, merged } = bothWays(text, specifiedRules, 3);
  expect(listed(expected).at(-1)?.message).toBe('Too many validation errors, error limit reached. Validation aborted.');
  expect(merged).toEqual(expected);
});

/** Rules that skip subtrees (false) and stop (BREAK), reporting what they see, to test skipping. */
const probe =
  (name: string, stopAt: Kind, answer: false | typeof BREAK): ValidationRule =>
  (context) => ({
    enter(node) {
      if (node.kind === Kind.FIELD) context.reportError(new GraphQLError(`${name} enters ${node.name.value}`, { nodes: node }));
      return node.kind === stopAt ? answer : undefined;
    },
    leave(node) {
      if (node.kind === Kind.FIELD) context.reportError(new GraphQLError(`${name} leaves ${node.name.value}`, { nodes: node }));
    },
  });

test('a rule that skips a subtree or stops skips only itself', () => {
  const rules = [
    probe('skipper', Kind.SELECTION_SET, false),
    probe('stopper', Kind.INLINE_FRAGMENT, BREAK),
    () => ({ Field: { leave: () => false } }),
    ...specifiedRules,
  ];
  const text = '{ status { status ... on Status { chainTip { blockHeight } } } nosuch }';
  const { expected, merged } = bothWays(text, rules);
  expect(listed(expected).length).toBeGreaterThan(3);
  expect(merged).toEqual(expected);
});

// Random documents over the schema's root fields, some valid, most not, compared both ways.
const name = fc.constantFrom('status', 'chainTip', 'blockHeight', 'token', 'ticker', 'nosuch', 'etchings', 'total', 'brc20Token');
const argument = fc.constantFrom('', '(ticker: "ordi")', '(limit: 2)', '(limit: $v)', '(ticker: 1)', '(x: null)');
const directive = fc.constantFrom('', ' @include(if: true)', ' @skip(if: $b)', ' @nosuch', ' @include(if: 1)');
const selection: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? fc
        .tuple(fc.option(fc.constantFrom('a', 'b')), name, argument, directive)
        .map(([alias, n, a, d]) => `${alias ? `${alias}: ` : ''}${n}${a}${d}`)
    : fc.oneof(
        selection(1),
        fc
          .tuple(fc.option(fc.constantFrom('a', 'b')), name, argument, fc.array(selection(depth - 1), { minLength: 1, maxLength: 3 }))
          .map(([alias, n, a, children]) => `${alias ? `${alias}: ` : ''}${n}${a} { ${children.join(' ')} }`),
        fc.array(selection(depth - 1), { minLength: 1, maxLength: 2 }).map((children) => `... { ${children.join(' ')} }`),
        fc.constant('...F'),
      ),
);
const documentText = fc
  .tuple(
    fc.constantFrom('', 'query ($v: Int, $b: Boolean!) ', 'subscription ', 'query Q '),
    fc.array(selection(3), { minLength: 1, maxLength: 4 }),
    fc.option(fc.array(selection(2), { minLength: 1, maxLength: 2 })),
  )
  .map(([head, top, fragment]) => `${head}{ ${top.join(' ')} }${fragment ? ` fragment F on Query { ${fragment.join(' ')} }` : ''}`);

test('random documents: the same errors both ways', () => {
  fc.assert(
    fc.property(documentText, (text) => {
      const { expected, merged } = bothWays(text);
      expect(merged).toEqual(expected);
    }),
    { numRuns: 300 },
  );
});
