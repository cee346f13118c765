// End-to-end tests run the built binary; build it once if it is missing or stale.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const bundle = 'dist/cli.js';
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource('src')) {
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  }
}
