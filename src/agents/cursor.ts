// Cursor: `~/.cursor/hooks.json` and the project's `.cursor/hooks.json`,
// `{ "version": 1, "hooks": { "<event>": [{ command, type, timeout, failClosed, matcher }] } }`:
// the handlers sit directly in the event's list. Project hooks run only in a
// trusted workspace. Cursor fails open unless the entry says failClosed, so
// install also sets it where chrys-hooks fails closed.

import { join } from 'node:path';
import { protocolOf } from '../core/protocols/agents/index.js';
import type { AgentDescriptor } from './types.js';

export const cursor: AgentDescriptor = {
  id: 'cursor',
  name: protocolOf('cursor').name,
  ...protocolOf('cursor').hooksFile,
  configDir: (_env, home) => join(home, '.cursor'),
  file: (scope, dirs) => (scope === 'user' ? join(dirs.configDir, 'hooks.json') : join(dirs.workspace, '.cursor', 'hooks.json')),
  alsoRead: () => [],
  comments: false,
  version: 1,
  // preToolUse already covers the shell, MCP and read gates (each call fires both): wiring both would run every hook twice.
  events: ['preToolUse', 'postToolUse', 'postToolUseFailure', 'beforeSubmitPrompt', 'stop', 'subagentStart', 'subagentStop', 'sessionStart', 'sessionEnd', 'preCompact'],
  otherEvents: ['afterAgentResponse', 'afterAgentThought', 'beforeTabFileRead', 'afterTabFileEdit', 'workspaceOpen'],
  gating: ['preToolUse', 'beforeSubmitPrompt'],
  group: (event, command) => ({ type: 'command', command, ...(command.includes('--fail-closed') && protocolOf('cursor').exit2Blocks.includes(event) ? { failClosed: true } : {}) }),
  afterInstall: (scope) => (scope === 'project' ? ['Cursor runs project hooks only in a trusted workspace'] : []),
  doctorChecks: [],
};
