// The runner on real bash child processes in temp dirs (CONTRACT §5): the
// files and environment a hook gets, how each way of ending is recorded
// (exit, result file state, timeout, signal, cancellation, launch error),
// output capture, and that nothing is left behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Execution, Hook, Run } from '../../src/core/config.js';
import type { HookContext } from '../../src/core/hook-template.js';
import { resolveInvocation } from '../../src/run/invocation.js';
import { stopEverything } from '../../src/run/live.js';
import { killGroup } from '../../src/run/process-group.js';
import { TempFiles } from '../../src/run/runtime.js';
import { MAX_TIMEOUT_MS, OUTPUT_LIMIT, RESULT_LIMIT, type RunOptions, launchFailure, promptBody, readResultFile, runHook } from '../../src/run/spawn.js';
import { testHook } from '../helpers/hook.js';
import { eventually, isAlive } from '../helpers/sandbox.js';
import { heldUnder, lowestFreeFd } from '../helpers/fd.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-spawn-'));

interface Setup {
  hook: Hook;
  ctx: HookContext;
  temp: TempFiles;
  dir: string;
}

function bashHook(script: string, over: { run?: Partial<Run>; execution?: Partial<Execution>; event?: Hook['event'] } = {}): Setup {
  const dir = temp();
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const ctx: HookContext = { configDir: join(dir, 'config'), workspace, sessionId: 's1', profile: 'Code' };
  const hook = testHook({
    file: join(dir, 'hooks.yaml'),
    ...(over.event ? { event: over.event } : {}),
    run: { type: 'command', argv: ['bash', '-c', script], args: [], env: {}, cwd: '', ...over.run } as Run,
    ...(over.execution ? { execution: over.execution } : {}),
  });
  return { hook, ctx, temp: new TempFiles(ctx.configDir), dir };
}

async function run(script: string, opts: RunOptions = {}, payload = '{"event":"before_tool_call"}', over: Parameters<typeof bashHook>[1] = {}) {
  const s = bashHook(script, over);
  const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), payload, s.temp, opts);
  return { ...s, record };
}

const tmpFiles = (s: Setup): string[] => readdirSync(join(s.ctx.configDir, 'hooks', 'tmp'));

describe('what a hook gets', () => {
  it('reads the payload on stdin and from CHRYS_HOOK_PAYLOAD_FILE, and the contract variables', async () => {
    const { record } = await run('cat; echo; cat "$CHRYS_HOOK_PAYLOAD_FILE"; echo; echo "$CHRYS_HOOK_ID $CHRYS_WORKSPACE ${CHRYS_HOOK_PROMPT_FILE-none}"; test -f "$CHRYS_HOOK_RESULT" && test ! -s "$CHRYS_HOOK_RESULT" && echo result-ready', {}, '{"p":1}');
    const [stdin, file, vars, ready] = record.stdout.split('\n');
    expect(stdin).toBe('{"p":1}');
    expect(file).toBe('{"p":1}');
    expect(vars).toMatch(/^h \/.*\/ws none$/);
    expect(ready).toBe('result-ready');
  });

  it('reads its stdin from the payload file itself, opened read-only: a regular file, not a pipe, that it cannot write', async () => {
    const { record } = await run('test -f /dev/stdin && echo regular; test -p /dev/stdin || echo not-a-pipe; echo x >&0 2>/dev/null || echo read-only', {}, '{"p":1}');
    expect(record.stdout.split('\n')).toEqual(['regular', 'not-a-pipe', 'read-only', '']);
  });

  it('hooks sharing a firing\'s payload file each read the whole of it on stdin, from the start', async () => {
    const s = bashHook('cat; echo');
    const shared = s.temp.firingFile('payload', '{"shared":true}', true);
    const records = await Promise.all([0, 1, 2].map(() => runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{"shared":true}', s.temp, { sharedPayloadFile: shared })));
    expect(records.map((r) => r.stdout)).toEqual(Array(3).fill('{"shared":true}\n'));
    const again = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{"shared":true}', s.temp, { sharedPayloadFile: shared });
    expect(again.stdout).toBe('{"shared":true}\n');
  });

  it('runs in the resolved working directory with run.env', async () => {
    const { record, ctx } = await run('pwd; echo "$GREETING"', {}, '{}', { run: { env: { GREETING: 'hi ${session_id}' } } });
    expect(record.stdout).toBe(`${ctx.workspace}\nhi s1\n`);
  });

  it('gets the body of its prompt file, front matter stripped, resolved from the hooks file', async () => {
    const s = bashHook('cat "$CHRYS_HOOK_PROMPT_FILE"', { run: { prompt_file: 'prompts/p.md' } });
    mkdirSync(join(s.dir, 'prompts'));
    writeFileSync(join(s.dir, 'prompts', 'p.md'), '---\ntitle: x\n---\nDo the thing.\n');
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'ok', stdout: 'Do the thing.\n' });
  });

  it('is not started when its prompt file cannot be read, and says which and why', async () => {
    const s = bashHook('echo ran', { run: { prompt_file: 'missing.md' } });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'launch_error', error: `cannot read prompt_file ${join(s.dir, 'missing.md')}: ENOENT`, stdout: '' });
    expect(tmpFiles(s)).toEqual([]);
  });

  it('tells onSpawn the pid of the process it started', async () => {
    let told: number | undefined;
    const { record } = await run('echo $$', { onSpawn: (pid) => (told = pid) });
    expect(told).toBe(Number(record.stdout.trim()));
  });

  it('leaves no temp file behind, whatever the hook put in place of its result file', async () => {
    const s = await run('rm "$CHRYS_HOOK_RESULT"; mkdir "$CHRYS_HOOK_RESULT"; touch "$CHRYS_HOOK_RESULT/x"');
    expect(s.record.outcome.resultFile).toEqual({ state: 'not_a_file' });
    expect(tmpFiles(s)).toEqual([]);
  });
});

