// Each agent's hook answer for a decision, fact by fact (AGENT-PROTOCOLS, docs/agents.md).
// reply.ts is imported afresh per test: its tables (Cursor gates, exit-2 events) are built on load.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Decision, emptyDecision } from '../../src/core/decide.js';
import type { EventName } from '../../src/core/events.js';
import type { JsonObject } from '../../src/core/json.js';

type ReplyModule = typeof import('../../src/core/protocols/reply.js');
let R: ReplyModule;
beforeEach(async () => {
  vi.resetModules();
  R = await import('../../src/core/protocols/reply.js');
});

const dec = (event: EventName, over: Partial<Decision> = {}): Decision => ({ ...emptyDecision(event), ...over });
const out = (r: { stdout: string }): JsonObject => JSON.parse(r.stdout) as JsonObject;
const blocked = (event: EventName, reason: string | null = 'no rm'): Decision => dec(event, { blocked: true, reason });

describe('replyObject', () => {
  it('drops only the final newline of stderr', () => {
    expect(R.replyObject({ stdout: '', stderr: 'a\nb\n', exitCode: 2 }).stderr).toBe('a\nb');
  });
});

describe('Claude Code and Codex', () => {
  it.each(['claude', 'codex'] as const)('%s: an unnamed PreToolUse deny still gives a reason', (p) => {
    const r = R.decisionToReply(p, blocked('before_tool_call', null), 'PreToolUse');
    expect(out(r).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by chrys-hooks' });
    const e = R.decisionToReply(p, blocked('before_tool_call', null), 'PreToolUse', { exitCode: true });
    expect(e).toEqual({ stdout: '', stderr: 'blocked by chrys-hooks\n', exitCode: 2 });
  });

  it('a Cursor-style name Claude does not map is denied by exit 2, naming the event and the known aliases', () => {
    const r = R.decisionToReply('claude', dec('before_tool_call'), 'beforeShellExecution');
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('event "beforeShellExecution" is not one chrys-hooks knows under --protocol claude');
    expect(r.stderr).toContain('preToolUse, postToolUse');
    expect(r.stderr.endsWith('\n')).toBe(true);
  });

  it('a Cursor alias Claude maps is answered as its Claude event', () => {
    const r = R.decisionToReply('claude', blocked('before_tool_call'), 'preToolUse');
    expect(r.exitCode).toBe(0);
    expect(out(r).hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' });
  });

  it.each(['codex', 'gemini'] as const)('%s: an unmapped lowerCamel name is not the Claude-only unknown-event deny', (p) => {
    expect(R.decisionToReply(p, dec('before_tool_call'), 'beforeShellExecution').exitCode).toBe(0);
  });

  it('a Claude ask carries updatedInput; defer too', () => {
    const a = R.decisionToReply('claude', dec('before_tool_call', { permission: 'ask', args: { command: 'ls' } }), 'PreToolUse');
    expect(out(a).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'ask', updatedInput: { command: 'ls' } });
    const d = R.decisionToReply('claude', dec('before_tool_call', { permission: 'defer' }), 'PreToolUse');
    expect(out(d).hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'defer' });
  });

  it.each(['ask', 'defer'] as const)('Codex has no %s on a tool call: denied, with a warning naming the answer', (perm) => {
    const r = R.decisionToReply('codex', dec('before_tool_call', { permission: perm }), 'PreToolUse');
    const o = out(r);
    expect((o.hookSpecificOutput as JsonObject).permissionDecision).toBe('deny');
    const why = String((o.hookSpecificOutput as JsonObject).permissionDecisionReason);
    expect(why).toContain(perm === 'ask' ? "asked for the user's confirmation of this tool call" : 'deferred this tool call');
    expect(why).toContain('Codex');
    expect(o.systemMessage).toContain(`chrys-hooks permission_ask_denied: a hook answered permissionDecision "${perm}"`);
  });

  it('Codex ask on a non-tool event is left alone', () => {
    const r = R.decisionToReply('codex', dec('permission_request', { permission: 'ask' }), 'PermissionRequest');
    expect(out(r)).toEqual({});
  });

  it.each(['claude', 'codex'] as const)('%s PermissionRequest: deny by permission alone, allow, and a blocked default reason', (p) => {
    expect(out(R.decisionToReply(p, dec('permission_request', { permission: 'deny', reason: 'nope' }), 'PermissionRequest')).hookSpecificOutput)
      .toEqual({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'nope' } });
    expect(out(R.decisionToReply(p, blocked('permission_request', null), 'PermissionRequest')).hookSpecificOutput)
      .toEqual({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'blocked by chrys-hooks' } });
    expect(out(R.decisionToReply(p, dec('permission_request', { permission: 'allow' }), 'PermissionRequest')).hookSpecificOutput)
      .toEqual({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } });
  });

  it.each(['claude', 'codex'] as const)('%s PostToolUse: block feedback is decision block; none is an empty answer', (p) => {
    expect(out(R.decisionToReply(p, dec('after_tool_call', { block_feedback: 'lint failed' }), 'PostToolUse'))).toMatchObject({ decision: 'block', reason: 'lint failed' });
    expect(out(R.decisionToReply(p, dec('after_tool_call'), 'PostToolUse'))).toEqual({});
  });

  it('Claude: a replaced result of a tool with no known shape is fed back, and the user told', () => {
    const o = out(R.decisionToReply('claude', dec('after_tool_call', { replace_result: 'NEW' }), 'PostToolUse', { input: { tool_name: 'Frobnicate', tool_response: { x: 'y' } } }));
    expect(o.decision).toBe('block');
    expect(o.reason).toBe('NEW');
    expect(o.systemMessage).toBe('chrys-hooks: a hook replaced the result of Frobnicate, but chrys-hooks knows no output shape for Frobnicate to replace it in; the model sees the original output too, with the replacement as hook feedback');
  });

  it('Claude: on PostToolUseFailure a replaced result cannot be replaced, and an unnamed tool is "the tool"', () => {
    const o = out(R.decisionToReply('claude', dec('tool_error', { replace_result: 'NEW' }), 'PostToolUseFailure', { input: { tool_name: 7 } as never }));
    expect(o).toMatchObject({ decision: 'block', reason: 'NEW' });
    expect(o.systemMessage).toBe('chrys-hooks: a hook replaced the result of the tool, but Claude Code cannot replace a result on PostToolUseFailure; the model sees the original output too, with the replacement as hook feedback');
  });

  it('Claude: a replaced Bash result goes in updatedToolOutput, not in a block', () => {
    const o = out(R.decisionToReply('claude', dec('after_tool_call', { replace_result: 'NEW' }), 'PostToolUse', { input: { tool_name: 'Bash', tool_response: { stdout: 'old', stderr: '', interrupted: false, isImage: false } } }));
    expect(o.decision).toBeUndefined();
    expect((o.hookSpecificOutput as JsonObject).hookEventName).toBe('PostToolUse');
    expect((o.hookSpecificOutput as JsonObject).updatedToolOutput).toBeDefined();
  });

  it('Claude: a notice beside the replaced-result note keeps both', () => {
    const o = out(R.decisionToReply('claude', dec('tool_error', { replace_result: 'NEW', warnings: [{ code: 'w', message: 'm' }] as never }), 'PostToolUseFailure', { input: { tool_name: 'X' } }));
    const lines = String(o.systemMessage).split('\n');
    expect(lines[0]).toContain('a hook replaced the result of X');
    expect(lines[1]).toBe('chrys-hooks w: m');
  });

  it.each([['UserPromptSubmit', 'user_prompt_submit'], ['Stop', 'conversation_done'], ['SubagentStop', 'sub_agent_end']] as const)('%s block is decision block with the default reason', (name, ev) => {
    expect(out(R.decisionToReply('claude', blocked(ev, null), name))).toEqual({ decision: 'block', reason: 'blocked by chrys-hooks' });
  });

  it('a block on an exit-2 event whose answer would say nothing is exit 2 even without --exit-code', () => {
    // Only reachable when the asked name is not the decision's own gate (SessionStart has no block form).
    const r = R.decisionToReply('claude', blocked('before_tool_call', null), 'SessionStart');
    expect(r).toEqual({ stdout: '', stderr: 'blocked by chrys-hooks\n', exitCode: 2 });
  });

  it('extra context reaches the model only after a tool', () => {
    const before = out(R.decisionToReply('claude', dec('before_tool_call', { extra_context: ['E'], system_reminders: ['S'] }), 'PreToolUse'));
    expect((before.hookSpecificOutput as JsonObject).additionalContext).toBe('S');
    const after = out(R.decisionToReply('claude', dec('after_tool_call', { extra_context: ['E'], system_reminders: ['S'] }), 'PostToolUse'));
    expect((after.hookSpecificOutput as JsonObject).additionalContext).toBe('S\n\nE');
  });
});

