// readAgentOutcome by each agent's documented rules (AGENT-PROTOCOLS.md §1.6-1.7,
// §2.5, §3.5, §4.6, §5; docs/agents.md "run.protocol"), one case per branch.
//
// The module is imported afresh for every test: its exit-2 event set and its
// tables of known gate values are built when it loads, and mutation testing
// switches a mutant on only after a test file's own imports have run.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentRun } from '../../src/core/protocols/foreign-output.js';
import type { AgentProtocol } from '../../src/core/protocols/agents/index.js';

type ForeignOutput = typeof import('../../src/core/protocols/foreign-output.js');
let F: ForeignOutput;
beforeEach(async () => {
  vi.resetModules();
  F = await import('../../src/core/protocols/foreign-output.js');
});

const ok = (stdout: string): AgentRun => ({ status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result: { kind: 'none' }, stdout, stderr: '' });
const exited = (exitCode: number, stderr: string, stdout = ''): AgentRun => ({ ...ok(stdout), status: 'failed', exitCode, error: `exited with status ${exitCode}`, stderr });
const read = (protocol: AgentProtocol, event: string, run: AgentRun): AgentRun => F.readAgentOutcome(protocol, event, run);
const valueOf = (run: AgentRun): unknown => (run.result.kind === 'json' ? run.result.value : run.result);
const json = (protocol: AgentProtocol, event: string, stdout: string): unknown => valueOf(read(protocol, event, ok(stdout)));

describe('exit 2', () => {
  it.each<[AgentProtocol, string]>([
    ['claude', 'PreToolUse'], ['claude', 'UserPromptSubmit'], ['claude', 'Stop'], ['claude', 'SubagentStop'], ['claude', 'PostToolUse'], ['claude', 'PostToolUseFailure'],
    ['codex', 'PreToolUse'], ['codex', 'PostToolUse'],
    ['gemini', 'BeforeTool'], ['gemini', 'BeforeAgent'], ['gemini', 'AfterAgent'], ['gemini', 'AfterTool'],
    ['cursor', 'preToolUse'], ['cursor', 'beforeShellExecution'], ['cursor', 'beforeMCPExecution'], ['cursor', 'beforeReadFile'], ['cursor', 'beforeSubmitPrompt'], ['cursor', 'subagentStart'],
  ])('%s %s: blocks with stderr as the reason, and is no failure', (protocol, event) => {
    const run = read(protocol, event, exited(2, ' no rm \n'));
    expect(run.status).toBe('ok');
    expect(run.error).toBeUndefined();
    expect(run.result).toStrictEqual({ kind: 'json', value: { action: 'block', reason: 'no rm' } });
  });

  it('blocks with a stock reason when stderr is empty (Claude)', () => {
    expect(valueOf(read('claude', 'Stop', exited(2, '')))).toStrictEqual({ action: 'block', reason: 'blocked (exit 2)' });
  });

  it("reads another agent's exit-2 event name as a block, but not Copilot's", () => {
    // Cursor's preToolUse and Gemini's BeforeTool can reach a claude hook in the envelope's hook_event_name.
    expect(valueOf(read('claude', 'preToolUse', exited(2, 'x')))).toStrictEqual({ action: 'block', reason: 'x' });
    expect(valueOf(read('claude', 'AfterTool', exited(2, 'x')))).toStrictEqual({ action: 'block', reason: 'x' });
    expect(valueOf(read('claude', 'permissionRequest', exited(2, 'x')))).toStrictEqual({ context: [{ text: 'x', channel: 'ui_notice' }] });
  });

  it.each<[AgentProtocol, string]>([['claude', 'Notification'], ['claude', 'SessionStart'], ['gemini', 'SessionStart'], ['cursor', 'stop']])('%s %s: only shows stderr to the user', (protocol, event) => {
    expect(valueOf(read(protocol, event, exited(2, 'fyi')))).toStrictEqual({ context: [{ text: 'fyi', channel: 'ui_notice' }] });
    expect(valueOf(read(protocol, event, exited(2, '')))).toStrictEqual({});
  });

  it.each<AgentProtocol>(['claude', 'codex'])('%s PermissionRequest: is not honoured, a failure', (protocol) => {
    const run = read(protocol, 'PermissionRequest', exited(2, 'x'));
    expect(run.status).toBe('failed');
    expect(run.error).toBe('exited with status 2, which PermissionRequest does not honour (deny with hookSpecificOutput.decision.behavior)');
  });

  it('Codex: with empty stderr is a failure; with a reason a block', () => {
    expect(read('codex', 'Stop', exited(2, '\n'))).toMatchObject({ status: 'failed', error: 'exited with status 2 and empty stderr (Codex treats that as a failure, not a block)' });
    expect(valueOf(read('codex', 'Stop', exited(2, 'go on')))).toStrictEqual({ action: 'block', reason: 'go on' });
  });

  it('blocks even when stdout says allow (Claude)', () => {
    expect(valueOf(read('claude', 'PreToolUse', exited(2, 'no', '{"hookSpecificOutput":{"permissionDecision":"allow"}}')))).toStrictEqual({ action: 'block', reason: 'no' });
  });

  it('Copilot: denies on permissionRequest, is guidance on postToolUseFailure, a warning elsewhere', () => {
    expect(valueOf(read('copilot', 'permissionRequest', exited(2, 'not that')))).toStrictEqual({ permission: 'deny', reason: 'not that' });
    expect(valueOf(read('copilot', 'permissionRequest', exited(2, '')))).toStrictEqual({ permission: 'deny', reason: 'denied (exit 2)' });
    expect(valueOf(read('copilot', 'postToolUseFailure', exited(2, 'retry')))).toStrictEqual({ extra_context: 'retry' });
    for (const event of ['preToolUse', 'postToolUse', 'agentStop', 'sessionStart']) {
      expect(valueOf(read('copilot', event, exited(2, 'careful')))).toStrictEqual({ context: [{ text: 'careful', channel: 'ui_notice' }] });
      expect(valueOf(read('copilot', event, exited(2, '')))).toStrictEqual({});
    }
    expect(read('copilot', 'preToolUse', exited(2, 'x')).status).toBe('ok');
  });
});

