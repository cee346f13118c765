// Codex: `~/.codex/hooks.json` ($CODEX_HOME) and the project's
// `.codex/hooks.json`, Claude-shaped. Codex also reads `[hooks]` tables in
// config.toml; install writes hooks.json, the file the docs have always
// named, so no TOML is edited. Codex runs a non-managed hook only after the
// user trusted that exact definition in its `/hooks` review, and `codex
// exec` skips an untrusted one without a word. install does not record that
// trust itself: the review is the user's (an agent running install must not
// approve its own hooks), and Codex documents no setting for it, only the
// screen; doctor asks Codex which entries it trusts (engine/codex-trust.ts).

import { join } from 'node:path';
import { protocolOf } from '../core/protocols/agents/index.js';
import { type AgentDescriptor, commandGroup } from './types.js';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: protocolOf('codex').name,
  ...protocolOf('codex').hooksFile,
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
    'Codex runs none of these entries until you trust them, and `codex exec` skips them without a word: run `codex` in a terminal and choose "Trust all and continue" at "Hooks need review" (or open `/hooks` and press t), again after any change to them; `chrys-hooks doctor` lists the entries Codex does not trust yet. For one-off automation that already vets its hooks, Codex offers `codex exec --dangerously-bypass-hook-trust`',
    ...(scope === 'project' ? ["Codex loads the project's .codex/ layer only when the project is trusted"] : []),
  ],
  // Repeated by doctor only when it could not ask Codex (no `codex` on PATH).
  doctorChecks: ['Codex runs these entries only once trusted in its `/hooks` review, and again after any change to them: run `codex` in a terminal and choose "Trust all and continue" at "Hooks need review"'],
};
