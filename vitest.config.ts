import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Each file starts its own sample upstream on 127.0.0.1:0, so files run in parallel safely.
    pool: 'forks',
  },
});
