// Lint for defects the type checker lets through, not for style: promises
// nobody awaits, `any` leaking out of parsed input, switches that miss a case,
// catches that swallow without saying why. Type-aware, so it needs the
// TypeScript JS API, which TypeScript 7 does not ship: package.json's
// `typescript` is the 6.0 API (@typescript/typescript6), and the compiler that
// typecheck and the build run is `typescript7` (README "Development").
import tseslint from 'typescript-eslint';

// Everywhere linted: src/, the tests and the scripts.
const everywhere = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  // Only where it changes behaviour: a promise returned from inside `try` escapes its catch.
  '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
  // An empty catch must say in a comment why swallowing is right there.
  'no-empty': ['error', { allowEmptyCatch: false }],
  'no-useless-catch': 'error',
  'preserve-caught-error': 'error',
  'no-unsafe-finally': 'error',
  'no-async-promise-executor': 'error',
  'no-control-regex': 'error',
};

export default [
  { ignores: ['dist/', 'coverage/', 'reports/', '.cache/', '.stryker-tmp/', '.bench-cm-*/', 'examples/', 'bench/', 'test/fixtures/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.mjs'],
    languageOptions: {
      parser: tseslint.parser,
      // scripts/ has its own tsconfig (allowJs) so its .mjs files get types too.
      parserOptions: {
        // These scripts have their own .d.mts for the tests, which hides them from the scripts' project.
        projectService: { allowDefaultProject: ['scripts/pg-cluster.mjs', 'scripts/layers.mjs', 'scripts/agents/install.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: everywhere,
  },
  {
    // The product's code: `any` from parsed input must be checked before use.
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/use-unknown-in-catch-callback-variable': 'error',
    },
  },
];
