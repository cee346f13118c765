// The spawn helper (src/run/spawn-helper.ts) on real Python and bash
// processes. The runner's whole suite (spawn.test.ts) runs again below with
// the helper taking every hook it can, so each way of ending a run is
// recorded the same whichever way the hook was started; the tests here pin
// what only the helper does: the hooks are its children, each leads its own
// session with Node's signal state, and its death or absence changes no verdict.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Hook, Run } from '../../src/core/config.js';
import type { HookContext } from '../../src/core/hook-template.js';
import { resolveInvocation } from '../../src/run/invocation.js';
import { stopEverything } from '../../src/run/live.js';
import { TempFiles } from '../../src/run/runtime.js';
import { PayloadFileError, SpawnHelper, endSpawnHelper, spawnHelper, startSpawnHelper, useSpawnHelper } from '../../src/run/spawn-helper.js';
import { which } from '../../src/base/interpreter.js';
import { runHook } from '../../src/run/spawn.js';
import { testHook } from '../helpers/hook.js';
import { eventually, isAlive } from '../helpers/sandbox.js';

let helper: SpawnHelper;
beforeAll(async () => {
  helper = startSpawnHelper();
  expect(await helper.ready).toBe(true);
});
afterAll(() => endSpawnHelper());
// A test that stops everything (stopEverything) or kills the helper leaves it unusable: a new one for the next.
afterEach(async () => {
  if (helper.usable) return;
  endSpawnHelper();
  helper = startSpawnHelper();
  expect(await helper.ready).toBe(true);
});

function setup(argv: string[], run: Partial<Run> = {}): { hook: Hook; ctx: HookContext; temp: TempFiles; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const ctx: HookContext = { configDir: join(dir, 'config'), workspace, sessionId: 's1', profile: 'Code' };
  const hook = testHook({ file: join(dir, 'hooks.yaml'), run: { type: 'command', argv, args: [], env: {}, cwd: '', ...run } as Run });
  return { hook, ctx, temp: new TempFiles(ctx.configDir), dir };
}

