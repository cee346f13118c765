// Mutation testing of the logic that unit tests cover (`npm run mutation`).
// Not part of `npm test`: a full run takes many minutes on two cores.
// Pinned to Stryker 9: Stryker 10 needs Node 22, and this project supports Node 20.
// scripts/mutation.mjs checks the score of each folder against the threshold.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.unit.config.ts' },
  mutate: ['src/base/**/*.ts', 'src/core/**/*.ts', 'src/run/**/*.ts', 'src/outbox/**/*.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  concurrency: 2,
  timeoutMS: 10_000,
  // Stryker rewrites tsconfig.json through the TypeScript JS API, which TypeScript 7
  // no longer has; our tsconfig has no `extends` or references to rewrite, so point
  // the rewrite at a file that does not exist and it is skipped.
  tsconfigFile: 'tsconfig.stryker-skip.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
