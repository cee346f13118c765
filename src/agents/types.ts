// What chrys-hooks knows about one agent's own hook config, for `install`,
// `uninstall` and `doctor`: one descriptor per agent, one file each (the
// registry is index.ts), beside the agent's protocol descriptor
// (core/protocols/agents/), which it reads for the agent's name and file shape.

import type { AgentProtocol } from '../core/protocols/names.js';

export type Scope = 'user' | 'project';

/** Where the descriptor looks: the agent's config dir and the workspace. */
export interface AgentDirs {
  configDir: string;
  workspace: string;
}

export interface AgentDescriptor {
  id: AgentProtocol;
  /** The agent's own name, for output. */
  name: string;
  /** The agent's config dir: its own documented override, else under the home directory. */
  configDir(env: NodeJS.ProcessEnv, home: string): string;
  /** The file `install` writes for a scope. */
  file(scope: Scope, dirs: AgentDirs): string;
  /** Other files of the scope the agent also reads hooks from: read for double wiring, never written. */
  alsoRead(scope: Scope, dirs: AgentDirs): string[];
  /** Whether the agent reads comments in that file (JSONC); install never adds any either way. */
  comments: boolean;
  /** The agent's events that Chrys maps, in the order install writes them: the default of `--events`. */
  events: readonly string[];
  /** Events the agent documents that fire Chrys `other`: accepted by `--events`, never wired by default. */
  otherEvents: readonly string[];
  /** The events that gate (can block): they get `--fail-closed` unless `--no-fail-closed`. */
  gating: readonly string[];
  /** The matcher group install appends to `hooks.<event>` for a command. */
  group(event: string, command: string): Record<string, unknown>;
  /** What the user must still do in the agent after an install of this scope (e.g. Codex's hook review). */
  afterInstall(scope: Scope): string[];
  /** Handlers sit directly in `hooks.<event>` (Cursor, Copilot CLI), not in Claude-shaped groups. */
  flat?: boolean;
  /** The handler key holding the command line: `command`, or Copilot's `bash`. */
  commandKey?: string;
  /** The file's `version`, written with `hooks` into a file that has neither. */
  version?: number;
  /** The command names its event with --event: the agent's input does not (Copilot CLI). */
  eventFlag?: boolean;
  /** Standing caveats `doctor` repeats for every wired file (a trust state chrys-hooks cannot read). */
  doctorChecks: string[];
}

/** `{ "hooks": [{ "type": "command", "command": ... }] }`, the Claude-shaped group Codex and Gemini also read. */
export function commandGroup(command: string, opts: { matcher?: string; name?: string; timeout?: number } = {}): Record<string, unknown> {
  const handler = { ...(opts.name ? { name: opts.name } : {}), type: 'command', command, ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}) };
  return { ...(opts.matcher !== undefined ? { matcher: opts.matcher } : {}), hooks: [handler] };
}
