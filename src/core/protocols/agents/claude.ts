// Claude Code's hook protocol (AGENT-PROTOCOLS §1). Codex shares its event
// names (codex.ts); Cursor's Claude-shaped lowerCamelCase names are accepted
// as aliases.

import type { AgentProtocolDescriptor, ImportRules } from './types.js';

export const claude: AgentProtocolDescriptor = {
  name: 'Claude Code',
  events: {
    PreToolUse: 'before_tool_call',
    PostToolUse: 'after_tool_call',
    PostToolUseFailure: 'tool_error',
    PermissionRequest: 'permission_request',
    UserPromptSubmit: 'user_prompt_submit',
    SessionStart: 'session_start',
    SessionEnd: 'session_end',
    Stop: 'conversation_done',
    SubagentStart: 'sub_agent_start',
    SubagentStop: 'sub_agent_end',
    PreCompact: 'pre_compact',
    StopFailure: 'error',
    Interrupt: 'user_interrupt',
  },
  otherEvents: [
    'Setup', 'UserPromptExpansion', 'PermissionDenied', 'PostToolBatch', 'Notification', 'MessageDisplay', 'TaskCreated',
    'TaskCompleted', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged', 'DirectoryAdded', 'FileChanged',
    'WorktreeCreate', 'WorktreeRemove', 'PostCompact', 'Elicitation', 'ElicitationResult', 'PreModelSwitch', 'PostModelSwitch',
  ],
  sendAs: { session_restored: 'SessionStart' },
  // Cursor's hooks.json names for the events whose input is Claude-shaped; `import` and `fire --protocol claude` accept them.
  aliases: {
    preToolUse: 'PreToolUse',
    postToolUse: 'PostToolUse',
    postToolUseFailure: 'PostToolUseFailure',
    beforeSubmitPrompt: 'UserPromptSubmit',
    sessionStart: 'SessionStart',
    sessionEnd: 'SessionEnd',
    stop: 'Stop',
    subagentStart: 'SubagentStart',
    subagentStop: 'SubagentStop',
    preCompact: 'PreCompact',
  },
  // Not PermissionRequest: Claude ignores exit 2 there.
  exit2Blocks: ['PreToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop'],
  exit2Feedback: ['PostToolUse', 'PostToolUseFailure'],
  contextEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SubagentStart', 'Stop', 'SubagentStop'],
  plainTextContext: ['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart'],
  env: { CLAUDE_PROJECT_DIR: 'workspace' },
  session: { source: 'startup', restoredSource: 'resume', endReason: 'other' },
  hooksFile: {},
};

// Apart from the descriptor: `fire` never reads it, and the fire-path bundle leaves it out.
export const claudeImport: ImportRules = {
  files: ['.claude/settings.json', '.claude/settings.local.json'],
  label: '.claude/settings.json (and settings.local.json)',
  settingsKeys: [],
  matcherField: {
    SessionStart: 'source',
    SessionEnd: 'reason',
    PreCompact: 'trigger',
    PostCompact: 'trigger',
    Notification: 'notification_type',
    SubagentStart: 'agent_type',
    SubagentStop: 'agent_type',
    ConfigChange: 'source',
    PermissionDenied: 'tool_name',
    UserPromptSubmit: null,
    Stop: null,
    PostToolBatch: null,
    MessageDisplay: null,
    TaskCreated: null,
    TaskCompleted: null,
    TeammateIdle: null,
    CwdChanged: null,
    WorktreeCreate: null,
    WorktreeRemove: null,
  },
  defaultTimeout: 600,
  eventTimeouts: { user_prompt_submit: 30 },
  timeoutUnit: 'seconds',
  timeoutKey: 'timeout',
  gateTools: {},
};