describe('how a run is recorded', () => {
  it('a clean exit with a JSON result: ok, the result applied, the job done', async () => {
    const { record } = await run(`printf '{"action":"block","reason":"no"}' > "$CHRYS_HOOK_RESULT"`);
    expect(record).toMatchObject({ status: 'ok', exitCode: 0, signal: null, result: { kind: 'json', value: { action: 'block', reason: 'no' } }, disposition: 'done', historyStatus: 'ok' });
    expect(record.outcome).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cancelled: false, killedFromOutside: false, resultFile: { state: 'json' } });
    expect('launchError' in record.outcome).toBe(false);
    expect(record.outcome).toMatchObject({ timeoutMs: 30_000, argv: ['bash', '-c', expect.any(String)], cwd: expect.stringMatching(/\/ws$/), stdoutTruncated: false, stderrTruncated: false });
    expect('error' in record).toBe(false);
  });

  it('measures the duration of the run', async () => {
    const before = performance.now();
    const { record } = await run('true');
    const wall = performance.now() - before;
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
    expect(record.durationMs).toBeLessThanOrEqual(Math.ceil(wall));
    expect(record.outcome.durationMs).toBe(record.durationMs);
  });

  it('a hook that exits 0 after deleting its result file: ok with an invalid result, not a launch error', async () => {
    const { record } = await run('rm "$CHRYS_HOOK_RESULT"');
    expect(record).toMatchObject({ status: 'ok', result: { kind: 'invalid', reason: 'the result file was deleted' }, disposition: 'done' });
    expect(record.outcome.resultFile).toEqual({ state: 'absent' });
  });

  it('an empty or blank result file is no opinion; invalid JSON is an invalid result', async () => {
    expect((await run('true')).record.result).toEqual({ kind: 'none' });
    expect((await run(`printf ' \\n' > "$CHRYS_HOOK_RESULT"`)).record.result).toEqual({ kind: 'none' });
    expect((await run(`printf '{' > "$CHRYS_HOOK_RESULT"`)).record.result).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^result file is not valid JSON \(.+\)$/) });
  });

  it('a non-zero exit: failed, the result file not read', async () => {
    const { record } = await run(`printf '{"action":"block"}' > "$CHRYS_HOOK_RESULT"; echo oops >&2; exit 3`);
    expect(record).toMatchObject({ status: 'failed', exitCode: 3, error: 'exited with status 3', result: { kind: 'none' }, disposition: 'failed', historyStatus: 'failed', stderrTail: 'oops\n' });
  });

  it('a death by a signal nobody here sent: killed from outside, the job delivered again', async () => {
    const { record } = await run('kill -KILL $$');
    expect(record).toMatchObject({ status: 'failed', exitCode: null, signal: 'SIGKILL', error: 'was killed by SIGKILL', disposition: 'pending' });
    expect(record.outcome).toMatchObject({ killedFromOutside: true, timedOut: false, cancelled: false });
  });

  it('a run stopped on purpose: cancelled, not killed from outside, the job kept pending', async () => {
    const { record } = await run('kill -TERM $$', { cancelled: () => true });
    expect(record).toMatchObject({ status: 'failed', error: 'cancelled', disposition: 'pending', historyStatus: 'cancelled', signal: 'SIGTERM' });
    expect(record.outcome).toMatchObject({ cancelled: true, killedFromOutside: false });
  });

  it('asks whether it was cancelled only once the process ended', async () => {
    const { record } = await run('exit 0', { cancelled: () => false });
    expect(record).toMatchObject({ status: 'ok', historyStatus: 'ok' });
    expect(record.outcome.cancelled).toBe(false);
  });
});

