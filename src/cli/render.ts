// Shared pieces of the human-readable output of `list` and `resolve`. Every
// path, id and message in human output goes through `printable`: a name with
// terminal escapes must not rewrite what the user reads.

import kleur from 'kleur';
import type { Warning } from '../core/diagnostics.js';
import type { ProjectTrust } from '../core/trust.js';
import type { Source } from '../config/load.js';
import { printable } from '../core/printable.js';

export type Paint = typeof kleur;

export function paint(color: boolean): Paint {
  kleur.enabled = color;
  return kleur;
}

const STATE_COLOR: Record<Source['state'], keyof Paint> = {
  loaded: 'green',
  dormant: 'yellow',
  invalid: 'red',
  missing: 'gray',
  'same-file': 'gray',
};

export function renderSources(sources: Source[], k: Paint): string[] {
  return sources.map((s) => {
    const color = k[STATE_COLOR[s.state]] as (t: string) => string;
    return `  ${s.layer.padEnd(8)} ${color(s.state.padEnd(10))} ${printable(s.path)}`;
  });
}

export function renderWarnings(warnings: Warning[], k: Paint): string[] {
  return warnings.map((w) => `  ${k.yellow('warning')} ${k.cyan(w.code)}: ${printable(w.message)}`);
}

/** Pads columns of a table; the last column is left ragged. */
export function table(rows: string[][], widths?: number[]): string[] {
  const w = widths ?? rows[0]!.map((_, i) => Math.max(...rows.map((r) => visible(r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(Math.max(0, w[i]! - visible(cell).length)))).join('  ').trimEnd());
}

// eslint-disable-next-line no-control-regex
const visible = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

const RULE_NAMES: Record<ProjectTrust['rule'], string> = {
  cli_flag: 'command line',
  env: 'environment',
  settings: 'user settings',
  trust_record: 'trust record',
  none: 'no rule',
};

/** "enabled by trust record (trusted by ... on ...)" / "not enabled: ...". */
export function describeTrust(t: ProjectTrust): string {
  if (t.trusted) return `enabled by ${RULE_NAMES[t.rule]} (${printable(t.detail)})`;
  if (t.rule === 'none') return 'not enabled: this workspace is not trusted (run `chrys-hooks trust`, or use --project-hooks, CHRYS_PROJECT_HOOKS=1 or project.hooks_enabled in settings)';
  return `not enabled by ${RULE_NAMES[t.rule]} (${printable(t.detail)})`;
}
