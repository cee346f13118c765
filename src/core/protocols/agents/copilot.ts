// GitHub Copilot CLI's hook protocol (AGENT-PROTOCOLS §5): its camelCase
// events (its PascalCase names are the Claude family, under --protocol
// claude); JSON on stdout only, exit 2 a warning except on permissionRequest.

import type { AgentProtocolDescriptor, ImportRules } from './types.js';

export const copilot: AgentProtocolDescriptor = {
  name: 'Copilot CLI',
  events: {
    preToolUse: 'before_tool_call',
    postToolUse: 'after_tool_call',
    postToolUseFailure: 'tool_error',
    permissionRequest: 'permission_request',
    userPromptSubmitted: 'user_prompt_submit',
    sessionStart: 'session_start',
    sessionEnd: 'session_end',
    agentStop: 'conversation_done',
    subagentStop: 'sub_agent_end',
    errorOccurred: 'error',
  },
  otherEvents: ['notification'],
  sendAs: { session_restored: 'sessionStart' },
  aliases: {},
  // A hook's exit 2 there denies the permission; chrys-hooks itself always answers in JSON.
  exit2Blocks: ['permissionRequest'],
  exit2Feedback: [],
  // postToolUseFailure: recovery guidance for the failed tool, from additionalContext or a hook's exit 2.
  contextEvents: ['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'notification'],
  plainTextContext: [],
  env: {},
  session: { source: 'new', restoredSource: 'resume', endReason: 'complete' },
  hooksFile: { flat: true, commandKey: 'bash' },
};

// Apart from the descriptor: `fire` never reads it, and the fire-path bundle leaves it out.
export const copilotImport: ImportRules = {
  files: ['.github/hooks/*.json'],
  label: '.github/hooks/*.json',
  settingsKeys: [],
  matcherField: {},
  defaultTimeout: 30,
  eventTimeouts: {},
  timeoutUnit: 'seconds',
  timeoutKey: 'timeoutSec',
  gateTools: {},
};
