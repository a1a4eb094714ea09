import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for the dependencies (Pothos, yoga); make the test files
    // use the same one, or graphql-js sees two copies of itself.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    // After each file: only documented error codes were sent, and no process warning was emitted.
    setupFiles: ['test/guards.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Each file starts its own sample upstream and gateway on ephemeral ports: files run in parallel.
    pool: 'forks',
    // The suites wait on timers and sockets more than they compute: vitest's default (one fork less
    // than the cores) ran one file at a time on CI's two cores, with the CPU 40% busy and 8 minutes
    // gone. Four forks there take under 4 minutes.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    // The memory check of the fault suite collects garbage before it measures.
    execArgv: ['--expose-gc'],
    projects: [
      // Each project names its files (an `include` here would be merged into the project's own).
      // Pure modules: no ports, no processes; `npm run test:unit` runs them alone in seconds.
      // With them, the vendored package's own upstream tests (vendor/whatwg-node-promise-helpers/README.md).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'vendor/*/tests/*.spec.ts'] } },
      // The suites that drive the real gateway over HTTP, in folders that mirror src/.
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', '**/node_modules/**'] } },
      // The suites that answer GraphQL over HTTP a second time with the response fast path
      // off: both paths keep the contract (a test about the fast path itself skips there). The
      // fuzz and abuse suites, half this project's time, are left out; they pass with the path off
      // too: `TEST_RESPONSE_CACHE=off npx vitest run --project default test/graphql`.
      {
        extends: true,
        test: {
          name: 'response-cache-off',
          include: ['test/graphql/**/*.test.ts', 'test/frontend/**/*.test.ts', 'test/clients/**/*.test.ts'],
          exclude: ['test/graphql/fuzz.test.ts', 'test/graphql/abuse.test.ts'],
          env: { TEST_RESPONSE_CACHE: 'off' },
        },
      },
    ],
  },
});
