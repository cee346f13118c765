// Claude Code: `~/.claude/settings.json` ($CLAUDE_CONFIG_DIR) and the
// project's `.claude/settings.json` (and `settings.local.json`, which it also
// reads); `hooks.<Event>[] = { matcher, hooks: [{ type, command }] }`.

import { join } from 'node:path';
import { protocolOf } from '../core/protocols/agents/index.js';
import { type AgentDescriptor, commandGroup } from './types.js';

export const claude: AgentDescriptor = {
  id: 'claude',
  name: protocolOf('claude').name,
  ...protocolOf('claude').hooksFile,
  configDir: (env, home) => (env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CONFIG_DIR : join(home, '.claude')),
  file: (scope, dirs) => (scope === 'user' ? join(dirs.configDir, 'settings.json') : join(dirs.workspace, '.claude', 'settings.json')),
  alsoRead: (scope, dirs) => (scope === 'project' ? [join(dirs.workspace, '.claude', 'settings.local.json')] : []),
  // Claude Code's settings are plain JSON.
  comments: false,
  events: ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionStart', 'SessionEnd', 'PreCompact', 'StopFailure'],
  otherEvents: [
    'Setup', 'UserPromptExpansion', 'PermissionDenied', 'PostToolBatch', 'Notification', 'MessageDisplay', 'TaskCreated', 'TaskCompleted', 'TeammateIdle',
    'InstructionsLoaded', 'ConfigChange', 'CwdChanged', 'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove', 'PostCompact', 'Elicitation', 'ElicitationResult',
  ],
  gating: ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit'],
  group: (_event, command) => commandGroup(command),
  afterInstall: (scope) => (scope === 'project' ? ['Claude Code runs project hooks once the folder is trusted in its trust dialog (`claude -p` treats it as trusted)'] : []),
  doctorChecks: [],
};
