// A trusted project script runs from a private copy of the bytes `trust`
// hashed (run/verified-script.ts): the copy, its layout and modes, every way
// the check refuses to run it, and the runners (attached and detached) that
// run the copy and clean it up. Real files, real bash.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Execution, Hook } from '../../src/core/config.js';
import type { HookContext } from '../../src/core/hook-template.js';
import { launchDetached } from '../../src/run/detached.js';
import { resolveInvocation } from '../../src/run/invocation.js';
import { TempFiles } from '../../src/run/runtime.js';
import { runHook } from '../../src/run/spawn.js';
import { verifiedArgv } from '../../src/run/verified-script.js';
import { testHook } from '../helpers/hook.js';
import { eventually, read } from '../helpers/sandbox.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Project {
  root: string;
  /** The workspace's .chrys/hooks/ tree. */
  tree: string;
  /** Where the verified copy goes (not made yet). */
  copyDir: string;
  ctx: HookContext;
  write: (path: string, content: string) => string;
}

function project(): Project {
  const root = mkdtempSync(join(tmpdir(), 'chrys-verified-'));
  roots.push(root);
  const workspace = join(root, 'ws');
  const tree = join(workspace, '.chrys', 'hooks');
  mkdirSync(tree, { recursive: true });
  const write = (path: string, content: string): string => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content, { mode: 0o755 });
    return full;
  };
  return { root, tree, copyDir: join(root, 'copy'), ctx: { configDir: join(root, 'config'), workspace, sessionId: 's', profile: '' }, write };
}

/** A project `type: script` hook declared in `hooksFile`, with the trust record given. */
const scriptHook = (hooksFile: string, path: string, trusted?: Hook['trusted'], execution: Partial<Execution> = {}): Hook =>
  testHook({ source: 'project', file: hooksFile, run: { type: 'script', path, args: [], env: {}, cwd: '' }, ...(trusted ? { trusted } : {}), execution });

/** A counting stand-in for the runner's "new directory path" callback. */
const dirOnce = (path: string): { dir: () => string; calls: () => number } => {
  let n = 0;
  return { dir: () => (n++, path), calls: () => n };
};

const GUARD = 'echo "ran $0"\n';

describe('verifiedArgv without a trust record', () => {
  it('runs a script hook that has no recorded hash as resolved, and makes no copy', () => {
    const p = project();
    const script = p.write('cfg/guard.sh', GUARD);
    const { dir, calls } = dirOnce(p.copyDir);
    const argv = ['bash', script, 'a'];
    expect(verifiedArgv(scriptHook(join(p.root, 'cfg', 'hooks.yaml'), 'guard.sh'), argv, 1, dir)).toEqual(argv);
    expect(calls()).toBe(0);
    expect(existsSync(p.copyDir)).toBe(false);
  });

  it('leaves argv alone for a hook that is not a script, or whose script has no place in argv', () => {
    const p = project();
    const script = p.write('ws/.chrys/hooks/guard.sh', GUARD);
    const trusted = { sha256: sha(GUARD) };
    const { dir, calls } = dirOnce(p.copyDir);
    const command = testHook({ source: 'project', file: join(p.tree, 'hooks.yaml'), run: { type: 'command', argv: ['bash', script], args: [], env: {}, cwd: '' }, trusted });
    expect(verifiedArgv(command, ['bash', script], 1, dir)).toEqual(['bash', script]);
    expect(verifiedArgv(scriptHook(join(p.tree, 'hooks.yaml'), 'guard.sh', trusted), ['bash', script], undefined, dir)).toEqual(['bash', script]);
    expect(calls()).toBe(0);
    expect(existsSync(p.copyDir)).toBe(false);
  });
});

