// The checks of a hooks file that look beyond its text: the files its hooks
// name exist, their interpreters are on PATH, run.cwd is a directory.
// Warnings, since the machine that fires may differ. `fire` does not make
// them (they cost a stat per hook and a PATH search per script).

import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { Hook, Layer } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { interpreterFor } from '../run/interpreter.js';
import { resolveFromHookFile } from '../run/invocation.js';
import type { FileLoad } from './hooks-file.js';

export interface CheckContext {
  workspace: string;
  configDir: string;
  layer: Layer;
}

interface Finding {
  hook: Hook;
  key: 'path' | 'prompt_file' | 'cwd';
  code: Diagnostic['code'];
  message: string;
}

/** The warnings for every hook of `file` that passed the schema, placed at the field they concern. */
export async function hookFileDiagnostics(file: FileLoad, context: CheckContext): Promise<Diagnostic[]> {
  const found = file.lintHooks.flatMap((hook) => hookFindings(hook, context));
  // Positions only when there is something to place: a valid file was read without them.
  const locate = found.length > 0 ? await file.locator() : undefined;
  return found.map(({ hook, key, code, message }) => ({ path: file.path, ...locate!(['hooks', hook.index, 'run', key], 'value'), severity: 'warning', code, message, hook: hook.id, event: hook.event }));
}

function hookFindings(hook: Hook, context: CheckContext): Finding[] {
  const found: Finding[] = [];
  const warn = (key: Finding['key'], code: Diagnostic['code'], message: string): void => {
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
  return found;
}

/**
 * run.cwd as it will be at run time, when that is known now: a project
 * file's workspace is fixed, a global file's is whichever the agent fires
 * in, and session templates vary per firing.
 */
function knownCwd(cwd: string, c: CheckContext): string | undefined {
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
