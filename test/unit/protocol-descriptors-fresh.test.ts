// The agents' hook protocols as facts (AGENT-PROTOCOLS.md, docs/agents.md,
// the Copilot CLI hooks reference), read through the registry, the name
// lookups and the environment a `run.protocol` hook gets: event names both
// ways, where exit 2 blocks, where context and plain stdout are read, the
// variables, session defaults, hook-file shapes, import rules and tool names.
//
// Every module is imported afresh for each test: the descriptors and tables
// are built when they load, and mutation testing switches a mutant on only
// after a test file's own imports ran, so an entry is told apart only by a
// module loaded inside the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName } from '../../src/core/events.js';
import type { AgentProtocol } from '../../src/core/protocols/names.js';

type Registry = typeof import('../../src/core/protocols/agents/index.js');
type Names = typeof import('../../src/core/protocols/names.js');
type Env = typeof import('../../src/core/protocols/env.js');
let R: Registry;
let N: Names;
let E: Env;
beforeEach(async () => {
  vi.resetModules();
  R = await import('../../src/core/protocols/agents/index.js');
  N = await import('../../src/core/protocols/names.js');
  E = await import('../../src/core/protocols/env.js');
});

const sorted = (names: readonly string[]): string[] => [...names].sort();

describe('the registry', () => {
  it('holds the five agents, in the order the CLI lists them', () => {
    expect(R.AGENT_PROTOCOLS).toEqual(['claude', 'codex', 'gemini', 'cursor', 'copilot']);
    expect(N.AGENT_PROTOCOLS).toEqual(R.AGENT_PROTOCOLS);
    expect(R.agentList()).toBe('claude, codex, gemini, cursor or copilot');
    expect(R.agentList(['claude', 'gemini'])).toBe('claude or gemini');
  });

  it.each([
    ['claude', 'Claude Code'],
    ['codex', 'Codex'],
    ['gemini', 'Gemini CLI'],
    ['cursor', 'Cursor'],
    ['copilot', 'Copilot CLI'],
  ] as const)('%s is named %s in output', (agent, name) => {
    expect(R.protocolOf(agent).name).toBe(name);
  });
});

