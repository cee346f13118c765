// One diagnostics list shared by `validate`, `list`, `resolve` and `fire`.
// Codes are part of the external contract (CONTRACT.md §2, §5, §7).

import type { Layer } from './config.js';
import type { JsonPath } from './json.js';

export type Severity = 'error' | 'warning';

export const ERROR_CODES = [
  'syntax_error',
  'unknown_key',
  'invalid_type',
  'invalid_value',
  'missing_field',
  'unknown_event',
  'unsupported_version',
  'duplicate_id',
  'invalid_combination',
  'run_type_mismatch',
  'non_string_matcher',
  'invalid_prompt_file',
  'file_not_found',
  'unreadable_file',
  'invalid_regex',
  'locked_in_project',
] as const;

export const WARNING_CODES = [
  'durable_ignored',
  'broad_match',
  'tool_filter_never_matches',
  'args_other_agent',
  'hook_skipped',
  'script_not_found',
  'interpreter_not_found',
  'event_alias',
  'project_hooks_dormant',
  'hooks_config_invalid',
  'project_hooks_config_invalid',
  'duplicate_hook_id',
  'settings_invalid',
  'result_invalid',
  'decision_ignored',
  'hook_failed',
  'hook_timeout',
  'runtime_dir_unwritable',
  'outbox_unavailable',
  'config_dir_not_found',
  'envelope_shape',
  'shadowed_file',
  'settings_unknown_key',
  'cwd_not_found',
  'agent_event_unknown',
  'agent_input_invalid',
  'fail_closed',
  'permission_ask_denied',
  'rewrite_denied',
  'project_hooks_changed',
  'trust_record_invalid',
  'hooks_disabled',
  'skip_unknown_hook',
  'hook_locked',
  'retry_after_invalid',
  'due_at_invalid',
  'outbox_watch_unavailable',
  'outbox_fallback',
  'kill_switch_invalid',
  'workspace_not_found',
  'async_hooks_still_running',
  'enclosing_workspace_not_loaded',
  'decision_never_applied',
] as const;

export type DiagnosticCode = (typeof ERROR_CODES)[number] | (typeof WARNING_CODES)[number];

/** A problem found at a data path of a parsed file, before it is given a line and column. */
export interface SchemaFinding {
  path: JsonPath;
  at: 'key' | 'value';
  code: DiagnosticCode;
  message: string;
  hint?: string;
}

/** A load-time finding about one file, positioned where a user can fix it. */
export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  hint?: string;
  hook?: string;
  /** The event of the hook concerned, so `fire` reports only what affects its event. */
  event?: string;
  /** The layer of the hooks file it was found in (absent for findings about no hooks file). */
  source?: Layer;
  /** The finding has no place in its file: validate prints it at 1:1, and as a warning it carries no position. */
  wholeFile?: true;
}

/** A warning as it appears in `fire`, `list` and `resolve` output. */
export interface Warning {
  code: DiagnosticCode;
  message: string;
  path?: string;
  hook?: string;
  event?: string;
  line?: number;
  column?: number;
  /** The layer of the hook a `hook_skipped` warning leaves out. */
  source?: 'project' | 'global';
}

/** Load warnings that change what a firing does, so `fire` reports them (CONTRACT §7). */
export const FIRE_LOAD_WARNINGS: ReadonlySet<DiagnosticCode> = new Set([
  'project_hooks_dormant',
  'hooks_config_invalid',
  'project_hooks_config_invalid',
  'hook_skipped',
  'duplicate_hook_id',
  'durable_ignored',
  'settings_invalid',
  'config_dir_not_found',
  'workspace_not_found',
  'shadowed_file',
  'project_hooks_changed',
  'trust_record_invalid',
]);

/**
 * Errors that leave out one hook, not the whole file: `validate` fails on
 * them, while `fire`, `list` and `resolve` load the rest of the file and
 * report the hook as `hook_skipped`.
 */
export const HOOK_LEVEL_ERRORS: ReadonlySet<DiagnosticCode> = new Set(['invalid_regex']);

/** The message with its hint, as one line. */
export const diagnosticText = (d: Diagnostic): string => (d.hint ? `${d.message} (${d.hint})` : d.message);

export const toWarning = (d: Diagnostic): Warning => ({
  code: d.code,
  message: diagnosticText(d),
  path: d.path,
  ...(d.wholeFile ? {} : { line: d.line, column: d.column }),
  ...(d.hook === undefined ? {} : { hook: d.hook }),
  ...(d.event === undefined ? {} : { event: d.event }),
  ...(d.source === undefined ? {} : { source: d.source }),
});

/** A warning of a helper that reports warnings, as an entry of the load's list: placed at the start of the file it names. */
export const fromWarning = (w: Warning): Diagnostic => ({
  path: w.path ?? '',
  line: w.line ?? 1,
  column: w.column ?? 1,
  ...(w.line === undefined ? { wholeFile: true as const } : {}),
  severity: 'warning',
  code: w.code,
  message: w.message,
  ...(w.hook === undefined ? {} : { hook: w.hook }),
  ...(w.event === undefined ? {} : { event: w.event }),
  ...(w.source === undefined ? {} : { source: w.source }),
});

/** An error that turns its whole hooks file off. */
export const turnsFileOff = (d: Diagnostic): boolean => d.severity === 'error' && !HOOK_LEVEL_ERRORS.has(d.code);

/**
 * The load's diagnostics as `fire`, `list` and `resolve` report them, one
 * warning each, in order, except that a hooks file an error turned off is
 * one `hooks_config_invalid` (or `project_hooks_config_invalid`) warning in
 * place of its findings, and an error that leaves out one hook is that
 * hook's `hook_skipped`.
 */
export function loadWarnings(diagnostics: readonly Diagnostic[]): Warning[] {
  const offFiles = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) if (d.source !== undefined && turnsFileOff(d)) offFiles.set(d.path, [...(offFiles.get(d.path) ?? []), d]);
  const summarised = new Set<string>();
  const warnings: Warning[] = [];
  for (const d of diagnostics) {
    const errors = offFiles.get(d.path);
    if (!errors) warnings.push(runtimeWarning(d));
    else if (!summarised.has(d.path)) {
      summarised.add(d.path);
      warnings.push(invalidFileWarning(errors));
    }
  }
  return warnings;
}

/** A hook left out by a hook-level error is, at run time, a skipped hook. */
const runtimeWarning = (d: Diagnostic): Warning => (HOOK_LEVEL_ERRORS.has(d.code) ? { ...toWarning(d), code: 'hook_skipped' } : toWarning(d));

/** The headline names the first error that turned the file off, with a count of the others. */
function invalidFileWarning(errors: readonly Diagnostic[]): Warning {
  const first = errors[0]!;
  const layer = first.source ?? 'global';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return {
    code: layer === 'project' ? 'project_hooks_config_invalid' : 'hooks_config_invalid',
    path: first.path,
    line: first.line,
    column: first.column,
    message: `${layer} hooks file ${first.path} is invalid and was not loaded: ${first.line}:${first.column} [${first.code}] ${diagnosticText(first)}${more}; run \`chrys-hooks validate ${first.path}\``,
    source: layer,
  };
}
