// Foreign hooks (`run.protocol`): the agent's input built from the envelope,
// and a run re-read by the agent's rules, with on_error: block keeping a
// failed exit a failure whatever stdout says.
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import type { AgentRun } from '../../src/core/protocols/foreign-output.js';
import { foreignInput, foreignOutcome } from '../../src/run/foreign.js';
import { testHook } from '../helpers/hook.js';

const foreignHook = (protocol: 'claude' | 'codex' | 'gemini' | undefined, over: Partial<Hook['execution']> = {}, event: Hook['event'] = 'before_tool_call'): Hook =>
  testHook({ event, run: { type: 'command', argv: ['x'], args: [], env: {}, cwd: '', ...(protocol ? { protocol } : {}) }, execution: over });

const failed = (exitCode: number | null, stdout: string, over: Partial<AgentRun> = {}): AgentRun => ({
  status: 'failed', exitCode, signal: null, durationMs: 1, error: `exited with status ${exitCode}`, stderrTail: '', result: { kind: 'none' }, stdout, stderr: '', ...over,
});

const BLOCKING_STDOUT = '{"decision":"block","reason":"r"}';

describe('foreignInput', () => {
  it('is nothing for a Chrys hook', () => {
    expect(foreignInput(foreignHook(undefined), '{}')).toBeUndefined();
  });

  it("is the agent's input as JSON text, with the agent's event name", () => {
    const input = foreignInput(foreignHook('claude'), '{"event":"before_tool_call","session_id":"s","tool":{"name":"Bash","args":{"command":"ls"}}}')!;
    expect(input.agentEvent).toBe('PreToolUse');
    expect(JSON.parse(input.stdin)).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(foreignInput(foreignHook('gemini'), '{}')!.agentEvent).toBe('BeforeTool');
  });

  it('reads a payload that is JSON but not an object as an empty envelope', () => {
    expect(JSON.parse(foreignInput(foreignHook('claude'), '[1]')!.stdin)).toMatchObject({ hook_event_name: 'PreToolUse', session_id: '' });
  });

  it("falls back to the hook's event when the agent's input names none", () => {
    const input = foreignInput(foreignHook('claude', {}, 'after_tool_call'), '{"agent_protocol":"claude","session_id":"s"}')!;
    expect(JSON.parse(input.stdin).hook_event_name).toBeUndefined();
    expect(input.agentEvent).toBe('after_tool_call');
  });

  it('throws on a payload that is not JSON', () => {
    expect(() => foreignInput(foreignHook('claude'), '{')).toThrow();
  });
});

describe('foreignOutcome', () => {
  const input = (hook: Hook) => foreignInput(hook, '{}')!;

  it('leaves the run of a Chrys hook as it is', () => {
    const run = failed(1, BLOCKING_STDOUT);
    expect(foreignOutcome(foreignHook(undefined), { stdin: '', agentEvent: 'PreToolUse' }, run)).toBe(run);
  });

  it('lets a JSON object on stdout decide after a failed exit, keeping the failure', () => {
    const hook = foreignHook('claude');
    expect(foreignOutcome(hook, input(hook), failed(1, BLOCKING_STDOUT))).toMatchObject({ status: 'ok', result: { kind: 'json', value: { action: 'block', reason: 'r' } }, failure: 'exited with status 1' });
    expect(foreignOutcome(hook, input(hook), failed(1, BLOCKING_STDOUT, { error: undefined })).failure).toBe('exited with status 1');
    expect(foreignOutcome(hook, input(hook), failed(7, BLOCKING_STDOUT, { error: 'custom' })).failure).toBe('custom');
  });

  it('under on_error: block, a failed exit stays a failure whatever stdout says', () => {
    const hook = foreignHook('claude', { on_error: 'block' });
    const run = failed(1, BLOCKING_STDOUT);
    expect(foreignOutcome(hook, input(hook), run)).toBe(run);
  });

  it('under on_error: block, exit 2 still blocks by the rules of the agent', () => {
    const hook = foreignHook('claude', { on_error: 'block' });
    expect(foreignOutcome(hook, input(hook), failed(2, '', { stderr: 'no' }))).toMatchObject({ status: 'ok', result: { kind: 'json', value: { action: 'block', reason: 'no' } } });
    expect(foreignOutcome(hook, input(hook), failed(2, '', { stderr: 'no' })).failure).toBeUndefined();
  });

  it('a run that is no failed exit keeps no failure', () => {
    const hook = foreignHook('claude');
    const ok: AgentRun = { ...failed(0, BLOCKING_STDOUT), status: 'ok', error: undefined };
    expect(foreignOutcome(hook, input(hook), ok)).toMatchObject({ status: 'ok', result: { kind: 'json' } });
    expect(foreignOutcome(hook, input(hook), ok).failure).toBeUndefined();
    const killed = failed(null, BLOCKING_STDOUT, { error: 'was killed by SIGKILL', signal: 'SIGKILL' });
    expect(foreignOutcome(hook, input(hook), killed)).toMatchObject({ status: 'failed', error: 'was killed by SIGKILL' });
    expect(foreignOutcome(hook, input(hook), killed).failure).toBeUndefined();
  });

  it('a failed exit that stdout does not turn into a decision stays failed, without a failure note', () => {
    const hook = foreignHook('claude');
    const out = foreignOutcome(hook, input(hook), failed(1, 'plain text'));
    expect(out).toMatchObject({ status: 'failed', error: 'exited with status 1' });
    expect(out.failure).toBeUndefined();
  });
});
