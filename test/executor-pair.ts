// Issue 27's "the compiled and interpreted executors give byte-identical answers": a stack that
// compiles every document from its first sighting (COMPILED_EXECUTION=eager) and a twin, on a
// sample of its own, that runs every operation on graphql-js. A suite sends each request to both
// and gets the compiled answer once the two are the same bytes.
import { expect } from 'vitest';
import type { Fault, SampleOptions, SampleUpstream } from '../src/sample/server.js';
import { executionsByEngine, startStack, type GraphQLBody, type Stack } from './harness.js';

export interface ExecutorPair {
  /** The stack under test: its sample's log and faults are the suite's. */
  stack: Stack;
  /** The graphql-js twin. */
  twin: Stack;
  /** POSTs to both (one request id for both, since masked errors name it); the compiled answer. */
  graphql(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: GraphQLBody }>;
  /** What each has run so far, by engine: the stack's (`compiled`) and the twin's (`reference`). */
  executions(): Promise<{ compiled: Executions; reference: Executions }>;
  /** A fault for both samples. */
  inject(fault: Fault): void;
  reset(): void;
  close(): Promise<void>;
}

type Executions = Awaited<ReturnType<typeof executionsByEngine>>;

let requests = 0;

export async function startExecutorPair(
  env: (sample: SampleUpstream) => Record<string, string> = () => ({}),
  sampleOptions: SampleOptions = {},
): Promise<ExecutorPair> {
  const withExecution = (mode: 'eager' | 'off') => startStack((sample) => ({ ...env(sample), COMPILED_EXECUTION: mode }), sampleOptions);
  const [stack, twin] = await Promise.all([withExecution('eager'), withExecution('off')]);
  return {
    stack,
    twin,
    async graphql(query, variables, headers) {
      const sent = { 'x-request-id': `compared-${++requests}`, ...headers };
      const [compiled, reference] = await Promise.all([
        stack.graphqlText(query, variables, sent),
        twin.graphqlText(query, variables, sent),
      ]);
      expect(compiled, 'the compiled answer is the graphql-js one, byte for byte').toEqual(reference);
      return { status: compiled.status, body: JSON.parse(compiled.text) as GraphQLBody };
    },
    async executions() {
      const [compiled, reference] = await Promise.all([executionsByEngine(stack), executionsByEngine(twin)]);
      return { compiled, reference };
    },
    inject(fault) {
      stack.sample.inject(fault);
      twin.sample.inject(fault);
    },
    reset() {
      stack.sample.reset();
      twin.sample.reset();
    },
    close: async () => void (await Promise.all([stack.close(), twin.close()])),
  };
}