describe('other exits', () => {
  it('Claude: a JSON object on stdout decides after exit 1, even with whitespace around it', () => {
    const run = read('claude', 'Stop', exited(1, 'warn', '\n  {"decision":"block","reason":"more"}\n'));
    expect(run).toMatchObject({ status: 'ok', error: undefined, result: { kind: 'json', value: { action: 'block', reason: 'more' } } });
    expect(read('claude', 'PreToolUse', exited(1, '', '{"hookSpecificOutput":{"permissionDecision":"ask"}}')).ask).toBe('ask');
  });

  it('Claude: stdout that is not one JSON object leaves exit 1 a failure, untouched', () => {
    for (const stdout of ['{oops', 'plain', '[1]', '']) {
      const run = exited(1, 'boom', stdout);
      expect(read('claude', 'Stop', run)).toBe(run);
    }
  });

  it.each<AgentProtocol>(['codex', 'gemini', 'cursor', 'copilot'])('%s: exit 1 is a failure whatever stdout says', (protocol) => {
    const run = exited(1, '', '{"decision":"block","permission":"deny","permissionDecision":"deny"}');
    expect(read(protocol, 'preToolUse', run)).toBe(run);
  });

  it('passes a launch error through untouched', () => {
    const run: AgentRun = { ...ok('{"decision":"block"}'), status: 'launch_error', exitCode: null, error: 'ENOENT' };
    expect(read('claude', 'Stop', run)).toBe(run);
  });
});

