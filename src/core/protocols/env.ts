// The environment an agent gives its hook scripts, for `run.protocol` hooks.

import type { AgentProtocol } from './names.js';

export function agentEnv(protocol: AgentProtocol, workspace: string, sessionId: string): Record<string, string> {
  if (protocol === 'gemini') {
    // Gemini sets CLAUDE_PROJECT_DIR too, as an alias for Claude-style scripts.
    return { GEMINI_PROJECT_DIR: workspace, GEMINI_CWD: workspace, GEMINI_SESSION_ID: sessionId, CLAUDE_PROJECT_DIR: workspace };
  }
  if (protocol === 'cursor') return { CURSOR_PROJECT_DIR: workspace, CLAUDE_PROJECT_DIR: workspace };
  if (protocol === 'copilot') return {};
  return { CLAUDE_PROJECT_DIR: workspace };
}
