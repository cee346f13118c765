// Bundles the CLI into dist/ with esbuild. Code splitting keeps what `fire`
// does not always need (yaml, zod, the other commands) in chunks that load
// only on demand; see README "Start-up" for the measurements behind this.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/index.ts' },
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
});
