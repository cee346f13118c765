// The event and tool names of the agents chrys-hooks speaks to
// (docs/agents.md): which agent event is which Chrys event, and back.
// Claude Code and Codex share one family of names; Gemini CLI has its own.

import type { EventName } from '../events.js';

export type AgentProtocol = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';
export const AGENT_PROTOCOLS: readonly AgentProtocol[] = ['claude', 'codex', 'gemini', 'cursor', 'copilot'];

/** Claude Code / Codex events with a Chrys counterpart. */
const CLAUDE_EVENTS: Readonly<Record<string, EventName>> = {
  PreToolUse: 'before_tool_call',
  PostToolUse: 'after_tool_call',
  PostToolUseFailure: 'tool_error',
  PermissionRequest: 'permission_request',
  UserPromptSubmit: 'user_prompt_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  Stop: 'conversation_done',
  SubagentStart: 'sub_agent_start',
  SubagentStop: 'sub_agent_end',
  PreCompact: 'pre_compact',
  StopFailure: 'error',
  Interrupt: 'user_interrupt',
};

// Documented events with no Chrys counterpart: they fire `other`, their name kept in hook_event_name.
const CLAUDE_OTHER = [
  'Setup', 'UserPromptExpansion', 'PermissionDenied', 'PostToolBatch', 'Notification', 'MessageDisplay', 'TaskCreated',
  'TaskCompleted', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged', 'DirectoryAdded', 'FileChanged',
  'WorktreeCreate', 'WorktreeRemove', 'PostCompact', 'Elicitation', 'ElicitationResult', 'PreModelSwitch', 'PostModelSwitch',
];

// Cursor's own hooks.json names (Claude-shaped input for these); `import` and `fire --protocol claude` accept them.
export const CURSOR_EVENTS: Readonly<Record<string, EventName>> = {
  preToolUse: 'before_tool_call',
  postToolUse: 'after_tool_call',
  postToolUseFailure: 'tool_error',
  beforeSubmitPrompt: 'user_prompt_submit',
  sessionStart: 'session_start',
  sessionEnd: 'session_end',
  stop: 'conversation_done',
  subagentStart: 'sub_agent_start',
  subagentStop: 'sub_agent_end',
  preCompact: 'pre_compact',
};

const GEMINI_EVENTS: Readonly<Record<string, EventName>> = {
  BeforeTool: 'before_tool_call',
  AfterTool: 'after_tool_call',
  BeforeAgent: 'user_prompt_submit',
  AfterAgent: 'conversation_done',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  PreCompress: 'pre_compact',
};
const GEMINI_OTHER = ['Notification', 'BeforeModel', 'AfterModel', 'BeforeToolSelection'];

// `fire --protocol cursor`: Cursor's own events, its gates on one tool each
// (shell, MCP, file read) as before_tool_call of that tool.
const CURSOR_NATIVE: Readonly<Record<string, EventName>> = {
  ...CURSOR_EVENTS,
  beforeShellExecution: 'before_tool_call',
  beforeMCPExecution: 'before_tool_call',
  beforeReadFile: 'before_tool_call',
  afterShellExecution: 'after_tool_call',
  afterMCPExecution: 'after_tool_call',
  afterFileEdit: 'after_tool_call',
};
// Tab and app hooks, and the response/thought observers: no Chrys counterpart.
const CURSOR_OTHER = ['afterAgentResponse', 'afterAgentThought', 'beforeTabFileRead', 'afterTabFileEdit', 'workspaceOpen'];

/** Copilot CLI's camelCase events (its PascalCase names are the Claude family, under --protocol claude). */
const COPILOT_EVENTS: Readonly<Record<string, EventName>> = {
  preToolUse: 'before_tool_call',
  postToolUse: 'after_tool_call',
  postToolUseFailure: 'tool_error',
  permissionRequest: 'permission_request',
  userPromptSubmitted: 'user_prompt_submit',
  sessionStart: 'session_start',
  sessionEnd: 'session_end',
  agentStop: 'conversation_done',
  subagentStop: 'sub_agent_end',
  errorOccurred: 'error',
};
const COPILOT_OTHER = ['notification'];

type Family = 'claude' | 'gemini' | 'cursor' | 'copilot';
const family = (p: AgentProtocol): Family => (p === 'codex' ? 'claude' : p);

const TABLES: Readonly<Record<Family, readonly [Readonly<Record<string, EventName>>, readonly string[]]>> = {
  claude: [CLAUDE_EVENTS, CLAUDE_OTHER],
  gemini: [GEMINI_EVENTS, GEMINI_OTHER],
  cursor: [CURSOR_NATIVE, CURSOR_OTHER],
  copilot: [COPILOT_EVENTS, COPILOT_OTHER],
};

/** The Chrys event of an agent event name; undefined when the agent does not document it. */
export function chrysEventOf(protocol: AgentProtocol, agentEvent: string): EventName | undefined {
  const [mapped, other] = TABLES[family(protocol)];
  if (Object.hasOwn(mapped, agentEvent)) return mapped[agentEvent];
  if (other.includes(agentEvent)) return 'other';
  if (family(protocol) === 'claude' && Object.hasOwn(CURSOR_EVENTS, agentEvent)) return CURSOR_EVENTS[agentEvent];
  return undefined;
}

/** Claude's own name for a Cursor-style name `fire --protocol claude` accepts (preToolUse → PreToolUse); other names as given. */
export function claudeEventName(agentEvent: string): string {
  if (!Object.hasOwn(CURSOR_EVENTS, agentEvent)) return agentEvent;
  return Object.keys(CLAUDE_EVENTS).find((k) => CLAUDE_EVENTS[k] === CURSOR_EVENTS[agentEvent]) ?? agentEvent;
}

/** A Cursor-style (lowerCamelCase) name: Cursor's hooks gate on some we do not map (beforeShellExecution). */
export const isCursorStyleName = (agentEvent: string): boolean => /^[a-z][A-Za-z]*$/.test(agentEvent);

/** The agent event a Chrys event is sent as to a foreign hook (`run.protocol`). */
export function agentEventOf(protocol: AgentProtocol, event: EventName): string | undefined {
  const f = family(protocol);
  if (f === 'cursor' || f === 'copilot') {
    if (event === 'session_restored') return 'sessionStart';
    if (f === 'cursor' && event === 'before_tool_call') return 'preToolUse';
    if (f === 'cursor' && event === 'after_tool_call') return 'postToolUse';
    const [mapped] = TABLES[f];
    return Object.keys(mapped).find((k) => mapped[k] === event);
  }
  if (f === 'gemini') {
    if (event === 'tool_error') return 'AfterTool';
    if (event === 'session_restored') return 'SessionStart';
    return Object.keys(GEMINI_EVENTS).find((k) => GEMINI_EVENTS[k] === event);
  }
  if (event === 'session_restored') return 'SessionStart';
  return Object.keys(CLAUDE_EVENTS).find((k) => CLAUDE_EVENTS[k] === event);
}

/** Every event name the agent documents, for golden tests and `import`. */
export function agentEvents(protocol: AgentProtocol): string[] {
  const [mapped, other] = TABLES[family(protocol)];
  return [...Object.keys(mapped), ...other];
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

export const shellToolNames = (): string[] => SHELL_TOOLS.map((t) => t.tool);
