// Compiling a one-file bundle (dist/fire-path.cjs for `fire`, dist/cli.cjs
// for every other command) with a V8 code cache: every command is a new
// process, and compiling the bundle's code is most of what it costs beyond a
// bare `node` start (docs/performance.md). The cache is written after a run,
// so it holds what that run compiled. Its tiers name what a run compiled, best
// first: `fire` has `hooks` (a run that started a hook, which then serves
// every run) over `lean`; the CLI has one tier per command.
// A cache file is sealed (cache-digest.ts): V8 checks a cache's header, not
// its body, so a file whose digest does not match is never shown to it. A
// cache that is spoilt or that V8 rejects (another build, another Node,
// truncated, foreign) is ignored and written again; a cache that cannot be
// written costs only the next run its compile; neither is an error. Where
// nothing can be sealed (no WebAssembly: `node --jitless`) no cache is read
// or written.
//
// The cold files (dist/cold/: the YAML parsers, zod) that the bundle requires
// when a hooks file must be parsed get a cache of their own by the same rules,
// each keyed by its own hash: a firing after an edit compiles them otherwise
// (docs/performance.md). On Node 22 and 24 `module.enableCompileCache()` with
// a plain require was measured against this and is slower: it keeps only what
// V8 compiled before the module ran, not the functions the run compiled.

import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { ensureDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { canSealCaches, openSealedCache, sealCache } from './cache-digest.js';

export type FireTier = 'hooks' | 'lean';
/** `fire`'s tiers, best first. */
export const FIRE_TIERS: readonly FireTier[] = ['hooks', 'lean'];
/** The one tier of a cold file: what the first run that loaded it compiled. */
const COLD_TIERS = ['lean'] as const;

/** The file's own hash, from its first line (scripts/build.mjs writes it). */
const KEY_LINE = /^\/\/ chrys-hooks (?:fire path|cli|cold file) ([0-9a-f]+)\n/;
/** What the bundle requires from beside it (`./cold/NAME.cjs`, and `./pg.cjs` from a cold file): loaded with a cache of its own. */
const CACHED_REQUIRE = /^\.\.?\/.*\.cjs$/;

export interface LoadedBundle<Tier extends string = string> {
  exports: Record<string, unknown>;
  /** Writes the cache when it was missing, rejected, or of a lower tier than `tier`, what this run compiled. */
  finish: (tier: Tier) => void;
  /** For tests and --explain: what was read. */
  cache: { path: string; tier: Tier; rejected: boolean } | undefined;
}

/**
 * Runs `file` as a CommonJS module compiled with the cache of the best of
 * `tiers` found in `dirs` (in order); the cache is written to the first of
 * `dirs` it can be.
 */
export function loadWithCodeCache<Tier extends string>(file: string, dirs: readonly string[], tiers: readonly Tier[]): LoadedBundle<Tier> {
  const required: LoadedBundle<'lean'>[] = [];
  const loaded = loadOne(file, dirs, tiers, required);
  return {
    ...loaded,
    // Called after the run's decision is out: whatever befalls a cache here must not change the exit code.
    finish: (tier) => {
      quietly(() => loaded.finish(tier));
      for (const cold of required) quietly(() => cold.finish('lean'));
    },
  };
}

function loadOne<Tier extends string>(file: string, dirs: readonly string[], tiers: readonly Tier[], required: LoadedBundle<'lean'>[]): LoadedBundle<Tier> {
  const source = readFileSync(file, 'utf8');
  const key = KEY_LINE.exec(source)?.[1];
  const stem = basename(file, '.cjs');
  const name = (tier: Tier): string => `${stem}-${key}-${process.version}-${process.arch}.${tier}.v8`;
  const cached = key !== undefined && canSealCaches();
  const found = cached ? findCache(dirs, tiers, name) : undefined;
  // The wrapper CommonJS gives a module, so the bundle runs as if required.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, ...(found?.data ? { cachedData: found.data } : {}) });
  const rejected = found !== undefined && (found.data === undefined || script.cachedDataRejected === true);
  const module = { exports: {} as Record<string, unknown>, loaded: false };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireWithCache(file, dirs, required), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    cache: found ? { path: found.path, tier: found.tier, rejected } : undefined,
    finish: (tier) => {
      if (!cached || (found && !rejected && tiers.indexOf(found.tier) <= tiers.indexOf(tier))) return;
      if (rejected) quietly(() => rmSync(found.path, { force: true }));
      writeCache(script, dirs, name(tier), stem, key);
    },
  };
}

