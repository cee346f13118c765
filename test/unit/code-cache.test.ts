// The fire path's code cache on real files: written after a run, used by the
// next, rewritten when V8 rejects it, upgraded to the hooks tier once, and
// never an error when it cannot be written.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirsFor, FIRE_TIERS, loadWithCodeCache } from '../../src/cli/code-cache.js';

function bundle(body = 'exports.answer = () => 42;'): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-cc-'));
  const file = join(dir, 'fire-path.cjs');
  writeFileSync(file, `// chrys-hooks fire path 0123abcd\n${body}\n`);
  return { dir, file };
}
type Loaded = { answer: number; cache: { tier: string; rejected: boolean } | null };
/** The script a child runs: one load (dist/start.cjs, built by pretest), what it found, then the cache written. */
const childCode = (file: string, dirs: string[], tier: string): string => `const b = require(${JSON.stringify(resolve('dist/start.cjs'))}).loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(dirs)}, ${JSON.stringify(FIRE_TIERS)});
process.stdout.write(JSON.stringify({ answer: b.exports.answer(), cache: b.cache ?? null })); b.finish(${JSON.stringify(tier)});`;
/** One load in a fresh node process: V8 skips the cache of a script it compiled already. */
function loadInChild(file: string, dirs: string[], tier = 'lean', nodeArgs: string[] = []): Loaded {
  // A bound, so a child that hangs (a FIFO where the cache should be) fails its test instead of holding up the run.
  return JSON.parse(execFileSync(process.execPath, [...nodeArgs, '-e', childCode(file, dirs, tier)], { encoding: 'utf8', timeout: 15_000 }));
}
const cacheFiles = (dir: string): string[] => { try { return readdirSync(dir).sort(); } catch { return []; } };

