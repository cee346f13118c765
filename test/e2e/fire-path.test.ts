// bin/chrys-hooks runs `fire` from dist/fire-path.cjs and every other command
// from dist/cli.cjs, each with a V8 code cache. Whatever state the caches or
// the bundles are in, the result is the one the ES module CLI gives, and
// nothing is an error.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = JSON.stringify({ event: 'before_tool_call', tool: { name: 'write_file', args: { path: 'config/.env' } } });
const HOOKS = `hooks:
  - id: no-env
    event: before_tool_call
    match:
      args:
        path: { regex: '\\.env$' }
    run:
      type: shell
      shell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"no .env\\"}" > "$CHRYS_HOOK_RESULT"'
    execution:
      mode: blocking
`;

interface Installed {
  dist: string;
  fire: (args?: string[]) => Promise<{ exitCode: number; decision: any }>;
  run: (args: string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/** A copy of the built package, firing the edit of a .env file. */
function install(s: Sandbox): Installed {
  const pkg = s.packageCopy();
  const fire = async (args: string[] = []) => {
    const r = await pkg.run(['fire', ...args], EDIT);
    return { exitCode: r.exitCode, decision: JSON.parse(r.stdout) };
  };
  return { dist: pkg.dist, fire, run: (args) => pkg.run(args) };
}
const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
/** The bundle's caches; the cold files' (dist/cold/) have their own names. */
const caches = (dir: string): string[] => cacheFiles(dir).filter((n) => n.startsWith('fire-path-'));

describe('the fire path bundle and its code cache', () => {
  it('writes the cache beside dist/, upgrades it once a hook ran, and decides alike with and without it', async () => {
    const s = sandbox();
    s.globalHooks(HOOKS);
    const pkg = install(s);
    const first = await pkg.fire();
    expect(first.decision).toMatchObject({ blocked: true, reason: 'no .env' });
    expect(caches(join(pkg.dist, '.cache'))).toEqual([expect.stringMatching(/\.hooks\.v8$/)]);
    const second = await pkg.fire();
    const timeless = (d: any) => ({ ...d, hooks: d.hooks.map(({ duration_ms: _, ...h }: any) => h) });
    expect(timeless(second.decision)).toEqual(timeless(first.decision));
  });

  it('a corrupt cache is ignored and rewritten; a missing bundle falls back to the ES module CLI', async () => {
    const s = sandbox();
    s.globalHooks(HOOKS);
    const pkg = install(s);
    await pkg.fire();
    const cacheDir = join(pkg.dist, '.cache');
    const [name] = caches(cacheDir);
    writeFileSync(join(cacheDir, name!), 'not a V8 code cache');
    expect((await pkg.fire()).decision).toMatchObject({ blocked: true, reason: 'no .env' });
    expect(readFileSync(join(cacheDir, name!), 'utf8')).not.toBe('not a V8 code cache');
    // Without the fire path the full program's bundle decides; without that too, the ES module CLI.
    rmSync(join(pkg.dist, 'fire-path.cjs'));
    expect((await pkg.fire()).decision).toMatchObject({ blocked: true, reason: 'no .env' });
    expect(cacheFiles(cacheDir).filter((n) => n.startsWith('cli-') && n.endsWith('.fire.v8'))).toHaveLength(1);
    rmSync(join(pkg.dist, 'cli.cjs'));
    expect((await pkg.fire()).decision).toMatchObject({ blocked: true, reason: 'no .env' });
  });

  it('a cache spoilt under its header (bytes flipped mid-file) is caught by its digest: the same decision, and it is rewritten', async () => {
    const s = sandbox();
    s.globalHooks(HOOKS);
    const pkg = install(s);
    const first = await pkg.fire();
    const cacheDir = join(pkg.dist, '.cache');
    const path = join(cacheDir, caches(cacheDir)[0]!);
    const good = readFileSync(path);
    const spoilt = Buffer.from(good);
    for (let i = 1024; i < spoilt.length; i += 509) spoilt[i]! ^= 0x5a;
    writeFileSync(path, spoilt);
    const again = await pkg.fire();
    expect(again.exitCode).toBe(0);
    const timeless = (d: any) => ({ ...d, hooks: d.hooks.map(({ duration_ms: _, ...h }: any) => h) });
    expect(timeless(again.decision)).toEqual(timeless(first.decision));
    expect(readFileSync(path).equals(spoilt)).toBe(false);
    expect((await pkg.fire()).exitCode).toBe(0);
  });

  it('a firing that parses a hooks file caches the cold files it compiled, and a rejected one is rewritten', async () => {
    const s = sandbox();
    s.globalHooks(HOOKS);
    const pkg = install(s);
    const first = await pkg.fire();
    const cacheDir = join(pkg.dist, '.cache');
    const cold = cacheFiles(cacheDir).filter((n) => !n.startsWith('fire-path-'));
    expect(cold.map((n) => n.split('-').slice(0, -3).join('-'))).toEqual(['js-yaml', 'zod']);
    expect(cold.every((n) => n.endsWith(`-${process.version}-${process.arch}.lean.v8`))).toBe(true);
    // An edit: the file is parsed again, from the cold files' caches; one spoilt is rewritten.
    writeFileSync(join(cacheDir, cold[1]!), 'not a V8 code cache');
    s.globalHooks(`${HOOKS}# edited\n`);
    const timeless = (d: any) => ({ ...d, hooks: d.hooks.map(({ duration_ms: _, ...h }: any) => h) });
    expect(timeless((await pkg.fire()).decision)).toEqual(timeless(first.decision));
    expect(readFileSync(join(cacheDir, cold[1]!), 'utf8')).not.toBe('not a V8 code cache');
    expect(cacheFiles(cacheDir).filter((n) => !n.startsWith('fire-path-'))).toEqual(cold);
  });

  it('with a read-only dist/ the cache goes under the config dir, and with no hooks tree nowhere', async () => {
    const s = sandbox();
    const pkg = install(s);
    // Unwritable even as root; with no hooks files fire writes nothing under the config dir (CONTRACT §7).
    writeFileSync(join(pkg.dist, '.cache'), 'a file where the cache directory would be');
    expect((await pkg.fire()).decision.blocked).toBe(false);
    expect(readdirSync(s.configDir)).toEqual([]);
    s.globalHooks(HOOKS);
    expect((await pkg.fire()).decision.blocked).toBe(true);
    expect(caches(join(s.configDir, 'hooks', 'state', 'code-cache'))).toHaveLength(1);
  });
});

describe('every other command from the full program bundle and its code cache', () => {
  const cliCaches = (dir: string): string[] => cacheFiles(dir).filter((n) => n.startsWith('cli-'));

  it('keeps one cache per command, none for a word that is no command, and gives the same output from each way in', async () => {
    const s = sandbox();
    s.globalHooks(HOOKS);
    const pkg = install(s);
    const cacheDir = join(pkg.dist, '.cache');
    const validated = await pkg.run(['validate', '--format', 'json']);
    expect(validated.exitCode).toBe(0);
    expect(JSON.parse(validated.stdout)).toMatchObject({ errors: 0, warnings: 0 });
    const listed = await pkg.run(['list', '--json']);
    expect(JSON.parse(listed.stdout).hooks.map((h: any) => h.id)).toEqual(['no-env']);
    const typo = await pkg.run(['vaildate']);
    expect(typo.exitCode).toBe(64);
    expect(cliCaches(cacheDir).map((n) => n.split('.').at(-2))).toEqual(['list', 'validate']);
    // From the cache (accepted: not written again), from a spoilt cache (rewritten), and from the ES module CLI: one output.
    const [listCache] = cliCaches(cacheDir);
    const written = readFileSync(join(cacheDir, listCache!));
    expect((await pkg.run(['list', '--json'])).stdout).toBe(listed.stdout);
    expect(readFileSync(join(cacheDir, listCache!)).equals(written)).toBe(true);
    expect((await pkg.run(['resolve', '--help'])).exitCode).toBe(0);
    expect(cliCaches(cacheDir)).toHaveLength(2);
    writeFileSync(join(cacheDir, listCache!), 'not a V8 code cache');
    expect((await pkg.run(['list', '--json'])).stdout).toBe(listed.stdout);
    expect(readFileSync(join(cacheDir, listCache!), 'utf8')).not.toBe('not a V8 code cache');
    rmSync(join(pkg.dist, 'cli.cjs'));
    expect((await pkg.run(['list', '--json'])).stdout).toBe(listed.stdout);
    expect(await pkg.run(['vaildate'])).toMatchObject({ exitCode: 64, stderr: typo.stderr });
    // Without the loader too.
    rmSync(join(pkg.dist, 'start.cjs'));
    expect((await pkg.run(['list', '--json'])).stdout).toBe(listed.stdout);
  });
});
