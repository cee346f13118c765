// The checks of a hooks file that look beyond its text: the files its hooks
// name exist, their interpreters are on PATH, run.cwd is a directory, and a
// non-blocking hook on a gated event does not evidently decide. A missing
// file is an error for `validate` (a guard that does not exist guards
// nothing; `--allow-missing` for files generated later) and a warning for
// `list` and `resolve`. `fire` does not make them (they cost a stat per hook
// and a PATH search per script).

import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { Hook, Layer } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { eventSpec } from '../core/events.js';
import { interpreterFor } from '../base/interpreter.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import type { FileLoad } from './hooks-file.js';

export interface CheckContext {
  workspace: string;
  configDir: string;
  layer: Layer;
  /** The severity of a missing script, prompt file or interpreter: `validate` says error (unless --allow-missing); list and resolve warning. */
  missing?: 'error' | 'warning';
}

interface Finding {
  hook: Hook;
  /** Where, under the hook entry. */
  at: (string | number)[];
  severity: 'error' | 'warning';
  code: Diagnostic['code'];
  message: string;
  hint?: string;
}

/** The findings for every hook of `file` that passed the schema (or could be read despite it), placed at the field they concern. */
export async function hookFileDiagnostics(file: FileLoad, context: CheckContext): Promise<Diagnostic[]> {
  const found = [...file.lintHooks.flatMap((hook) => hookFindings(hook, context, true)), ...file.salvaged.flatMap((hook) => hookFindings(hook, context, false))].sort((a, b) => a.hook.index - b.hook.index);
  // Positions only when there is something to place: a valid file was read without them.
  const locate = found.length > 0 ? await file.locator() : undefined;
  return found.map(({ hook, at, severity, code, message, hint }) => ({
    path: file.path, ...locate!(['hooks', hook.index, ...at], 'value'), severity, code, message, ...(hint ? { hint } : {}), hook: hook.id, event: hook.event,
  }));
}

/** modes: also check the mode (not for a salvaged hook, whose execution may be the key left out). */
function hookFindings(hook: Hook, context: CheckContext, modes: boolean): Finding[] {
  const found: Finding[] = [];
  const missing = context.missing ?? 'warning';
  const add = (at: Finding['at'], severity: Finding['severity'], code: Diagnostic['code'], message: string, hint?: string): void => {
    found.push({ hook, at, severity, code, message, ...(hint ? { hint } : {}) });
  };
  const allow = missing === 'error' ? 'or run validate --allow-missing if it is generated later' : undefined;
  let script: string | undefined;
  if (hook.run.type === 'script') {
    script = resolveFromHookFile(hook, hook.run.path);
    if (!existsSync(script)) add(['run', 'path'], missing, 'script_not_found', `hook "${hook.id}": script ${script} does not exist`, allow && `create it, fix run.path, ${allow}`);
    const interpreter = interpreterFor(script, join(context.configDir, 'hooks'));
    if (!interpreter.ok) add(['run', 'path'], missing, 'interpreter_not_found', `hook "${hook.id}": no interpreter for ${basename(script)}: ${interpreter.wanted} not found on PATH`, allow && `install it, ${allow}`);
  }
  if (hook.run.prompt_file !== undefined) {
    const prompt = resolveFromHookFile(hook, hook.run.prompt_file);
    if (!existsSync(prompt)) add(['run', 'prompt_file'], missing, 'script_not_found', `hook "${hook.id}": prompt_file ${prompt} does not exist`, allow && `create it, ${allow}`);
  }
  const cwd = knownCwd(hook.run.cwd, context);
  if (cwd !== undefined && !isDirectory(cwd)) add(['run', 'cwd'], 'warning', 'cwd_not_found', `hook "${hook.id}": run.cwd ${cwd} is not a directory, so the hook fails to launch`);
  const decides = modes && hook.enabled && hook.execution.mode !== 'blocking' && eventSpec(hook.event).gated ? decisionEvidence(hook, script) : undefined;
  if (decides) {
    // At execution.mode, or the nearest key written (the hook entry when mode is the default).
    add(['execution', 'mode'], 'warning', 'decision_never_applied',
      `hook "${hook.id}" on ${hook.event} is ${hook.execution.mode}, but ${decides}: a non-blocking hook's decision is ignored, so it never blocks`,
      'add execution: { mode: blocking } to have its decision applied');
  }
  return found;
}

/** Why the hook evidently answers with a decision: it speaks an agent's protocol, or its command or script names CHRYS_HOOK_RESULT. */
function decisionEvidence(hook: Hook, script: string | undefined): string | undefined {
  if (hook.run.protocol) return `it speaks ${hook.run.protocol}'s hook protocol, whose answers decide`;
  const text = hook.run.type === 'shell' ? hook.run.shell : hook.run.type === 'command' ? [...hook.run.argv, ...hook.run.args].join(' ') : script ? head(script) : '';
  return text.includes('CHRYS_HOOK_RESULT') ? `its ${hook.run.type === 'script' ? 'script' : hook.run.type} writes CHRYS_HOOK_RESULT` : undefined;
}

/** The first 256 KiB of a file, '' when it cannot be read. */
function head(path: string): string {
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(256 * 1024);
      return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
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
