// Codex's hook protocol (AGENT-PROTOCOLS §2): Claude Code's event names and
// input, with its own reading of a hook's answer (exit 2 needs stderr) and
// fewer events that take context.

import { claude } from './claude.js';
import type { AgentProtocolDescriptor, ImportRules } from './types.js';

export const codex: AgentProtocolDescriptor = {
  name: 'Codex',
  events: claude.events,
  otherEvents: claude.otherEvents,
  sendAs: claude.sendAs,
  aliases: claude.aliases,
  exit2Blocks: claude.exit2Blocks,
  exit2Feedback: claude.exit2Feedback,
  contextEvents: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  plainTextContext: ['UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  env: { CLAUDE_PROJECT_DIR: 'workspace' },
  session: claude.session!,
  hooksFile: {},
};

// Apart from the descriptor: `fire` never reads it, and the fire-path bundle leaves it out.
export const codexImport: ImportRules = {
  files: ['.codex/hooks.json'],
  label: '.codex/hooks.json',
  settingsKeys: [],
  matcherField: {
    SessionStart: 'source',
    PreCompact: 'trigger',
    PostCompact: 'trigger',
    SubagentStart: 'agent_type',
    SubagentStop: 'agent_type',
    UserPromptSubmit: null,
    Stop: null,
  },
  defaultTimeout: 600,
  eventTimeouts: {},
  timeoutUnit: 'seconds',
  timeoutKey: 'timeout',
  gateTools: {},
};
