// The workspace of a firing mapped from an agent's hook input (CONTRACT §1):
// the session's project root, never the directory a tool call happens to run
// in. An agent's input `cwd` follows the session's `cd` (Claude Code) or its
// worktree; the project root is what the agent exports to its hooks, else the
// cwd recorded when the session started, else the input cwd. Pure: the
// environment and the recorded cwd are passed in.

import { isAbsolute } from 'node:path';
import type { AgentProtocol } from './names.js';

/** The variables each agent sets to its session's project root, first wins. Codex sets none. */
const PROJECT_DIR_VARS: Readonly<Record<AgentProtocol, readonly string[]>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  codex: [],
  // Gemini also sets CLAUDE_PROJECT_DIR, as an alias for Claude-style scripts.
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  // Cursor sets CLAUDE_PROJECT_DIR as an alias too; its input's workspace_roots[0] comes next (agent-fire.ts).
  cursor: ['CURSOR_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  // Copilot CLI names no root: its hooks run in, and are sent, the repository's cwd.
  copilot: [],
};

export type ProjectRootSource = 'env' | 'session_start' | 'input_cwd';

export interface ProjectRoot {
  path: string;
  source: ProjectRootSource;
  /** Where the value came from, for resolve and --explain: `CLAUDE_PROJECT_DIR`, `the cwd of session_start`, ... */
  detail: string;
}

/** The variable that names the root in `env`, if the agent set one to an absolute path. */
export function projectDirFromEnv(protocol: AgentProtocol, env: Readonly<Record<string, string | undefined>>): ProjectRoot | undefined {
  for (const name of PROJECT_DIR_VARS[protocol]) {
    const value = env[name];
    // A relative value would resolve against wherever the agent started this process: not a root.
    if (value && isAbsolute(value)) return { path: value, source: 'env', detail: name };
  }
  return undefined;
}

/** The project root: the agent's variable, else the cwd recorded at session_start, else the input cwd. */
export function projectRootOf(fromEnv: ProjectRoot | undefined, recorded: string | undefined, inputCwd: string | undefined): ProjectRoot | undefined {
  if (fromEnv) return fromEnv;
  if (recorded) return { path: recorded, source: 'session_start', detail: 'the cwd the session started in' };
  if (inputCwd) return { path: inputCwd, source: 'input_cwd', detail: 'the input cwd' };
  return undefined;
}
