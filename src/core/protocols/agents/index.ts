// The agents chrys-hooks speaks to, by protocol name: adding an agent is
// adding its descriptor file and a line here.

import { claude, claudeImport } from './claude.js';
import { codex, codexImport } from './codex.js';
import { copilot, copilotImport } from './copilot.js';
import { cursor, cursorImport } from './cursor.js';
import { gemini, geminiImport } from './gemini.js';
import type { AgentProtocolDescriptor, ImportRules } from './types.js';

const REGISTRY = { claude, codex, gemini, cursor, copilot } satisfies Record<string, AgentProtocolDescriptor>;

export type AgentProtocol = keyof typeof REGISTRY;
export const AGENT_PROTOCOLS = Object.keys(REGISTRY) as AgentProtocol[];
export const protocolOf = (agent: AgentProtocol): AgentProtocolDescriptor => REGISTRY[agent];

const IMPORT_RULES: Readonly<Record<AgentProtocol, ImportRules>> = { claude: claudeImport, codex: codexImport, gemini: geminiImport, cursor: cursorImport, copilot: copilotImport };
export const importRulesOf = (agent: AgentProtocol): ImportRules => IMPORT_RULES[agent];

/** The agents as prose: "claude, codex, gemini, cursor or copilot". */
export const agentList = (agents: readonly string[] = AGENT_PROTOCOLS): string => `${agents.slice(0, -1).join(', ')} or ${agents[agents.length - 1]}`;

export type { AgentProtocolDescriptor, ImportRules } from './types.js';
