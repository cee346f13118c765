// The event and tool names of the agents chrys-hooks speaks to
// (docs/agents.md): which agent event is which Chrys event, and back, as
// each agent's descriptor (agents/) says.

import type { EventName } from '../events.js';
import { type AgentProtocol, protocolOf } from './agents/index.js';

export { AGENT_PROTOCOLS, type AgentProtocol } from './agents/index.js';

/** The Chrys event of an agent event name; undefined when the agent does not document it. */
export function chrysEventOf(protocol: AgentProtocol, agentEvent: string): EventName | undefined {
  const d = protocolOf(protocol);
  if (Object.hasOwn(d.events, agentEvent)) return d.events[agentEvent];
  if (d.otherEvents.includes(agentEvent)) return 'other';
  if (Object.hasOwn(d.aliases, agentEvent)) return d.events[d.aliases[agentEvent]!];
  return undefined;
}

/** The agent's own name for an alias it accepts (preToolUse → PreToolUse under --protocol claude); other names as given. */
export function ownEventName(protocol: AgentProtocol, agentEvent: string): string {
  const aliases = protocolOf(protocol).aliases;
  return Object.hasOwn(aliases, agentEvent) ? aliases[agentEvent]! : agentEvent;
}

/** A Cursor-style (lowerCamelCase) name: Cursor's hooks gate on some we do not map (beforeShellExecution). */
export const isCursorStyleName = (agentEvent: string): boolean => /^[a-z][A-Za-z]*$/.test(agentEvent);

/** The agent event a Chrys event is sent as to a foreign hook (`run.protocol`). */
export function agentEventOf(protocol: AgentProtocol, event: EventName): string | undefined {
  const d = protocolOf(protocol);
  return d.sendAs[event] ?? Object.keys(d.events).find((k) => d.events[k] === event);
}

/** Every event name the agent documents, for golden tests and `import`. */
export function agentEvents(protocol: AgentProtocol): string[] {
  const d = protocolOf(protocol);
  return [...Object.keys(d.events), ...d.otherEvents];
}

// Tool kinds for `match.tool_kind`, from the agents' built-in tool names.
const TOOL_KINDS: Readonly<Record<string, string>> = {
  Bash: 'process.exec',
  run_shell_command: 'process.exec',
  Write: 'filesystem.write',
  Edit: 'filesystem.write',
  MultiEdit: 'filesystem.write',
  NotebookEdit: 'filesystem.write',
  apply_patch: 'filesystem.write',
  write_file: 'filesystem.write',
  replace: 'filesystem.write',
  Read: 'filesystem.read',
  Glob: 'filesystem.read',
  Grep: 'filesystem.read',
  LS: 'filesystem.read',
  read_file: 'filesystem.read',
  read_many_files: 'filesystem.read',
  glob: 'filesystem.read',
  grep: 'filesystem.read',
  search_file_content: 'filesystem.read',
  list_directory: 'filesystem.read',
  ls: 'filesystem.read',
  // Cursor
  Shell: 'process.exec',
  Delete: 'filesystem.write',
  // Copilot CLI's tools (src/core/protocols/tool-args.ts).
  bash: 'process.exec',
  powershell: 'process.exec',
  edit: 'filesystem.write',
  create: 'filesystem.write',
  view: 'filesystem.read',
};

/** A tool's kind; every shell tool in SHELL_TOOLS is process.exec. */
export const toolKindOf = (name: string): string | undefined =>
  Object.hasOwn(TOOL_KINDS, name) ? TOOL_KINDS[name] : SHELL_TOOLS.some((t) => t.tool === name) ? 'process.exec' : undefined;

/**
 * Each agent's shell tool and the argument that holds its command line, for
 * `match.command`. Cursor's beforeShellExecution arrives as its `Shell`
 * tool (inbound.ts). An argument that is a list
 * of strings (Codex `shell`: argv) is read as the command line that argv is.
 */
export const SHELL_TOOLS: readonly { agent: 'chrys' | 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot'; tool: string; arg: string }[] = [
  { agent: 'chrys', tool: 'run_shell', arg: 'command' },
  { agent: 'claude', tool: 'Bash', arg: 'command' },
  { agent: 'codex', tool: 'shell', arg: 'command' },
  { agent: 'codex', tool: 'exec_command', arg: 'cmd' },
  { agent: 'codex', tool: 'local_shell', arg: 'command' },
  { agent: 'gemini', tool: 'run_shell_command', arg: 'command' },
  { agent: 'cursor', tool: 'Shell', arg: 'command' },
  { agent: 'cursor', tool: 'beforeShellExecution', arg: 'command' },
  { agent: 'copilot', tool: 'bash', arg: 'command' },
  { agent: 'copilot', tool: 'powershell', arg: 'command' },
  { agent: 'copilot', tool: 'run_in_terminal', arg: 'command' },
];

const argvLine = (argv: readonly string[]): string => argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/**
 * The command line a shell tool call runs: 'not_shell' for a tool that is no
 * shell tool, 'missing' when its command argument is absent or not text.
 */
export function shellCommandOf(toolName: string, args: Readonly<Record<string, unknown>> | undefined): string | 'not_shell' | 'missing' {
  const entry = SHELL_TOOLS.find((t) => t.tool === toolName);
  if (!entry) return 'not_shell';
  const value = args && Object.hasOwn(args, entry.arg) ? args[entry.arg] : undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return argvLine(value as string[]);
  return 'missing';
}
