// The normalised configuration: hooks with every default filled in, the
// settings and their per-field merge. Pure: file paths are data here. The
// rules that turn a schema-checked file into these types are in normalise.ts,
// so that these types (part of the API's declarations) need no zod.

import type { EventName } from './events.js';
import type { ToolMatcher } from './tool-matcher.js';
import type { CommandClause } from './shell/command-match.js';

export type Layer = 'project' | 'global';
export type Mode = 'blocking' | 'async' | 'fire_and_forget';

export interface ArgMatcher {
  equals?: string;
  contains?: string;
  regex?: RegExp;
  regexSource?: string;
  /** The pattern is not proven linear: match it under the time budget. */
  regexBounded?: boolean;
}

export interface Match {
  profile?: string;
  profiles?: string[];
  tool_kind?: string;
  tool_name?: string;
  tool_names?: string[];
  tool_name_regex?: string;
  /** tool_name_regex, compiled with Claude's matcher semantics. */
  toolMatcher?: ToolMatcher;
  args?: Record<string, ArgMatcher>;
  /** match.command, compiled: any of the clauses (shell/command-match.ts). */
  command?: CommandClause[];
  /** Top-level envelope fields (the agent's own input fields included), each equal to one of the strings. */
  fields?: Record<string, string[]>;
  session_kinds?: string[];
  max_context_tokens?: number;
}

interface RunCommon {
  env: Record<string, string>;
  cwd: string;
  prompt_file?: string;
  /** Absent = chrys. */
  protocol?: ForeignProtocol;
}

export type Run =
  | ({ type: 'script'; path: string; args: string[] } & RunCommon)
  | ({ type: 'command'; argv: string[]; args: string[] } & RunCommon)
  | ({ type: 'shell'; shell: string } & RunCommon);

/** Whose hook protocol a script speaks: stdin, environment, exit code and stdout (docs/agents.md). */
export type ForeignProtocol = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';

export interface Execution {
  mode: Mode;
  detach: boolean;
  delivery: 'best_effort' | 'durable';
  timeout_seconds: number;
  on_error: 'block' | 'warn' | 'ignore';
  /** on_error is written in the file, not the default: --fail-closed overrides only the default. */
  on_error_explicit?: true;
  delay_seconds: number;
  once_per_session: boolean;
  /** A durable job any machine's drain may run (a follow-up that calls an API), not only one that has its workspace. */
  portable?: true;
}

export interface Hook {
  id: string;
  event: EventName;
  enabled: boolean;
  /** A global hook the kill switches (CHRYS_HOOKS=0, CHRYS_HOOKS_SKIP) cannot turn off. */
  locked?: boolean;
  description: string;
  match: Match | undefined;
  run: Run;
  execution: Execution;
  source: Layer;
  /** The hooks file that defined it; relative run paths resolve against its directory. */
  file: string;
  /** Index in its file's `hooks` list. */
  index: number;
  /**
   * A project script under a trust record: the SHA-256 `trust` recorded for
   * it and, when it lies in the .chrys/hooks/ tree, the tree's files with
   * theirs (paths relative to `root`, `script` among them). The runner runs such a script only
   * from a private copy of bytes with these hashes, so a swap after the
   * check runs nothing unhashed, and what the script loads beside itself
   * is the checked tree.
   */
  trusted?: { sha256: string; tree?: { root: string; script: string; files: { path: string; sha256: string }[] } };
}

export interface Settings {
  shutdown_grace_seconds: number;
  max_parallel_hooks: number;
  outbox_retry_age_seconds: number;
  outbox_max_retries: number;
  outbox_retry_delay_seconds: number;
}

export const DEFAULT_SETTINGS: Settings = {
  shutdown_grace_seconds: 5,
  max_parallel_hooks: 4,
  outbox_retry_age_seconds: 60,
  outbox_max_retries: 3,
  outbox_retry_delay_seconds: 60,
};

export const DEFAULT_TIMEOUT_SECONDS = 30;
/** Documented upper bounds (README): a day for a timeout, 64 hooks at a time. */
export const MAX_TIMEOUT_SECONDS = 86_400;
export const MAX_PARALLEL_HOOKS = 64;

/** A parallelism setting as the runners use it, whatever a cache or an old file says. */
export const clampParallel = (n: number): number => (Number.isFinite(n) ? Math.min(MAX_PARALLEL_HOOKS, Math.max(1, Math.floor(n))) : 1);

export interface SettingOrigin<T> {
  value: T;
  origin: Layer | 'default';
}

/** Per-field merge: project > global > default, keeping where each value came from. */
export function mergeSettings(project: Partial<Settings> | undefined, global: Partial<Settings> | undefined): { [K in keyof Settings]: SettingOrigin<Settings[K]> } {
  const out = {} as { [K in keyof Settings]: SettingOrigin<Settings[K]> };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if (project?.[key] !== undefined) out[key] = { value: project[key]!, origin: 'project' };
    else if (global?.[key] !== undefined) out[key] = { value: global[key]!, origin: 'global' };
    else out[key] = { value: DEFAULT_SETTINGS[key], origin: 'default' };
  }
  return out;
}

export const settingValues = (merged: ReturnType<typeof mergeSettings>): Settings =>
  Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, v.value])) as unknown as Settings;
