// The report `validate --format json` prints and the API's validate()
// returns: every diagnostic, with a file named on the command line shown as
// written and other paths under the current directory shown relative to it
// (GitHub annotations need that), and the two counts.

import { isAbsolute, relative } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { type LintOptions, type LintResult, lint } from './lint.js';


export type ReportedDiagnostic = Omit<Diagnostic, 'event' | 'source'>;

export interface ValidationReport {
  diagnostics: ReportedDiagnostic[];
  errors: number;
  warnings: number;
}

export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** A file named on the command line as it was written; any other path as displayPath shows it. */
export const shownPath = (result: LintResult, path: string): string => result.given.get(path) ?? displayPath(path);

export function validationReport(result: LintResult): ValidationReport {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const diagnostics = result.diagnostics.map(({ event: _event, source: _source, wholeFile: _wholeFile, ...d }) => ({ ...d, path: shownPath(result, d.path) }));
  return { diagnostics, errors, warnings: result.diagnostics.length - errors };
}

/** Lints the named files (or the discovered ones) into the report. */
export async function validateFiles(files: readonly string[], opts: LintOptions): Promise<ValidationReport> {
  return validationReport(await lint(files, opts));
}
