// `npm run generate`: writes the JSON Schema, completions and man page from
// their single sources (see src/cli/generate.ts), and fills the generated
// regions of README.md and docs/*.md (see src/cli/docs.ts).
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'chrys-generate-'));
const out = join(dir, 'generate.mjs');
const docsOut = join(dir, 'docs.mjs');
await build({ entryPoints: ['src/cli/generate.ts'], outfile: out, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
await build({ entryPoints: ['src/cli/docs.ts'], outfile: docsOut, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
const { generatedFiles } = await import(pathToFileURL(out).href);
const { fillRegions } = await import(pathToFileURL(docsOut).href);
for (const [path, content] of Object.entries(generatedFiles(pkg.version))) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}
for (const path of ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
  const text = readFileSync(path, 'utf8');
  const filled = fillRegions(text);
  if (filled !== text) {
    writeFileSync(path, filled);
    console.log(`wrote ${path}`);
  }
}
rmSync(dir, { recursive: true, force: true });