describe('timeouts', () => {
  // 0.6 s: long enough for bash to fork and write the child's pid on a loaded machine.
  it('kills a hook that runs past its timeout, with everything it forked', async () => {
    const s = bashHook('sleep 30 & echo $! > "$CHRYS_WORKSPACE/child"; wait', { execution: { timeout_seconds: 0.6 } });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'timeout', signal: 'SIGTERM', error: 'timed out after 0.6 s and was killed', disposition: 'failed', historyStatus: 'timeout' });
    expect(record.outcome).toMatchObject({ timedOut: true, killedFromOutside: false, timeoutMs: 600 });
    const child = Number(readFileSync(join(s.ctx.workspace, 'child'), 'utf8'));
    await eventually(() => !isAlive(child), 10_000, 'the forked sleep to die');
  });

  it('kills what outlives SIGTERM once the hook itself has gone', async () => {
    // The forked child ignores SIGTERM and keeps stdout open after bash died of it.
    const s = bashHook(`(trap '' TERM; exec sleep 30) & echo $! > "$CHRYS_WORKSPACE/child"; wait`, { execution: { timeout_seconds: 0.6 } });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record.status).toBe('timeout');
    const child = Number(readFileSync(join(s.ctx.workspace, 'child'), 'utf8'));
    await eventually(() => !isAlive(child), 1500, 'the forked sleep to die');
  });

  it('SIGKILLs a hook that ignores SIGTERM, after the grace period', async () => {
    const { record } = await run(`trap '' TERM; sleep 30 & wait; sleep 30`, {}, '{}', { execution: { timeout_seconds: 0.6 } });
    expect(record).toMatchObject({ status: 'timeout', signal: 'SIGKILL' });
  });

  it('caps the timeout at the documented maximum', async () => {
    const { record } = await run('true', {}, '{}', { execution: { timeout_seconds: (MAX_TIMEOUT_MS / 1000) * 10 } });
    expect(record.outcome.timeoutMs).toBe(MAX_TIMEOUT_MS);
    expect(record.status).toBe('ok');
  });
});

