// `validate`: every diagnostic of the named (or discovered) hooks files,
// including the checks that need the filesystem, read as `list` and
// `resolve` read them (config/load.ts). Linting runs nothing, so an
// untrusted project file is linted too.

import { existsSync, realpathSync } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Layer } from '../core/config.js';
import { lintConfig, lintHooksFile, shadowDiagnostics } from '../config/load.js';
import { type GlobalOptions, SETTINGS_FILE_NAMES, configDirOf, findFirst, projectHooksDir, workspaceOf } from '../config/locations.js';
import { lintSettingsFile } from '../config/settings-lint.js';

export interface LintResult {
  files: string[];
  diagnostics: Diagnostic[];
  /** Each file named on the command line, by its resolved path, as the user wrote it. */
  given: Map<string, string>;
}

export interface LintOptions extends GlobalOptions {
  /** A missing script, prompt file or interpreter is a warning (`validate --allow-missing`), not an error. */
  allowMissing?: boolean;
}

export async function lint(files: readonly string[], opts: LintOptions): Promise<LintResult> {
  const workspace = workspaceOf(opts);
  const missing = opts.allowMissing ? 'warning' : 'error';
  return files.length > 0 ? lintNamed(files, workspace, configDirOf(opts), missing) : lintDiscovered(opts, workspace, missing);
}

/** Both discovered hooks files, as the load reads them, and the user settings file. */
async function lintDiscovered(opts: GlobalOptions, workspace: string, missing: 'error' | 'warning'): Promise<LintResult> {
  const found = await lintConfig({ ...opts, workspace }, missing);
  const diagnostics = [...found.diagnostics];
  const settings = findFirst(found.configDir, SETTINGS_FILE_NAMES);
  if (settings) diagnostics.push(...shadowDiagnostics([settings]), ...(await lintSettingsFile(settings)));
  return { files: settings ? [...found.files, settings] : found.files, diagnostics, given: new Map() };
}

/** Each named file, as a settings file by its name, else as the layer it lies in. */
async function lintNamed(files: readonly string[], workspace: string, configDir: string, missing: 'error' | 'warning'): Promise<LintResult> {
  const targets: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const given = new Map<string, string>();
  for (const f of files) {
    const path = resolve(f);
    given.set(path, f);
    if (!existsSync(path)) {
      diagnostics.push({ path, line: 1, column: 1, severity: 'error', code: 'file_not_found', message: `no such file: ${f}`, hint: 'check the path' });
      continue;
    }
    targets.push(path);
    diagnostics.push(...shadowDiagnostics([path]).filter((s) => !diagnostics.some((d) => d.code === 'shadowed_file' && d.path === s.path)));
    if ((SETTINGS_FILE_NAMES as readonly string[]).includes(basename(path))) diagnostics.push(...(await lintSettingsFile(path)));
    else diagnostics.push(...(await lintHooksFile(path, layerOf(path, workspace), { workspace, configDir, missing })));
  }
  return { files: targets, diagnostics, given };
}

const layerOf = (path: string, workspace: string): Layer => (isUnder(path, projectHooksDir(workspace)) ? 'project' : 'global');

function isUnder(path: string, dir: string): boolean {
  try {
    return realpathSync(path).startsWith(realpathSync(dir) + sep);
  } catch {
    return false;
  }
}
