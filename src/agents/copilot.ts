// GitHub Copilot CLI: every `*.json` in `~/.copilot/hooks/` ($COPILOT_HOME)
// and the repository's `.github/hooks/`, combined; install writes its own
// `chrys-hooks.json` in each. `{ "version": 1, "hooks": { "<event>": [{ type,
// bash, timeoutSec }] } }`; the input names no event, so the command does.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { protocolOf } from '../core/protocols/agents/index.js';
import type { AgentDescriptor, AgentDirs, Scope } from './types.js';

const dirOf = (scope: Scope, dirs: AgentDirs): string => (scope === 'user' ? join(dirs.configDir, 'hooks') : join(dirs.workspace, '.github', 'hooks'));

function otherFiles(scope: Scope, dirs: AgentDirs): string[] {
  try {
    return readdirSync(dirOf(scope, dirs)).filter((f) => f.endsWith('.json') && f !== 'chrys-hooks.json').sort().map((f) => join(dirOf(scope, dirs), f));
  } catch {
    return [];
  }
}

export const copilot: AgentDescriptor = {
  id: 'copilot',
  name: protocolOf('copilot').name,
  ...protocolOf('copilot').hooksFile,
  configDir: (env, home) => (env.COPILOT_HOME ? env.COPILOT_HOME : join(home, '.copilot')),
  file: (scope, dirs) => join(dirOf(scope, dirs), 'chrys-hooks.json'),
  alsoRead: otherFiles,
  comments: false,
  version: 1,
  eventFlag: true,
  // userPromptSubmitted is not wired by default: Copilot does not read its output, so a prompt guard there cannot stop a prompt.
  events: ['preToolUse', 'permissionRequest', 'postToolUse', 'agentStop', 'subagentStop', 'sessionStart', 'sessionEnd', 'errorOccurred'],
  otherEvents: ['notification'],
  gating: ['preToolUse', 'permissionRequest'],
  // Copilot's default timeout is 30 s; Chrys hooks get what the other agents give them.
  group: (_event, command) => ({ type: 'command', bash: command, timeoutSec: 600 }),
  afterInstall: (scope) => (scope === 'project' ? ['Copilot CLI loads repository hooks in a trusted folder (in -p mode only with GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true or a trusted folder)'] : []),
  doctorChecks: [],
};
