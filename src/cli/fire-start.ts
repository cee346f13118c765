// What bin/chrys-hooks runs for `fire`: dist/fire-path.cjs compiled with its
// code cache (code-cache.ts), then the fast path. Resolves undefined when the
// arguments need the full program, or when the bundle cannot be loaded (a
// partial install): the caller then runs the ES module CLI, which gives the
// same decision.

import { join } from 'node:path';
import { configDirOf } from '../config/locations.js';
import { cacheDirsFor, loadWithCodeCache, tierOfThisRun } from './code-cache.js';

export async function startFire(argv: readonly string[], distDir: string): Promise<number | undefined> {
  const file = join(distDir, 'fire-path.cjs');
  let bundle: ReturnType<typeof loadWithCodeCache>;
  try {
    bundle = loadWithCodeCache(file, cacheDirsFor(file, configDirOf({ ...configDirFlag(argv) })));
  } catch {
    return undefined;
  }
  const code = await (bundle.exports.runFastFire as (argv: readonly string[]) => Promise<number | undefined>)(argv);
  if (code !== undefined) bundle.finish(tierOfThisRun());
  return code;
}

/** --config-dir DIR or --config-dir=DIR, as the fast parser reads it; where the cache may go. */
function configDirFlag(argv: readonly string[]): { configDir?: string } {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--config-dir' && argv[i + 1] !== undefined) return { configDir: argv[i + 1]! };
    if (arg.startsWith('--config-dir=')) return { configDir: arg.slice('--config-dir='.length) };
  }
  return {};
}

// For tests: V8 reuses a script compiled earlier in the same process without
// reading its cache, so a cache's fate is only seen in a fresh process.
export { loadWithCodeCache } from './code-cache.js';
