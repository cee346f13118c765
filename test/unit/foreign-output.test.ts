// readAgentOutcome: a foreign hook's exit code and stdout read by its agent's
// rules into a Chrys result. Plain records in, plain records out.
import { describe, expect, it } from 'vitest';
import { type AgentRun, readAgentOutcome } from '../../src/core/protocols/foreign-output.js';

const ok = (stdout: string): AgentRun => ({ status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result: { kind: 'none' }, stdout, stderr: '' });
const exited = (exitCode: number, stderr: string, stdout = ''): AgentRun => ({ ...ok(stdout), status: 'failed', exitCode, error: `exited with status ${exitCode}`, stderr });
const valueOf = (run: AgentRun): unknown => (run.result.kind === 'json' ? run.result.value : run.result);

describe('Gemini CLI stdout', () => {
  it('blocks on decision "block" as on "deny", with the reason given', () => {
    expect(valueOf(readAgentOutcome('gemini', 'BeforeTool', ok('{"decision":"block","reason":"no rm"}')))).toEqual({ action: 'block', reason: 'no rm' });
    expect(valueOf(readAgentOutcome('gemini', 'AfterAgent', ok('{"decision":"deny"}')))).toEqual({ action: 'block', reason: 'denied by hook' });
  });

  it('modifies the call with hookSpecificOutput.tool_input on BeforeTool, unless it blocks', () => {
    const modify = '{"hookSpecificOutput":{"tool_input":{"command":"ls -a"}}}';
    expect(valueOf(readAgentOutcome('gemini', 'BeforeTool', ok(modify)))).toEqual({ action: 'modify', args_override: { command: 'ls -a' } });
    expect(valueOf(readAgentOutcome('gemini', 'AfterTool', ok(modify)))).toEqual({});
    expect(valueOf(readAgentOutcome('gemini', 'BeforeTool', ok('{"decision":"block","hookSpecificOutput":{"tool_input":{}}}')))).toEqual({ action: 'block', reason: 'denied by hook' });
  });

  it('routes additionalContext by event: a reminder before the agent, extra context after a tool', () => {
    const added = '{"hookSpecificOutput":{"additionalContext":"c"}}';
    expect(valueOf(readAgentOutcome('gemini', 'BeforeAgent', ok(added)))).toEqual({ system_reminder: 'c' });
    expect(valueOf(readAgentOutcome('gemini', 'AfterTool', ok(added)))).toEqual({ extra_context: 'c' });
    expect(valueOf(readAgentOutcome('gemini', 'SessionStart', ok(added)))).toEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
  });

  it('reads non-JSON stdout as a notice to the user', () => {
    expect(valueOf(readAgentOutcome('gemini', 'AfterTool', ok('formatted 3 files\n')))).toEqual({ context: [{ text: 'formatted 3 files', channel: 'ui_notice' }] });
  });

  it('asks the user on decision "ask" on BeforeTool only', () => {
    expect(readAgentOutcome('gemini', 'BeforeTool', ok('{"decision":"ask"}')).ask).toBe('ask');
    expect(readAgentOutcome('gemini', 'AfterTool', ok('{"decision":"ask"}')).ask).toBeUndefined();
  });

  it('stops the action on continue: false, with stopReason', () => {
    expect(valueOf(readAgentOutcome('gemini', 'AfterAgent', ok('{"continue":false,"stopReason":"done","systemMessage":"m"}')))).toEqual({
      action: 'block', reason: 'done', context: [{ text: 'm', channel: 'ui_notice' }],
    });
  });
});

