// Gemini CLI's hook protocol (AGENT-PROTOCOLS §3): its own event names, one
// AfterTool for a tool's success and failure, timeouts in milliseconds.

import type { AgentProtocolDescriptor, ImportRules } from './types.js';

export const gemini: AgentProtocolDescriptor = {
  name: 'Gemini CLI',
  events: {
    BeforeTool: 'before_tool_call',
    AfterTool: 'after_tool_call',
    BeforeAgent: 'user_prompt_submit',
    AfterAgent: 'conversation_done',
    SessionStart: 'session_start',
    SessionEnd: 'session_end',
    PreCompress: 'pre_compact',
  },
  otherEvents: ['Notification', 'BeforeModel', 'AfterModel', 'BeforeToolSelection'],
  sendAs: { tool_error: 'AfterTool', session_restored: 'SessionStart' },
  aliases: {},
  exit2Blocks: ['BeforeTool', 'BeforeAgent', 'AfterAgent'],
  exit2Feedback: ['AfterTool'],
  contextEvents: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionStart'],
  // Its plain-text stdout is a systemMessage, never context.
  plainTextContext: [],
  // CLAUDE_PROJECT_DIR as an alias for Claude-style scripts.
  env: { GEMINI_PROJECT_DIR: 'workspace', GEMINI_CWD: 'workspace', GEMINI_SESSION_ID: 'session_id', CLAUDE_PROJECT_DIR: 'workspace' },
  // A resumed session fires SessionStart with source "resume" (gemini-cli SessionStartSource.Resume).
  session: { source: 'startup', restoredSource: 'resume', endReason: 'exit' },
  hooksFile: {},
};

// Apart from the descriptor: `fire` never reads it, and the fire-path bundle leaves it out.
export const geminiImport: ImportRules = {
  files: ['.gemini/settings.json'],
  label: '.gemini/settings.json',
  settingsKeys: ['enabled', 'disabled', 'notifications'],
  matcherField: {
    SessionStart: 'source',
    SessionEnd: 'reason',
    PreCompress: 'trigger',
    Notification: 'notification_type',
  },
  defaultTimeout: 60,
  eventTimeouts: {},
  timeoutUnit: 'milliseconds',
  timeoutKey: 'timeout',
  gateTools: {},
};
