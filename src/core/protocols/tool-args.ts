// The argument names of the agents' built-in shell and file tools, and the
// canonical view of the common ones (docs/hooks-file.md "Portable argument
// names"): `path` (the one file or directory the call reads or writes),
// `command` (the shell command line) and `content` (the whole text a call
// writes to a file). The agent's own `tool.args` is never changed; the view is
// `tool.canonical_args` in an agent's envelope, and `match.args.<name>` falls
// back to it when the tool has no argument of that name.

import type { JsonObject } from '../json.js';
import { shellCommandOf } from './names.js';

export type ToolAgent = 'chrys' | 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';
export const CANONICAL_ARGS = ['path', 'command', 'content'] as const;
export type CanonicalArg = (typeof CANONICAL_ARGS)[number];

interface ToolArgs {
  agent: ToolAgent;
  tool: string;
  /** Every argument the tool takes (as the agent names it). */
  args: readonly string[];
  /** Canonical name → the agent's argument(s) holding it, first present wins. `command` of a shell tool comes from shellCommandOf. */
  canonical: Partial<Record<CanonicalArg, readonly string[]>>;
}

export const TOOL_ARGS: readonly ToolArgs[] = [
  // Chrys's own envelope vocabulary (README, CONTRACT §4): a tool name an agent also uses is the agents' in common.
  { agent: 'chrys', tool: 'run_shell', args: ['command'], canonical: { command: ['command'] } },
  { agent: 'chrys', tool: 'write_file', args: ['path', 'content'], canonical: { path: ['path'], content: ['content'] } },
  { agent: 'claude', tool: 'Bash', args: ['command', 'description', 'timeout', 'run_in_background'], canonical: { command: ['command'] } },
  { agent: 'claude', tool: 'Write', args: ['file_path', 'content'], canonical: { path: ['file_path'], content: ['content'] } },
  { agent: 'claude', tool: 'Edit', args: ['file_path', 'old_string', 'new_string', 'replace_all'], canonical: { path: ['file_path'] } },
  { agent: 'claude', tool: 'MultiEdit', args: ['file_path', 'edits'], canonical: { path: ['file_path'] } },
  { agent: 'claude', tool: 'NotebookEdit', args: ['notebook_path', 'new_source', 'cell_id', 'cell_type', 'edit_mode'], canonical: { path: ['notebook_path'] } },
  { agent: 'claude', tool: 'Read', args: ['file_path', 'offset', 'limit'], canonical: { path: ['file_path'] } },
  { agent: 'claude', tool: 'Glob', args: ['pattern', 'path'], canonical: { path: ['path'] } },
  { agent: 'claude', tool: 'Grep', args: ['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit'], canonical: { path: ['path'] } },
  { agent: 'claude', tool: 'LS', args: ['path', 'ignore'], canonical: { path: ['path'] } },
  { agent: 'codex', tool: 'shell', args: ['command', 'workdir', 'timeout_ms'], canonical: { command: ['command'] } },
  { agent: 'codex', tool: 'exec_command', args: ['cmd', 'workdir', 'yield_time_ms', 'max_output_tokens', 'shell', 'login'], canonical: { command: ['cmd'] } },
  { agent: 'codex', tool: 'local_shell', args: ['command', 'workdir', 'timeout_ms'], canonical: { command: ['command'] } },
  { agent: 'codex', tool: 'apply_patch', args: ['input', 'command'], canonical: {} },
  { agent: 'gemini', tool: 'run_shell_command', args: ['command', 'description', 'dir_path', 'directory'], canonical: { command: ['command'] } },
  { agent: 'gemini', tool: 'write_file', args: ['file_path', 'content'], canonical: { path: ['file_path'], content: ['content'] } },
  { agent: 'gemini', tool: 'replace', args: ['file_path', 'old_string', 'new_string', 'instruction', 'expected_replacements'], canonical: { path: ['file_path'] } },
  { agent: 'gemini', tool: 'read_file', args: ['file_path', 'absolute_path', 'offset', 'limit'], canonical: { path: ['file_path', 'absolute_path'] } },
  { agent: 'gemini', tool: 'list_directory', args: ['dir_path', 'path', 'ignore', 'file_filtering_options'], canonical: { path: ['dir_path', 'path'] } },
  { agent: 'gemini', tool: 'glob', args: ['pattern', 'dir_path', 'path', 'case_sensitive', 'respect_git_ignore'], canonical: { path: ['dir_path', 'path'] } },
  { agent: 'gemini', tool: 'search_file_content', args: ['pattern', 'dir_path', 'path', 'include'], canonical: { path: ['dir_path', 'path'] } },
  { agent: 'gemini', tool: 'read_many_files', args: ['paths', 'include', 'exclude', 'recursive', 'useDefaultExcludes'], canonical: {} },
  { agent: 'cursor', tool: 'Shell', args: ['command', 'cwd'], canonical: { command: ['command'] } },
  { agent: 'copilot', tool: 'bash', args: ['command', 'description', 'sessionId', 'async', 'timeout'], canonical: { command: ['command'] } },
  // The VS Code-compatible name of its terminal tool.
  { agent: 'copilot', tool: 'run_in_terminal', args: ['command', 'explanation', 'isBackground'], canonical: { command: ['command'] } },
  // Its shell on Windows, with bash's arguments.
  { agent: 'copilot', tool: 'powershell', args: ['command', 'description', 'sessionId', 'async', 'timeout'], canonical: { command: ['command'] } },
  { agent: 'copilot', tool: 'view', args: ['path', 'view_range'], canonical: { path: ['path'] } },
  { agent: 'copilot', tool: 'create', args: ['path', 'file_text'], canonical: { path: ['path'], content: ['file_text'] } },
  { agent: 'copilot', tool: 'edit', args: ['path', 'old_str', 'new_str'], canonical: { path: ['path'] } },
];