describe('launch errors', () => {
  const launch = async (argv: string[], opts: RunOptions = {}) => {
    const s = bashHook('');
    const hook = { ...s.hook, run: { ...s.hook.run, argv } as Run };
    const record = await runHook(hook, s.ctx, resolveInvocation(hook, s.ctx), '{}', s.temp, opts);
    return { record, s };
  };

  it('names a command that does not exist', async () => {
    const { record, s } = await launch(['/nonexistent/chrys-hook']);
    expect(record).toMatchObject({ status: 'launch_error', exitCode: null, signal: null, error: 'command not found: /nonexistent/chrys-hook', disposition: 'failed', historyStatus: 'launch_error', result: { kind: 'none' } });
    expect(record.outcome).toMatchObject({ launchError: 'command not found: /nonexistent/chrys-hook', errorCode: 'ENOENT', killedFromOutside: false, resultFile: { state: 'empty' } });
    expect(tmpFiles(s)).toEqual([]);
  });

  it('names a command that cannot be executed', async () => {
    const dir = temp();
    expect((await launch([dir])).record).toMatchObject({ status: 'launch_error', error: `permission denied: ${dir} is not executable` });
  });

  it("gives the system's message for any other reason", async () => {
    const file = join(temp(), 'file');
    writeFileSync(file, '');
    const { record } = await launch([join(file, 'below')]);
    // Node throws this one from spawn() itself: still a launch error, and not one of preparing files.
    expect(record).toMatchObject({ status: 'launch_error', error: 'spawn ENOTDIR' });
    expect(record.outcome).toMatchObject({ errorCode: 'ENOTDIR', argv: [join(file, 'below')], timedOut: false, cancelled: false, killedFromOutside: false });
  });

  it('tells onSpawn nothing when nothing was started', async () => {
    const told: number[] = [];
    const { record } = await launch(['/nonexistent/chrys-hook'], { onSpawn: (pid) => told.push(pid) });
    expect(record.status).toBe('launch_error');
    expect(told).toEqual([]);
  });

  it('is never cancelled, even when asked during a drain', async () => {
    const { record } = await launch(['/nonexistent/chrys-hook'], { cancelled: () => true });
    expect(record).toMatchObject({ status: 'launch_error', historyStatus: 'launch_error' });
    expect(record.outcome.cancelled).toBe(false);
  });

  it('reports an invocation that could not be resolved without starting anything', async () => {
    const s = bashHook('echo ran > "$CHRYS_WORKSPACE/ran"', { run: { cwd: 'missing' } });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'launch_error', error: `working directory does not exist: ${join(s.ctx.workspace, 'missing')}` });
    expect(existsSync(join(s.ctx.workspace, 'ran'))).toBe(false);
  });

  it('launchFailure is the record of a hook that never ran', () => {
    expect(launchFailure('no slot')).toMatchObject({ status: 'launch_error', error: 'no slot', exitCode: null, durationMs: 0, disposition: 'failed', stdout: '', stderr: '' });
  });
});

describe('output', () => {
  it('captures stdout and stderr, and their last KiB as tails', async () => {
    const { record } = await run(`head -c 3000 /dev/zero | tr '\\0' a; echo END; printf 'e%.0s' $(seq 1500) >&2; echo ERR >&2`);
    expect(record.stdout).toBe(`${'a'.repeat(3000)}END\n`);
    expect(record.outcome.stdoutTail).toBe(`${'a'.repeat(1020)}END\n`);
    expect(record.outcome.stderrTail).toBe(`${'e'.repeat(1020)}ERR\n`);
    expect(record.stderrTail).toBe(record.outcome.stderrTail);
    expect(record.stderr).toBe(`${'e'.repeat(1500)}ERR\n`);
  });

  it('keeps only the head and tail of an output over the limit', async () => {
    const { record } = await run(`echo START; head -c ${OUTPUT_LIMIT * 2} /dev/zero | tr '\\0' a; echo; echo END`);
    expect(record.stdout.startsWith('START\n')).toBe(true);
    expect(record.stdout.endsWith('\nEND\n')).toBe(true);
    expect(record.stdout).toMatch(/\n\[\.\.\. \d+ bytes dropped \.\.\.\]\n/);
    expect(record.stdout.length).toBeLessThan(OUTPUT_LIMIT + 100);
    expect(record.outcome).toMatchObject({ stdoutTruncated: true, stderrTruncated: false });
  });

  it('ends once the hook exits, even when something it forked keeps its output open', async () => {
    const s = bashHook('sleep 60 & echo $! > "$CHRYS_WORKSPACE/child"; echo done');
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'ok', stdout: 'done\n' });
    process.kill(Number(readFileSync(join(s.ctx.workspace, 'child'), 'utf8')), 'SIGKILL');
  });

  it('runs a hook that does not read its stdin', async () => {
    const { record } = await run('exit 0', {}, 'x'.repeat(1 << 20));
    expect(record.status).toBe('ok');
  });
});

