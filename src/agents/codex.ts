// Codex: `~/.codex/hooks.json` ($CODEX_HOME) and the project's
// `.codex/hooks.json`, Claude-shaped. Codex also reads `[hooks]` tables in
// config.toml; install writes hooks.json, the file the README has always
// named, so no TOML is edited. Codex runs a non-managed hook only after the
// user trusted that exact definition in its `/hooks` review.

import { join } from 'node:path';
import { type AgentDescriptor, commandGroup } from './types.js';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  configDir: (env, home) => (env.CODEX_HOME ? env.CODEX_HOME : join(home, '.codex')),
  file: (scope, dirs) => (scope === 'user' ? join(dirs.configDir, 'hooks.json') : join(dirs.workspace, '.codex', 'hooks.json')),
  alsoRead: () => [],
  comments: false,
  // The events its hooks docs list; SessionEnd and Interrupt are in its source only, so not written.
  events: ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionStart', 'PreCompact'],
  otherEvents: ['PostCompact'],
  gating: ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit'],
  group: (_event, command) => commandGroup(command),
  afterInstall: (scope) => [
    'Codex skips a new or changed hook until you trust it: start `codex`, open `/hooks` and trust each chrys-hooks entry (it warns at startup while any needs review); until then nothing runs',
    ...(scope === 'project' ? ["Codex loads the project's .codex/ layer only when the project is trusted"] : []),
  ],
  doctorChecks: ['Codex runs these entries only once trusted in its `/hooks` review, and again after any change to them; chrys-hooks cannot read that state: open `/hooks` in codex and trust every chrys-hooks entry'],
};
