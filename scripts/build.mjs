// Bundles the CLI (dist/cli.js), the in-process API (dist/api.js) and the
// detached worker `fire` starts (dist/worker.js) into dist/ with esbuild,
// sharing chunks. Code splitting keeps what `fire` does not always need (yaml,
// zod, the other commands) in chunks that load only on demand; see README
// "Performance" for the measurements behind this. The API's type declarations
// go to dist/types/ (tsc).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

// Node's built-in modules through require() instead of import: an ESM import
// of a built-in builds a facade that reads every export, which loads lazy
// parts (node:fs's streams) the hot path never uses. ~8 ms of `fire`
// (measured, README "Performance").
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/index.ts', api: 'src/api/index.ts', worker: 'src/cli/worker-main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  minifySyntax: true,
  legalComments: 'none',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // commander and proper-lockfile are CommonJS; give their require() a real one.
  banner: { js: "import { createRequire as __chrysCreateRequire } from 'node:module'; const require = __chrysCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [builtinsByRequire],
});
execFileSync(process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.api.json'], { stdio: 'inherit' });
