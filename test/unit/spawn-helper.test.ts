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
import { type HelperChild, PayloadFileError, SpawnHelper, endSpawnHelper, spawnHelper, startSpawnHelper, useSpawnHelper } from '../../src/run/spawn-helper.js';
import { which } from '../../src/base/interpreter.js';
import { KILL_GRACE_MS, runHook } from '../../src/run/spawn.js';
import { testHook } from '../helpers/hook.js';
import { eventually, isAlive } from '../helpers/sandbox.js';

let helper: SpawnHelper;
let runs = 0;
/** The environment of a run as the runner gives it: a result file of its own. */
const RUN_ENV = (): Record<string, string> => ({ CHRYS_HOOK_RESULT: join(tmpdir(), `chrys-helper-test-result-${process.pid}-${++runs}`) });
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
    // Field 6 of /proc/PID/stat is the session id (after the command in parentheses).
    const record = await bash('echo $$; cut -d" " -f6 /proc/$$/stat');
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
    const sid = (pid: number): number => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
    };
    expect(sid(helper.pid!)).toBe(helper.pid);
    expect(sid(helper.pid!)).not.toBe(sid(process.pid));
  });

  it('a hook that cannot start (its cwd gone) is a launch error, and the helper goes on starting the next', async () => {
    const s = setup(['/bin/true']);
    const started = helper.start(['/bin/true'], join(s.dir, 'gone'), RUN_ENV(), { path: '/dev/null' })!;
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => started.on('error', resolve));
    expect(error.code).toBe('ENOENT');
    expect(helper.usable).toBe(true);
    expect((await bash('echo $PPID')).stdout).toBe(`${helper.pid}\n`);
  });

  it('get the environment given, exactly, and the whole payload file on stdin', async () => {
    const s = setup(['bash', '-c', 'printf "%s|" "$ONE" "$TWO" "$PPID"; wc -c'], { env: { ONE: 'é ü', TWO: 'a=b' } });
    const payload = JSON.stringify({ event: 'before_tool_call', big: 'x'.repeat(1 << 20) });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), payload, s.temp, {});
    expect(record.stdout).toBe(`é ü|a=b|${helper.pid}|${Buffer.byteLength(payload)}\n`);
  });

  it('a foreign hook (stdin text, no result file to find it by) is left to Node', async () => {
    const s = setup(['bash', '-c', 'echo $PPID; cat >/dev/null']);
    const foreign = { ...s.hook, run: { ...s.hook.run, protocol: 'claude' } } as Hook;
    const record = await runHook(foreign, s.ctx, resolveInvocation(foreign, s.ctx), '{"event":"before_tool_call","tool":{"name":"Bash","args":{"command":"ls"}}}', s.temp, {});
    expect(record.stdout).toBe(`${process.pid}\n`);
  });
});

/** A python3 for SpawnHelper that runs the helper's program with `from` replaced by `to` (Python source, \x27 for a quote). */
function rewritingPython(dir: string, from: string, to: string): string {
  const python = join(dir, 'python3');
  writeFileSync(python, `#!/bin/sh\nexec ${which('python3')} -c 'import os, sys; a = sys.argv[1:]; assert "${from}" in a[-1]; a[-1] = a[-1].replace("${from}", "${to}"); os.execv(sys.executable, [sys.executable] + a)' "$@"\n`, { mode: 0o755 });
  return python;
}

/**
 * A hook that notes its pid in `marker` and sleeps, started by a helper whose program has `from` replaced by
 * `to` (to kill itself at that point); `ended` is the signal the run ends with.
 */
