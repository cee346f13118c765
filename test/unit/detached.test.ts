// Starting a detach: true hook (run/detached.ts) with real processes: a start
// that fails is a launch error, one that works hands the hook its files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type DetachedFiles, launchDetached } from '../../src/run/detached.js';
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
