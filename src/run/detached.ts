// Starting a `detach: true` hook: a process group of its own, stdio to its
// log, no timeout, not waited for. The invocation, the environment and the
// spawn are the runner's own (invocation.ts, spawn.ts); only the files differ,
// since they must outlive the worker or drain that started it. We do wait for the
// spawn itself, so a hook that cannot start is a launch error, not `started`.

import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hook } from '../core/config.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { foreignInput } from './foreign.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import type { HookContext } from '../core/hook-template.js';
import { hookProcessEnv, resolveInvocation } from './invocation.js';
import { formatLog, logName } from './logs.js';
import { type RunRecord, filesFailure, launchErrorOf, launchFailure, promptBody, startGroupLeader } from './spawn.js';
import { verifiedArgv } from './verified-script.js';

export interface DetachedFiles {
  /** Takes the hook's stdout and stderr (appended, 0600). */
  log: string;
  /** The payload (or a foreign hook's stdin), kept for the hook to read late. */
  payload: string;
  /** The prompt_file body, when the hook has one. */
  prompt: string;
  /** Where a trusted project script's verified copy goes (a directory, made here). */
  script: string;
}

export type Launch = { pid: number } | { launchError: string };

export async function launchDetached(hook: Hook, ctx: HookContext, payload: string, files: DetachedFiles): Promise<Launch> {
  const invocation = resolveInvocation(hook, ctx);
  if (!invocation.ok) return { launchError: invocation.error };
  const fds: number[] = [];
  try {
    const foreign = foreignInput(hook, payload);
    writeFileSync(files.payload, foreign?.stdin ?? payload, { mode: 0o600, flag: 'wx' });
    const contract: Record<string, string> = foreign ? {} : { CHRYS_HOOK_PAYLOAD_FILE: files.payload, CHRYS_HOOK_RESULT: '/dev/null' };
    const prompt = writePrompt(hook, files.prompt);
    if (typeof prompt === 'object') return prompt;
    if (prompt) contract.CHRYS_HOOK_PROMPT_FILE = prompt;
    const log = openSync(files.log, 'a', 0o600);
    fds.push(log);
    // A foreign (run.protocol) hook reads its agent's input on stdin, and gets no Chrys files.
    const stdin = foreign ? openSync(files.payload, 'r') : 'ignore';
    if (typeof stdin === 'number') fds.push(stdin);
    const argv = verifiedArgv(hook, invocation.argv, invocation.scriptIndex, () => files.script);
    if (!Array.isArray(argv)) return { launchError: argv.error };
    const child = startGroupLeader(argv, invocation.cwd, hookProcessEnv(contract, invocation.env), [stdin, log, log]);
    if ('launchError' in child) return { launchError: child.launchError };
    const started = await new Promise<Launch>((resolve) => {
      child.once('spawn', () => resolve({ pid: child.pid! }));
      child.once('error', (err: NodeJS.ErrnoException) => resolve({ launchError: launchErrorOf(err, invocation.argv[0]!).launchError }));
    });
    child.unref();
    return started;
  } catch (e) {
    return { launchError: filesFailure(e as Error).launchError };
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** Writes the prompt_file body for the hook; its path, '' without one, or the launch error. */
function writePrompt(hook: Hook, path: string): string | { launchError: string } {
  if (hook.run.prompt_file === undefined) return '';
  const source = resolveFromHookFile(hook, hook.run.prompt_file);
  let body: string;
  try {
    body = promptBody(readFileSync(source, 'utf8'));
  } catch (e) {
    return { launchError: `cannot read prompt_file ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  writeFileSync(path, body, { mode: 0o600, flag: 'wx' });
  return path;
}

/** A detached run's files, in logs/ beside its log: they must outlive the process that started it. */
export function detachedFiles(configDir: string, runId: string, hookId: string): DetachedFiles {
  const dir = runtimeDir(configDir, 'logs');
  ensureDir(dir);
  return { log: join(dir, logName(runId, hookId)), payload: join(dir, `${runId}.payload.json`), prompt: join(dir, `${runId}.prompt.md`), script: join(dir, `${runId}.script`) };
}

export type DetachedStart = { pid: number; logPath: string } | { failure: RunRecord; logPath?: string };

/**
 * Starts a `detach: true` hook as the worker and the drain both do: its files
 * in logs/, not waited for. A start that fails is a launch-error record, which
 * replaces the (empty) log so the log says why.
 */
export async function startDetached(hook: Hook, ctx: HookContext, payload: string, runId: string): Promise<DetachedStart> {
  let files: DetachedFiles | undefined;
  let failure: RunRecord;
  try {
    files = detachedFiles(ctx.configDir, runId, hook.id);
    const launch = await launchDetached(hook, ctx, payload, files);
    if ('pid' in launch) return { pid: launch.pid, logPath: files.log };
    failure = launchFailure(launch.launchError);
  } catch (e) {
    failure = launchFailure(filesFailure(e as Error).launchError);
  }
  return files && writeFailureLog(files.log, formatLog(hook, failure)) ? { failure, logPath: files.log } : { failure };
}

/** Temp file and rename: a reader (or `tail`) never sees a half-written log. Best effort. */
function writeFailureLog(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