describe('what happens once the hook runs is never a launch error', () => {
  it('a throw from onSpawn leaves the hook running under its timeout, classified by how it ended', async () => {
    const s = bashHook('echo $$ > "$CHRYS_WORKSPACE/pid"; sleep 30', { execution: { timeout_seconds: 0.6 } });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, { onSpawn: () => { throw new Error('cannot note the pid'); } });
    const pid = Number(readFileSync(join(s.ctx.workspace, 'pid'), 'utf8'));
    if (isAlive(pid)) killGroup(pid, 'SIGKILL'); // what the old runner left running
    expect(record).toMatchObject({ status: 'timeout', error: 'timed out after 0.6 s and was killed', signal: 'SIGTERM' });
    expect(record.outcome).toMatchObject({ errorAfterSpawn: 'onSpawn: cannot note the pid', timedOut: true });
    expect('launchError' in record.outcome).toBe(false);
  });

  it('a throw from onSpawn does not change a clean exit 0 and its result', async () => {
    const { record } = await run(`printf '{"action":"block"}' > "$CHRYS_HOOK_RESULT"`, { onSpawn: () => { throw new Error('no'); } });
    expect(record).toMatchObject({ status: 'ok', result: { kind: 'json', value: { action: 'block' } }, disposition: 'done', historyStatus: 'ok' });
  });

  // A write lease another process holds on the result file makes opening it fail (EAGAIN) though it is a regular file.
  const leases = ((): boolean => {
    const dir = temp();
    writeFileSync(join(dir, 'f'), '');
    try {
      execFileSync('python3', ['-c', 'import fcntl,os,sys; fd=os.open(sys.argv[1], os.O_RDWR); fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)', join(dir, 'f')], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!leases)('a result file that exists but cannot be read after a clean exit is a result-file problem, not a launch error nor "not a regular file"', async () => {
    const holder = `import fcntl, os, signal, sys, time
signal.signal(signal.SIGIO, signal.SIG_IGN)
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
open(sys.argv[2], "w").close()
time.sleep(30)
`;
    const s = bashHook(`printf '{"action":"block"}' > "$CHRYS_HOOK_RESULT"; python3 -c '${holder}' "$CHRYS_HOOK_RESULT" "$CHRYS_WORKSPACE/leased" >/dev/null 2>&1 </dev/null &
for i in $(seq 1 600); do [ -e "$CHRYS_WORKSPACE/leased" ] && exit 0; sleep 0.05; done; exit 9`);
    let group = 0;
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, { onSpawn: (pid) => (group = pid) });
    killGroup(group, 'SIGKILL');
    expect(record).toMatchObject({ status: 'ok', exitCode: 0, disposition: 'done', result: { kind: 'invalid', reason: 'cannot read the result file (EAGAIN)' } });
    expect(record.outcome.resultFile).toEqual({ state: 'unreadable', reason: 'cannot read the result file (EAGAIN)' });
  });
});

describe('keepResultText', () => {
  it('keeps the text the hook wrote, whatever its exit status', async () => {
    const { record } = await run(`printf 'not json' > "$CHRYS_HOOK_RESULT"; exit 1`, { keepResultText: true });
    expect(record).toMatchObject({ status: 'failed', resultText: 'not json' });
    expect((await run(`printf 'x' > "$CHRYS_HOOK_RESULT"`)).record.resultText).toBeUndefined();
  });

  it('keeps the first 64 KiB', async () => {
    const { record } = await run(`head -c 70000 /dev/zero | tr '\\0' a > "$CHRYS_HOOK_RESULT"`, { keepResultText: true });
    expect(record.resultText).toBe('a'.repeat(64 * 1024));
  });

  it('keeps nothing when the result file is gone or not a regular file', async () => {
    expect('resultText' in (await run('rm "$CHRYS_HOOK_RESULT"', { keepResultText: true })).record).toBe(false);
    const replaced = (await run('rm "$CHRYS_HOOK_RESULT"; mkdir "$CHRYS_HOOK_RESULT"', { keepResultText: true })).record;
    expect(replaced.status).toBe('ok');
    expect('resultText' in replaced).toBe(false);
    expect('resultText' in (await run('rm "$CHRYS_HOOK_RESULT"; ln -s /etc/hostname "$CHRYS_HOOK_RESULT"', { keepResultText: true })).record).toBe(false);
  });
});

describe('what a hook leaves running', () => {
  it('is not killed when the hook itself ended in time, nor once the hook is no longer tracked', async () => {
    const s = bashHook('bash "$CHRYS_WORKSPACE/bg.sh" >/dev/null 2>&1 </dev/null & echo $! > "$CHRYS_WORKSPACE/child"');
    writeFileSync(join(s.ctx.workspace, 'bg.sh'), `trap 'echo term > "$CHRYS_WORKSPACE/term"; exit' TERM\necho > "$CHRYS_WORKSPACE/ready"\nsleep 60 & wait\n`);
    let group = 0;
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, { onSpawn: (pid) => (group = pid) });
    expect(record.status).toBe('ok');
    await eventually(() => existsSync(join(s.ctx.workspace, 'ready')), 10_000, 'the background process to set its trap');
    stopEverything();
    // Alive still, and so it handles a SIGTERM: a SIGKILL from the runner would have stopped that.
    process.kill(Number(readFileSync(join(s.ctx.workspace, 'child'), 'utf8')), 'SIGTERM');
    await eventually(() => existsSync(join(s.ctx.workspace, 'term')), 10_000, 'the background process to handle SIGTERM');
    killGroup(group, 'SIGKILL');
  });
});

