// Starting a detach: true hook (run/detached.ts) with real processes: a start
// that fails is a launch error, one that works hands the hook its files.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type DetachedFiles, detachedFiles, launchDetached, startDetached } from '../../src/run/detached.js';
import { formatLog, logName, newRunId, pruneLogs } from '../../src/run/logs.js';
import { lowestFreeFd } from '../helpers/fd.js';
import { eventually, read } from '../helpers/sandbox.js';
import { testHook } from '../helpers/hook.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function setUp(): { root: string; files: DetachedFiles; ctx: { configDir: string; workspace: string; sessionId: string; profile: string } } {
  const root = mkdtempSync(join(tmpdir(), 'chrys-detached-'));
  roots.push(root);
  mkdirSync(join(root, 'config', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'work'));
  return {
    root,
    files: { log: join(root, 'run.log'), payload: join(root, 'run.payload.json'), prompt: join(root, 'run.prompt.md'), script: join(root, 'run.script') },
    ctx: { configDir: join(root, 'config'), workspace: join(root, 'work'), sessionId: 's', profile: '' },
  };
}

const shellHook = (shell: string, extra: Partial<Hook['run']> = {}, root = '/x'): Hook =>
  testHook({ file: join(root, 'config', 'hooks', 'hooks.yaml'), run: { type: 'shell', shell, args: [], env: {}, cwd: '', ...extra } as Hook['run'], execution: { mode: 'fire_and_forget', detach: true } });

