// `chrys-hooks validate`: text for people, JSON for tools, GitHub workflow
// annotations for CI (CONTRACT §8).

import kleur from 'kleur';
import { diagnosticText as withHint } from '../core/diagnostics.js';
import { EXIT } from '../core/errors.js';
import { lint } from '../engine/lint.js';
import { shownPath, validationReport } from '../engine/validation-report.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { printable } from '../core/printable.js';

// GitHub's workflow-command escaping for properties and messages.
const ghData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProp = (s: string): string => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export async function runValidate(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const format = (opts.format as string | undefined) ?? 'text';
  const result = await lint(args, { ...globals, ...(opts.allowMissing ? { allowMissing: true } : {}) });
  const report = validationReport(result);
  const { errors, warnings } = report;
  const exitCode = errors > 0 || (opts.strict && warnings > 0) ? EXIT.findings : EXIT.ok;
  const shown = result.diagnostics.map((d) => ({ ...d, path: shownPath(result, d.path) }));

  if (format === 'json') return { stdout: JSON.stringify(report, null, 2), exitCode };
  if (format === 'github') {
    const lines = shown.map((d) => `::${d.severity} file=${ghProp(d.path)},line=${d.line},col=${d.column},title=${ghProp(`chrys-hooks ${d.code}`)}::${ghData(withHint(d))}`);
    return { stdout: lines.join('\n') + (lines.length ? '\n' : ''), exitCode };
  }
  const k = kleur;
  k.enabled = globals.color;
  const lines = shown.map((d) => {
    const severity = d.severity === 'error' ? k.red('error  ') : k.yellow('warning');
    return `${k.bold(`${printable(d.path)}:${d.line}:${d.column}`)}  ${severity}  ${k.cyan(d.code)}  ${printable(withHint(d))}`;
  });
  const files = result.files;
  const checked = files.length === 0 ? 'no hooks files found' : `${files.length} file${files.length === 1 ? '' : 's'} checked`;
  lines.push(`${checked}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return { stdout: lines.join('\n'), exitCode };
}