describe('verifiedArgv for a script outside the .chrys/hooks tree', () => {
  const setUp = () => {
    const p = project();
    const script = p.write('ws/tools/guard.sh', GUARD);
    const hook = scriptHook(join(p.root, 'ws', 'hooks.yaml'), 'tools/guard.sh', { sha256: sha(GUARD) });
    return { p, script, hook };
  };

  it('swaps in an owner-only copy of the verified bytes, under the script\'s own name, keeping the other arguments', () => {
    const { p, script, hook } = setUp();
    const argv = verifiedArgv(hook, ['bash', script, '--fix'], 1, () => p.copyDir);
    const copy = join(p.copyDir, 'guard.sh');
    expect(argv).toEqual(['bash', copy, '--fix']);
    expect(readFileSync(copy, 'utf8')).toBe(GUARD);
    expect(statSync(p.copyDir).mode & 0o777).toBe(0o700);
    expect(statSync(copy).mode & 0o777).toBe(0o700);
    expect(readdirSync(p.copyDir)).toEqual(['guard.sh']);
    expect(execFileSync('bash', (argv as string[]).slice(1), { encoding: 'utf8' })).toBe(`ran ${copy}\n`);
    expect(readFileSync(script, 'utf8')).toBe(GUARD);
  });

  it('reads a script reached through a symlink where it leads, and names the copy as the hook does', () => {
    const p = project();
    const target = p.write('elsewhere/impl.sh', GUARD);
    mkdirSync(join(p.root, 'ws', 'tools'), { recursive: true });
    symlinkSync(target, join(p.root, 'ws', 'tools', 'guard.sh'));
    const hook = scriptHook(join(p.root, 'ws', 'hooks.yaml'), 'tools/guard.sh', { sha256: sha(GUARD) });
    expect(verifiedArgv(hook, ['bash', join(p.root, 'ws', 'tools', 'guard.sh')], 1, () => p.copyDir)).toEqual(['bash', join(p.copyDir, 'guard.sh')]);
    expect(readFileSync(join(p.copyDir, 'guard.sh'), 'utf8')).toBe(GUARD);
  });

  it('refuses a script whose content changed since the trust check, and copies nothing', () => {
    const { p, script, hook } = setUp();
    writeFileSync(script, 'echo evil\n');
    expect(verifiedArgv(hook, ['bash', script], 1, () => p.copyDir)).toEqual({
      error: `${script} changed since the trust check (its content is not what \`chrys-hooks trust\` recorded); the hook was not run. Review it with \`chrys-hooks trust\``,
    });
    expect(existsSync(p.copyDir)).toBe(false);
  });

  it('refuses a script that is gone', () => {
    const { p, script, hook } = setUp();
    rmSync(script);
    expect(verifiedArgv(hook, ['bash', script], 1, () => p.copyDir)).toEqual({ error: `${script} is gone since the trust check; the hook was not run` });
    expect(existsSync(p.copyDir)).toBe(false);
  });

  it('refuses, without blocking, a script replaced by something that is not a regular file', () => {
    const { p, script, hook } = setUp();
    rmSync(script);
    execFileSync('mkfifo', [script]);
    expect(verifiedArgv(hook, ['bash', script], 1, () => p.copyDir)).toEqual({ error: `cannot read the trusted file ${script}: it is a named pipe (FIFO), not a regular file; the hook was not run` });
    expect(existsSync(p.copyDir)).toBe(false);
  });
});