/** Every agent's entry for a tool name (Chrys and Gemini CLI both have write_file). */
const entriesOf = (tool: string): ToolArgs[] => TOOL_ARGS.filter((t) => t.tool === tool);

export const isCanonicalArg = (name: string): name is CanonicalArg => (CANONICAL_ARGS as readonly string[]).includes(name);

/** The canonical view of a known tool's arguments; undefined for a tool not in the table or with none of them. */
export function canonicalArgsOf(toolName: string, args: Readonly<Record<string, unknown>> | undefined): Record<string, string> | undefined {
  const entries = entriesOf(toolName);
  if (entries.length === 0 || !args) return undefined;
  const out: Record<string, string> = {};
  for (const name of CANONICAL_ARGS) {
    if (name === 'command') {
      const line = shellCommandOf(toolName, args);
      if (line !== 'not_shell' && line !== 'missing') out.command = line;
      continue;
    }
    const value = entries.flatMap((e) => e.canonical[name] ?? []).map((arg) => (Object.hasOwn(args, arg) ? args[arg] : undefined)).find((v) => typeof v === 'string');
    if (typeof value === 'string') out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Gives `tool` these arguments and their canonical view (none when the tool has none for them). */
export function putToolArgs(tool: JsonObject, args: JsonObject): void {
  tool.args = args;
  const canonical = typeof tool.name === 'string' ? canonicalArgsOf(tool.name, args) : undefined;
  if (canonical) tool.canonical_args = canonical;
  else delete tool.canonical_args;
}

/**
 * For `validate`: the hook names `tool` (one agent's tool) but matches an
 * argument `arg` that tool does not take and another agent's tools do.
 * Returns what to say, or undefined when the pair is fine or unknown.
 */
export function foreignArgOf(tool: string, arg: string): { agent: string; own: readonly string[]; others: string[]; via?: string } | undefined {
  const entries = entriesOf(tool);
  if (entries.length === 0 || entries.some((e) => e.args.includes(arg))) return undefined;
  const agents = new Set(entries.map((e) => e.agent));
  const others = TOOL_ARGS.filter((t) => !agents.has(t.agent) && t.args.includes(arg)).map((t) => `${t.agent} ${t.tool}`);
  if (others.length === 0) return undefined;
  const via = isCanonicalArg(arg) ? entries.map((e) => e.canonical[arg]?.[0]).find((v) => v !== undefined) : undefined;
  return { agent: [...agents].join(', '), own: [...new Set(entries.flatMap((e) => e.args))], others, ...(via ? { via } : {}) };
}