describe('stopping everything while a hook runs', () => {
  it('kills the running hook and deletes its temp files at once', async () => {
    const s = bashHook('echo "$CHRYS_HOOK_PAYLOAD_FILE" > "$CHRYS_WORKSPACE/started"; sleep 30');
    const running = runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    const payloadFile = await eventually(() => readFileSync(join(s.ctx.workspace, 'started'), { encoding: 'utf8', flag: 'a+' }).trim() || undefined, 10_000, 'the hook to start');
    expect(existsSync(payloadFile)).toBe(true);
    stopEverything();
    expect(existsSync(payloadFile)).toBe(false);
    expect(await running).toMatchObject({ status: 'failed', signal: 'SIGKILL' });
  });
});

describe('foreign hooks', () => {
  const foreign = { run: { protocol: 'claude' as const } };

  it("get the agent's input on stdin and neither a payload nor a result file", async () => {
    const { record } = await run('cat; echo; echo "${CHRYS_HOOK_PAYLOAD_FILE-none} ${CHRYS_HOOK_RESULT-none}"', {}, '{"event":"before_tool_call","tool":{"name":"Bash","args":{"command":"ls"}}}', foreign);
    const [stdin, vars] = record.stdout.split('\n');
    expect(JSON.parse(stdin!)).toMatchObject({ hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } });
    expect(vars).toBe('none none');
    expect(record.outcome.resultFile).toEqual({ state: 'empty' });
  });

  it("are read by their agent's rules: exit 2 blocks with stderr as the reason", async () => {
    const { record } = await run('echo "not here" >&2; exit 2', {}, '{}', foreign);
    expect(record).toMatchObject({ status: 'ok', result: { kind: 'json', value: { action: 'block', reason: 'not here' } } });
  });

  it('a failed exit whose stdout decides is done, not failed, in the outbox and the history', async () => {
    const { record } = await run(`echo '{"decision":"block","reason":"r"}'; exit 1`, {}, '{}', foreign);
    expect(record).toMatchObject({ status: 'ok', disposition: 'done', historyStatus: 'ok', failure: 'exited with status 1' });
  });

  it('a cancelled run stays cancelled whatever its agent would read in its exit', async () => {
    const { record } = await run('echo "not here" >&2; exit 2', { cancelled: () => true }, '{}', foreign);
    expect(record).toMatchObject({ status: 'failed', error: 'cancelled', result: { kind: 'none' }, disposition: 'pending', historyStatus: 'cancelled' });
  });

  it('under on_error: block, a failed exit stays failed whatever stdout says', async () => {
    const { record } = await run(`echo '{"decision":"block","reason":"r"}'; exit 1`, {}, '{}', { run: { protocol: 'claude' }, execution: { on_error: 'block' } });
    expect(record).toMatchObject({ status: 'failed', error: 'exited with status 1', result: { kind: 'none' }, disposition: 'failed' });
    expect('failure' in record).toBe(false);
  });

  it("carry a Claude hook's answer that asks the user beside its result", async () => {
    const { record } = await run(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check"}}'`, {}, '{"event":"before_tool_call"}', foreign);
    expect(record).toMatchObject({ status: 'ok', ask: 'ask' });
  });

  it('a failed exit with nothing on stdout stays failed', async () => {
    const { record } = await run('exit 1', {}, '{}', foreign);
    expect(record).toMatchObject({ status: 'failed', disposition: 'failed', historyStatus: 'failed' });
  });

  it('have no result text to keep', async () => {
    const { record } = await run('echo "not here" >&2; exit 2', { keepResultText: true }, '{}', foreign);
    expect(record.status).toBe('ok');
    expect('resultText' in record).toBe(false);
  });

  it('are not started when the payload is not JSON, and say so', async () => {
    const s = bashHook('echo ran > "$CHRYS_WORKSPACE/ran"', foreign);
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{', s.temp, {});
    expect(record).toMatchObject({ status: 'launch_error', error: expect.stringMatching(/^cannot prepare the hook's files: /) });
    expect(existsSync(join(s.ctx.workspace, 'ran'))).toBe(false);
  });
});

describe('promptBody', () => {
  it('strips a leading front-matter block', () => {
    expect(promptBody('---\na: 1\n---\nbody\n')).toBe('body\n');
    expect(promptBody('\uFEFF---\r\na: 1\r\n---  \r\nbody')).toBe('body');
    expect(promptBody('---\na: 1\n---')).toBe('');
    expect(promptBody('---\na: 1\nb: 2\n---\n---\nkept\n')).toBe('---\nkept\n');
  });

  it('keeps a text without one', () => {
    for (const text of ['body\n---\na\n---\n', '---\nnever closed\n', ' ---\na\n---\nx', '---\na\n---x\nbody', '--- \na\n---\nb']) expect(promptBody(text)).toBe(text);
  });
});

describe('readResultFile', () => {
  const dir = temp();
  const write = (name: string, content: string): string => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };

  it('reads up to 1 MiB and refuses more, saying how big it is', () => {
    const body = '{"a":1}';
    expect(readResultFile(write('max', body + ' '.repeat(RESULT_LIMIT - body.length)))).toEqual({ state: 'json', value: { a: expect.anything() } });
    expect(readResultFile(write('over', body + ' '.repeat(RESULT_LIMIT - body.length + 1)))).toEqual({ state: 'invalid', reason: `result file is ${RESULT_LIMIT + 1} bytes, over the 1 MiB limit` });
  });

  it('says why a result is invalid', () => {
    expect(readResultFile(write('list', '[1]'))).toEqual({ state: 'invalid', reason: 'result file holds JSON that is not an object' });
    expect(readResultFile(write('null', 'null'))).toEqual({ state: 'invalid', reason: 'result file holds JSON that is not an object' });
    expect(readResultFile(write('trail', '{} x'))).toEqual({ state: 'invalid', reason: expect.stringMatching(/^result file is not valid JSON \(.+\)$/) });
  });

  it('does not block on a FIFO and does not follow a symlink to a regular file', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(readResultFile(join(dir, 'fifo'))).toEqual({ state: 'not_a_file' });
    symlinkSync(write('target', '{}'), join(dir, 'link'));
    expect(readResultFile(join(dir, 'link'))).toEqual({ state: 'not_a_file' });
  });
});

describe('what a hook gets, more', () => {
  it("gets its prompt's body when the front matter holds text in any script", async () => {
    const s = bashHook('cat "$CHRYS_HOOK_PROMPT_FILE"', { run: { prompt_file: 'p.md' } });
    writeFileSync(join(s.dir, 'p.md'), '---\ntitle: café ✓ — ünïcode\n---\nRéponds en français.\n');
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'ok', stdout: 'Réponds en français.\n' });
  });

  it('a foreign hook gets its prompt file, though no payload or result file', async () => {
    const s = bashHook('cat "$CHRYS_HOOK_PROMPT_FILE"; echo " ${CHRYS_HOOK_PAYLOAD_FILE-none} ${CHRYS_HOOK_RESULT-none}"', { run: { protocol: 'claude', prompt_file: 'p.md' } });
    writeFileSync(join(s.dir, 'p.md'), 'Check it.');
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record.stdout).toBe('Check it. none none\n');
  });

  it("a firing's hook reads the payload file the firing shares, writes its result in the firing's directory, and leaves the shared file in place", async () => {
    const s = bashHook(`echo "$CHRYS_HOOK_PAYLOAD_FILE"; echo "$CHRYS_HOOK_RESULT"; cat "$CHRYS_HOOK_PAYLOAD_FILE"; printf '{"action":"block"}' > "$CHRYS_HOOK_RESULT"`);
    const shared = s.temp.firingFile('payload', '{"p":1}', true);
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{"p":1}', s.temp, { sharedPayloadFile: shared });
    const [payloadFile, resultFile, content] = record.stdout.split('\n');
    expect(payloadFile).toBe(shared);
    expect(dirname(resultFile!)).toBe(dirname(shared));
    expect(content).toBe('{"p":1}');
    expect(record.result).toEqual({ kind: 'json', value: { action: 'block' } });
    expect(existsSync(shared)).toBe(true);
    expect(existsSync(resultFile!)).toBe(false);
    s.temp.cleanup();
    expect(existsSync(dirname(shared))).toBe(false);
  });

  it('tells onOutput each chunk of output with the stream it came on', async () => {
    const seen: Record<string, string> = { stdout: '', stderr: '' };
    const { record } = await run('echo out; echo err >&2; echo more', { onOutput: (stream, chunk) => (seen[stream] += chunk.toString()) });
    expect(seen).toEqual({ stdout: 'out\nmore\n', stderr: 'err\n' });
    expect(record.stdout).toBe('out\nmore\n');
  });

  it('notes no error after the start of a run nobody watches', async () => {
    const { record } = await run('true');
    expect(record.status).toBe('ok');
    expect(record.outcome.errorAfterSpawn).toBeUndefined();
  });
});

