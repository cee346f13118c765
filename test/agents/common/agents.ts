// Where scripts/agents/install.mjs put each pinned agent CLI, and a check
// that fails loudly when it is not there: the suite exists to run the real
// agent, so a missing one is a broken set-up, never a skip.

import { existsSync } from 'node:fs';
import { AGENTS, type AgentName, agentBin, agentPrefix } from '../../../scripts/agents/install.mjs';

export { AGENTS, type AgentName, agentBin, agentPrefix };

/** The agent's binary; throws, saying how to install it, when it is missing. */
export function requireAgent(name: AgentName): string {
  const bin = agentBin(name);
  const a = AGENTS[name];
  if (!existsSync(bin)) throw new Error(`${a.pkg} ${a.version} is not installed at ${bin}: run \`npm run agents:install ${name}\` (needs the npm registry once)`);
  return bin;
}
