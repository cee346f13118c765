// The environment an agent gives its hook scripts, for `run.protocol` hooks:
// the variables its descriptor names.

import { type AgentProtocol, protocolOf } from './agents/index.js';

export function agentEnv(protocol: AgentProtocol, workspace: string, sessionId: string): Record<string, string> {
  const values = { workspace, session_id: sessionId };
  return Object.fromEntries(Object.entries(protocolOf(protocol).env).map(([name, value]) => [name, values[value]]));
}
