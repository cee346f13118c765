// What exactly a hook would run: argv, cwd and the variables chrys-hooks adds.
// Shared by the runner and by `resolve`, which shows it without running it.

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Hook } from '../core/config.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import { type HookContext, expandTemplate } from '../core/hook-template.js';
import { agentEnv } from '../core/protocols/env.js';
import { readArgv, readShellLine, runsPython } from '../core/shell-words.js';
import { interpreterFor, isPythonScript } from '../base/interpreter.js';
import { dropWithheld } from '../base/withheld-env.js';

export type Invocation =
  /** scriptIndex: where a `type: script` hook's script sits in argv (the runner may swap in a verified copy). */
  | { ok: true; argv: string[]; cwd: string; env: Record<string, string>; scriptIndex?: number }
  | { ok: false; error: string; argv: string[]; cwd: string; env: Record<string, string> };

/** The contract variables (without the per-run temp file paths) plus run.env. */
export function addedEnv(hook: Hook, ctx: HookContext): Record<string, string> {
  const env: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
    CHRYS_HOOK_ID: hook.id,
    CHRYS_HOOK_EVENT: hook.event,
    CHRYS_HOOK_SOURCE: hook.source,
    CHRYS_HOME: ctx.configDir,
    CHRYS_WORKSPACE: ctx.workspace,
    PYTHONUTF8: '1',
    PYTHONIOENCODING: 'utf-8',
    ...(hook.run.protocol ? agentEnv(hook.run.protocol, ctx.workspace, ctx.sessionId) : {}),
    // The script's own directory is not put first on sys.path: a json.py beside guard.py cannot stand in for `import json`.
    ...(runsPythonCode(hook) ? { PYTHONSAFEPATH: '1' } : {}),
  });
  for (const [k, v] of Object.entries(hook.run.env)) env[k] = expandTemplate(v, ctx);
  return env;
}

/** Whether the hook runs a Python script or inline Python code (not `python -m`, which looks its module up from the cwd on purpose). */
function runsPythonCode(hook: Hook): boolean {
  const run = hook.run;
  if (run.type === 'script') return isPythonScript(run.path);
  return runsPython(run.type === 'shell' ? readShellLine(run.shell) : readArgv(run.argv));
}

/**
 * The whole environment of a hook process (CONTRACT §5): the parent's minus
 * PYTHONHOME and PYTHONPATH, then the per-run files, then `added` (the contract
 * variables and run.env, which comes last and overrides).
 */
export function hookProcessEnv(files: Record<string, string>, added: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.assign(Object.create(null) as NodeJS.ProcessEnv, process.env);
  delete env.PYTHONHOME;
  delete env.PYTHONPATH;
  dropWithheld(env);
  return Object.assign(env, files, added);
}

export function resolveInvocation(hook: Hook, ctx: HookContext): Invocation {
  const run = hook.run;
  const env = addedEnv(hook, ctx);
  const cwdText = expandTemplate(run.cwd, ctx);
  const cwd = cwdText ? resolve(ctx.workspace, cwdText) : ctx.workspace;
  const fail = (error: string, argv: string[] = []): Invocation => ({ ok: false, error, argv, cwd, env });
  let argv: string[];
  let scriptIndex: number | undefined;
  if (run.type === 'script') {
    const script = resolveFromHookFile(hook, run.path);
    const interpreter = interpreterFor(script, join(ctx.configDir, 'hooks'));
    if (!interpreter.ok) return fail(`no interpreter for ${script}: ${interpreter.wanted} not found on PATH`, [script, ...run.args]);
    argv = [...interpreter.argv, script, ...run.args];
    scriptIndex = interpreter.argv.length;
    if (!existsSync(script)) return fail(`script not found: ${script}`, argv);
  } else if (run.type === 'command') {
    argv = [...run.argv, ...run.args];
  } else if (process.platform === 'win32') {
    argv = [process.env.ComSpec || 'cmd.exe', '/c', run.shell];
  } else {
    argv = [process.env.SHELL || '/bin/sh', '-c', run.shell];
  }
  if (!isDirectory(cwd)) return fail(`working directory does not exist: ${cwd}`, argv);
  return { ok: true, argv, cwd, env, ...(scriptIndex !== undefined ? { scriptIndex } : {}) };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