describe('launchDetached', () => {
  it('starts the hook with its payload file, the prompt body and output to the log, and does not wait for it', async () => {
    const { root, files, ctx } = setUp();
    writeFileSync(join(root, 'config', 'hooks', 'p.md'), '---\nx: 1\n---\nthe prompt\n');
    const hook = shellHook('cat "$CHRYS_HOOK_PAYLOAD_FILE"; cat "$CHRYS_HOOK_PROMPT_FILE"; echo "result=$CHRYS_HOOK_RESULT"; pwd', { prompt_file: 'p.md' } as Partial<Hook['run']>, root);
    const launch = await launchDetached(hook, ctx, '{"event":"x"}', files);
    expect(launch).toMatchObject({ pid: expect.any(Number) });
    const log = await eventually(() => read(files.log)?.includes(ctx.workspace) && read(files.log), 10_000, 'the hook\'s output');
    expect(log).toBe(`{"event":"x"}the prompt\nresult=/dev/null\n${ctx.workspace}\n`);
    expect(statSync(files.payload).mode & 0o777).toBe(0o600);
    expect(statSync(files.log).mode & 0o777).toBe(0o600);
  });

  it('gives a foreign (run.protocol) hook its input on stdin and no Chrys files', async () => {
    const { files, ctx } = setUp();
    const hook = shellHook('cat; echo "file=${CHRYS_HOOK_PAYLOAD_FILE:-none}"', { protocol: 'claude' } as Partial<Hook['run']>);
    const launch = await launchDetached(hook, ctx, JSON.stringify({ event: 'after_tool_call', tool: { name: 'x' } }), files);
    expect(launch).toMatchObject({ pid: expect.any(Number) });
    const log = await eventually(() => read(files.log)?.includes('file=') && read(files.log), 10_000, 'the hook\'s output');
    expect(log).toContain('file=none');
    expect(log.startsWith('{')).toBe(true);
    expect(readFileSync(files.payload, 'utf8')).toBe(log.slice(0, log.indexOf('file=')).trimEnd());
  });

  it('reports a program that is missing or not executable as a launch error', async () => {
    const { root, files, ctx } = setUp();
    const missing = testHook({ run: { type: 'command', argv: [join(root, 'nope')], args: [], env: {}, cwd: '' } });
    expect(await launchDetached(missing, ctx, '{}', files)).toEqual({ launchError: `command not found: ${join(root, 'nope')}` });
    const dir = testHook({ run: { type: 'command', argv: [root], args: [], env: {}, cwd: '' } });
    expect(await launchDetached(dir, ctx, '{}', { ...files, payload: `${files.payload}.2` })).toEqual({ launchError: `permission denied: ${root} is not executable` });
  });

  it('reports an invocation that cannot be resolved, a missing prompt file and an unwritable payload file as launch errors', async () => {
    const { root, files, ctx } = setUp();
    const badCwd = testHook({ run: { type: 'command', argv: ['true'], args: [], env: {}, cwd: 'missing-dir' } });
    expect(await launchDetached(badCwd, ctx, '{}', files)).toEqual({ launchError: `working directory does not exist: ${join(ctx.workspace, 'missing-dir')}` });
    const noPrompt = shellHook('true', { prompt_file: 'gone.md' } as Partial<Hook['run']>, root);
    expect(await launchDetached(noPrompt, ctx, '{}', files)).toEqual({ launchError: `cannot read prompt_file ${join(root, 'config', 'hooks', 'gone.md')}: ENOENT` });
    const launch = await launchDetached(shellHook('true'), ctx, '{}', { ...files, payload: join(root, 'no-dir', 'p.json') });
    expect(launch).toMatchObject({ launchError: expect.stringMatching(/^cannot prepare the hook's files: ENOENT/) });
  });
});

describe('launchDetached, what the hook gets and what is left open', () => {
  it('gives a hook without a prompt_file no CHRYS_HOOK_PROMPT_FILE', async () => {
    const { files, ctx } = setUp();
    const launch = await launchDetached(shellHook('echo "prompt=${CHRYS_HOOK_PROMPT_FILE-unset}"'), ctx, '{}', files);
    expect(launch).toMatchObject({ pid: expect.any(Number) });
    expect(await eventually(() => read(files.log)?.includes('\n') && read(files.log), 10_000, 'the hook\'s output')).toBe('prompt=unset\n');
    expect(existsSync(files.prompt)).toBe(false);
  });

  it('writes the prompt body as an owner-only file, front matter in any script stripped', async () => {
    const { root, files, ctx } = setUp();
    writeFileSync(join(root, 'config', 'hooks', 'p.md'), '---\ntitle: café ✓ — ünïcode\n---\nRéponds en français.\n');
    const hook = shellHook('cat "$CHRYS_HOOK_PROMPT_FILE"', { prompt_file: 'p.md' } as Partial<Hook['run']>, root);
    expect(await launchDetached(hook, ctx, '{}', files)).toMatchObject({ pid: expect.any(Number) });
    expect(await eventually(() => read(files.log)?.endsWith('\n') && read(files.log), 10_000, 'the hook\'s output')).toBe('Réponds en français.\n');
    expect(readFileSync(files.prompt, 'utf8')).toBe('Réponds en français.\n');
    expect(statSync(files.prompt).mode & 0o777).toBe(0o600);
  });

  it('never overwrites a payload or prompt file that is already there', async () => {
    const { root, files, ctx } = setUp();
    writeFileSync(files.payload, 'an earlier run\'s payload');
    const launch = await launchDetached(shellHook('echo ran'), ctx, '{"event":"x"}', files);
    expect(launch).toMatchObject({ launchError: expect.stringMatching(/^cannot prepare the hook's files: EEXIST/) });
    expect(readFileSync(files.payload, 'utf8')).toBe('an earlier run\'s payload');
    writeFileSync(join(root, 'config', 'hooks', 'p.md'), 'the prompt');
    writeFileSync(files.prompt, 'an earlier run\'s prompt');
    const withPrompt = shellHook('echo ran', { prompt_file: 'p.md' } as Partial<Hook['run']>, root);
    const second = await launchDetached(withPrompt, ctx, '{}', { ...files, payload: `${files.payload}.2` });
    expect(second).toMatchObject({ launchError: expect.stringMatching(/^cannot prepare the hook's files: EEXIST/) });
    expect(readFileSync(files.prompt, 'utf8')).toBe('an earlier run\'s prompt');
  });

  it('closes every descriptor it opened for the hook, a foreign hook\'s stdin among them', async () => {
    const { files, ctx } = setUp();
    const before = lowestFreeFd();
    expect(await launchDetached(shellHook('cat >/dev/null'), ctx, '{}', files)).toMatchObject({ pid: expect.any(Number) });
    expect(lowestFreeFd()).toBe(before);
    const foreign = { log: `${files.log}.2`, payload: `${files.payload}.2`, prompt: `${files.prompt}.2`, script: `${files.script}.2` };
    expect(await launchDetached(shellHook('cat >/dev/null', { protocol: 'claude' } as Partial<Hook['run']>), ctx, '{}', foreign)).toMatchObject({ pid: expect.any(Number) });
    expect(lowestFreeFd()).toBe(before);
    const failing = { log: `${files.log}.3`, payload: `${files.payload}.3`, prompt: `${files.prompt}.3`, script: `${files.script}.3` };
    const missing = testHook({ run: { type: 'command', argv: [join(ctx.workspace, 'nope')], args: [], env: {}, cwd: '' }, execution: { mode: 'fire_and_forget', detach: true } });
    expect(await launchDetached(missing, ctx, '{}', failing)).toMatchObject({ launchError: expect.any(String) });
    expect(lowestFreeFd()).toBe(before);
  });

  it('reports a spawn that the system refuses at once (a path through a file) as a launch error', async () => {
    const { root, files, ctx } = setUp();
    writeFileSync(join(root, 'file'), '');
    const hook = testHook({ run: { type: 'command', argv: [join(root, 'file', 'below')], args: [], env: {}, cwd: '' }, execution: { mode: 'fire_and_forget', detach: true } });
    expect(await launchDetached(hook, ctx, '{}', files)).toEqual({ launchError: 'spawn ENOTDIR' });
  });
});

describe('detachedFiles', () => {
  it('puts a run\'s log, payload, prompt and script copy in hooks/logs, named after the run (and the hook for the log)', () => {
    const { root } = setUp();
    const config = join(root, 'config');
    const logs = join(config, 'hooks', 'logs');
    expect(detachedFiles(config, 'r1', 'fmt py')).toEqual({ log: join(logs, logName('r1', 'fmt py')), payload: join(logs, 'r1.payload.json'), prompt: join(logs, 'r1.prompt.md'), script: join(logs, 'r1.script') });
    expect(statSync(logs).mode & 0o777).toBe(0o700);
  });

  it('names files that the seven-day prune of the logs removes with the log, the script copy directory whole', () => {
    const { root } = setUp();
    const config = join(root, 'config');
    const files = detachedFiles(config, newRunId(), 'h');
    for (const f of [files.log, files.payload, files.prompt]) writeFileSync(f, 'x');
    mkdirSync(join(files.script, 'scripts'), { recursive: true });
    writeFileSync(join(files.script, 'scripts', 'a.sh'), 'x');
    pruneLogs(config, Date.now() + 60_000);
    expect(readdirSync(join(config, 'hooks', 'logs'))).toEqual([]);
  });
});

describe('startDetached', () => {
  const detachedHook = (run: Hook['run']): Hook => testHook({ id: 'bg', run, execution: { mode: 'fire_and_forget', detach: true } });

  it('starts the hook with its output going to its log in hooks/logs, and returns its pid and that log', async () => {
    const { ctx } = setUp();
    const hook = detachedHook({ type: 'shell', shell: 'echo "started $$"', env: {}, cwd: '' });
    const start = await startDetached(hook, ctx, '{}', 'r1');
    const logPath = join(ctx.configDir, 'hooks', 'logs', logName('r1', 'bg'));
    expect(start).toEqual({ pid: expect.any(Number), logPath });
    const pid = (start as { pid: number }).pid;
    expect(await eventually(() => read(logPath)?.endsWith('\n') && read(logPath), 10_000, 'the hook\'s output')).toBe(`started ${pid}\n`);
  });

  it('records a hook that cannot start as a launch error, whose owner-only log says why', async () => {
    const { ctx } = setUp();
    const program = join(ctx.workspace, 'missing-program');
    const hook = detachedHook({ type: 'command', argv: [program], args: [], env: {}, cwd: '' });
    const start = await startDetached(hook, ctx, '{}', 'r1');
    const logs = join(ctx.configDir, 'hooks', 'logs');
    const logPath = join(logs, logName('r1', 'bg'));
    expect(start).toEqual({ failure: expect.objectContaining({ status: 'launch_error', error: `command not found: ${program}`, disposition: 'failed' }), logPath });
    const { failure } = start as { failure: Parameters<typeof formatLog>[1] };
    expect(readFileSync(logPath, 'utf8')).toBe(formatLog(hook, failure));
    expect(readFileSync(logPath, 'utf8')).toContain(`launch_error exit=- signal=- 0 ms: command not found: ${program}\n`);
    expect(statSync(logPath).mode & 0o777).toBe(0o600);
    expect(readdirSync(logs).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('records a launch error without a log when the logs directory cannot be made', async () => {
    const { ctx } = setUp();
    writeFileSync(join(ctx.configDir, 'hooks', 'logs'), 'a file, not a directory');
    const start = await startDetached(detachedHook({ type: 'shell', shell: 'true', env: {}, cwd: '' }), ctx, '{}', 'r1');
    expect(start).toEqual({ failure: expect.objectContaining({ status: 'launch_error', error: expect.stringMatching(/^cannot prepare the hook's files: /) }) });
    expect('logPath' in start).toBe(false);
  });

  it('returns the failure without a log path when even the failure log cannot be written, and leaves no temp file', async () => {
    const { ctx } = setUp();
    const logs = join(ctx.configDir, 'hooks', 'logs');
    // A directory where the log would go: the hook cannot start, and its log cannot replace it.
    mkdirSync(join(logs, logName('r1', 'bg')), { recursive: true });
    const start = await startDetached(detachedHook({ type: 'shell', shell: 'true', env: {}, cwd: '' }), ctx, '{}', 'r1');
    expect(start).toEqual({ failure: expect.objectContaining({ status: 'launch_error', error: expect.stringMatching(/^cannot prepare the hook's files: EISDIR/) }) });
    expect('logPath' in start).toBe(false);
    expect(readdirSync(logs).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