describe('agent event → Chrys event, and back', () => {
  // [agent, its event, the Chrys event, what that Chrys event is sent back as]
  it.each([
    ['claude', 'PreToolUse', 'before_tool_call', 'PreToolUse'],
    ['claude', 'PostToolUse', 'after_tool_call', 'PostToolUse'],
    ['claude', 'PostToolUseFailure', 'tool_error', 'PostToolUseFailure'],
    ['claude', 'PermissionRequest', 'permission_request', 'PermissionRequest'],
    ['claude', 'UserPromptSubmit', 'user_prompt_submit', 'UserPromptSubmit'],
    ['claude', 'SessionStart', 'session_start', 'SessionStart'],
    ['claude', 'SessionEnd', 'session_end', 'SessionEnd'],
    ['claude', 'Stop', 'conversation_done', 'Stop'],
    ['claude', 'SubagentStart', 'sub_agent_start', 'SubagentStart'],
    ['claude', 'SubagentStop', 'sub_agent_end', 'SubagentStop'],
    ['claude', 'PreCompact', 'pre_compact', 'PreCompact'],
    ['claude', 'StopFailure', 'error', 'StopFailure'],
    // Codex's Interrupt; Claude and Codex share one table of names.
    ['codex', 'Interrupt', 'user_interrupt', 'Interrupt'],
    ['codex', 'PreToolUse', 'before_tool_call', 'PreToolUse'],
    ['codex', 'PermissionRequest', 'permission_request', 'PermissionRequest'],
    ['codex', 'Stop', 'conversation_done', 'Stop'],
    ['gemini', 'BeforeTool', 'before_tool_call', 'BeforeTool'],
    ['gemini', 'AfterTool', 'after_tool_call', 'AfterTool'],
    ['gemini', 'BeforeAgent', 'user_prompt_submit', 'BeforeAgent'],
    ['gemini', 'AfterAgent', 'conversation_done', 'AfterAgent'],
    ['gemini', 'SessionStart', 'session_start', 'SessionStart'],
    ['gemini', 'SessionEnd', 'session_end', 'SessionEnd'],
    ['gemini', 'PreCompress', 'pre_compact', 'PreCompress'],
    ['cursor', 'preToolUse', 'before_tool_call', 'preToolUse'],
    ['cursor', 'postToolUse', 'after_tool_call', 'postToolUse'],
    ['cursor', 'postToolUseFailure', 'tool_error', 'postToolUseFailure'],
    ['cursor', 'beforeSubmitPrompt', 'user_prompt_submit', 'beforeSubmitPrompt'],
    ['cursor', 'sessionStart', 'session_start', 'sessionStart'],
    ['cursor', 'sessionEnd', 'session_end', 'sessionEnd'],
    ['cursor', 'stop', 'conversation_done', 'stop'],
    ['cursor', 'subagentStart', 'sub_agent_start', 'subagentStart'],
    ['cursor', 'subagentStop', 'sub_agent_end', 'subagentStop'],
    ['cursor', 'preCompact', 'pre_compact', 'preCompact'],
    // Cursor's one-tool gates fire for one call beside preToolUse / postToolUse, which is what a Chrys event is sent as.
    ['cursor', 'beforeShellExecution', 'before_tool_call', 'preToolUse'],
    ['cursor', 'beforeMCPExecution', 'before_tool_call', 'preToolUse'],
    ['cursor', 'beforeReadFile', 'before_tool_call', 'preToolUse'],
    ['cursor', 'afterShellExecution', 'after_tool_call', 'postToolUse'],
    ['cursor', 'afterMCPExecution', 'after_tool_call', 'postToolUse'],
    ['cursor', 'afterFileEdit', 'after_tool_call', 'postToolUse'],
    ['copilot', 'preToolUse', 'before_tool_call', 'preToolUse'],
    ['copilot', 'postToolUse', 'after_tool_call', 'postToolUse'],
    ['copilot', 'postToolUseFailure', 'tool_error', 'postToolUseFailure'],
    ['copilot', 'permissionRequest', 'permission_request', 'permissionRequest'],
    ['copilot', 'userPromptSubmitted', 'user_prompt_submit', 'userPromptSubmitted'],
    ['copilot', 'sessionStart', 'session_start', 'sessionStart'],
    ['copilot', 'sessionEnd', 'session_end', 'sessionEnd'],
    ['copilot', 'agentStop', 'conversation_done', 'agentStop'],
    ['copilot', 'subagentStop', 'sub_agent_end', 'subagentStop'],
    ['copilot', 'errorOccurred', 'error', 'errorOccurred'],
  ] as [AgentProtocol, string, EventName, string][])('%s %s is %s, sent back as %s', (agent, name, event, sentAs) => {
    expect(N.chrysEventOf(agent, name)).toBe(event);
    expect(R.protocolOf(agent).events[name]).toBe(event);
    expect(N.agentEventOf(agent, event)).toBe(sentAs);
  });

  // A resumed session is the agent's session start (source "resume"); a Gemini tool failure is its one AfterTool.
  it.each([
    ['claude', 'session_restored', 'SessionStart'],
    ['codex', 'session_restored', 'SessionStart'],
    ['gemini', 'session_restored', 'SessionStart'],
    ['gemini', 'tool_error', 'AfterTool'],
    ['cursor', 'session_restored', 'sessionStart'],
    ['copilot', 'session_restored', 'sessionStart'],
  ] as [AgentProtocol, EventName, string][])('%s: %s is sent as %s', (agent, event, name) => {
    expect(N.agentEventOf(agent, event)).toBe(name);
  });

  it.each([
    ['gemini', 'permission_request'],
    ['gemini', 'sub_agent_start'],
    ['gemini', 'error'],
    ['cursor', 'permission_request'],
    ['cursor', 'error'],
    ['copilot', 'sub_agent_start'],
    ['copilot', 'pre_compact'],
    ['claude', 'other'],
  ] as [AgentProtocol, EventName][])('%s has no event for %s', (agent, event) => {
    expect(N.agentEventOf(agent, event)).toBeUndefined();
  });

  it.each([
    ['claude', 'BeforeTool'],
    ['claude', 'userPromptSubmitted'],
    // Cursor's one-tool gates are not Claude-shaped, so --protocol claude does not take them.
    ['claude', 'beforeShellExecution'],
    ['claude', 'beforeReadFile'],
    ['claude', 'permissionRequest'],
    ['gemini', 'PreToolUse'],
    ['gemini', 'Stop'],
    ['cursor', 'PreToolUse'],
    ['cursor', 'permissionRequest'],
    ['copilot', 'PreToolUse'],
    ['copilot', 'stop'],
    ['copilot', 'toString'],
    ['claude', ''],
  ] as [AgentProtocol, string][])('%s does not document %j', (agent, name) => {
    expect(N.chrysEventOf(agent, name)).toBeUndefined();
  });
});