async function bash(script: string): Promise<Awaited<ReturnType<typeof runHook>> & { dir: string }> {
  const s = setup(['bash', '-c', script]);
  return { ...(await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{"event":"before_tool_call"}', s.temp, {})), dir: s.dir };
}

describe('hooks started by the helper', () => {
  it('are its children, found on the hook\'s PATH like Node finds them', async () => {
    const record = await bash('echo $PPID');
    expect(record.status).toBe('ok');
    expect(Number(record.stdout.trim())).toBe(helper.pid);
  });

  it('each lead a session of their own, so a kill reaches everything they fork', async () => {
    const record = await bash('echo $$; ps -o sid= -p $$');
    const [pid, sid] = record.stdout.trim().split('\n').map((l) => Number(l.trim()));
    expect(sid).toBe(pid);
  });

  it('start with the signal dispositions and mask a hook Node spawned starts with (Python ignores SIGPIPE; its hooks must not)', async () => {
    const probe = "grep -E '^Sig(Ign|Blk)' /proc/self/status";
    const masks = (text: string): bigint[] => text.trim().split('\n').map((l) => BigInt(`0x${l.split('\t')[1]}`));
    const direct = masks(execFileSync('bash', ['-c', probe], { encoding: 'utf8' }));
    const viaHelper = masks((await bash(probe)).stdout);
    // glibc's posix_spawn leaves its own two signals (32, 33: thread cancellation, setxid) ignored, and sets
    // their handlers again when a program first needs them; no one else may send them.
    const GLIBC_INTERNAL = (1n << 31n) | (1n << 32n);
    expect(viaHelper.map((m) => m & ~GLIBC_INTERNAL)).toEqual(direct);
  });

  it('run a script without a #! line with /bin/sh, and a relative argv[0] from the hook\'s cwd, as Node does', async () => {
    const s = setup(['./plain-script', 'a b']);
    writeFileSync(join(s.ctx.workspace, 'plain-script'), 'echo from-sh "$@" $PPID\n', { mode: 0o755 });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record.stdout).toBe(`from-sh a b ${helper.pid}\n`);
  });

  it('the helper leads a session of its own: a terminal\'s ^C, sent to our group, never reaches it', () => {
    const sid = (pid: number): number => Number(execFileSync('ps', ['-o', 'sid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
    expect(sid(helper.pid!)).toBe(helper.pid);
    expect(sid(helper.pid!)).not.toBe(sid(process.pid));
  });

  it('a hook that cannot start (its cwd gone) is a launch error, and the helper goes on starting the next', async () => {
    const s = setup(['/bin/true']);
    const started = helper.start(['/bin/true'], join(s.dir, 'gone'), {}, { text: '' })!;
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => started.on('error', resolve));
    expect(error.code).toBe('ENOENT');
    expect(helper.usable).toBe(true);
    expect((await bash('echo $PPID')).stdout).toBe(`${helper.pid}\n`);
  });

  it('stdin text reaches the hook whole: 200 KiB through the helper, 32 MiB through Node\'s own pipe', async () => {
    for (const [size, parent] of [[200 * 1024, helper.pid], [32 * 1024 * 1024, process.pid]] as const) {
      const s = setup(['bash', '-c', 'echo $(wc -c) $PPID'], {});
      const foreign = { ...s.hook, run: { ...s.hook.run, protocol: 'claude' } } as Hook;
      const payload = JSON.stringify({ event: 'before_tool_call', tool: { name: 'Bash', args: { command: 'x'.repeat(size) } } });
      const record = await runHook(foreign, s.ctx, resolveInvocation(foreign, s.ctx), payload, s.temp, {});
      const [bytes, ppid] = record.stdout.trim().split(' ').map(Number);
      expect(bytes).toBeGreaterThan(size);
      expect(ppid).toBe(parent);
    }
  });

  it('get the environment and stdin text given, exactly', async () => {
    const s = setup(['bash', '-c', 'printf "%s|" "$ONE" "$TWO"; cat'], { env: { ONE: 'é ü', TWO: 'a=b' } });
    const foreign = { ...s.hook, run: { ...s.hook.run, protocol: 'claude' } } as Hook;
    const record = await runHook(foreign, s.ctx, resolveInvocation(foreign, s.ctx), '{"event":"before_tool_call","tool":{"name":"Bash","args":{"command":"ls"}}}', s.temp, {});
    expect(record.stdout).toMatch(/^é ü\|a=b\|\{.*"hook_event_name":"PreToolUse".*\}$/);
  });
});

/** `fn` with hooks spawned by Node itself (no helper), for the plain path's verdict; the helper is back afterwards. */
async function direct<T>(fn: () => Promise<T>): Promise<T> {
  endSpawnHelper();
  try {
    return await fn();
  } finally {
    helper = startSpawnHelper();
    expect(await helper.ready).toBe(true);
  }
}

describe('the same verdict as Node\'s spawn', () => {
  it('a bare name is looked up as execvp does: past a PATH entry where it cannot run (a #! to nothing), relative entries from the hook\'s cwd', async () => {
    const s = setup(['mytool'], { env: { PATH: 'broken:tools:/usr/bin:/bin' } });
    for (const [dir, body] of [['broken', '#!/nonexistent/python\n'], ['tools', '#!/bin/sh\necho from-tools $PPID\n']] as const) {
      mkdirSync(join(s.ctx.workspace, dir));
      writeFileSync(join(s.ctx.workspace, dir, 'mytool'), body, { mode: 0o755 });
    }
    const runIt = () => runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect((await runIt()).stdout).toBe(`from-tools ${helper.pid}\n`);
    expect((await direct(runIt)).stdout).toBe(`from-tools ${process.pid}\n`);
  });

  it('a hook killed by a signal Node has no name for (a real-time one) ends as Node reports it: exit 0', async () => {
    const viaHelper = await bash('kill -35 $$');
    const plain = await direct(() => bash('kill -35 $$'));
    expect([viaHelper.status, viaHelper.exitCode, viaHelper.signal]).toEqual([plain.status, plain.exitCode, plain.signal]);
    expect((await bash('kill -ABRT $$')).signal).toBe('SIGABRT');
  });

  it('a payload file that will not open is a failure to prepare the hook\'s files, not a missing command', async () => {
    const started = helper.start(['/bin/cat'], '/', {}, { path: '/nonexistent/payload.json' })!;
    const error = await new Promise<Error>((resolve) => started.on('error', resolve));
    expect(error).toBeInstanceOf(PayloadFileError);
    expect(error).toMatchObject({ code: 'ENOENT', message: 'ENOENT: cannot open the payload file /nonexistent/payload.json' });
  });
});

describe('which process has a helper', () => {
  it('one that asked for it, from its eighth hook on (a few hooks are cheaper without Python)', () => {
    endSpawnHelper();
    expect(spawnHelper()).toBeUndefined();
    useSpawnHelper();
    const seen = Array.from({ length: 8 }, () => spawnHelper());
    expect(seen.slice(0, 7)).toEqual(Array(7).fill(undefined));
    expect(seen[7]).toBeInstanceOf(SpawnHelper);
    expect(spawnHelper()).toBe(seen[7]);
    helper = seen[7]!;
  });
});

describe('the start log', () => {
  it('is emptied once more than 4,096 starts are in it and nothing is in flight: a long serve never grows it without end', async () => {
    const own = new SpawnHelper();
    expect(await own.ready).toBe(true);
    const logSize = (): number => statSync(`/proc/${own.pid}/fd/3`).size;
    const runOne = (): Promise<void> => new Promise((resolve) => own.start(['/bin/true'], '/', {}, { text: '' })!.on('close', () => resolve()));
    for (let batch = 0; batch < 4200 / 50; batch++) await Promise.all(Array.from({ length: 50 }, runOne));
    // 4,200 starts of about 11 bytes: some 46 KB, had it not been emptied after the 4,096th.
    expect(logSize()).toBeLessThan(200 * 16);
    await runOne();
    expect(logSize()).toBeGreaterThan(0);
    own.close();
  });
});

describe('when the helper cannot help', () => {
  it('a helper whose Python is missing or exits at once is never ready, and hooks start directly', async () => {
    for (const python of ['/nonexistent/python3', '/bin/false']) {
      const broken = new SpawnHelper(python);
      expect(await broken.ready).toBe(false);
      expect(broken.usable).toBe(false);
      expect(broken.start(['/bin/true'], '/', {}, { text: '' })).toBeUndefined();
    }
  });

  it('a request only Node can start as it must is left to Node: an empty argv[0], a NUL or lone surrogate, an odd variable name', () => {
    expect(helper.start([''], '/', {}, { text: '' })).toBeUndefined();
    expect(helper.start(['/bin/echo', 'a\0b'], '/', {}, { text: '' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { X: '\uD800' }, { text: '' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { 'A=B': 'c' }, { text: '' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { '': 'c' }, { text: '' })).toBeUndefined();
  });

  it('a helper killed under a running hook: the hook\'s group is killed, the hook runs again directly, the verdict is the plain one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-death-'));
    const marker = join(dir, 'first-pid');
    const running = bash(`if [ -e ${marker} ]; then echo second run, parent $PPID; exit 0; fi; echo $$ > ${marker}; exec sleep 30`);
    await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'));
    const firstPid = Number(readFileSync(marker, 'utf8'));
    process.kill(helper.pid!, 'SIGKILL');
    const record = await running;
    expect(record.status).toBe('ok');
    expect(record.stdout).toBe(`second run, parent ${process.pid}\n`);
    expect(isAlive(firstPid)).toBe(false);
    expect(helper.usable).toBe(false);
    expect((await bash('echo $PPID')).stdout).toBe(`${process.pid}\n`);
  });

  it('a helper killed after a hook exited, while it waits for the pipes a grandchild holds: the exit stands, nothing runs again', async () => {
    const own = new SpawnHelper();
    expect(await own.ready).toBe(true);
    const child = own.start(['/bin/bash', '-c', '(exec sleep 30) & exit 3'], '/', {}, { text: '' })!;
    const ended = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
    await eventually(() => child.exit !== undefined);
    process.kill(own.pid!, 'SIGKILL');
    expect(await ended).toEqual([3, null]);
    expect(child.lost).toBe(false);
  });

  it('a helper that dies between starting a hook and reporting it: the hook is found in its start log, killed with its group, and run again directly', async () => {
    // A python3 that runs the helper with a kill of itself just before each report of a start.
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-dies-'));
    const python = join(dir, 'python3');
    writeFileSync(python, `#!/bin/sh\nexec ${which('python3')} -c 'import os, sys; a = sys.argv[1:]; a[-1] = a[-1].replace("    frame(b\\x27S\\x27, rid", "    os.kill(os.getpid(), 9)\\n    frame(b\\x27S\\x27, rid"); os.execv(sys.executable, [sys.executable] + a)' "$@"\n`, { mode: 0o755 });
    const dying = new SpawnHelper(python);
    expect(await dying.ready).toBe(true);
    const marker = join(dir, 'pid');
    const child = dying.start(['/bin/bash', '-c', `echo $$ > ${marker}; exec sleep 30`], '/', {}, { text: '' })!;
    const ended = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    expect(await ended).toBe('SIGKILL');
    expect(child.pid).toBeUndefined();
    expect(child.lost).toBe(true);
    const started = child.startedPid();
    expect(started).toBeGreaterThan(0);
    await eventually(() => !isAlive(started!));
    if (existsSync(marker)) expect(Number(readFileSync(marker, 'utf8'))).toBe(started);
  });

  it('stopEverything while a hook is being started kills it too, though its start was not reported yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-stop-'));
    const marker = join(dir, 'pid');
    const running = bash(`echo $$ > ${marker}.tmp; mv ${marker}.tmp ${marker}; exec sleep 30`);
    // The event loop held until the hook runs: Node cannot have read the helper's report of its start.
    const deadline = Date.now() + 20_000;
    while (!existsSync(marker) && Date.now() < deadline);
    stopEverything();
    const record = await running;
    expect(record).toMatchObject({ status: 'failed', signal: 'SIGKILL' });
    expect(isAlive(Number(readFileSync(marker, 'utf8')))).toBe(false);
  });
});

// The runner's own suite, again, through the helper.
await import('./spawn.test.js');
