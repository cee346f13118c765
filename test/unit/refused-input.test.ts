// `--protocol X --fail-closed` on input chrys-hooks refuses
// (src/core/protocols/refused-input.ts; docs/security.md "Fail closed"): the
// agent's own deny instead of exit 65, which every agent reads as a
// non-blocking error and so would run the call unguarded.

import { describe, expect, it } from 'vitest';
import type { AgentProtocol } from '../../src/core/protocols/names.js';
import { refusedInputReply } from '../../src/core/protocols/refused-input.js';

const WHY = 'not JSON: unexpected token at 0';
const REASON = `chrys-hooks fails closed: the hook input was refused (${WHY}), so no guard saw it`;
const EXIT2 = { stdout: '', stderr: `${REASON}\n`, exitCode: 2 };

describe('input whose event cannot be read', () => {
  // Exit 2 blocks the gates of Claude Code, Codex, Gemini CLI and Cursor.
  it.each<[AgentProtocol, string | undefined]>([
    ['claude', undefined],
    ['codex', undefined],
    ['gemini', undefined],
    ['cursor', undefined],
    // an event the agent does not have is as unreadable as none
    ['claude', 'NoSuchEvent'],
    ['gemini', 'PreToolUse'],
    ['codex', ''],
  ])('%s %s: exit 2 with the reason on stderr', (protocol, event) => {
    expect(refusedInputReply(protocol, event, WHY)).toEqual(EXIT2);
  });

  // Copilot CLI reads exit 2 as a warning; not knowing which event it is, the deny is JSON in both its forms.
  it.each([undefined, 'NoSuchEvent'])('copilot %s: the tool-call and the permission deny on stdout, exit 0', (event) => {
    const reply = refusedInputReply('copilot', event, WHY);
    expect(reply?.exitCode).toBe(0);
    expect(JSON.parse(reply!.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: REASON, behavior: 'deny', message: REASON });
    expect(reply?.stderr).toBe(`${REASON}\n`);
  });
});

describe('a guarded event: its own deny', () => {
  it.each<[AgentProtocol, string]>([
    ['claude', 'PreToolUse'],
    ['claude', 'UserPromptSubmit'],
    // Cursor's name, accepted under --protocol claude
    ['claude', 'preToolUse'],
    ['codex', 'PreToolUse'],
    ['codex', 'UserPromptSubmit'],
    ['gemini', 'BeforeTool'],
    ['gemini', 'BeforeAgent'],
    ['cursor', 'preToolUse'],
    ['cursor', 'beforeShellExecution'],
    ['cursor', 'beforeReadFile'],
    ['cursor', 'beforeSubmitPrompt'],
  ])('%s %s: exit 2', (protocol, event) => {
    expect(refusedInputReply(protocol, event, WHY)).toEqual(EXIT2);
  });

  // Claude Code and Codex do not honour exit 2 on PermissionRequest.
  it.each<AgentProtocol>(['claude', 'codex'])('%s PermissionRequest: decision.behavior deny in JSON', (protocol) => {
    const reply = refusedInputReply(protocol, 'PermissionRequest', WHY);
    expect(reply?.exitCode).toBe(0);
    expect(JSON.parse(reply!.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: REASON } } });
  });

  it('copilot preToolUse: permissionDecision deny, and nothing of the permission form', () => {
    const reply = refusedInputReply('copilot', 'preToolUse', WHY);
    expect(reply).toEqual({ stdout: JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: REASON }), stderr: '', exitCode: 0 });
  });

  it('copilot permissionRequest: behavior deny', () => {
    const reply = refusedInputReply('copilot', 'permissionRequest', WHY);
    expect(reply).toEqual({ stdout: JSON.stringify({ behavior: 'deny', message: REASON }), stderr: '', exitCode: 0 });
  });
});

describe('an event fail-closed leaves alone: the refusal stays an error', () => {
  it.each<[AgentProtocol, string]>([
    ['claude', 'PostToolUse'],
    ['claude', 'PostToolUseFailure'],
    ['claude', 'Stop'],
    ['claude', 'SessionStart'],
    ['claude', 'Notification'],
    ['codex', 'PostToolUse'],
    ['gemini', 'AfterTool'],
    ['gemini', 'AfterAgent'],
    ['cursor', 'postToolUse'],
    ['cursor', 'stop'],
    ['copilot', 'postToolUse'],
    ['copilot', 'agentStop'],
    ['copilot', 'sessionStart'],
  ])('%s %s', (protocol, event) => {
    expect(refusedInputReply(protocol, event, WHY)).toBeUndefined();
  });
});
