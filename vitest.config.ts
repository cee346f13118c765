import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['test/agents/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    globalSetup: ['test/global-setup.ts'],
    projects: [
      // Unit tests share no process state (no chdir, umask or exit; each thread has its own process.env),
      // and worker threads start faster than forks.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads' } },
      // End-to-end tests spawn, signal and wait on real processes: a fork each.
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', 'test/agents/**', '**/node_modules/**'], pool: 'forks' } },
    ],
  },
});
