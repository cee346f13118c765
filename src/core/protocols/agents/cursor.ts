// Cursor's hook protocol (AGENT-PROTOCOLS §4), `fire --protocol cursor`: its
// own events, its gates on one tool each (shell, MCP, file read) as
// before_tool_call of that tool.

import type { AgentProtocolDescriptor, ImportRules } from './types.js';

export const cursor: AgentProtocolDescriptor = {
  name: 'Cursor',
  events: {
    preToolUse: 'before_tool_call',
    postToolUse: 'after_tool_call',
    postToolUseFailure: 'tool_error',
    beforeSubmitPrompt: 'user_prompt_submit',
    sessionStart: 'session_start',
    sessionEnd: 'session_end',
    stop: 'conversation_done',
    subagentStart: 'sub_agent_start',
    subagentStop: 'sub_agent_end',
    preCompact: 'pre_compact',
    beforeShellExecution: 'before_tool_call',
    beforeMCPExecution: 'before_tool_call',
    beforeReadFile: 'before_tool_call',
    afterShellExecution: 'after_tool_call',
    afterMCPExecution: 'after_tool_call',
    afterFileEdit: 'after_tool_call',
  },
  // Tab and app hooks, and the response/thought observers.
  otherEvents: ['afterAgentResponse', 'afterAgentThought', 'beforeTabFileRead', 'afterTabFileEdit', 'workspaceOpen'],
  sendAs: { session_restored: 'sessionStart', before_tool_call: 'preToolUse', after_tool_call: 'postToolUse' },
  aliases: {},
  // Its gates and the prompt; the gates are also where install sets failClosed.
  exit2Blocks: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'beforeSubmitPrompt', 'subagentStart'],
  exit2Feedback: [],
  contextEvents: ['postToolUse', 'afterMCPExecution', 'sessionStart'],
  plainTextContext: [],
  env: { CURSOR_PROJECT_DIR: 'workspace', CLAUDE_PROJECT_DIR: 'workspace' },
  hooksFile: { flat: true },
};

// Apart from the descriptor: `fire` never reads it, and the fire-path bundle leaves it out.
export const cursorImport: ImportRules = {
  files: ['.cursor/hooks.json'],
  label: '.cursor/hooks.json',
  settingsKeys: [],
  matcherField: {},
  defaultTimeout: undefined,
  eventTimeouts: {},
  timeoutUnit: 'seconds',
  timeoutKey: 'timeout',
  gateTools: {
    beforeShellExecution: { tool_name: 'Shell' },
    afterShellExecution: { tool_name: 'Shell' },
    beforeMCPExecution: { tool_name_regex: '^MCP:' },
    afterMCPExecution: { tool_name_regex: '^MCP:' },
    beforeReadFile: { tool_name: 'Read' },
    afterFileEdit: { tool_name: 'Write' },
  },
};
