// Compilations are charged to the client that causes them (COMPILES_PER_CLIENT_PER_MINUTE): a client
// sending new shapes (a new alias each time) gets them compiled up to its share of the minute, then
// runs them on graphql-js with the same answers, while another client's new shapes still compile.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { COMPILES_PER_CLIENT_PER_MINUTE } from '../../src/graphql/compiled-execution.js';
import { sampleData } from '../../src/sample/data.js';
import { executionsByEngine, startStack, type Stack } from '../harness.js';
import { toEtching } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  // Every request executes (no response fast path); clients are told apart by X-Forwarded-For.
  stack = await startStack({ RESPONSE_CACHE: 'off', TRUST_PROXY: '1' });
});
afterAll(() => stack.close());

const executions = () => executionsByEngine(stack);

/** A shape of its own (its alias), sent twice by `client`: the second sighting is the one that may compile. */
async function twice(alias: string, client: string) {
  const before = await executions();
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const { body } = await stack.graphql(`{ ${alias}: status { status } }`, undefined, { 'x-forwarded-for': client });
    answers.push(body);
  }
  const after = await executions();
  return { answers, compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback };
}

test("past its share of compilations a client's new shapes run on graphql-js, with the same answers; another client's still compile", async () => {
  const heavy = '203.0.113.7';
  const answered = (alias: string) => [{ data: { [alias]: { status: 'ready' } } }, { data: { [alias]: { status: 'ready' } } }];
  for (let i = 0; i < COMPILES_PER_CLIENT_PER_MINUTE; i++) {
    expect(await twice(`a${i}`, heavy)).toEqual({ answers: answered(`a${i}`), compiled: 1, fallback: 1 });
  }
  expect(await twice('past', heavy)).toEqual({ answers: answered('past'), compiled: 0, fallback: 2 });
  expect(await twice('other', '203.0.113.8')).toEqual({ answers: answered('other'), compiled: 1, fallback: 1 });
  // A shape compiled before runs compiled for the client past its share too: only compiling is charged.
  expect(await twice('a0', heavy)).toEqual({ answers: answered('a0'), compiled: 2, fallback: 0 });
});

test('a document of more than 1,000 fields, fragments expanded, is never compiled: it runs on graphql-js, with the same answer', async () => {
  // 32 spreads of a 32-field fragment under one etching: 1,026 fields expanded, within every query limit.
  const query = `{ etchings(limit: 1) { results { ${'...S '.repeat(32)}} } }
fragment S on RuneEtching { id runeId name spacedName number divisibility symbol turbo
  mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
  supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
  location { blockHash blockHeight txId txIndex vout output timestamp } }`;
  const before = await executions();
  const first = await stack.graphql(query, undefined, { 'x-forwarded-for': '203.0.113.9' });
  const second = await stack.graphql(query, undefined, { 'x-forwarded-for': '203.0.113.9' });
  const after = await executions();
  expect(first.body).toEqual({ data: { etchings: { results: [toEtching(sampleData.etchings[0]!)] } } });
  expect(second.body).toEqual(first.body);
  expect({ compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback }).toEqual({ compiled: 0, fallback: 2 });
});

test('a document that asks introspection is never compiled: it runs on graphql-js, with the same answer', async () => {
  const query = `{ __type(name: "Status") { name kind fields { name type { kind ofType { kind name ofType { kind name } } } } } }`;
  const before = await executions();
  const first = await stack.graphql(query, undefined, { 'x-forwarded-for': '203.0.113.10' });
  const second = await stack.graphql(query, undefined, { 'x-forwarded-for': '203.0.113.10' });
  const after = await executions();
  expect((first.body.data?.__type as { name: string }).name).toBe('Status');
  expect(second.body).toEqual(first.body);
  expect({ compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback }).toEqual({ compiled: 0, fallback: 2 });
});