describe('Claude Code stdout and exit codes', () => {
  it('reads plain text as context only where Claude does (a prompt reminder, session-start context)', () => {
    expect(valueOf(readAgentOutcome('claude', 'UserPromptSubmit', ok('be brief')))).toEqual({ system_reminder: 'be brief' });
    expect(valueOf(readAgentOutcome('claude', 'SessionStart', ok('hello')))).toEqual({ context: [{ text: 'hello', channel: 'pre_prompt' }] });
    expect(readAgentOutcome('claude', 'PreToolUse', ok('formatted')).result).toEqual({ kind: 'none' });
  });

  it('calls stdout that starts with "{" but is not one object invalid', () => {
    expect(readAgentOutcome('claude', 'PreToolUse', ok('{oops')).result).toEqual({ kind: 'invalid', reason: expect.stringContaining('not one JSON object') });
  });

  it('reads PreToolUse permissionDecision deny, and the legacy decision block, as a block', () => {
    expect(valueOf(readAgentOutcome('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"why"}}')))).toEqual({ action: 'block', reason: 'why' });
    expect(valueOf(readAgentOutcome('claude', 'PreToolUse', ok('{"decision":"block","reason":"old"}')))).toEqual({ action: 'block', reason: 'old' });
    expect(valueOf(readAgentOutcome('claude', 'PreToolUse', ok('{"decision":"approve"}')))).toEqual({});
  });

  it('calls a gate answered with a value the agent does not know invalid, as it ignores the answer; known values pass', () => {
    const pre = (specific: string) => readAgentOutcome('claude', 'PreToolUse', ok(`{"hookSpecificOutput":${specific}}`)).result;
    expect(pre('{"permissionDecision":"Deny","permissionDecisionReason":"no"}')).toEqual({ kind: 'invalid', reason: 'hookSpecificOutput.permissionDecision must be "allow", "deny", "ask", "defer", not "Deny"; PreToolUse ignores the whole answer' });
    expect(pre('{"permissionDecision":false}')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('not false') });
    expect(readAgentOutcome('codex', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"block"}}')).result).toMatchObject({ kind: 'invalid' });
    for (const known of ['allow', 'deny', 'ask', 'defer']) expect(pre(`{"permissionDecision":"${known}"}`).kind).toBe('json');
    const request = (decision: string) => readAgentOutcome('claude', 'PermissionRequest', ok(`{"hookSpecificOutput":{"decision":${decision}}}`)).result;
    expect(request('{"behavior":"reject"}')).toEqual({ kind: 'invalid', reason: 'hookSpecificOutput.decision.behavior must be "allow", "deny", not "reject"; PermissionRequest ignores the whole answer' });
    expect(request('{}')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('not null') });
    expect(request('{"behavior":"deny","message":"m"}')).toEqual({ kind: 'json', value: { permission: 'deny', reason: 'm' } });
    // Only the gate's own event checks it: on another event the field means nothing.
    expect(readAgentOutcome('claude', 'PostToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"Deny"}}')).result.kind).toBe('json');
  });

  it('blocks on exit 2 where Claude blocks, with stderr as the reason, and only shows stderr elsewhere', () => {
    expect(readAgentOutcome('claude', 'PreToolUse', exited(2, 'nope\n'))).toMatchObject({ status: 'ok', error: undefined, result: { kind: 'json', value: { action: 'block', reason: 'nope' } } });
    expect(valueOf(readAgentOutcome('claude', 'Notification', exited(2, 'fyi')))).toEqual({ context: [{ text: 'fyi', channel: 'ui_notice' }] });
    expect(readAgentOutcome('claude', 'PermissionRequest', exited(2, 'x'))).toMatchObject({ status: 'failed', error: expect.stringContaining('PermissionRequest does not honour') });
  });

  it('lets a JSON object on stdout decide after another non-zero exit, and leaves a bare failure failed', () => {
    expect(readAgentOutcome('claude', 'Stop', exited(1, '', '{"decision":"block","reason":"more"}'))).toMatchObject({ status: 'ok', result: { kind: 'json', value: { action: 'block', reason: 'more' } } });
    expect(readAgentOutcome('claude', 'Stop', exited(1, 'boom'))).toMatchObject({ status: 'failed', error: 'exited with status 1' });
  });

  it('passes a timeout, and a death by signal, through untouched whatever stdout says', () => {
    const run: AgentRun = { ...ok('{"decision":"block"}'), status: 'timeout', exitCode: null, signal: 'SIGKILL' };
    expect(readAgentOutcome('claude', 'Stop', run)).toBe(run);
    const killed: AgentRun = { ...run, status: 'failed', signal: 'SIGTERM', error: 'killed by SIGTERM' };
    expect(readAgentOutcome('claude', 'Stop', killed)).toBe(killed);
  });
});

describe('Claude Code PreToolUse permissionDecisionReason', () => {
  // Claude Code shows the reason of an allow or ask to the user, a deny's to the model.
  it('of an allow is shown to the user, as on ask; of a deny it is the block reason', () => {
    expect(valueOf(readAgentOutcome('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"read-only command"}}')))).toEqual({ context: [{ text: 'read-only command', channel: 'ui_notice' }] });
    expect(valueOf(readAgentOutcome('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}')))).toEqual({ action: 'block', reason: 'no' });
  });
});

describe('Codex exit codes', () => {
  it('counts exit 2 with empty stderr as a failure, not a block', () => {
    expect(readAgentOutcome('codex', 'PreToolUse', exited(2, ' \n'))).toMatchObject({ status: 'failed', error: expect.stringContaining('empty stderr') });
    expect(valueOf(readAgentOutcome('codex', 'PreToolUse', exited(2, 'no')))).toEqual({ action: 'block', reason: 'no' });
  });

  it('does not let stdout decide after another non-zero exit', () => {
    expect(readAgentOutcome('codex', 'Stop', exited(1, '', '{"decision":"block"}')).status).toBe('failed');
  });
});

describe('Cursor and Copilot CLI', () => {
  it('Cursor: permission deny blocks with agent_message; ask travels beside the result', () => {
    expect(valueOf(readAgentOutcome('cursor', 'beforeShellExecution', ok('{"permission":"deny","agent_message":"a","user_message":"u"}')))).toEqual({ action: 'block', reason: 'a' });
    expect(readAgentOutcome('cursor', 'beforeShellExecution', ok('{"permission":"ask"}')).ask).toBe('ask');
    expect(readAgentOutcome('cursor', 'beforeReadFile', ok('{"permission":"ask"}')).ask).toBeUndefined();
  });

  it('Copilot: exit 2 is a warning, except on permissionRequest where it denies', () => {
    expect(valueOf(readAgentOutcome('copilot', 'preToolUse', exited(2, 'careful')))).toEqual({ context: [{ text: 'careful', channel: 'ui_notice' }] });
    expect(valueOf(readAgentOutcome('copilot', 'permissionRequest', exited(2, '')))).toEqual({ permission: 'deny', reason: 'denied (exit 2)' });
  });

  // Copilot's hooks reference: postToolUseFailure "can provide recovery guidance via additionalContext"; its exit 2 there is context.
  it('Copilot: on postToolUseFailure, exit 2 and additionalContext are guidance for the model on the failed call', () => {
    expect(valueOf(readAgentOutcome('copilot', 'postToolUseFailure', exited(2, 'retry with --force')))).toEqual({ extra_context: 'retry with --force' });
    expect(valueOf(readAgentOutcome('copilot', 'postToolUseFailure', exited(2, '')))).toEqual({});
    expect(valueOf(readAgentOutcome('copilot', 'postToolUseFailure', ok('{"additionalContext":"the file is locked"}')))).toEqual({ extra_context: 'the file is locked' });
    expect(valueOf(readAgentOutcome('copilot', 'postToolUse', exited(2, 'careful')))).toEqual({ context: [{ text: 'careful', channel: 'ui_notice' }] });
  });
});
