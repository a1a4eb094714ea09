/**
 * A compiled execution's result lets go of its fields once yoga has its text (compiled-execution.ts,
 * releasedOnceWritten): graphql-jit's `data` is old by the time a page lands, and what it still
 * pointed at was promoted with every answer. The answers themselves, compiled against interpreted,
 * are compared byte for byte by the operation suite in test/graphql/.
 */
import { buildSchema, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { expect, test } from 'vitest';
import { createCompiledExecution, type Engine } from '../../src/graphql/compiled-execution.js';

const schema = buildSchema(`
  type Etching { name: String!, supply: String! }
  type Query { etchings(offset: Int!): [Etching!]! }
`);
// A resolver that awaits, as an upstream call does.
schema.getQueryType()!.getFields().etchings!.resolve = async (_root, { offset }: { offset: number }) => [
  { name: `RUNE•${offset}`, supply: '21000000.00' },
];

type Written = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

test('once written, a compiled result keeps no field; its text is the whole answer', async () => {
  const engines: Engine[] = [];
  const { execute } = createCompiledExecution({ maxBytes: 1024 * 1024, mode: 'on', onExecution: (engine) => engines.push(engine) });
  const args = (offset: number): ExecutionArgs => ({
    schema,
    document: parse('query Page($offset: Int!) { etchings(offset: $offset) { name supply } }'),
    variableValues: { offset },
    contextValue: {},
  });
  // A document runs on graphql-js at its first sighting and is compiled at its second.
  const results: Written[] = [];
  for (const offset of [1, 2, 3]) results.push((await execute(args(offset))) as Written);
  expect(engines).toEqual(['fallback', 'compiled', 'compiled']);
  const compiled = results[2]!;
  expect(Object.keys(compiled)).toEqual(['data']);
  expect(compiled.stringify?.(compiled)).toBe('{"data":{"etchings":[{"name":"RUNE•3","supply":"21000000.00"}]}}');
  expect(compiled.data).toEqual({ etchings: undefined });
});