describe('verifiedArgv for a script in the .chrys/hooks tree', () => {
  const LIB = 'greet() { echo "hello from the lib"; }\n';
  const MAIN = 'source "$(dirname "$0")/../lib/common.sh"; greet; bash "$(dirname "$0")/helper.sh"\n';
  const HELPER = 'echo "helper beside it"\n';
  const HOOKS = 'hooks: []\n';

  const setUp = () => {
    const p = project();
    const files = { 'hooks.yaml': HOOKS, 'scripts/main.sh': MAIN, 'scripts/helper.sh': HELPER, 'lib/common.sh': LIB };
    for (const [path, content] of Object.entries(files)) p.write(relative(p.root, join(p.tree, path)), content);
    const record = Object.entries(files).map(([path, content]) => ({ path, sha256: sha(content) }));
    const trusted = { sha256: sha(MAIN), tree: { root: p.tree, script: 'scripts/main.sh', files: record } };
    const hook = scriptHook(join(p.tree, 'hooks.yaml'), 'scripts/main.sh', trusted);
    return { p, hook, trusted, script: join(p.tree, 'scripts', 'main.sh') };
  };

  it('copies the whole checked tree, laid out as in the workspace, so what the script loads beside itself is found', () => {
    const { p, hook, script } = setUp();
    const argv = verifiedArgv(hook, ['bash', script], 1, () => p.copyDir) as string[];
    const copy = join(p.copyDir, 'scripts', 'main.sh');
    expect(argv).toEqual(['bash', copy]);
    expect(execFileSync('bash', argv.slice(1), { encoding: 'utf8' })).toBe('hello from the lib\nhelper beside it\n');
    expect(readdirSync(p.copyDir, { recursive: true }).map(String).sort()).toEqual(['hooks.yaml', 'lib', 'lib/common.sh', 'scripts', 'scripts/helper.sh', 'scripts/main.sh']);
    for (const d of ['', 'lib', 'scripts']) expect(statSync(join(p.copyDir, d)).mode & 0o777).toBe(0o700);
    for (const f of ['hooks.yaml', 'lib/common.sh', 'scripts/main.sh']) expect(statSync(join(p.copyDir, f)).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(p.copyDir, 'lib', 'common.sh'), 'utf8')).toBe(LIB);
  });

  it('copies only the files the record holds, not one added to the tree since', () => {
    const { p, hook, script } = setUp();
    p.write(relative(p.root, join(p.tree, 'lib', 'added.sh')), 'echo unchecked\n');
    verifiedArgv(hook, ['bash', script], 1, () => p.copyDir);
    expect(existsSync(join(p.copyDir, 'lib', 'added.sh'))).toBe(false);
    expect(existsSync(join(p.copyDir, 'lib', 'common.sh'))).toBe(true);
  });

  it('refuses the run when any file of the tree changed, naming that file', () => {
    const { p, hook, script } = setUp();
    const lib = join(p.tree, 'lib', 'common.sh');
    writeFileSync(lib, 'greet() { rm -rf ~; }\n');
    expect(verifiedArgv(hook, ['bash', script], 1, () => p.copyDir)).toEqual({
      error: `${lib} changed since the trust check (its content is not what \`chrys-hooks trust\` recorded); the hook was not run. Review it with \`chrys-hooks trust\``,
    });
  });

  it('refuses a record that does not hold the script with the hash checked for it', () => {
    const { p, trusted, script } = setUp();
    const refused = { error: `the trust record does not hold scripts/main.sh in ${p.tree}; run \`chrys-hooks trust\`` };
    // The script is listed, but under another hash than the one recorded for the hook.
    const otherHash = { ...trusted, tree: { ...trusted.tree, files: trusted.tree.files.map((f) => (f.path === 'scripts/main.sh' ? { ...f, sha256: sha('other') } : f)) } };
    expect(verifiedArgv(scriptHook(join(p.tree, 'hooks.yaml'), 'scripts/main.sh', otherHash), ['bash', script], 1, () => p.copyDir)).toEqual(refused);
    // A file with the script's hash is listed, but not the script.
    const notListed = { ...trusted, tree: { ...trusted.tree, files: [...trusted.tree.files.filter((f) => f.path !== 'scripts/main.sh'), { path: 'scripts/copy.sh', sha256: sha(MAIN) }] } };
    expect(verifiedArgv(scriptHook(join(p.tree, 'hooks.yaml'), 'scripts/main.sh', notListed), ['bash', script], 1, () => p.copyDir)).toEqual(refused);
    expect(existsSync(p.copyDir)).toBe(false);
  });
});

