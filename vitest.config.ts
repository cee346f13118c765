import './test/test-env.js';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit tests that need a process of their own, not a thread shared with other files:
// a module mocked for the module under test (node:fs for atomic-write, regular-file and
// file-job-durability, the outbox store for file-backend; a module another file loaded
// unmocked would be reused), module state that outlives the file (live,
// spawn: stopEverything() kills every group tracked in this process; withheld-env: a
// variable withheld stays withheld), and process groups started, signalled and reaped
// (process-group, run-job, runtime-tree, session-drain, detached).
const OWN_PROCESS = [
  'test/unit/atomic-write.test.ts',
  'test/unit/file-job-durability.test.ts',
  'test/unit/file-backend.test.ts',
  'test/unit/regular-file.test.ts',
  'test/unit/live.test.ts',
  'test/unit/spawn.test.ts',
  'test/unit/spawn-helper.test.ts',
  'test/unit/withheld-env.test.ts',
  'test/unit/process-group.test.ts',
  'test/unit/run-job.test.ts',
  'test/unit/runtime-tree.test.ts',
  'test/unit/session-drain.test.ts',
  'test/unit/detached.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/agents/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    globalSetup: ['test/temp-root.ts', 'test/global-setup.ts'],
    // Twice the cores: most end-to-end tests wait on child processes (hooks, drains, a
    // database), not on the CPU.
    maxWorkers: 2 * availableParallelism(),
    projects: [
      // The other unit tests share no process state (no chdir, umask or exit; each thread has its own
      // process.env, and what a test changes it puts back), so a thread runs file after file without
      // starting afresh; worker threads start faster than forks.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [...OWN_PROCESS, 'test/agents/**', '**/node_modules/**'], pool: 'threads', isolate: false } },
      { extends: true, test: { name: 'unit-own-process', include: OWN_PROCESS, pool: 'forks', isolate: true } },
      // End-to-end tests spawn, signal and wait on real processes: in forks, each reused file after
      // file (their state is in their sandboxes, not in the test process).
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', 'test/agents/**', '**/node_modules/**'], pool: 'forks', isolate: false } },
    ],
  },
});