describe('Gemini CLI', () => {
  it('BeforeTool deny and AfterTool feedback use decision deny', () => {
    expect(out(R.decisionToReply('gemini', blocked('before_tool_call', null), 'BeforeTool'))).toEqual({ decision: 'deny', reason: 'blocked by chrys-hooks' });
    expect(out(R.decisionToReply('gemini', dec('after_tool_call', { block_feedback: 'F' }), 'AfterTool'))).toEqual({ decision: 'deny', reason: 'F' });
    expect(out(R.decisionToReply('gemini', dec('after_tool_call'), 'AfterTool'))).toEqual({});
  });

  it('a blocked prompt with no notices shows only its reason, not systemMessage', () => {
    expect(out(R.decisionToReply('gemini', blocked('user_prompt_submit'), 'BeforeAgent'))).toEqual({ decision: 'deny', reason: 'no rm' });
  });

  it('a blocked prompt with a warning leads systemMessage with the reason', () => {
    const w = out(R.decisionToReply('gemini', { ...blocked('user_prompt_submit'), warnings: [{ code: 'c', message: 'm' }] as never }, 'BeforeAgent'));
    expect(w.systemMessage).toBe('no rm\nchrys-hooks c: m');
  });

  it('a BeforeTool ask is a deny (Gemini blocks only on deny)', () => {
    expect(out(R.decisionToReply('gemini', dec('before_tool_call', { permission: 'ask' }), 'BeforeTool')).decision).toBe('deny');
  });
});