describe('loadWithCodeCache', () => {
  it('a cache written by one process is accepted by the next', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    expect(loadInChild(file, [cache])).toEqual({ answer: 42, cache: null });
    expect(loadInChild(file, [cache])).toMatchObject({ answer: 42, cache: { tier: 'lean', rejected: false } });
  });

  it('runs the bundle as a CommonJS module, and writes the cache only when there was none', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    const first = loadWithCodeCache(file, [cache], FIRE_TIERS);
    expect((first.exports.answer as () => number)()).toBe(42);
    expect(first.cache).toBeUndefined();
    first.finish('lean');
    const [name] = cacheFiles(cache);
    expect(name).toBe(`fire-path-0123abcd-${process.version}-${process.arch}.lean.v8`);
    const second = loadWithCodeCache(file, [cache], FIRE_TIERS);
    expect(second.cache).toMatchObject({ tier: 'lean', rejected: false });
    const before = statSync(join(cache, name!)).mtimeMs;
    second.finish('lean');
    expect(statSync(join(cache, name!)).mtimeMs).toBe(before);
  });

  it('a run that started hooks writes the hooks tier once, which then serves every run', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    loadWithCodeCache(file, [cache], FIRE_TIERS).finish('lean');
    loadWithCodeCache(file, [cache], FIRE_TIERS).finish('hooks');
    expect(cacheFiles(cache).map((n) => n.split('.').at(-2))).toEqual(['hooks', 'lean']);
    const next = loadWithCodeCache(file, [cache], FIRE_TIERS);
    expect(next.cache?.tier).toBe('hooks');
  });

  it.each([
    ['truncated', (data: Buffer) => data.subarray(0, Math.floor(data.length / 2))],
    ['foreign bytes', (data: Buffer) => Buffer.alloc(data.length, 7)],
    ['empty', () => Buffer.alloc(0)],
    // V8 checks only the header: these bytes reached its deserializer, which crashed the process (exit 133).
    ['spoilt under an intact header', (data: Buffer) => Buffer.from(data).map((b, i) => (i >= 64 && i % 97 === 0 ? b ^ 0x5a : b))],
    ['one bit flipped mid-body', (data: Buffer) => Buffer.from(data).map((b, i) => (i === data.length >> 1 ? b ^ 1 : b))],
  ])('a %s cache is rejected, the bundle still runs, and the cache is written anew', (_what, spoil) => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    loadWithCodeCache(file, [cache], FIRE_TIERS).finish('lean');
    const path = join(cache, cacheFiles(cache)[0]!);
    const good = readFileSync(path);
    writeFileSync(path, spoil(good));
    expect(loadInChild(file, [cache])).toMatchObject({ answer: 42, cache: { rejected: true } });
    expect(loadInChild(file, [cache])).toMatchObject({ answer: 42, cache: { tier: 'lean', rejected: false } });
  });

  it('where WebAssembly cannot run (node --jitless) no cache is read or written, and the bundle still runs', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    loadWithCodeCache(file, [cache], FIRE_TIERS).finish('lean');
    const [name] = cacheFiles(cache);
    const code = `const b = require(${JSON.stringify(resolve('dist/start.cjs'))}).loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify([cache])}, ${JSON.stringify(FIRE_TIERS)});
process.stdout.write(JSON.stringify({ answer: b.exports.answer(), cache: b.cache ?? null })); b.finish('hooks');`;
    const out = execFileSync(process.execPath, ['--jitless', '-e', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(JSON.parse(out)).toEqual({ answer: 42, cache: null });
    expect(cacheFiles(cache)).toEqual([name]);
  });

  it('a cache another V8 made under this name (a Node upgrade, other V8 flags) is rejected and rewritten', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    expect(loadInChild(file, [cache], 'lean', ['--no-flush-bytecode']).cache).toBeNull();
    expect(loadInChild(file, [cache])).toMatchObject({ answer: 42, cache: { rejected: true } });
    expect(loadInChild(file, [cache])).toMatchObject({ answer: 42, cache: { tier: 'lean', rejected: false } });
  });

  it('a disk that fills while the cache is written leaves no file, partial or temporary, and no error', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    // ulimit -f 0: every write to a file fails (EFBIG, the signal ignored), as on a full disk.
    const out = execFileSync('bash', ['-c', `trap '' XFSZ; ulimit -f 0; exec "$0" "$@"`, process.execPath, '-e', childCode(file, [cache], 'lean')], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ answer: 42, cache: null });
    expect(cacheFiles(cache)).toEqual([]);
    expect(loadInChild(file, [cache]).cache).toBeNull();
    expect(loadInChild(file, [cache]).cache).toMatchObject({ rejected: false });
  });

  it('processes that write the cache at once leave one whole cache that the next accepts', async () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    const runs = await Promise.all(Array.from({ length: 4 }, () => new Promise<Loaded>((done, fail) => {
      execFile(process.execPath, ['-e', childCode(file, [cache], 'lean')], { encoding: 'utf8' }, (e, out) => (e ? fail(e) : done(JSON.parse(out) as Loaded)));
    })));
    expect(runs.map((r) => r.answer)).toEqual([42, 42, 42, 42]);
    expect(cacheFiles(cache)).toEqual([`fire-path-0123abcd-${process.version}-${process.arch}.lean.v8`]);
    expect(loadInChild(file, [cache]).cache).toMatchObject({ tier: 'lean', rejected: false });
  });

  it('a cache of another build (another bundle text) is not read: the key is the bundle hash', () => {
    const a = bundle();
    const cache = join(a.dir, '.cache');
    loadWithCodeCache(a.file, [cache], FIRE_TIERS).finish('lean');
    writeFileSync(a.file, '// chrys-hooks fire path 99999999\nexports.answer = () => 43;\n');
    const other = loadWithCodeCache(a.file, [cache], FIRE_TIERS);
    expect(other.cache).toBeUndefined();
    expect((other.exports.answer as () => number)()).toBe(43);
  });

  it('falls back to the next directory when the first cannot be written, and is silent when none can', () => {
    const { dir, file } = bundle();
    const blocked = join(dir, 'not-a-dir');
    writeFileSync(blocked, '');
    const second = join(dir, 'second');
    loadWithCodeCache(file, [blocked, second], FIRE_TIERS).finish('lean');
    expect(cacheFiles(second)).toHaveLength(1);
    expect(loadWithCodeCache(file, [blocked, second], FIRE_TIERS).cache?.path).toContain(second);
    const none = loadWithCodeCache(file, [blocked], FIRE_TIERS);
    expect(() => none.finish('lean')).not.toThrow();
  });

  it('a spoilt cache that cannot be removed or rewritten (a read-only install) is passed over for the config dir, never an error', () => {
    const { dir, file } = bundle();
    const install = join(dir, '.cache');
    const config = join(dir, 'config-cache');
    loadWithCodeCache(file, [install], FIRE_TIERS).finish('lean');
    const path = join(install, cacheFiles(install)[0]!);
    writeFileSync(path, Buffer.alloc(readFileSync(path).length, 7));
    // The loader from a copy the other user can read; modes keep out anyone but root, so as root the children run as nobody.
    const start = join(dir, 'start.cjs');
    copyFileSync(resolve('dist/start.cjs'), start);
    chmodSync(dir, 0o755);
    chmodSync(install, 0o555);
    mkdirSync(config, { mode: 0o777 });
    chmodSync(config, 0o777);
    const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const code = childCode(file, [install, config], 'lean').replace(JSON.stringify(resolve('dist/start.cjs')), JSON.stringify(start));
    const load = (): Loaded & { path?: string } => JSON.parse(execFileSync(process.execPath, ['-e', code.replace('cache: b.cache ?? null', 'cache: b.cache ?? null, path: b.cache?.path')], { encoding: 'utf8', timeout: 15_000, ...asOther }));
    // It threw on removing the spoilt file before: the run's exit code was 1, whatever its decision.
    expect(load()).toMatchObject({ answer: 42, cache: { rejected: true } });
    expect(readFileSync(path)).toEqual(Buffer.alloc(readFileSync(path).length, 7));
    expect(cacheFiles(config)).toHaveLength(1);
    const next = load();
    expect(next).toMatchObject({ answer: 42, cache: { rejected: false } });
    expect(next.path).toContain(config);
  });

  it.each([
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path])],
    ['a directory', (path: string) => mkdirSync(path)],
  ])('%s where the cache should be does not hold the run up, and is passed over', (_what, put) => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    const second = join(dir, 'second');
    loadWithCodeCache(file, [second], FIRE_TIERS).finish('lean');
    mkdirSync(cache);
    put(join(cache, cacheFiles(second)[0]!));
    // A FIFO blocked the open for ever before.
    expect(loadInChild(file, [cache, second])).toMatchObject({ answer: 42, cache: { rejected: false } });
    const alone = loadInChild(file, [cache]);
    expect(alone).toMatchObject({ answer: 42, cache: { rejected: true } });
  });

  it('a .cjs file the bundle requires gets a cache of its own, and is one module however it is required', () => {
    const { dir, file } = bundle(`const dep = require('./cold/dep.cjs'); exports.answer = () => dep.value + (require('./cold/user.cjs').dep === dep ? 1 : 0);`);
    mkdirSync(join(dir, 'cold'));
    writeFileSync(join(dir, 'cold', 'dep.cjs'), '// chrys-hooks cold file 00dd\nexports.value = 41;\n');
    writeFileSync(join(dir, 'cold', 'user.cjs'), "// chrys-hooks cold file 00ee\nexports.dep = require('./dep.cjs');\n");
    const cache = join(dir, '.cache');
    const first = loadInChild(file, [cache]);
    expect(first.answer).toBe(42);
    const names = cacheFiles(cache);
    expect(names).toEqual([`dep-00dd-${process.version}-${process.arch}.lean.v8`, `fire-path-0123abcd-${process.version}-${process.arch}.lean.v8`, `user-00ee-${process.version}-${process.arch}.lean.v8`]);
    // Node's own require of it, later in the process, gets the module the bundle loaded.
    const code = `const b = require(${JSON.stringify(resolve('dist/start.cjs'))}).loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify([cache])}, ${JSON.stringify(FIRE_TIERS)});
process.stdout.write(String(require(${JSON.stringify(join(dir, 'cold', 'dep.cjs'))}) === require(${JSON.stringify(join(dir, 'cold', 'user.cjs'))}).dep && b.exports.answer()));`;
    expect(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' })).toBe('42');
    // A rejected cold cache is rewritten; the others are left as they are.
    const depCache = join(cache, names[0]!);
    writeFileSync(depCache, 'spoilt');
    const kept = statSync(join(cache, names[2]!)).mtimeMs;
    expect(loadInChild(file, [cache]).answer).toBe(42);
    expect(readFileSync(depCache, 'utf8')).not.toBe('spoilt');
    expect(statSync(join(cache, names[2]!)).mtimeMs).toBe(kept);
  });

  it('tiers of their own (one per command) are kept apart: one never serves or replaces another', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    loadWithCodeCache(file, [cache], ['validate']).finish('validate');
    const list = loadWithCodeCache(file, [cache], ['list']);
    expect(list.cache).toBeUndefined();
    list.finish('list');
    expect(cacheFiles(cache).map((n) => n.split('.').at(-2))).toEqual(['list', 'validate']);
    expect(loadWithCodeCache(file, [cache], ['validate']).cache).toMatchObject({ tier: 'validate', rejected: false });
  });

  it('writing a cache removes the caches of other builds of the same file, and only those', () => {
    const { dir, file } = bundle();
    const cache = join(dir, '.cache');
    mkdirSync(cache);
    const old = `fire-path-99ff-${process.version}-${process.arch}.hooks.v8`;
    const otherNode = `fire-path-0123abcd-v18.0.0-${process.arch}.lean.v8`;
    const otherFile = `cli-99ff-${process.version}-${process.arch}.list.v8`;
    for (const n of [old, otherNode, otherFile]) writeFileSync(join(cache, n), 'x');
    loadWithCodeCache(file, [cache], FIRE_TIERS).finish('lean');
    expect(cacheFiles(cache)).toEqual([otherFile, `fire-path-0123abcd-${process.version}-${process.arch}.lean.v8`, otherNode].sort());
  });

  it('cacheDirsFor offers the config dir only where it already has a hooks tree', () => {
    const { dir, file } = bundle();
    const config = join(dir, 'config');
    expect(cacheDirsFor(file, config)).toEqual([join(dir, '.cache')]);
    mkdirSync(join(config, 'hooks'), { recursive: true });
    chmodSync(join(config, 'hooks'), 0o700);
    expect(cacheDirsFor(file, config)).toEqual([join(dir, '.cache'), join(config, 'hooks', 'state', 'code-cache')]);
  });
});
