// Gemini CLI: `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/` when
// that is set: Gemini 0.61 takes it as its home for every user-level file)
// and the project's `.gemini/settings.json` (it reads them with comments);
// `hooks.<Event>[] = { matcher, hooks: [{ name, type, command, timeout }] }`,
// timeouts in milliseconds.

import { join } from 'node:path';
import { protocolOf } from '../core/protocols/agents/index.js';
import { type AgentDescriptor, commandGroup } from './types.js';

const TOOL_EVENTS = new Set(['BeforeTool', 'AfterTool']);

export const gemini: AgentDescriptor = {
  id: 'gemini',
  name: protocolOf('gemini').name,
  ...protocolOf('gemini').hooksFile,
  configDir: (env, home) => join(env.GEMINI_CLI_HOME ? env.GEMINI_CLI_HOME : home, '.gemini'),
  file: (scope, dirs) => (scope === 'user' ? join(dirs.configDir, 'settings.json') : join(dirs.workspace, '.gemini', 'settings.json')),
  alsoRead: () => [],
  comments: true,
  events: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart', 'SessionEnd', 'PreCompress'],
  otherEvents: ['Notification', 'BeforeModel', 'AfterModel', 'BeforeToolSelection'],
  gating: ['BeforeTool', 'BeforeAgent'],
  group: (event, command) => commandGroup(command, { ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), name: 'chrys', timeout: 60000 }),
  afterInstall: (scope) => (scope === 'project' ? ['Gemini CLI runs settings hooks only in a trusted folder, and warns once before it runs a new project hook'] : []),
  doctorChecks: [],
};
