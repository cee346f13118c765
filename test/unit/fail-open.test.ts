// The pure parts of "no way to fail open": which hooks --fail-closed turns
// into blocks, how a hook's ask or defer merges and is answered under each
// protocol, refused input's deny, and the JSON form of every reply.
import { describe, expect, it } from 'vitest';
import { type Chain, type Decision, type Outcome, applyOutcome, emptyDecision } from '../../src/core/decide.js';
import type { JsonObject } from '../../src/core/json.js';
import type { EventName } from '../../src/core/events.js';
import { failClosedFrom, failClosedHook } from '../../src/core/fail-closed.js';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { refusedInputReply } from '../../src/core/protocols/refused-input.js';
import { decisionToReply, replyObject } from '../../src/core/protocols/reply.js';
import { testHook } from '../helpers/hook.js';

const chain = (event: EventName = 'before_tool_call'): Chain => ({ decision: emptyDecision(event), args: {}, argsModified: false });
const outcome = (extra: Partial<Outcome>): Outcome => ({ status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result: { kind: 'none' }, ...extra });
const failed: Outcome = outcome({ status: 'failed', exitCode: 1, error: 'exited with status 1', stderrTail: 'TypeError' });

describe('failClosedHook', () => {
  it('makes a blocking guard of a guarded event block on failure, unless on_error: ignore is written', () => {
    expect(failClosedHook(testHook(), 'before_tool_call').execution.on_error).toBe('block');
    expect(failClosedHook(testHook({ execution: { on_error: 'warn', on_error_explicit: true } }), 'user_prompt_submit').execution.on_error).toBe('block');
    expect(failClosedHook(testHook({ execution: { on_error: 'ignore' } }), 'permission_request').execution.on_error).toBe('block');
    const ignore = testHook({ execution: { on_error: 'ignore', on_error_explicit: true } });
    expect(failClosedHook(ignore, 'before_tool_call')).toBe(ignore);
    const observer = testHook({ event: 'after_tool_call' });
    expect(failClosedHook(observer, 'after_tool_call')).toBe(observer);
    const async = testHook({ execution: { mode: 'async' } });
    expect(failClosedHook(async, 'before_tool_call')).toBe(async);
  });

  it('a failed guard run through it blocks with a reason naming the hook and the failure', () => {
    const c = chain();
    applyOutcome(c, failClosedHook(testHook({ id: 'guard' }), 'before_tool_call'), failed);
    expect(c.decision).toMatchObject({ blocked: true, reason: 'hook "guard" failed (exited with status 1): TypeError', blocked_by: { id: 'guard' } });
  });

  it('tells an on_error written in the file from the default', () => {
    const hook = (execution: object) => normaliseHooksFile({ hooks: [{ id: 'a', event: 'before_tool_call', run: { type: 'shell', shell: 'true' }, execution }] } as never, 'global', '/x/hooks.yaml').hooks[0]!;
    expect([hook({}).execution.on_error, hook({}).execution.on_error_explicit]).toEqual(['warn', undefined]);
    expect([hook({ on_error: 'ignore' }).execution.on_error, hook({ on_error: 'ignore' }).execution.on_error_explicit]).toEqual(['ignore', true]);
  });

  it('reads --fail-closed or CHRYS_HOOKS_FAIL_CLOSED=1', () => {
    expect([failClosedFrom(true, {}), failClosedFrom(undefined, { CHRYS_HOOKS_FAIL_CLOSED: '1' }), failClosedFrom(undefined, { CHRYS_HOOKS_FAIL_CLOSED: '0' }), failClosedFrom(false, {})]).toEqual([true, true, false, false]);
  });
});

describe('ask and defer', () => {
  it('merge on a tool call as the agents merge them (deny > defer > ask), beside an args rewrite', () => {
    const c = chain();
    applyOutcome(c, testHook({ id: 'a' }), outcome({ ask: 'ask', result: { kind: 'json', value: { action: 'modify', args: { command: 'x' } } } }));
    expect(c.decision.permission).toBe('ask');
    applyOutcome(c, testHook({ id: 'b' }), outcome({ ask: 'defer' }));
    applyOutcome(c, testHook({ id: 'c' }), outcome({ ask: 'ask' }));
    expect(c.decision.permission).toBe('defer');
    applyOutcome(c, testHook({ id: 'd' }), outcome({ result: { kind: 'json', value: { action: 'block', reason: 'no' } } }));
    expect(c.decision).toMatchObject({ blocked: true, reason: 'no' });
    const elsewhere = chain('user_prompt_submit');
    applyOutcome(elsewhere, testHook(), outcome({ ask: 'ask' }));
    expect(elsewhere.decision.permission).toBeNull();
  });

  const asked = (permission: 'ask' | 'defer', args: JsonObject | null = null): Decision => ({ ...emptyDecision('before_tool_call'), permission, args });

  it.each([
    ['claude', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } }],
    ['codex', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('Codex cannot do') } }],
    ['gemini', 'BeforeTool', { decision: 'deny', reason: expect.stringContaining('Gemini CLI cannot do') }],
  ] as const)('answers ask under %s without an allow', (protocol, event, expected) => {
    const reply = decisionToReply(protocol, asked('ask'), event);
    expect(JSON.parse(reply.stdout)).toMatchObject(expected);
    expect(reply.stdout).not.toContain('"allow"');
    if (protocol !== 'claude') expect(JSON.parse(reply.stdout).systemMessage).toContain('permission_ask_denied');
  });

  it('gives Claude ask or defer with the rewritten input; Codex never gets its allow beside an ask', () => {
    expect(JSON.parse(decisionToReply('claude', asked('defer', { command: 'y' }), 'PreToolUse').stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', updatedInput: { command: 'y' } } });
    const codex = decisionToReply('codex', asked('ask', { command: 'y' }), 'PreToolUse', { exitCode: true });
    expect([codex.exitCode, codex.stdout, codex.stderr]).toEqual([2, '', expect.stringContaining('asked for the user\'s confirmation')]);
  });
});

describe('refusedInputReply', () => {
  it('denies a guarded or unreadable event in its deny form, and leaves other events to their error', () => {
    expect(refusedInputReply('claude', undefined, 'bad')).toEqual({ stdout: '', stderr: 'chrys-hooks fails closed: the hook input was refused (bad), so no guard saw it\n', exitCode: 2 });
    expect(refusedInputReply('gemini', 'BeforeAgent', 'bad')).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('refused (bad)') });
    expect(JSON.parse(refusedInputReply('codex', 'PermissionRequest', 'bad')!.stdout)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    expect(refusedInputReply('claude', 'PostToolUse', 'bad')).toBeUndefined();
    expect(refusedInputReply('claude', 'Stop', 'bad')).toBeUndefined();
  });
});

describe('replyObject', () => {
  it('is the answer plus exit_code and stderr, for an exit-2 deny too', () => {
    expect(replyObject({ stdout: '', stderr: 'no\n', exitCode: 2 })).toEqual({ exit_code: expect.objectContaining({ raw: '2' }), stderr: 'no' });
    expect(replyObject({ stdout: '{"decision":"block","n":1.0}', stderr: '', exitCode: 0 })).toMatchObject({ decision: 'block', n: { raw: '1.0' }, stderr: '' });
  });
});
