// What bin/chrys-hooks runs: a one-file CommonJS bundle compiled with its
// code cache (code-cache.ts), for `fire` dist/fire-path.cjs (the fast path),
// for every other command dist/cli.cjs (the full program). Each resolves
// undefined when its bundle cannot be loaded (a partial install), and `fire`
// also when the arguments need the full program: the caller then runs the
// next way in, down to the ES module CLI, which gives the same result.

import { join } from 'node:path';
import { configDirOf } from '../config/locations.js';
import { EXIT } from '../core/errors.js';
import { cacheDirsFor, FIRE_TIERS, loadWithCodeCache, tierOfThisRun, type LoadedBundle } from './code-cache.js';

export async function startFire(argv: readonly string[], distDir: string): Promise<number | undefined> {
  const bundle = load(join(distDir, 'fire-path.cjs'), argv, FIRE_TIERS);
  if (!bundle) return undefined;
  const code = await (bundle.exports.runFastFire as (argv: readonly string[]) => Promise<number | undefined>)(argv);
  if (code !== undefined) bundle.finish(tierOfThisRun());
  return code;
}

/** Any command through the full program; its cache tier is the command's name (one command compiles what another never runs). */
export async function startCommand(argv: readonly string[], distDir: string): Promise<number | undefined> {
  const name = argv[0] ?? '';
  // A first word that is no command (a typo, --help, a global option before the command) still runs, only without a cache.
  const tier = /^[a-z][a-z-]*$/.test(name) ? name : undefined;
  const bundle = load(join(distDir, 'cli.cjs'), argv, tier ? [tier] : []);
  if (!bundle) return undefined;
  const code = await (bundle.exports.main as (argv: readonly string[]) => Promise<number>)(argv);
  // The first cache of a command is kept: one from a run that only printed help or a usage error would hold little of it.
  if (tier && code !== EXIT.usage && (bundle.exports.commandThatRan as () => string)() === tier) bundle.finish(tier);
  return code;
}

function load<Tier extends string>(file: string, argv: readonly string[], tiers: readonly Tier[]): LoadedBundle<Tier> | undefined {
  try {
    return loadWithCodeCache(file, cacheDirsFor(file, configDirOf({ ...configDirFlag(argv) })), tiers);
  } catch {
    return undefined;
  }
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
export { FIRE_TIERS, loadWithCodeCache } from './code-cache.js';