describe('Cursor', () => {
  it.each(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'subagentStart'])('%s deny is permission deny with both messages', (ev) => {
    expect(out(R.decisionToReply('cursor', blocked('before_tool_call', null), ev))).toEqual({ permission: 'deny', user_message: 'blocked by chrys-hooks', agent_message: 'blocked by chrys-hooks' });
  });

  it.each(['beforeShellExecution', 'beforeMCPExecution'])('%s has ask', (ev) => {
    expect(out(R.decisionToReply('cursor', dec('before_tool_call', { permission: 'ask' }), ev))).toEqual({ permission: 'ask' });
    expect(out(R.decisionToReply('cursor', dec('before_tool_call', { permission: 'defer' }), ev))).toEqual({ permission: 'ask' });
  });

  it('preToolUse does not enforce ask: denied, with a warning as user_message', () => {
    const o = out(R.decisionToReply('cursor', dec('before_tool_call', { permission: 'ask' }), 'preToolUse'));
    expect(o.permission).toBe('deny');
    expect(o.agent_message).toContain('Cursor');
  });

  it('preToolUse rewrite: updated_input, with permission allow only when the hook allowed', () => {
    expect(out(R.decisionToReply('cursor', dec('before_tool_call', { args: { command: 'ls' } }), 'preToolUse'))).toEqual({ updated_input: { command: 'ls' } });
    expect(out(R.decisionToReply('cursor', dec('before_tool_call', { args: { command: 'ls' }, permission: 'allow' }), 'preToolUse'))).toEqual({ permission: 'allow', updated_input: { command: 'ls' } });
    expect(out(R.decisionToReply('cursor', dec('before_tool_call', { permission: 'allow' }), 'preToolUse'))).toEqual({ permission: 'allow' });
    expect(out(R.decisionToReply('cursor', dec('before_tool_call'), 'preToolUse'))).toEqual({});
  });

  it('a rewrite on another gate is denied, with a rewrite_denied notice', () => {
    const o = out(R.decisionToReply('cursor', dec('before_tool_call', { args: { command: 'ls' } }), 'beforeShellExecution'));
    expect(o.permission).toBe('deny');
    expect(o.agent_message).toBe('a hook rewrote this call, which Cursor cannot apply on beforeShellExecution; denied instead of running the original');
    const e = R.decisionToReply('cursor', dec('before_tool_call', { args: { command: 'ls' } }), 'beforeShellExecution', { exitCode: true });
    expect(e.exitCode).toBe(2);
  });

  it('a blocked call with args on a gate keeps its own reason', () => {
    const o = out(R.decisionToReply('cursor', { ...blocked('before_tool_call'), args: { command: 'ls' } }, 'beforeShellExecution'));
    expect(o.agent_message).toBe('no rm');
  });

  it('gate notices go to user_message when nothing else says it', () => {
    const o = out(R.decisionToReply('cursor', dec('before_tool_call', { warnings: [{ code: 'c', message: 'm' }] as never, contexts: [{ channel: 'ui_notice', text: 'N', hook: 'h' }, { channel: 'pre_prompt', text: 'P', hook: 'h' }] }), 'preToolUse'));
    expect(o).toEqual({ user_message: 'N\nchrys-hooks c: m' });
    const p = out(R.decisionToReply('cursor', dec('user_prompt_submit', { warnings: [{ code: 'c', message: 'm' }] as never }), 'beforeSubmitPrompt'));
    expect(p).toEqual({ user_message: 'chrys-hooks c: m' });
    const s = out(R.decisionToReply('cursor', dec('conversation_done', { warnings: [{ code: 'c', message: 'm' }] as never }), 'stop'));
    expect(s).toEqual({});
  });

  it('beforeSubmitPrompt block is continue false; stop block is a followup_message', () => {
    expect(out(R.decisionToReply('cursor', blocked('user_prompt_submit', null), 'beforeSubmitPrompt'))).toEqual({ continue: false, user_message: 'blocked by chrys-hooks' });
    expect(out(R.decisionToReply('cursor', dec('user_prompt_submit'), 'beforeSubmitPrompt'))).toEqual({});
    expect(out(R.decisionToReply('cursor', blocked('conversation_done'), 'stop'))).toEqual({ followup_message: 'no rm' });
    expect(out(R.decisionToReply('cursor', blocked('sub_agent_end'), 'subagentStop'))).toEqual({ followup_message: 'no rm' });
    expect(out(R.decisionToReply('cursor', dec('conversation_done'), 'stop'))).toEqual({});
  });

  it('additional_context after a tool holds feedback and extra context; at session start neither', () => {
    const d = dec('after_tool_call', { block_feedback: 'F', extra_context: ['E'], contexts: [{ channel: 'pre_prompt', text: 'C', hook: 'h' }, { channel: 'ui_notice', text: 'N', hook: 'h' }], system_reminders: ['S'] });
    expect(out(R.decisionToReply('cursor', d, 'postToolUse')).additional_context).toBe('F\n\nE\n\nC\n\nS');
    expect(out(R.decisionToReply('cursor', { ...d, replace_result: 'R' }, 'postToolUse')).additional_context).toBe('R\n\nE\n\nC\n\nS');
    expect(out(R.decisionToReply('cursor', { ...d, event: 'session_start' }, 'sessionStart')).additional_context).toBe('C\n\nS');
    expect(out(R.decisionToReply('cursor', dec('after_tool_call'), 'postToolUse'))).toEqual({});
  });
});

