// Types of install.mjs's exports, for the real-agent suite's typed helpers
// (test/agents/shared/agents.ts), which import it like any module.

export interface PinnedAgent {
  /** The npm package. */
  pkg: string;
  /** The pinned version the suite runs. */
  version: string;
  /** The package's binary name under node_modules/.bin. */
  bin: string;
}

export declare const AGENTS: { readonly claude: PinnedAgent; readonly codex: PinnedAgent; readonly gemini: PinnedAgent };

export type AgentName = keyof typeof AGENTS;

/** The prefix the agent is installed into: .cache/agents/NAME-VERSION. */
export declare function agentPrefix(name: AgentName): string;

/** The agent's binary under that prefix. */
export declare function agentBin(name: AgentName): string;