async function hookUnderDyingHelper(from: string, to: string): Promise<{ child: HelperChild; marker: string; ended: Promise<string | null> }> {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-dies-'));
  const dying = new SpawnHelper(rewritingPython(dir, from, to));
  expect(await dying.ready).toBe(true);
  const marker = join(dir, 'pid');
  const child = dying.start(['/bin/sh', '-c', `echo $$ > ${marker}.tmp; mv ${marker}.tmp ${marker}; exec sleep 30`], '/', RUN_ENV(), { path: '/dev/null' })!;
  const ended = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return { child, marker, ended };
}

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
    const started = helper.start(['/bin/cat'], '/', RUN_ENV(), { path: '/nonexistent/payload.json' })!;
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
    const runOne = (): Promise<void> => new Promise((resolve) => own.start(['/bin/true'], '/', RUN_ENV(), { path: '/dev/null' })!.on('close', () => resolve()));
    await Promise.all(Array.from({ length: 50 }, runOne));
    const perStart = logSize() / 50; // its P, S and X lines
    for (let batch = 1; batch < 4200 / 50; batch++) await Promise.all(Array.from({ length: 50 }, runOne));
    // 4,200 starts' lines had it not been emptied after the 4,096th; the 104 since, once it was.
    expect(logSize()).toBeLessThan(150 * perStart);
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
      expect(broken.start(['/bin/true'], '/', RUN_ENV(), { path: '/dev/null' })).toBeUndefined();
    }
  });

  it('a request only Node can start as it must is left to Node: an empty argv[0], a NUL or lone surrogate, an odd variable name', () => {
    expect(helper.start([''], '/', RUN_ENV(), { path: '/dev/null' })).toBeUndefined();
    expect(helper.start(['/bin/echo', 'a\0b'], '/', RUN_ENV(), { path: '/dev/null' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { ...RUN_ENV(), X: '\uD800' }, { path: '/dev/null' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { ...RUN_ENV(), 'A=B': 'c' }, { path: '/dev/null' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', { ...RUN_ENV(), '': 'c' }, { path: '/dev/null' })).toBeUndefined();
    // A run without a result file of its own could not be found again if the helper died starting it.
    expect(helper.start(['/bin/echo'], '/', {}, { path: '/dev/null' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', RUN_ENV(), { text: '' })).toBeUndefined();
    expect(helper.start(['/bin/echo'], '/', RUN_ENV(), { path: '/dev/null' })).toBeDefined();
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

  it('a helper stopped (SIGSTOP) under a hook: at its timeout the group is killed, the helper given up, and the hook run again directly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-stopped-'));
    const marker = join(dir, 'runs');
    const s = setup(['bash', '-c', `echo $$ $PPID >> ${marker}; exec sleep 30`]);
    s.hook.execution.timeout_seconds = 0.5;
    const stoppedHelper = helper.pid!;
    const running = runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'));
    const [hookPid] = readFileSync(marker, 'utf8').trim().split(' ').map(Number);
    process.kill(stoppedHelper, 'SIGSTOP');
    const record = await running;
    // The direct run times out as well: the verdict is the plain path's.
    expect(record.status).toBe('timeout');
    const runs = readFileSync(marker, 'utf8').trim().split('\n');
    expect(runs).toHaveLength(2);
    expect(Number(runs[1]!.split(' ')[1])).toBe(process.pid);
    expect(isAlive(hookPid!)).toBe(false);
    await eventually(() => !isAlive(stoppedHelper));
    expect(helper.usable).toBe(false);
  });

  it('a hook that exited while its helper was stopped keeps the plain verdict, not a timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-stopped-'));
    const marker = join(dir, 'runs');
    const s = setup(['bash', '-c', `echo $$ >> ${marker}; sleep 0.3; exit 0`]);
    s.hook.execution.timeout_seconds = 1;
    const running = runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    await eventually(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'));
    process.kill(helper.pid!, 'SIGSTOP');
    // Its exit went unreported (a zombie of the stopped helper): it is run again directly, as on the helper's death.
    expect((await running).status).toBe('ok');
  });

  it('a hook the stopped helper never started runs directly once the helper is given up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-stopped-'));
    const marker = join(dir, 'runs');
    const pid = helper.pid!;
    process.kill(pid, 'SIGSTOP');
    await eventually(() => { const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); return stat[stat.lastIndexOf(')') + 2] === 'T'; });
    const s = setup(['bash', '-c', `echo $$ >> ${marker}`]);
    s.hook.execution.timeout_seconds = 0.5;
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record.status).toBe('ok');
    expect(readFileSync(marker, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a helper that runs is never given up, though our event loop was too busy to read its report in time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-busy-'));
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    const sa = setup(['bash', '-c', `trap '' TERM; echo $$ >> ${a}; exec sleep 30`]);
    sa.hook.execution.timeout_seconds = 0.5;
    const sb = setup(['bash', '-c', `echo $$ >> ${b}; sleep 5; exit 0`]);
    // A stall of ours just as the wait for the report of A's killed group starts: the report is then in the pipe,
    // but the timer that would give up on the helper is due first.
    const real = globalThis.setTimeout;
    const stalling = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms === KILL_GRACE_MS && fn.name === 'unresponsive') setImmediate(() => { const until = Date.now() + KILL_GRACE_MS + 100; while (Date.now() < until); });
      return real(fn, ms, ...rest);
    }) as typeof setTimeout;
    globalThis.setTimeout = stalling;
    try {
      const runs = [sa, sb].map((s) => runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {}));
      const [ra, rb] = await Promise.all(runs);
      expect([ra!.status, rb!.status]).toEqual(['timeout', 'ok']);
    } finally {
      globalThis.setTimeout = real;
    }
    expect(readFileSync(b, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(helper.usable).toBe(true);
  });

  it('a helper killed after a hook exited, while it waits for the pipes a grandchild holds: the exit stands, nothing runs again', async () => {
    const own = new SpawnHelper();
    expect(await own.ready).toBe(true);
    const child = own.start(['/bin/bash', '-c', '(exec sleep 30) & exit 3'], '/', RUN_ENV(), { path: '/dev/null' })!;
    const ended = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
    await eventually(() => child.exit !== undefined);
    process.kill(own.pid!, 'SIGKILL');
    expect(await ended).toEqual([3, null]);
    expect(child.lost).toBe(false);
  });

  it('a helper that dies between starting a hook and reporting it: the hook is found in its start log, killed with its group, and run again directly', async () => {
    // The helper kills itself just before each report of a start.
    const { child, marker, ended } = await hookUnderDyingHelper("    frame(b\\x27S\\x27, rid", "    os.kill(os.getpid(), 9)\\n    frame(b\\x27S\\x27, rid");
    expect(await ended).toBe('SIGKILL');
    expect(child.pid).toBeUndefined();
    expect(child.lost).toBe(true);
    const started = child.startedPid();
    expect(started).toBeGreaterThan(0);
    await eventually(() => !isAlive(started!));
    if (existsSync(marker)) expect(Number(readFileSync(marker, 'utf8'))).toBe(started);
  });

  it('a helper that dies inside posix_spawn (the hook exec\'d, its start in no log): the hook is found by its result file, killed, and run again', async () => {
    // The helper kills itself as posix_spawn returns, before it logs the start.
    const { child, marker, ended } = await hookUnderDyingHelper("    if not log(b\\x27S ", "    os.kill(os.getpid(), 9)\\n    if not log(b\\x27S ");
    // The event loop held until the hook runs, so the helper's death is seen only once it does.
    const deadline = Date.now() + 20_000;
    while (!existsSync(marker) && Date.now() < deadline);
    expect(await ended).toBe('SIGKILL');
    expect(child.startedPid()).toBeUndefined();
    expect(child.lost).toBe(true);
    await eventually(() => !isAlive(Number(readFileSync(marker, 'utf8'))));
  });

  it('a helper killed after a hook exited, before we read its reports: its output and exit are read, and stand', async () => {
    const own = new SpawnHelper();
    expect(await own.ready).toBe(true);
    // The output well before the exit: the helper relays output as it reads it, but logs the exit at once (SIGCHLD),
    // so output still in the hook's pipe when it dies is cut short (documented), and the test would race with it.
    const child = own.start(['/bin/sh', '-c', 'echo its output; sleep 0.3; exit 4'], '/', RUN_ENV(), { path: '/dev/null' })!;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = new Promise<[number | null, string | null, string]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal, output])));
    // The event loop held until the start log says the hook exited; then the helper dies, its frames unread.
    const deadline = Date.now() + 20_000;
    while (!/^X \d+ exit \d+$/m.test(readFileSync(`/proc/${own.pid}/fd/3`, 'latin1')) && Date.now() < deadline);
    process.kill(own.pid!, 'SIGKILL');
    // A request to the dead helper fails to write (EPIPE): that alone must not settle the runs before its frames are read.
    expect(own.start(['/bin/true'], '/', RUN_ENV(), { path: '/dev/null' })).toBeDefined();
    expect(await ended).toEqual([4, null, 'its output\n']);
    expect(child.lost).toBe(false);
  });

  it('a start log it cannot write to: the hook is not started, a launch error, and the helper goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-full-'));
    const python = join(dir, 'python3');
    writeFileSync(python, `#!/bin/sh\nulimit -f 0\nexec ${which('python3')} "$@"\n`, { mode: 0o755 });
    const full = new SpawnHelper(python);
    expect(await full.ready).toBe(true);
    const marker = join(dir, 'ran');
    const started = full.start(['/bin/sh', '-c', `touch ${marker}`], '/', RUN_ENV(), { path: '/dev/null' })!;
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => started.on('error', resolve));
    expect(error.code).toBe('EIO');
    expect(existsSync(marker)).toBe(false);
    expect(full.usable).toBe(true);
    full.close();
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

  it('stopEverything with the helper stopped (SIGSTOP): it is woken to act on its SIGTERM, not left behind stopped', async () => {
    const own = new SpawnHelper();
    expect(await own.ready).toBe(true);
    const pid = own.pid!;
    const state = (): string => { const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); return stat[stat.lastIndexOf(')') + 2]!; };
    process.kill(pid, 'SIGSTOP');
    await eventually(() => state() === 'T');
    stopEverything();
    await eventually(() => state() !== 'T');
    // Woken, it ends once its stdin closes, as it does when we exit.
    own.close();
    await eventually(() => !isAlive(pid));
  });
});

// The runner's own suite, again, through the helper.
await import('./spawn.test.js');