describe('Copilot CLI', () => {
  it('preToolUse: deny, ask (with modifiedArgs), allow, rewrite', () => {
    expect(out(R.decisionToReply('copilot', blocked('before_tool_call', null), 'preToolUse'))).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'blocked by chrys-hooks' });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { permission: 'ask' }), 'preToolUse'))).toEqual({ permissionDecision: 'ask' });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { permission: 'defer', args: { a: 'b' } }), 'preToolUse'))).toEqual({ permissionDecision: 'ask', modifiedArgs: { a: 'b' } });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { args: { a: 'b' } }), 'preToolUse'))).toEqual({ modifiedArgs: { a: 'b' } });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { args: { a: 'b' }, permission: 'allow' }), 'preToolUse'))).toEqual({ permissionDecision: 'allow', modifiedArgs: { a: 'b' } });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { permission: 'allow' }), 'preToolUse'))).toEqual({ permissionDecision: 'allow' });
    expect(out(R.decisionToReply('copilot', dec('before_tool_call'), 'preToolUse'))).toEqual({});
  });

  it('permissionRequest: behavior deny (blocked or by permission), allow, nothing', () => {
    expect(out(R.decisionToReply('copilot', blocked('permission_request', null), 'permissionRequest'))).toEqual({ behavior: 'deny', message: 'blocked by chrys-hooks' });
    expect(out(R.decisionToReply('copilot', dec('permission_request', { permission: 'deny', reason: 'x' }), 'permissionRequest'))).toEqual({ behavior: 'deny', message: 'x' });
    expect(out(R.decisionToReply('copilot', dec('permission_request', { permission: 'allow' }), 'permissionRequest'))).toEqual({ behavior: 'allow' });
    expect(out(R.decisionToReply('copilot', dec('permission_request'), 'permissionRequest'))).toEqual({});
  });

  it.each(['agentStop', 'subagentStop'])('%s block is decision block; no block is empty', (ev) => {
    expect(out(R.decisionToReply('copilot', blocked('conversation_done'), ev))).toEqual({ decision: 'block', reason: 'no rm' });
    expect(out(R.decisionToReply('copilot', dec('conversation_done'), ev))).toEqual({});
  });

  it('a blocked userPromptSubmitted cannot stop the prompt: said on stderr only', () => {
    const r = R.decisionToReply('copilot', blocked('user_prompt_submit'), 'userPromptSubmitted');
    expect(r.stdout).toBe('{}');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('chrys-hooks: a hook blocked this prompt (no rm), but Copilot CLI does not read userPromptSubmitted output, so the prompt goes on\n');
    expect(R.decisionToReply('copilot', dec('user_prompt_submit'), 'userPromptSubmitted').stderr).toBe('');
    expect(R.decisionToReply('copilot', blocked('conversation_done'), 'agentStop').stderr).toBe('');
  });

  it('additionalContext: extra context only after a tool', () => {
    expect(out(R.decisionToReply('copilot', dec('before_tool_call', { extra_context: ['E'], system_reminders: ['S'] }), 'preToolUse')).additionalContext).toBe('S');
    expect(out(R.decisionToReply('copilot', dec('after_tool_call', { extra_context: ['E'], system_reminders: ['S'] }), 'postToolUse')).additionalContext).toBe('S\n\nE');
  });
});
