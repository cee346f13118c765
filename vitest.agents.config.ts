import { defineConfig } from 'vitest/config';

// The real-agent suite: slow, needs the agent CLIs that
// scripts/agents/install.mjs put under .cache/agents/. Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/agents/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
  },
});
