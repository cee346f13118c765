// `validate`: every diagnostic of the named (or discovered) hooks files,
// including the checks that need the filesystem. Linting runs nothing, so
// an untrusted project file is linted too.

import { existsSync, realpathSync } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Layer } from '../core/config.js';
import { discover } from '../config/discover.js';
import { type FileLoad, loadHooksFile } from '../config/load.js';
import { type GlobalOptions, projectHooksDir, samePhysicalFile, workspaceOf } from '../config/locations.js';
import { interpreterFor } from '../run/interpreter.js';
import { resolveFromHookFile } from '../run/invocation.js';

export interface LintResult {
  files: string[];
  diagnostics: Diagnostic[];
}

export async function lint(files: readonly string[], opts: GlobalOptions): Promise<LintResult> {
  const workspace = workspaceOf(opts);
  const targets: { path: string; layer: Layer }[] = [];
  const diagnostics: Diagnostic[] = [];
  if (files.length > 0) {
    for (const f of files) {
      const path = resolve(f);
      if (!existsSync(path)) {
        diagnostics.push({ path, line: 1, column: 1, severity: 'error', code: 'file_not_found', message: `no such file: ${f}`, hint: 'check the path' });
        continue;
      }
      targets.push({ path, layer: isUnder(path, projectHooksDir(workspace)) ? 'project' : 'global' });
    }
  } else {
    const found = discover({ ...opts, workspace });
    if (found.globalPath) targets.push({ path: found.globalPath, layer: 'global' });
    if (found.projectPath && !(found.globalPath && samePhysicalFile(found.globalPath, found.projectPath))) {
      targets.push({ path: found.projectPath, layer: 'project' });
    }
  }
  for (const t of targets) {
    const loaded = await loadHooksFile(t.path, t.layer);
    diagnostics.push(...[...loaded.diagnostics, ...filesystemDiagnostics(loaded)].sort((a, b) => a.line - b.line || a.column - b.column));
  }
  return { files: targets.map((t) => t.path), diagnostics };
}

function isUnder(path: string, dir: string): boolean {
  try {
    return realpathSync(path).startsWith(realpathSync(dir) + sep);
  } catch {
    return false;
  }
}

/** Named files exist, interpreters are on PATH: warnings, since the machine that fires may differ. */
function filesystemDiagnostics(file: FileLoad): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const hook of file.lintHooks) {
    const warn = (key: string, code: Diagnostic['code'], message: string): void => {
      out.push({ path: file.path, ...file.locate(['hooks', hook.index, 'run', key], 'value'), severity: 'warning', code, message, hook: hook.id, event: hook.event });
    };
    if (hook.run.type === 'script') {
      const script = resolveFromHookFile(hook, hook.run.path);
      if (!existsSync(script)) warn('path', 'script_not_found', `hook "${hook.id}": script ${script} does not exist`);
      const interpreter = interpreterFor(script);
      if (!interpreter.ok) warn('path', 'interpreter_not_found', `hook "${hook.id}": no interpreter for ${basename(script)}: ${interpreter.wanted} not found on PATH`);
    }
    if (hook.run.prompt_file !== undefined) {
      const prompt = resolveFromHookFile(hook, hook.run.prompt_file);
      if (!existsSync(prompt)) warn('prompt_file', 'script_not_found', `hook "${hook.id}": prompt_file ${prompt} does not exist`);
    }
  }
  return out;
}
