import './test/test-env.js';
import { defineConfig } from 'vitest/config';

// The unit tests alone: what mutation testing runs against each mutant.
// They import src/ directly and never need the built binary.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    globalSetup: ['test/temp-root.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