describe('the runners run the verified copy', () => {
  const setUp = () => {
    const p = project();
    const body = 'echo "$0"; cat "$0"\n';
    const script = p.write(relative(p.root, join(p.tree, 'scripts', 'show.sh')), body);
    const trusted = { sha256: sha(body), tree: { root: p.tree, script: 'scripts/show.sh', files: [{ path: 'scripts/show.sh', sha256: sha(body) }] } };
    return { p, body, script, trusted, hooksFile: join(p.tree, 'hooks.yaml') };
  };

  it('runHook runs a trusted script from a copy in hooks/tmp, and removes the copy once it ended', async () => {
    const { p, body, trusted, hooksFile } = setUp();
    const hook = scriptHook(hooksFile, 'scripts/show.sh', trusted);
    const temp = new TempFiles(p.ctx.configDir);
    const record = await runHook(hook, p.ctx, resolveInvocation(hook, p.ctx), '{}', temp, {});
    expect(record.status).toBe('ok');
    const [ran, ...rest] = record.stdout.split('\n');
    expect(rest.join('\n')).toBe(body);
    const tmp = join(p.ctx.configDir, 'hooks', 'tmp');
    expect(relative(tmp, ran!)).toMatch(new RegExp(`^script-${process.pid}-[0-9a-f]{12}/scripts/show\\.sh$`));
    expect(record.outcome.argv).toContain(ran);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('runHook does not start a trusted script that changed, says why, and leaves nothing behind', async () => {
    const { p, body } = setUp();
    // Outside the tree: the runner asks for the copy's directory before the check fails.
    const outside = p.write('ws/tools/show.sh', body);
    const hook = scriptHook(join(p.root, 'ws', 'hooks.yaml'), 'tools/show.sh', { sha256: sha(body) });
    writeFileSync(outside, 'echo evil\n');
    const temp = new TempFiles(p.ctx.configDir);
    const record = await runHook(hook, p.ctx, resolveInvocation(hook, p.ctx), '{}', temp, {});
    expect(record).toMatchObject({ status: 'launch_error', stdout: '', error: `${outside} changed since the trust check (its content is not what \`chrys-hooks trust\` recorded); the hook was not run. Review it with \`chrys-hooks trust\`` });
    expect(readdirSync(join(p.ctx.configDir, 'hooks', 'tmp'))).toEqual([]);
  });

  it('launchDetached runs a trusted script from its copy in the run\'s script directory', async () => {
    const { p, body, trusted, hooksFile } = setUp();
    const hook = scriptHook(hooksFile, 'scripts/show.sh', trusted, { mode: 'fire_and_forget', detach: true });
    const files = { log: join(p.root, 'run.log'), payload: join(p.root, 'run.payload.json'), prompt: join(p.root, 'run.prompt.md'), script: join(p.root, 'run.script') };
    expect(await launchDetached(hook, p.ctx, '{}', files)).toMatchObject({ pid: expect.any(Number) });
    const copy = join(files.script, 'scripts', 'show.sh');
    expect(await eventually(() => read(files.log)?.endsWith(body) && read(files.log), 10_000, 'the hook\'s output')).toBe(`${copy}\n${body}`);
  });

  it('launchDetached does not start a trusted script that changed, and says why', async () => {
    const { p, script, trusted, hooksFile } = setUp();
    writeFileSync(script, 'echo evil\n');
    const hook = scriptHook(hooksFile, 'scripts/show.sh', trusted, { mode: 'fire_and_forget', detach: true });
    const files = { log: join(p.root, 'run.log'), payload: join(p.root, 'run.payload.json'), prompt: join(p.root, 'run.prompt.md'), script: join(p.root, 'run.script') };
    expect(await launchDetached(hook, p.ctx, '{}', files)).toEqual({
      launchError: `${script} changed since the trust check (its content is not what \`chrys-hooks trust\` recorded); the hook was not run. Review it with \`chrys-hooks trust\``,
    });
    expect(read(files.log)).toBe('');
  });
});
