// Runs one hook process under the contract of CONTRACT §5 and classifies how
// it ended in one place. We use node:child_process rather than execa: execa
// adds ~35 ms to start-up (measured, see README), and `fire` runs on every
// tool call. Each hook leads its own process group so a timeout can kill it
// with everything it forked.

import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import type { Hook } from '../core/config.js';
import type { Outcome } from '../core/decide.js';
import { JsonSyntaxError, isJsonObject, parseJson } from '../core/json.js';
import { HeadTail } from './capture.js';
import { foreignInput, foreignOutcome } from './foreign.js';
import { type HookContext, type Invocation, hookProcessEnv, resolveFromHookFile } from './invocation.js';
import type { TempFiles } from './runtime.js';

export const OUTPUT_LIMIT = 256 * 1024;
export const RESULT_LIMIT = 1024 * 1024;
export const KILL_GRACE_MS = 2000;

export interface RunOptions {
  /** Milliseconds before the group is killed; undefined = no timeout. */
  timeoutMs?: number;
  /** Told the process-group leader's pid once it is spawned. */
  onSpawn?: (pid: number) => void;
  /** Keep the result file's text (up to 64 KiB), whatever the exit status (for `test`). */
  keepResultText?: boolean;
}

export interface RunRecord extends Outcome {
  stdout: string;
  stderr: string;
  resultText?: string;
}

/** Strips a leading `---` front-matter block from a prompt file. */
export function promptBody(text: string): string {
  const m = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

export async function runHook(hook: Hook, ctx: HookContext, invocation: Invocation, payload: string, temp: TempFiles, opts: RunOptions): Promise<RunRecord> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const launchError = (error: string): RunRecord => ({
    status: 'launch_error', exitCode: null, signal: null, durationMs: elapsed(), error, stderrTail: '', stdout: '', stderr: '', result: { kind: 'none' },
  });
  if (!invocation.ok) return launchError(invocation.error);

  const tempPaths: string[] = [];
  try {
    const foreign = foreignInput(hook, payload);
    const files: Record<string, string> = {};
    let resultFile: string | undefined;
    if (!foreign) {
      files.CHRYS_HOOK_PAYLOAD_FILE = temp.create('payload', payload);
      tempPaths.push(files.CHRYS_HOOK_PAYLOAD_FILE);
      resultFile = temp.create('result', '');
      tempPaths.push(resultFile);
      files.CHRYS_HOOK_RESULT = resultFile;
    }
    if (hook.run.prompt_file !== undefined) {
      const promptPath = resolveFromHookFile(hook, hook.run.prompt_file);
      let body: string;
      try {
        body = promptBody(readFileSync(promptPath, 'utf8'));
      } catch (e) {
        return launchError(`cannot read prompt_file ${promptPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const promptFile = temp.create('prompt', body);
      tempPaths.push(promptFile);
      files.CHRYS_HOOK_PROMPT_FILE = promptFile;
    }
    const env = hookProcessEnv(files, invocation.env);
    const ended = await spawnAndWait(invocation.argv, invocation.cwd, env, foreign?.stdin ?? payload, opts.timeoutMs, opts.onSpawn);
    const outcome: RunRecord = {
      status: ended.status,
      exitCode: ended.exitCode,
      signal: ended.signal,
      durationMs: elapsed(),
      stderrTail: ended.stderr.lastBytes(1024),
      stdout: ended.stdout.text(),
      stderr: ended.stderr.text(),
      result: { kind: 'none' },
    };
    if (ended.error) outcome.error = ended.error;
    if (outcome.status === 'ok' && resultFile) outcome.result = readResult(resultFile);
    if (opts.keepResultText && resultFile) outcome.resultText = readFileSync(resultFile, 'utf8').slice(0, 64 * 1024);
    return foreign ? foreignOutcome(hook, foreign, outcome) : outcome;
  } catch (e) {
    return launchError(`cannot prepare the hook's files: ${(e as Error).message}`);
  } finally {
    for (const f of tempPaths) rmSync(f, { force: true });
  }
}

function readResult(path: string): Outcome['result'] {
  const size = statSync(path).size;
  if (size === 0) return { kind: 'none' };
  if (size > RESULT_LIMIT) return { kind: 'invalid', reason: `result file is ${size} bytes, over the 1 MiB limit` };
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { kind: 'none' };
  try {
    const value = parseJson(text);
    if (!isJsonObject(value)) return { kind: 'invalid', reason: 'result file holds JSON that is not an object' };
    return { kind: 'json', value };
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof RangeError) return { kind: 'invalid', reason: `result file is not valid JSON (${e.message})` };
    throw e;
  }
}

interface Ended {
  status: Outcome['status'];
  exitCode: number | null;
  signal: string | null;
  error?: string;
  stdout: HeadTail;
  stderr: HeadTail;
}

/** Spawns argv as a process-group leader, feeds stdin, waits, enforces the timeout. */
export function spawnAndWait(argv: string[], cwd: string, env: NodeJS.ProcessEnv, stdin: string, timeoutMs: number | undefined, onSpawn?: (pid: number) => void): Promise<Ended> {
  return new Promise((resolvePromise) => {
    const stdout = new HeadTail(OUTPUT_LIMIT);
    const stderr = new HeadTail(OUTPUT_LIMIT);
    let timedOut = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, detached: process.platform !== 'win32', stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const finish = (ended: Omit<Ended, 'stdout' | 'stderr'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      if (timedOut) {
        clearTimeout(killTimer);
        killGroup('SIGKILL'); // whatever of the group outlived SIGTERM
      }
      resolvePromise({ ...ended, stdout, stderr });
    };
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);

    child.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? `command not found: ${argv[0]}` : err.code === 'EACCES' ? `permission denied: ${argv[0]} is not executable` : err.message;
      finish({ status: 'launch_error', exitCode: null, signal: null, error: why });
    });
    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.stdin.on('error', () => {}); // a hook need not read its stdin (EPIPE)
    child.stdin.end(stdin);

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const classify = (): void => {
      if (!exit) return;
      const { code, signal } = exit;
      if (timedOut) finish({ status: 'timeout', exitCode: code, signal, error: `timed out after ${(timeoutMs ?? 0) / 1000} s and was killed` });
      else if (signal) finish({ status: 'failed', exitCode: null, signal, error: `was killed by ${signal}` });
      else if (code !== 0) finish({ status: 'failed', exitCode: code, signal: null, error: `exited with status ${code}` });
      else finish({ status: 'ok', exitCode: 0, signal: null });
    };
    // 'close' waits for the pipes too; a forked grandchild may hold them open
    // after the hook itself exited, so after 'exit' we give the pipes a moment, then stop reading.
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      classify();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        classify();
      }, 100);
    });
  });
}
