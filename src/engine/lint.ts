// `validate`: every diagnostic of the named (or discovered) hooks files,
// including the checks that need the filesystem. Linting runs nothing, so
// an untrusted project file is linted too.

import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Layer } from '../core/config.js';
import { discover } from '../config/discover.js';
import { type FileLoad, loadHooksFile } from '../config/load.js';
import {
  type GlobalOptions,
  SETTINGS_FILE_NAMES,
  configDirOf,
  configDirProblem,
  findFirst,
  projectHooksDir,
  samePhysicalFile,
  shadowedMessage,
  shadowing,
  workspaceOf,
  workspaceProblem,
} from '../config/locations.js';
import { lintSettingsFile } from '../config/settings-lint.js';
import { interpreterFor } from '../run/interpreter.js';
import { resolveFromHookFile } from '../run/invocation.js';

export interface LintResult {
  files: string[];
  diagnostics: Diagnostic[];
  /** Each file named on the command line, by its resolved path, as the user wrote it. */
  given: Map<string, string>;
}

export async function lint(files: readonly string[], opts: GlobalOptions): Promise<LintResult> {
  const workspace = workspaceOf(opts);
  const targets: { path: string; layer: Layer | 'settings' }[] = [];
  const diagnostics: Diagnostic[] = [];
  const given = new Map<string, string>();
  if (files.length > 0) {
    for (const f of files) {
      const path = resolve(f);
      given.set(path, f);
      if (!existsSync(path)) {
        diagnostics.push({ path, line: 1, column: 1, severity: 'error', code: 'file_not_found', message: `no such file: ${f}`, hint: 'check the path' });
        continue;
      }
      const layer = (SETTINGS_FILE_NAMES as readonly string[]).includes(basename(path)) ? 'settings' : isUnder(path, projectHooksDir(workspace)) ? 'project' : 'global';
      targets.push({ path, layer });
    }
  } else {
    const found = discover({ ...opts, workspace });
    const problem = found.globalPath ? undefined : configDirProblem(opts);
    if (problem) diagnostics.push({ path: found.configDir, line: 1, column: 1, severity: 'warning', code: 'config_dir_not_found', message: problem });
    const missing = workspaceProblem(opts);
    if (missing) diagnostics.push({ path: workspace, line: 1, column: 1, severity: 'warning', code: 'workspace_not_found', message: missing });
    if (found.globalPath) targets.push({ path: found.globalPath, layer: 'global' });
    if (found.projectPath && !(found.globalPath && samePhysicalFile(found.globalPath, found.projectPath))) {
      targets.push({ path: found.projectPath, layer: 'project' });
    }
    const settings = findFirst(found.configDir, SETTINGS_FILE_NAMES);
    if (settings) targets.push({ path: settings, layer: 'settings' });
  }
  for (const t of targets) {
    diagnostics.push(...shadowDiagnostics(t.path, diagnostics));
    if (t.layer === 'settings') {
      diagnostics.push(...(await lintSettingsFile(t.path)));
      continue;
    }
    const loaded = await loadHooksFile(t.path, t.layer);
    const context = { workspace, configDir: configDirOf(opts), layer: t.layer };
    diagnostics.push(...[...loaded.diagnostics, ...(await filesystemDiagnostics(loaded, context))].sort((a, b) => a.line - b.line || a.column - b.column));
  }
  return { files: targets.map((t) => t.path), diagnostics, given };
}

/** A `shadowed_file` warning on each file that loses to a sibling, once per file. */
function shadowDiagnostics(path: string, reported: readonly Diagnostic[]): Diagnostic[] {
  const s = shadowing(path);
  if (!s) return [];
  return s.shadowed
    .filter((p) => !reported.some((d) => d.code === 'shadowed_file' && d.path === p))
    .map((p) => ({ path: p, line: 1, column: 1, severity: 'warning' as const, code: 'shadowed_file' as const, message: shadowedMessage(p, s.winner) }));
}

function isUnder(path: string, dir: string): boolean {
  try {
    return realpathSync(path).startsWith(realpathSync(dir) + sep);
  } catch {
    return false;
  }
}

/** Named files exist, interpreters are on PATH: warnings, since the machine that fires may differ. */
async function filesystemDiagnostics(file: FileLoad, context: CwdContext): Promise<Diagnostic[]> {
  const found: { hook: FileLoad['lintHooks'][number]; key: string; code: Diagnostic['code']; message: string }[] = [];
  for (const hook of file.lintHooks) {
    const warn = (key: string, code: Diagnostic['code'], message: string): void => {
      found.push({ hook, key, code, message });
    };
    if (hook.run.type === 'script') {
      const script = resolveFromHookFile(hook, hook.run.path);
      if (!existsSync(script)) warn('path', 'script_not_found', `hook "${hook.id}": script ${script} does not exist`);
      const interpreter = interpreterFor(script, join(context.configDir, 'hooks'));
      if (!interpreter.ok) warn('path', 'interpreter_not_found', `hook "${hook.id}": no interpreter for ${basename(script)}: ${interpreter.wanted} not found on PATH`);
    }
    if (hook.run.prompt_file !== undefined) {
      const prompt = resolveFromHookFile(hook, hook.run.prompt_file);
      if (!existsSync(prompt)) warn('prompt_file', 'script_not_found', `hook "${hook.id}": prompt_file ${prompt} does not exist`);
    }
    const cwd = knownCwd(hook.run.cwd, context);
    if (cwd !== undefined && !isDirectory(cwd)) warn('cwd', 'cwd_not_found', `hook "${hook.id}": run.cwd ${cwd} is not a directory, so the hook fails to launch`);
  }
  // Positions only when there is something to place: a valid file was read without them.
  const locate = found.length > 0 ? await file.locator() : undefined;
  return found.map(({ hook, key, code, message }) => ({ path: file.path, ...locate!(['hooks', hook.index, 'run', key], 'value'), severity: 'warning', code, message, hook: hook.id, event: hook.event }));
}

interface CwdContext {
  workspace: string;
  configDir: string;
  layer: Layer;
}

/**
 * run.cwd as it will be at run time, when that is known now: a project
 * file's workspace is fixed, a global file's is whichever the agent fires
 * in, and session templates vary per firing.
 */
function knownCwd(cwd: string, c: CwdContext): string | undefined {
  if (cwd === '' || cwd.includes('${session_id}') || cwd.includes('${profile}')) return undefined;
  if (c.layer === 'global' && cwd.includes('${workspace_cwd}')) return undefined;
  const expanded = cwd.replaceAll('${workspace_cwd}', c.workspace).replaceAll('${chrys_home}', c.configDir);
  if (c.layer === 'global' && !isAbsolute(expanded)) return undefined;
  return resolve(c.workspace, expanded);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
