// The agents `install`, `uninstall` and `doctor` know, by protocol name.

import type { AgentProtocol } from '../core/protocols/names.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import type { AgentDescriptor } from './types.js';

export const AGENTS: Readonly<Record<AgentProtocol, AgentDescriptor>> = { claude, codex, gemini, cursor, copilot };
export const AGENT_IDS = Object.keys(AGENTS) as AgentProtocol[];
export type { AgentDescriptor, AgentDirs, Scope } from './types.js';