describe('stdout on exit 0', () => {
  it.each<AgentProtocol>(['claude', 'codex', 'gemini', 'cursor', 'copilot'])('%s: empty or blank stdout says nothing', (protocol) => {
    for (const event of ['UserPromptSubmit', 'SessionStart', 'BeforeAgent', 'preToolUse']) expect(read(protocol, event, ok(' \n')).result).toStrictEqual({ kind: 'none' });
  });

  it.each<AgentProtocol>(['cursor', 'copilot'])('%s: plain text says nothing (answers are JSON only)', (protocol) => {
    for (const event of ['preToolUse', 'sessionStart', 'UserPromptSubmit', 'SessionStart']) expect(read(protocol, event, ok('hello')).result).toStrictEqual({ kind: 'none' });
  });

  it('Claude and Codex: plain text is context only where the agent reads it', () => {
    expect(json('claude', 'UserPromptExpansion', 'x')).toStrictEqual({ context: [{ text: 'x', channel: 'pre_prompt' }] });
    expect(json('codex', 'SubagentStart', 'x')).toStrictEqual({ context: [{ text: 'x', channel: 'pre_prompt' }] });
    expect(json('codex', 'UserPromptSubmit', ' x ')).toStrictEqual({ system_reminder: 'x' });
    expect(read('codex', 'UserPromptExpansion', ok('x')).result).toStrictEqual({ kind: 'none' });
    expect(read('claude', 'SubagentStart', ok('x')).result).toStrictEqual({ kind: 'none' });
    expect(read('claude', 'Stop', ok('x')).result).toStrictEqual({ kind: 'none' });
  });

  it('Claude: a JSON array, or text before the JSON, is plain text', () => {
    expect(read('claude', 'PreToolUse', ok('[{"decision":"block"}]')).result).toStrictEqual({ kind: 'none' });
    expect(read('claude', 'PreToolUse', ok('note {"decision":"block"}')).result).toStrictEqual({ kind: 'none' });
    expect(json('claude', 'UserPromptSubmit', '[1]')).toStrictEqual({ system_reminder: '[1]' });
  });

  it.each<AgentProtocol>(['claude', 'codex', 'cursor', 'copilot'])('%s: two JSON documents, or a "{" that is not JSON, are invalid', (protocol) => {
    for (const stdout of ['{"a":1}{"b":2}', '{oops', '{"decision":"block"']) {
      expect(read(protocol, 'preToolUse', ok(stdout)).result).toStrictEqual({ kind: 'invalid', reason: 'stdout starts with "{" but is not one JSON object; ignored as the agent would' });
    }
  });

  it('Gemini: stdout that is not one JSON object is a notice to the user', () => {
    expect(json('gemini', 'BeforeTool', ' {oops ')).toStrictEqual({ context: [{ text: '{oops', channel: 'ui_notice' }] });
    expect(json('gemini', 'BeforeTool', '[1]')).toStrictEqual({ context: [{ text: '[1]', channel: 'ui_notice' }] });
  });

  it('huge and undecodable output is read like any other', () => {
    const big = 'x'.repeat(1 << 20);
    expect(read('claude', 'PreToolUse', ok(big)).result).toStrictEqual({ kind: 'none' });
    expect(json('claude', 'Stop', `{"decision":"block","reason":"${big}"}`)).toStrictEqual({ action: 'block', reason: big });
    expect(json('gemini', 'AfterTool', '\uFFFD\uFFFD')).toStrictEqual({ context: [{ text: '\uFFFD\uFFFD', channel: 'ui_notice' }] });
  });
});

describe('ask and defer travel beside the result', () => {
  it('Claude PreToolUse: ask and defer, with their reason for the user; never on another event', () => {
    const ask = read('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}'));
    expect(ask.ask).toBe('ask');
    expect(valueOf(ask)).toStrictEqual({ context: [{ text: 'sure?', channel: 'ui_notice' }] });
    const defer = read('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"defer","permissionDecisionReason":"later"}}'));
    expect(defer.ask).toBe('defer');
    expect(valueOf(defer)).toStrictEqual({ context: [{ text: 'later', channel: 'ui_notice' }] });
    expect(valueOf(read('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"ask"}}')))).toStrictEqual({});
    expect('ask' in read('claude', 'PostToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"ask"}}'))).toBe(false);
    expect('ask' in read('claude', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"allow"}}'))).toBe(false);
  });

  it('Cursor: ask on its gates but beforeReadFile; other values do not ask', () => {
    expect(read('cursor', 'beforeMCPExecution', ok('{"permission":"ask"}')).ask).toBe('ask');
    expect(read('cursor', 'beforeShellExecution', ok('{"permission":"allow"}')).ask).toBeUndefined();
    expect(read('cursor', 'beforeShellExecution', ok('{"permission":"deny"}')).ask).toBeUndefined();
  });

  it('Copilot: permissionDecision ask on preToolUse only, its reason a notice', () => {
    const ask = read('copilot', 'preToolUse', ok('{"permissionDecision":"ask","permissionDecisionReason":"sure?"}'));
    expect(ask.ask).toBe('ask');
    expect(valueOf(ask)).toStrictEqual({ context: [{ text: 'sure?', channel: 'ui_notice' }] });
    expect(json('copilot', 'preToolUse', '{"permissionDecision":"ask"}')).toStrictEqual({});
    expect(json('copilot', 'preToolUse', '{"permissionDecision":"allow","permissionDecisionReason":"fine"}')).toStrictEqual({});
    expect(read('copilot', 'postToolUse', ok('{"permissionDecision":"ask"}')).ask).toBeUndefined();
    expect(read('copilot', 'preToolUse', ok('{"permissionDecision":"deny"}')).ask).toBeUndefined();
  });

  it('Gemini: decision ask on BeforeTool', () => {
    expect(read('gemini', 'BeforeTool', ok('{"decision":"ask"}')).ask).toBe('ask');
    expect(read('gemini', 'BeforeTool', ok('{"decision":"allow"}')).ask).toBeUndefined();
  });
});

