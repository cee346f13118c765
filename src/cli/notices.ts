// The human lines `fire` writes on stderr for warnings that mean a hook the
// user wrote is not running: an agent logs stderr, so nothing is off
// silently. stdout (the decision) never depends on them.

import type { Warning } from '../core/diagnostics.js';
import { printable } from '../core/printable.js';

const INVALID_FILE = new Set(['hooks_config_invalid', 'project_hooks_config_invalid']);
const LOUD = new Set(['hook_skipped', 'outbox_unavailable', 'config_dir_not_found', 'envelope_shape', 'shadowed_file', 'settings_invalid', 'project_hooks_changed', 'trust_record_invalid', 'hooks_disabled', 'skip_unknown_hook', 'kill_switch_invalid', 'workspace_not_found', 'enclosing_workspace_not_loaded']);

/** One line per warning that turns something off; none for the rest. */
export function fireNotices(warnings: readonly Warning[]): string[] {
  const lines: string[] = [];
  for (const w of warnings) {
    if (INVALID_FILE.has(w.code)) lines.push(`chrys-hooks: ${invalidFileLine(w)}`);
    else if (LOUD.has(w.code)) lines.push(`chrys-hooks: warning ${w.code}: ${printable(w.message)}`);
  }
  return lines;
}

/** The invalid hooks files, one line each, for the top of `list` and `resolve`. */
export const invalidFileLines = (warnings: readonly Warning[]): string[] => warnings.filter((w) => INVALID_FILE.has(w.code)).map(invalidFileLine);

const invalidFileLine = (w: Warning): string => `${printable(w.path ?? '')}:${w.line ?? 1}:${w.column ?? 1} ${printable(causeOf(w.message))} — the hooks of this file are off`;

// The invalid-file warning reads "... was not loaded: L:C [code] message (and N more); run ..."
// (config/load.ts); the line on stderr leads with the position, so keep the rest.
function causeOf(message: string): string {
  const m = /was not loaded: \d+:\d+ (.*); run `chrys-hooks validate .*`$/s.exec(message);
  return m ? `${m[1]}; run chrys-hooks validate` : message;
}