/**
 * `require` for a file run by loadOne: a `.cjs` file beside it is loaded the
 * same way and put in Node's module cache, so a plain require of it elsewhere
 * gets the same module; anything else is Node's require.
 */
function requireWithCache(file: string, dirs: readonly string[], required: LoadedBundle<'lean'>[]): NodeJS.Require {
  const plain = createRequire(file);
  const own = ((id: string): unknown => {
    if (!CACHED_REQUIRE.test(id)) return plain(id);
    const path = plain.resolve(id);
    const known = plain.cache[path];
    if (known) return known.exports;
    const cold = loadOne(path, dirs, COLD_TIERS, required);
    plain.cache[path] = { id: path, filename: path, loaded: true, exports: cold.exports } as unknown as NodeJS.Module;
    required.push(cold);
    return cold.exports;
  }) as NodeJS.Require;
  return Object.assign(own, { resolve: plain.resolve, cache: plain.cache, main: plain.main, extensions: plain.extensions });
}

/**
 * The best cache there is. A spoilt file (its digest does not match, or no
 * regular file) is passed over for a sound one further on, which a read-only
 * install needs: its spoilt cache stays, and the sound one is in the config
 * dir. Only when there is none is the first spoilt one returned (`data`
 * undefined), so the run rewrites it.
 */
function findCache<Tier extends string>(dirs: readonly string[], tiers: readonly Tier[], name: (tier: Tier) => string): { path: string; tier: Tier; data: Buffer | undefined } | undefined {
  let spoilt: { path: string; tier: Tier; data: undefined } | undefined;
  for (const tier of tiers) {
    for (const dir of dirs) {
      const path = join(dir, name(tier));
      try {
        const data = openSealedCache(path);
        if (data !== 'spoilt') return { path, tier, data };
        spoilt ??= { path, tier, data: undefined };
      } catch {
        // not there (or unreadable): the next place
      }
    }
  }
  return spoilt;
}

/**
 * A cache is never an error (the header): one that cannot be removed (a
 * read-only install, a directory in its place) stays, and costs only its
 * check; one that cannot be written costs the next run its compile.
 */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // see above
  }
}

/** Whether `fileName` is a cache of `stem` (named as loadOne names one) by a build other than `key`. */
function ofAnotherBuild(fileName: string, stem: string, key: string): boolean {
  if (!fileName.startsWith(`${stem}-`) || !fileName.endsWith('.v8')) return false;
  const hash = /^([0-9a-f]+)-v/.exec(fileName.slice(stem.length + 1))?.[1];
  return hash !== undefined && hash !== key;
}

/** Writes the cache, then removes the caches of other builds of the same file there: an upgrade leaves no old ones behind. */
function writeCache(script: Script, dirs: readonly string[], name: string, stem: string, key: string): void {
  const data = sealCache(script.createCachedData());
  for (const dir of dirs) {
    try {
      ensureDir(dir);
      writeFileAtomic(join(dir, name), data, { durable: false, mode: 0o644 });
    } catch {
      continue; // read-only install, full disk, a symlink where the directory should be: the next place
    }
    try {
      for (const other of readdirSync(dir)) if (ofAnotherBuild(other, stem, key)) quietly(() => rmSync(join(dir, other), { force: true }));
    } catch {
      // an old cache left behind costs only disk space
    }
    return;
  }
}

/**
 * Where the cache may live: beside the bundle, then under the config dir's
 * state/ (only where the config dir already has a hooks/ tree: a set-up with
 * no hooks gets no files, CONTRACT §7).
 */
export function cacheDirsFor(file: string, configDir: string): string[] {
  const dirs = [join(dirname(file), '.cache')];
  if (existsSync(join(configDir, 'hooks'))) dirs.push(join(configDir, 'hooks', 'state', 'code-cache'));
  return dirs;
}

/** The tier this process compiled: `hooks` once it has started a child process (a hook, the worker). */
export const tierOfThisRun = (): FireTier =>
  (process as unknown as { moduleLoadList?: string[] }).moduleLoadList?.includes('NativeModule child_process') ? 'hooks' : 'lean';
