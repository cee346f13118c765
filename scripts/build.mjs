// Bundles the CLI (dist/cli.js), the in-process API (dist/api.js) and the
// detached worker `fire` starts (dist/worker.js) into dist/ with esbuild,
// sharing chunks. Code splitting keeps what `fire` does not always need (yaml,
// zod, the other commands) in chunks that load only on demand; see README
// "Performance" for the measurements behind this. `fire`'s fast path and the
// full program are built once more, each as one CommonJS file
// (dist/fire-path.cjs, dist/cli.cjs), which bin/chrys-hooks compiles with a V8
// code cache through its small loader (dist/start.cjs); dist/cli.js is what it
// falls back to. The API's type declarations go to dist/types/ (tsc).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

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

// graphile-worker's config search (cosmiconfig) requires TypeScript to read a
// .ts config file, which the drain never asks for (it passes its options), and
// esbuild would bundle all 9 MB of it into the chunk every drain loads: its
// source stays in the heap and every hook's fork copies it.
const noTypescript = {
  name: 'no-typescript',
  setup(b) {
    b.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', namespace: 'no-typescript' }));
    b.onLoad({ filter: /.*/, namespace: 'no-typescript' }, () => ({ contents: "throw new Error('chrys-hooks does not load TypeScript config files');", loader: 'js' }));
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
  plugins: [builtinsByRequire, noTypescript],
  // pg's optional native binding: required only when asked for (pg.native), never here.
  external: ['pg-native'],
});

// The fire path and the full program as one script each: Node 20's ESM loader
// reads the chunks above one wave of imports at a time, and an ES module
// cannot take a V8 code cache. A `fire` whose arguments need the full program
// (--help, an option the fast parser cannot read) loads both: the fire path
// hands over before it has done anything (fire-path.ts), so no state is shared.
// Modules it reaches only through import() stay uncompiled wrappers until
// called, so the YAML parser and zod still load only when a file needs them.
const firePath = new URL('../dist/fire-path.cjs', import.meta.url);
const cliBundle = new URL('../dist/cli.cjs', import.meta.url);
const cjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  // A quarter less to read and hold at every start (385 to 305 KB for the fire path): -3 % of fire's CPU, paired.
  minifyWhitespace: true,
  legalComments: 'none',
  // import.meta.url as a getter: building the URL loads node:url's URL class, a cost
  // (~0.3 ms) every start paid in start.cjs though only init and the worker launch read it.
  define: { __VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__chrysModule.url' },
  banner: { js: "const __chrysModule = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  logLevel: 'warning',
};
// The loader the bin requires: small, and compiled without a cache.
await build({ ...cjs, entryPoints: ['src/cli/start.ts'], outfile: new URL('../dist/start.cjs', import.meta.url).pathname });
// The YAML parsers and zod are bundled apart (dist/cold/), required only by the
// modules that parse a file: a firing with no hooks files never reads them,
// and the fire path's code cache holds only what firings run. They are whole
// libraries, so no module state or class is shared across the files. zod's
// file holds only the parts the schema imports (src/core/zod.ts), tree-shaken
// from its ES modules: 38 KB against 672 KB for the whole of zod/mini.
const COLD = { yaml: 'yaml', 'js-yaml': 'js-yaml', pg: 'pg', 'graphile-worker': 'graphile-worker' };
await build({ ...cjs, entryPoints: ['src/core/zod.ts'], outfile: new URL('../dist/cold/zod.cjs', import.meta.url).pathname });
for (const [pkgName, file] of Object.entries(COLD)) {
  // graphile-worker shares the one driver in cold/pg.cjs (the outbox hands it its pool).
  const sharePg = { name: 'share-pg', setup: (b) => b.onResolve({ filter: /^pg$/ }, () => (pkgName === 'pg' ? undefined : { path: './pg.cjs', external: true })) };
  await build({ ...cjs, stdin: { contents: `module.exports = require(${JSON.stringify(pkgName)});`, resolveDir: '.', loader: 'js' }, outfile: new URL(`../dist/cold/${file}.cjs`, import.meta.url).pathname, external: ['pg-native'], plugins: [sharePg, noTypescript] });
}
const coldApart = {
  name: 'cold-apart',
  setup(b) {
    // A stub module that requires the cold file, so import() of it becomes a require, not a
    // real dynamic import (which a vm.Script could not resolve).
    b.onResolve({ filter: /^(yaml|js-yaml|pg|graphile-worker)$/ }, (args) => ({ path: args.path, namespace: 'cold' }));
    b.onResolve({ filter: /^\.\/zod\.js$/ }, (args) => (args.importer.endsWith('/src/core/schema.ts') ? { path: 'zod', namespace: 'cold' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'cold' }, (args) => ({ contents: `module.exports = require('./cold/${COLD[args.path] ?? args.path}.cjs');`, loader: 'js' }));
    b.onResolve({ filter: /^zod\/mini$/ }, () => ({ errors: [{ text: 'zod/mini is bundled apart: import the parts the program needs from src/core/zod.ts' }] }));
    b.onResolve({ filter: /^\.\/cold\// }, (args) => ({ path: args.path, external: true }));
  },
};
await build({ ...cjs, entryPoints: ['src/cli/fire-path.ts'], outfile: firePath.pathname, plugins: [coldApart] });
await build({ ...cjs, entryPoints: ['src/cli/main.ts'], outfile: cliBundle.pathname, plugins: [coldApart] });
// The first line of each file that takes a code cache names its content: the
// cache of one build never meets another's (src/cli/code-cache.ts).
const keyed = (file, what) => {
  const body = readFileSync(file, 'utf8');
  writeFileSync(file, `// chrys-hooks ${what} ${createHash('sha256').update(body).digest('hex').slice(0, 16)}\n${body}`);
};
keyed(firePath, 'fire path');
keyed(cliBundle, 'cli');
for (const file of [...Object.values(COLD), 'zod']) keyed(new URL(`../dist/cold/${file}.cjs`, import.meta.url), 'cold file');

// TypeScript 7's tsc (package.json's `typescript` is the 6.0 API, which only the linter uses).
execFileSync(process.execPath, [new URL('../node_modules/typescript7/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.api.json'], { stdio: 'inherit' });