describe('Claude and Codex JSON', () => {
  it.each(['allow', 'deny', 'ask', 'defer'])('PreToolUse permissionDecision %s is a known value', (value) => {
    expect(read('claude', 'PreToolUse', ok(`{"hookSpecificOutput":{"permissionDecision":"${value}"}}`)).result.kind).toBe('json');
  });

  it.each(['allow', 'deny'])('PermissionRequest decision.behavior %s is a known value', (value) => {
    expect(read('codex', 'PermissionRequest', ok(`{"hookSpecificOutput":{"decision":{"behavior":"${value}"}}}`)).result.kind).toBe('json');
  });

  it('an unknown gate value is invalid, never an allow, and names the values the agent knows', () => {
    expect(read('codex', 'PreToolUse', ok('{"hookSpecificOutput":{"permissionDecision":"approve"}}')).result).toStrictEqual({
      kind: 'invalid', reason: 'hookSpecificOutput.permissionDecision must be "allow", "deny", "ask", "defer", not "approve"; PreToolUse ignores the whole answer',
    });
    expect(read('claude', 'PermissionRequest', ok('{"hookSpecificOutput":{"decision":{"behavior":"ask"}}}')).result).toStrictEqual({
      kind: 'invalid', reason: 'hookSpecificOutput.decision.behavior must be "allow", "deny", not "ask"; PermissionRequest ignores the whole answer',
    });
    // decision.behavior means nothing outside PermissionRequest.
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"decision":{"behavior":"nope"}}}')).toStrictEqual({});
  });

  it('PreToolUse: deny takes its reason from permissionDecisionReason, then reason, then a stock one', () => {
    expect(json('claude', 'PreToolUse', '{"reason":"top","hookSpecificOutput":{"permissionDecision":"deny"}}')).toStrictEqual({ action: 'block', reason: 'top' });
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"permissionDecision":"deny"}}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
    expect(json('claude', 'PreToolUse', '{"decision":"block"}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
  });

  it('PreToolUse: updatedInput replaces the input unless the call is denied; additionalContext prefaces the tool', () => {
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}')).toStrictEqual({ action: 'modify', args: { command: 'ls' } });
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"command":"ls"}}}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"updatedInput":"ls"}}')).toStrictEqual({});
    expect(json('claude', 'PreToolUse', '{"hookSpecificOutput":{"additionalContext":"c"}}')).toStrictEqual({ context: [{ text: 'c', channel: 'tool_preface' }] });
  });

  it('PermissionRequest: decision.behavior is the permission; deny carries its message', () => {
    expect(json('claude', 'PermissionRequest', '{"hookSpecificOutput":{"decision":{"behavior":"allow","message":"m"}}}')).toStrictEqual({ permission: 'allow' });
    expect(json('claude', 'PermissionRequest', '{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}')).toStrictEqual({ permission: 'deny', reason: 'denied by hook' });
    expect(json('claude', 'PermissionRequest', '{"hookSpecificOutput":{}}')).toStrictEqual({});
  });

  it.each(['PostToolUse', 'PostToolUseFailure'])('%s: decision block is feedback; updated output replaces the result; additionalContext is extra context', (event) => {
    expect(json('claude', event, '{"decision":"block","reason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('claude', event, '{"decision":"block"}')).toStrictEqual({ action: 'block', reason: 'blocked by hook' });
    expect(json('claude', event, '{"hookSpecificOutput":{"updatedToolOutput":"new"}}')).toStrictEqual({ replace_result: 'new' });
    expect(json('claude', event, '{"hookSpecificOutput":{"updatedMCPToolOutput":{"content":[]}}}')).toStrictEqual({ replace_result: '{"content":[]}' });
    expect(json('claude', event, '{"hookSpecificOutput":{"additionalContext":"c"}}')).toStrictEqual({ extra_context: 'c' });
    expect(json('claude', event, '{}')).toStrictEqual({});
  });

  it('UserPromptSubmit: decision block blocks the prompt; additionalContext is a reminder', () => {
    expect(json('claude', 'UserPromptSubmit', '{"decision":"block","reason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('claude', 'UserPromptSubmit', '{"decision":"block"}')).toStrictEqual({ action: 'block', reason: 'blocked by hook' });
    expect(json('claude', 'UserPromptSubmit', '{"hookSpecificOutput":{"additionalContext":"c"}}')).toStrictEqual({ system_reminder: 'c' });
    expect(json('claude', 'UserPromptSubmit', '{"decision":"approve"}')).toStrictEqual({});
  });

  it('Stop and others: decision block keeps the agent going; additionalContext is context; anything else says nothing', () => {
    expect(json('claude', 'Stop', '{"decision":"block","reason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('codex', 'SubagentStop', '{"decision":"block","reason":7}')).toStrictEqual({ action: 'block', reason: 'blocked by hook' });
    expect(json('claude', 'SessionStart', '{"hookSpecificOutput":{"additionalContext":"c"}}')).toStrictEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
    expect(json('claude', 'Stop', '{"decision":"approve"}')).toStrictEqual({});
  });

  it('universal fields: systemMessage is a notice; continue false stops, overriding the decision', () => {
    expect(json('claude', 'Stop', '{"systemMessage":"m"}')).toStrictEqual({ context: [{ text: 'm', channel: 'ui_notice' }] });
    expect(json('claude', 'Stop', '{"continue":false}')).toStrictEqual({ action: 'block', reason: 'stopped by hook (continue: false)' });
    expect(json('claude', 'Stop', '{"continue":false,"reason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('claude', 'PreToolUse', '{"continue":false,"stopReason":"halt","hookSpecificOutput":{"permissionDecision":"allow"}}')).toStrictEqual({ action: 'block', reason: 'halt' });
    expect(json('claude', 'Stop', '{"continue":true}')).toStrictEqual({});
  });
});

describe('Gemini JSON', () => {
  it('allow says nothing; additionalContext before a tool is context; a non-text reason gets a stock one', () => {
    expect(json('gemini', 'BeforeTool', '{"decision":"allow"}')).toStrictEqual({});
    expect(json('gemini', 'BeforeTool', '{"hookSpecificOutput":{"additionalContext":"c"}}')).toStrictEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
    expect(json('gemini', 'AfterTool', '{"decision":"deny","reason":["r"]}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
  });
});

describe('Cursor JSON', () => {
  it('permission deny blocks, with agent_message, then user_message, then a stock reason', () => {
    expect(json('cursor', 'beforeShellExecution', '{"permission":"deny","user_message":"u"}')).toStrictEqual({ action: 'block', reason: 'u' });
    expect(json('cursor', 'beforeShellExecution', '{"permission":"deny"}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
    expect(json('cursor', 'beforeShellExecution', '{"permission":"allow"}')).toStrictEqual({});
  });

  it('updated_input rewrites on preToolUse only, and never a denied call', () => {
    expect(json('cursor', 'preToolUse', '{"updated_input":{"command":"ls"}}')).toStrictEqual({ action: 'modify', args: { command: 'ls' } });
    expect(json('cursor', 'beforeShellExecution', '{"updated_input":{"command":"ls"}}')).toStrictEqual({});
    expect(json('cursor', 'preToolUse', '{"permission":"deny","agent_message":"a","updated_input":{}}')).toStrictEqual({ action: 'block', reason: 'a' });
  });

  it('continue false blocks the prompt on beforeSubmitPrompt only', () => {
    expect(json('cursor', 'beforeSubmitPrompt', '{"continue":false}')).toStrictEqual({ action: 'block', reason: 'blocked by hook (continue: false)' });
    expect(json('cursor', 'beforeSubmitPrompt', '{"continue":false,"agent_message":"a"}')).toStrictEqual({ action: 'block', reason: 'a' });
    expect(json('cursor', 'beforeSubmitPrompt', '{"continue":true}')).toStrictEqual({});
    expect(json('cursor', 'preCompact', '{"continue":false}')).toStrictEqual({});
  });

  it.each(['stop', 'subagentStop'])('%s: followup_message keeps the agent going with it', (event) => {
    expect(json('cursor', event, '{"followup_message":"next"}')).toStrictEqual({ action: 'block', reason: 'next' });
    expect(json('cursor', event, '{"followup_message":""}')).toStrictEqual({});
  });

  it('followup_message means nothing elsewhere', () => {
    expect(json('cursor', 'sessionEnd', '{"followup_message":"next"}')).toStrictEqual({});
  });

  it('additional_context is extra context after a tool, context at session start; user_message alone is a notice', () => {
    expect(json('cursor', 'postToolUse', '{"additional_context":"c"}')).toStrictEqual({ extra_context: 'c' });
    expect(json('cursor', 'postToolUseFailure', '{"additional_context":"c"}')).toStrictEqual({ extra_context: 'c' });
    expect(json('cursor', 'sessionStart', '{"additional_context":"c"}')).toStrictEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
    expect(json('cursor', 'preCompact', '{"user_message":"u"}')).toStrictEqual({ context: [{ text: 'u', channel: 'ui_notice' }] });
  });
});

describe('Copilot CLI JSON', () => {
  it('preToolUse: deny blocks with its reason; modifiedArgs rewrites unless denied', () => {
    expect(json('copilot', 'preToolUse', '{"permissionDecision":"deny","permissionDecisionReason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('copilot', 'preToolUse', '{"permissionDecision":"deny"}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
    expect(json('copilot', 'preToolUse', '{"modifiedArgs":{"command":"ls"}}')).toStrictEqual({ action: 'modify', args: { command: 'ls' } });
    expect(json('copilot', 'preToolUse', '{"permissionDecision":"deny","modifiedArgs":{}}')).toStrictEqual({ action: 'block', reason: 'denied by hook' });
    expect(json('copilot', 'postToolUse', '{"permissionDecision":"deny","modifiedArgs":{}}')).toStrictEqual({});
  });

  it('permissionRequest: behavior is the permission; deny carries its message', () => {
    expect(json('copilot', 'permissionRequest', '{"behavior":"allow"}')).toStrictEqual({ permission: 'allow' });
    expect(json('copilot', 'permissionRequest', '{"behavior":"deny","message":"m"}')).toStrictEqual({ permission: 'deny', reason: 'm' });
    expect(json('copilot', 'permissionRequest', '{"behavior":"deny"}')).toStrictEqual({ permission: 'deny', reason: 'denied by hook' });
    expect(json('copilot', 'permissionRequest', '{"behavior":"maybe"}')).toStrictEqual({});
    expect(json('copilot', 'preToolUse', '{"behavior":"deny"}')).toStrictEqual({});
  });

  it.each(['agentStop', 'subagentStop'])('%s: decision block keeps the agent going', (event) => {
    expect(json('copilot', event, '{"decision":"block","reason":"r"}')).toStrictEqual({ action: 'block', reason: 'r' });
    expect(json('copilot', event, '{"decision":"block"}')).toStrictEqual({ action: 'block', reason: 'blocked by hook' });
    expect(json('copilot', event, '{"decision":"allow"}')).toStrictEqual({});
  });

  it('decision block means nothing elsewhere', () => {
    expect(json('copilot', 'sessionStart', '{"decision":"block"}')).toStrictEqual({});
  });

  it('additionalContext is extra context after a tool, context before one and at session start', () => {
    expect(json('copilot', 'postToolUse', '{"additionalContext":"c"}')).toStrictEqual({ extra_context: 'c' });
    expect(json('copilot', 'preToolUse', '{"additionalContext":"c"}')).toStrictEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
    expect(json('copilot', 'sessionStart', '{"additionalContext":"c"}')).toStrictEqual({ context: [{ text: 'c', channel: 'pre_prompt' }] });
  });
});