describe('the documented events with no Chrys counterpart: they fire other', () => {
  const other: Record<AgentProtocol, string[]> = {
    // AGENT-PROTOCOLS §1.1 (31 events, those not mapped) and the model-switch pair.
    claude: [
      'Setup', 'UserPromptExpansion', 'PermissionDenied', 'PostToolBatch', 'Notification', 'MessageDisplay', 'TaskCreated', 'TaskCompleted',
      'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged', 'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove',
      'PostCompact', 'Elicitation', 'ElicitationResult', 'PreModelSwitch', 'PostModelSwitch',
    ],
    // §2.1: of Codex's own, PostCompact.
    codex: ['PostCompact'],
    // §3.1: 11 events, four unmapped.
    gemini: ['Notification', 'BeforeModel', 'AfterModel', 'BeforeToolSelection'],
    // §4.1: the response and thought observers, the tab hooks, the app hook.
    cursor: ['afterAgentResponse', 'afterAgentThought', 'beforeTabFileRead', 'afterTabFileEdit', 'workspaceOpen'],
    copilot: ['notification'],
  };

  it.each(Object.entries(other).flatMap(([agent, names]) => names.map((n) => [agent, n])) as [AgentProtocol, string][])('%s %s', (agent, name) => {
    expect(N.chrysEventOf(agent, name)).toBe('other');
    expect(N.ownEventName(agent, name)).toBe(name);
  });

  it.each([
    // The 33 Claude documents, and Codex's Interrupt: the table the two share.
    ['claude', 34],
    ['gemini', 11],
    ['cursor', 21],
    ['copilot', 11],
  ] as [AgentProtocol, number][])('%s documents %i events, each once', (agent, count) => {
    const names = N.agentEvents(agent);
    expect(names).toHaveLength(count);
    expect(new Set(names).size).toBe(count);
    for (const name of other[agent]) expect(names).toContain(name);
    expect(sorted(names.filter((n) => N.chrysEventOf(agent, n) === 'other'))).toEqual(sorted(R.protocolOf(agent).otherEvents));
  });

  it("Codex's own events (§2.1, SessionEnd and Interrupt) are all in the table it shares with Claude", () => {
    const names = N.agentEvents('codex');
    for (const name of ['SessionStart', 'SubagentStart', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SubagentStop', 'Stop', 'SessionEnd', 'Interrupt']) {
      expect(names, name).toContain(name);
    }
    expect(N.agentEvents('codex')).toEqual(N.agentEvents('claude'));
  });

  it('Gemini has exactly the 11 events of its HookEventName', () => {
    expect(sorted(N.agentEvents('gemini'))).toEqual(sorted(['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'BeforeTool', 'AfterTool', 'PreCompress', 'Notification']));
  });
});

describe("Cursor's Claude-shaped names under --protocol claude", () => {
  it.each([
    ['preToolUse', 'PreToolUse', 'before_tool_call'],
    ['postToolUse', 'PostToolUse', 'after_tool_call'],
    ['postToolUseFailure', 'PostToolUseFailure', 'tool_error'],
    ['beforeSubmitPrompt', 'UserPromptSubmit', 'user_prompt_submit'],
    ['sessionStart', 'SessionStart', 'session_start'],
    ['sessionEnd', 'SessionEnd', 'session_end'],
    ['stop', 'Stop', 'conversation_done'],
    ['subagentStart', 'SubagentStart', 'sub_agent_start'],
    ['subagentStop', 'SubagentStop', 'sub_agent_end'],
    ['preCompact', 'PreCompact', 'pre_compact'],
  ] as [string, string, EventName][])('%s is answered as %s (%s)', (alias, own, event) => {
    expect(N.chrysEventOf('claude', alias)).toBe(event);
    expect(N.ownEventName('claude', alias)).toBe(own);
    // It is Cursor's own name for the same event.
    expect(N.chrysEventOf('cursor', alias)).toBe(event);
  });

  it('takes no other alias, and no other agent takes aliases of its own', () => {
    expect(Object.keys(R.protocolOf('claude').aliases)).toHaveLength(10);
    expect(N.ownEventName('claude', 'PreToolUse')).toBe('PreToolUse');
    expect(N.ownEventName('claude', 'beforeShellExecution')).toBe('beforeShellExecution');
    for (const agent of ['gemini', 'cursor', 'copilot'] as const) expect(R.protocolOf(agent).aliases, agent).toEqual({});
    expect(N.ownEventName('cursor', 'preToolUse')).toBe('preToolUse');
    expect(N.ownEventName('copilot', 'stop')).toBe('stop');
  });
});

describe('a Cursor-style (lowerCamelCase) name', () => {
  it.each(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'stop', 'a'])('%s is one', (name) => {
    expect(N.isCursorStyleName(name)).toBe(true);
  });

  it.each(['PreToolUse', 'Stop', 'pre_tool_use', 'before-shell', 'stop2', '', '1stop', ' stop'])('%j is not', (name) => {
    expect(N.isCursorStyleName(name)).toBe(false);
  });
});

describe('where exit 2 blocks, and where it feeds stderr back after the action', () => {
  it.each([
    // §1.6: PermissionRequest does not honour exit 2; Stop and SubagentStop keep the agent going.
    ['claude', ['PreToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop'], ['PostToolUse', 'PostToolUseFailure']],
    ['codex', ['PreToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop'], ['PostToolUse', 'PostToolUseFailure']],
    // §3.5: the tool blocked, the prompt, AfterAgent's retry; an AfterTool exit 2 replaces the result.
    ['gemini', ['BeforeTool', 'BeforeAgent', 'AfterAgent'], ['AfterTool']],
    // §4.6: exit 2 is permission "deny", on the gates, the prompt and subagentStart.
    ['cursor', ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'beforeSubmitPrompt', 'subagentStart'], undefined],
    // §0.2: a warning everywhere but permissionRequest, where it denies.
    ['copilot', ['permissionRequest'], undefined],
  ] as [AgentProtocol, string[], string[] | undefined][])('%s', (agent, blocks, feedback) => {
    const d = R.protocolOf(agent);
    expect(sorted(d.exit2Blocks)).toEqual(sorted(blocks));
    if (feedback) expect(sorted(d.exit2Feedback)).toEqual(sorted(feedback));
    for (const name of blocks) expect(N.chrysEventOf(agent, name), name).not.toBe('other');
  });

  it.each(['claude', 'codex', 'gemini', 'cursor', 'copilot'] as const)('%s names only its own events in its exit-2 and context tables', (agent) => {
    const d = R.protocolOf(agent);
    const names = N.agentEvents(agent);
    for (const name of [...d.exit2Blocks, ...d.exit2Feedback, ...d.contextEvents, ...d.plainTextContext]) expect(names, name).toContain(name);
    expect(d.exit2Blocks.filter((n) => d.exit2Feedback.includes(n))).toEqual([]);
  });

  it('never blocks a permission request with exit 2 under Claude or Codex', () => {
    for (const agent of ['claude', 'codex'] as const) expect(R.protocolOf(agent).exit2Blocks).not.toContain('PermissionRequest');
  });
});

describe('where the agent reads context from the answer, and plain stdout as context', () => {
  // [agent, reads context, does not, plain stdout is context (§1.6, §2.5; Gemini §3.5: a systemMessage; Cursor and Copilot: JSON only)]
  it.each([
    ['claude', ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SubagentStart', 'Stop', 'SubagentStop'], ['PermissionRequest', 'SessionEnd', 'PreCompact', 'Notification'], ['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart']],
    // Codex's Stop needs JSON, and takes a block, not context.
    ['codex', ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'], ['Stop', 'PermissionRequest', 'PreCompact'], ['UserPromptSubmit', 'SessionStart', 'SubagentStart']],
    ['gemini', ['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionStart'], ['AfterAgent', 'SessionEnd', 'PreCompress'], []],
    // §4.6: beforeSubmitPrompt has no context injection.
    ['cursor', ['postToolUse', 'afterMCPExecution', 'sessionStart'], ['beforeSubmitPrompt', 'preToolUse', 'stop', 'sessionEnd'], []],
    // §5: tool hooks' and notification's additionalContext (postToolUseFailure's as recovery guidance, its CLI
    // hooks reference); sessionStart's as its SDK's SessionStartHookOutput has it.
    ['copilot', ['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'notification'], ['userPromptSubmitted', 'sessionEnd', 'errorOccurred'], []],
  ] as [AgentProtocol, string[], string[], string[]][])('%s', (agent, context, none, plain) => {
    const d = R.protocolOf(agent);
    expect(d.contextEvents).toEqual(expect.arrayContaining(context));
    for (const name of none) expect(d.contextEvents, name).not.toContain(name);
    expect(sorted(d.plainTextContext)).toEqual(sorted(plain));
  });
});

describe('the environment a run.protocol hook gets', () => {
  it.each([
    ['claude', { CLAUDE_PROJECT_DIR: '/w' }],
    // docs/agents.md: CLAUDE_PROJECT_DIR for codex too, for Claude-style scripts.
    ['codex', { CLAUDE_PROJECT_DIR: '/w' }],
    ['gemini', { GEMINI_PROJECT_DIR: '/w', GEMINI_CWD: '/w', GEMINI_SESSION_ID: 's1', CLAUDE_PROJECT_DIR: '/w' }],
    ['cursor', { CURSOR_PROJECT_DIR: '/w', CLAUDE_PROJECT_DIR: '/w' }],
    ['copilot', {}],
  ] as [AgentProtocol, Record<string, string>][])('%s', (agent, env) => {
    expect(E.agentEnv(agent, '/w', 's1')).toStrictEqual(env);
  });
});

describe("the session fields an agent's input gets where the envelope has none", () => {
  it.each([
    ['claude', { source: 'startup', restoredSource: 'resume', endReason: 'other' }],
    ['codex', { source: 'startup', restoredSource: 'resume', endReason: 'other' }],
    // gemini-cli SessionStartSource.Resume; SessionEnd reason "exit".
    ['gemini', { source: 'startup', restoredSource: 'resume', endReason: 'exit' }],
    // Copilot: source "startup" | "resume" | "new"; reason "complete" | "error" | ...
    ['copilot', { source: 'new', restoredSource: 'resume', endReason: 'complete' }],
  ] as [AgentProtocol, object][])('%s', (agent, session) => {
    expect(R.protocolOf(agent).session).toStrictEqual(session);
  });

  it('cursor has none', () => {
    expect(R.protocolOf('cursor').session).toBeUndefined();
  });
});

describe('how its hook file holds handlers', () => {
  it.each([
    ['claude', {}],
    ['codex', {}],
    ['gemini', {}],
    // Cursor and Copilot: the handlers in the event's list; Copilot's command line is under "bash".
    ['cursor', { flat: true }],
    ['copilot', { flat: true, commandKey: 'bash' }],
  ] as [AgentProtocol, object][])('%s', (agent, shape) => {
    expect(R.protocolOf(agent).hooksFile).toStrictEqual(shape);
  });
});

describe('import --from AGENT', () => {
  it('claude: both project settings files, timeouts in seconds, 600 s but 30 s for UserPromptSubmit', () => {
    const r = R.importRulesOf('claude');
    expect(r.files).toEqual(['.claude/settings.json', '.claude/settings.local.json']);
    expect(r.label).toBe('.claude/settings.json (and settings.local.json)');
    expect(r.settingsKeys).toEqual([]);
    expect(r.defaultTimeout).toBe(600);
    expect(r.eventTimeouts).toStrictEqual({ user_prompt_submit: 30 });
    expect(r.timeoutUnit).toBe('seconds');
    expect(r.timeoutKey).toBe('timeout');
    expect(r.gateTools).toStrictEqual({});
  });

  // §1.1: what each non-tool event's matcher filters; null where it filters nothing.
  it.each([
    ['SessionStart', 'source'],
    ['SessionEnd', 'reason'],
    ['PreCompact', 'trigger'],
    ['PostCompact', 'trigger'],
    ['Notification', 'notification_type'],
    ['SubagentStart', 'agent_type'],
    ['SubagentStop', 'agent_type'],
    ['ConfigChange', 'source'],
    ['PermissionDenied', 'tool_name'],
    ['UserPromptSubmit', null],
    ['Stop', null],
    ['PostToolBatch', null],
    ['MessageDisplay', null],
    ['TaskCreated', null],
    ['TaskCompleted', null],
    ['TeammateIdle', null],
    ['CwdChanged', null],
    ['WorktreeCreate', null],
    ['WorktreeRemove', null],
  ] as [string, string | null][])('claude: a %s matcher tests %s', (event, field) => {
    const m = R.importRulesOf('claude').matcherField;
    expect(Object.hasOwn(m, event)).toBe(true);
    expect(m[event]).toBe(field);
  });

  it('claude: a matcher whose field is not known is not guessed', () => {
    expect(Object.keys(R.importRulesOf('claude').matcherField)).toHaveLength(19);
  });

  it('codex: .codex/hooks.json, 600 s, and the matchers §2.3 names', () => {
    const r = R.importRulesOf('codex');
    expect(r.files).toEqual(['.codex/hooks.json']);
    expect(r.label).toBe('.codex/hooks.json');
    expect(r.settingsKeys).toEqual([]);
    expect(r.matcherField).toStrictEqual({ SessionStart: 'source', PreCompact: 'trigger', PostCompact: 'trigger', SubagentStart: 'agent_type', SubagentStop: 'agent_type', UserPromptSubmit: null, Stop: null });
    expect(r.defaultTimeout).toBe(600);
    expect(r.eventTimeouts).toStrictEqual({});
    expect(r.timeoutUnit).toBe('seconds');
    expect(r.timeoutKey).toBe('timeout');
    expect(r.gateTools).toStrictEqual({});
  });

  it('gemini: .gemini/settings.json, its three settings keys, timeouts in milliseconds (60 s by default)', () => {
    const r = R.importRulesOf('gemini');
    expect(r.files).toEqual(['.gemini/settings.json']);
    expect(r.label).toBe('.gemini/settings.json');
    expect(sorted(r.settingsKeys)).toEqual(['disabled', 'enabled', 'notifications']);
    expect(r.matcherField).toStrictEqual({ SessionStart: 'source', SessionEnd: 'reason', PreCompress: 'trigger', Notification: 'notification_type' });
    expect(r.defaultTimeout).toBe(60);
    expect(r.eventTimeouts).toStrictEqual({});
    expect(r.timeoutUnit).toBe('milliseconds');
    expect(r.timeoutKey).toBe('timeout');
    expect(r.gateTools).toStrictEqual({});
  });

  it('cursor: .cursor/hooks.json, no documented default timeout, seconds', () => {
    const r = R.importRulesOf('cursor');
    expect(r.files).toEqual(['.cursor/hooks.json']);
    expect(r.label).toBe('.cursor/hooks.json');
    expect(r.settingsKeys).toEqual([]);
    expect(r.matcherField).toStrictEqual({});
    expect(r.defaultTimeout).toBeUndefined();
    expect(r.eventTimeouts).toStrictEqual({});
    expect(r.timeoutUnit).toBe('seconds');
    expect(r.timeoutKey).toBe('timeout');
  });

  // docs/agents.md: beforeShellExecution is tool Shell, beforeMCPExecution MCP:<name>, beforeReadFile Read, afterFileEdit Write.
  it.each([
    ['beforeShellExecution', { tool_name: 'Shell' }],
    ['afterShellExecution', { tool_name: 'Shell' }],
    ['beforeMCPExecution', { tool_name_regex: '^MCP:' }],
    ['afterMCPExecution', { tool_name_regex: '^MCP:' }],
    ['beforeReadFile', { tool_name: 'Read' }],
    ['afterFileEdit', { tool_name: 'Write' }],
  ] as [string, object][])('cursor: an imported %s hook matches %o', (event, match) => {
    const gates = R.importRulesOf('cursor').gateTools;
    expect(gates[event]).toStrictEqual(match);
    expect(Object.keys(gates)).toHaveLength(6);
  });

  it('copilot: every .github/hooks/*.json, timeoutSec in seconds, 30 s by default', () => {
    const r = R.importRulesOf('copilot');
    expect(r.files).toEqual(['.github/hooks/*.json']);
    expect(r.label).toBe('.github/hooks/*.json');
    expect(r.settingsKeys).toEqual([]);
    expect(r.matcherField).toStrictEqual({});
    expect(r.defaultTimeout).toBe(30);
    expect(r.eventTimeouts).toStrictEqual({});
    expect(r.timeoutUnit).toBe('seconds');
    expect(r.timeoutKey).toBe('timeoutSec');
    expect(r.gateTools).toStrictEqual({});
  });
});

describe('tool kinds of the agents’ built-in tools', () => {
  it.each([
    // Claude Code
    ['Bash', 'process.exec'], ['Write', 'filesystem.write'], ['Edit', 'filesystem.write'], ['MultiEdit', 'filesystem.write'], ['NotebookEdit', 'filesystem.write'],
    ['Read', 'filesystem.read'], ['Glob', 'filesystem.read'], ['Grep', 'filesystem.read'], ['LS', 'filesystem.read'],
    // Codex
    ['apply_patch', 'filesystem.write'], ['shell', 'process.exec'], ['exec_command', 'process.exec'], ['local_shell', 'process.exec'],
    // Gemini CLI (§3.10's tool map, and its older grep name)
    ['run_shell_command', 'process.exec'], ['write_file', 'filesystem.write'], ['replace', 'filesystem.write'], ['read_file', 'filesystem.read'],
    ['read_many_files', 'filesystem.read'], ['glob', 'filesystem.read'], ['grep', 'filesystem.read'], ['search_file_content', 'filesystem.read'],
    ['list_directory', 'filesystem.read'], ['ls', 'filesystem.read'],
    // Cursor
    ['Shell', 'process.exec'], ['Delete', 'filesystem.write'],
    // Copilot CLI (its hooks reference's tool names), and VS Code's terminal tool
    ['bash', 'process.exec'], ['powershell', 'process.exec'], ['edit', 'filesystem.write'], ['create', 'filesystem.write'], ['view', 'filesystem.read'],
    ['run_in_terminal', 'process.exec'],
    // Chrys's own
    ['run_shell', 'process.exec'],
  ])('%s is %s', (tool, kind) => {
    expect(N.toolKindOf(tool)).toBe(kind);
  });

  it.each(['mcp__memory__create', 'web_fetch', 'Task', 'toString', 'BASH', ''])('%j has none', (tool) => {
    expect(N.toolKindOf(tool)).toBeUndefined();
  });
});

describe('shell tools and the argument holding the command line', () => {
  it.each([
    ['chrys', 'run_shell', 'command'],
    ['claude', 'Bash', 'command'],
    ['codex', 'shell', 'command'],
    // docs/agents.md: Codex's model-facing shell tool, its command in `cmd`.
    ['codex', 'exec_command', 'cmd'],
    ['codex', 'local_shell', 'command'],
    ['gemini', 'run_shell_command', 'command'],
    ['cursor', 'Shell', 'command'],
    // Cursor's beforeShellExecution input carries `command`.
    ['cursor', 'beforeShellExecution', 'command'],
    ['copilot', 'bash', 'command'],
    ['copilot', 'powershell', 'command'],
    ['copilot', 'run_in_terminal', 'command'],
  ] as const)('%s %s: %s', (agent, tool, arg) => {
    expect(N.SHELL_TOOLS.filter((t) => t.tool === tool)).toStrictEqual([{ agent, tool, arg }]);
    expect(N.shellCommandOf(tool, { [arg]: 'rm -rf build' })).toBe('rm -rf build');
    expect(N.shellCommandOf(tool, { [arg === 'cmd' ? 'command' : 'cmd']: 'ls' })).toBe('missing');
  });

  it('are those eleven', () => {
    expect(N.SHELL_TOOLS).toHaveLength(11);
  });

  it('no other tool is a shell tool', () => {
    for (const tool of ['Write', 'run_shell_command_x', 'mcp__x__shell', 'toString']) expect(N.shellCommandOf(tool, { command: 'ls' }), tool).toBe('not_shell');
  });

  it('an absent or non-text command is missing', () => {
    expect(N.shellCommandOf('Bash', undefined)).toBe('missing');
    expect(N.shellCommandOf('Bash', { command: 3 })).toBe('missing');
    expect(N.shellCommandOf('shell', { command: [] })).toBe('missing');
    expect(N.shellCommandOf('shell', { command: ['ls', 1] })).toBe('missing');
    expect(N.shellCommandOf('shell', { command: [1, 2] })).toBe('missing');
  });

  it("reads Codex's argv as the command line it is, quoting what a shell would split", () => {
    expect(N.shellCommandOf('shell', { command: ['bash', '-lc', 'rm -rf /'] })).toBe("bash -lc 'rm -rf /'");
    expect(N.shellCommandOf('shell', { command: ['git', 'commit', '-m', 'x=1,y@2:%+./-'] })).toBe('git commit -m x=1,y@2:%+./-');
    expect(N.shellCommandOf('shell', { command: ['echo', "it's"] })).toBe("echo 'it'\\''s'");
    expect(N.shellCommandOf('shell', { command: ['echo', ''] })).toBe("echo ''");
  });
});