describe('how a run is recorded, more', () => {
  it("records the system's code when the hook's files cannot be made, and starts nothing", async () => {
    const s = bashHook('echo ran > "$CHRYS_WORKSPACE/ran"');
    s.temp.create('earlier', '');
    rmSync(join(s.ctx.configDir, 'hooks', 'tmp'), { recursive: true });
    const record = await runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{}', s.temp, {});
    expect(record).toMatchObject({ status: 'launch_error', error: expect.stringMatching(/^cannot prepare the hook's files: ENOENT/) });
    expect(record.outcome.errorCode).toBe('ENOENT');
    expect(existsSync(join(s.ctx.workspace, 'ran'))).toBe(false);
  });

  it('launchFailure records that nothing ran: no exit, no signal, no timeout, no output', () => {
    expect(launchFailure('no slot').outcome).toEqual({
      argv: [], cwd: '', exitCode: null, signal: null, timedOut: false, cancelled: false, killedFromOutside: false, launchError: 'no slot',
      stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, stdoutTail: '', stderrTail: '', durationMs: 0, resultFile: { state: 'empty' },
    });
  });

  it('keeps no result text, and does not block, when the hook put a FIFO in place of its result file', async () => {
    const { record } = await run('rm "$CHRYS_HOOK_RESULT"; mkfifo "$CHRYS_HOOK_RESULT"', { keepResultText: true });
    expect(record.status).toBe('ok');
    expect(record.outcome.resultFile).toEqual({ state: 'not_a_file' });
    expect('resultText' in record).toBe(false);
  });

  it('readResultFile calls a result path whose directory became a file not a file', () => {
    const dir = temp();
    writeFileSync(join(dir, 'plain'), '');
    expect(readResultFile(join(dir, 'plain', 'result.json'))).toEqual({ state: 'not_a_file' });
  });
});

describe('descriptors', () => {
  it('readResultFile closes the result file whatever it found', () => {
    const dir = temp();
    writeFileSync(join(dir, 'json'), '{"a":1}');
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'bad'), '{');
    mkdirSync(join(dir, 'dir'));
    const before = lowestFreeFd();
    expect(['json', 'empty', 'bad', 'dir'].map((n) => readResultFile(join(dir, n)).state)).toEqual(['json', 'empty', 'invalid', 'not_a_file']);
    expect(lowestFreeFd()).toBe(before);
  });

  it('a run that keeps its result text leaves no descriptor open', async () => {
    await run('true'); // the first run loads what the runner needs once
    const before = lowestFreeFd();
    const { record } = await run(`printf '{"action":"block"}' > "$CHRYS_HOOK_RESULT"`, { keepResultText: true });
    expect(record.resultText).toBe('{"action":"block"}');
    const replaced = await run('rm "$CHRYS_HOOK_RESULT"; mkdir "$CHRYS_HOOK_RESULT"', { keepResultText: true });
    expect('resultText' in replaced.record).toBe(false);
    expect(lowestFreeFd()).toBe(before);
  });

  it('leaves no descriptor of the payload file open in the runner, whether the hook started or not', async () => {
    const started = await run('cat >/dev/null');
    expect(started.record.status).toBe('ok');
    expect(heldUnder(started.dir)).toEqual([]);
    const missing = await run('', {}, '{}', { run: { argv: [join(started.dir, 'no-such-command')] } });
    expect(missing.record.outcome.launchError).toContain('command not found');
    expect(heldUnder(missing.dir)).toEqual([]);
  });
});
