// `npm run generate`: writes the JSON Schema, completions and man page from
// their single sources (see src/cli/generate.ts).
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'chrys-generate-'));
const out = join(dir, 'generate.mjs');
await build({ entryPoints: ['src/cli/generate.ts'], outfile: out, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning' });
const { generatedFiles } = await import(pathToFileURL(out).href);
for (const [path, content] of Object.entries(generatedFiles(pkg.version))) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}
rmSync(dir, { recursive: true, force: true });
