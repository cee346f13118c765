// Runs one hook process under the contract of CONTRACT §5 and classifies how
// it ended in one place. We use node:child_process rather than execa: execa
// adds ~35 ms to start-up (measured, see docs/performance.md), and `fire` runs on every
// tool call. Each hook leads its own process group so a timeout can kill it
// with everything it forked.

import { type ChildProcess, type ChildProcessByStdio, type StdioOptions, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, rmSync, unlinkSync } from 'node:fs';
import type { Hook } from '../core/config.js';
import type { Outcome } from '../core/decide.js';
import { JsonSyntaxError, isJsonObject, parseJson } from '../core/json.js';
import { type AgentReading, type Disposition, type ProcessOutcome, type ResultFile, classifyOutcome, historyStatus } from '../core/outcome.js';
import { HeadTail } from './capture.js';
import { foreignInput } from './foreign.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import type { HookContext } from '../core/hook-template.js';
import { type Invocation, hookProcessEnv } from './invocation.js';
import { trackFile, trackGroup, untrackFile, untrackGroup } from './live.js';
import { killGroup } from './process-group.js';
import { verifiedArgv } from './verified-script.js';
import { type HelperStdin, type HookProcess, HelperChild, PayloadFileError, type SpawnHelper, spawnHelper } from './spawn-helper.js';
import type { TempFiles } from './runtime.js';

export const OUTPUT_LIMIT = 256 * 1024;
export const RESULT_LIMIT = 1024 * 1024;
export const KILL_GRACE_MS = 2000;
/** The longest timeout honoured (the documented maximum of timeout_seconds); Node timers overflow past 2^31 ms. */
export const MAX_TIMEOUT_MS = 86_400_000;

/** A chunk of a running hook's stdout or stderr. */
export type OnOutput = (stream: 'stdout' | 'stderr', chunk: Buffer) => void;

export interface RunOptions {
  /** Told the process-group leader's pid once it is spawned (after its timeout is armed: a throw here cannot leave it unbounded). */
  onSpawn?: (pid: number) => void;
  /** Told each chunk of the hook's output as it comes (a durable job's live log); it must not throw. */
  onOutput?: OnOutput;
  /** Keep the result file's text (up to 64 KiB), whatever the exit status (for `test`). */
  keepResultText?: boolean;
  /** Asked once the process ended: was it stopped on purpose (a drain, session_end)? */
  cancelled?: () => boolean;
  /**
   * A firing's hooks: the payload file they share (read-only, written by the
   * caller, not deleted here), and the result file made in the firing's temp
   * directory (TempFiles.firingFile) instead of a file of its own.
   */
  sharedPayloadFile?: string;
}

export interface RunRecord extends Outcome {
  stdout: string;
  stderr: string;
  resultText?: string;
  outcome: ProcessOutcome;
  /** Where a durable job goes after this run. */
  disposition: Disposition;
  /** The status for the run history and logs (`cancelled` included). */
  historyStatus: string;
}

/**
 * The timeout of an attached run, from the hook alone. A `detach: true` hook
 * has none, and is never run here: the worker and the drain launch it
 * (detached.ts); only `test` runs one attached, and so bounded like any other.
 */
export const timeoutOf = (hook: Hook): number => Math.min(hook.execution.timeout_seconds * 1000, MAX_TIMEOUT_MS);

/** Strips a leading `---` front-matter block from a prompt file. */
export function promptBody(text: string): string {
  const m = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/**
 * What the hook reads on stdin: the payload file itself, opened read-only
 * (one pipe fewer to set up per hook, and the bytes are the file's), or, for
 * a foreign hook, its agent's JSON through a pipe.
 */
type Stdin = HelperStdin;

interface Prepared {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdin: Stdin;
  resultFile?: string;
  agentReading?: AgentReading;
}

/**
 * Runs one hook attached: prepares its files, spawns it, waits, and returns
 * the one record of how it ended, classified once (core/outcome.ts). Only
 * preparing can throw into a launch error; what happens once the process
 * started is a fact of the record, never a reason to call it unstarted.
 */
export async function runHook(hook: Hook, ctx: HookContext, invocation: Invocation, payload: string, temp: TempFiles, opts: RunOptions): Promise<RunRecord> {
  // process.hrtime, not performance.now(): the `performance` global loads perf_hooks on first use.
  const started = process.hrtime.bigint();
  const elapsed = (): number => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const notStarted = (error: string, errorCode?: string): RunRecord => toRecord(notRun(error, elapsed(), invocation.argv, invocation.cwd, errorCode));
  if (!invocation.ok) return notStarted(invocation.error);

  // Files, unlinked after the run; directories (a verified script's copy), removed with their contents.
  const tempPaths: string[] = [];
  const tempDirs: string[] = [];
  const tempFile = (prefix: string, content: string): string => {
    const path = opts.sharedPayloadFile !== undefined ? temp.firingFile(prefix, content) : temp.create(prefix, content);
    tempPaths.push(path);
    trackFile(path);
    return path;
  };
  try {
    let prepared: Prepared | string;
    try {
      prepared = prepare(hook, invocation, payload, temp, tempFile, tempDirs, opts.sharedPayloadFile);
    } catch (e) {
      const failure = filesFailure(e as Error);
      return notStarted(failure.launchError, failure.errorCode);
    }
    if (typeof prepared === 'string') return notStarted(prepared);
    const { argv, resultFile } = prepared;
    const timeoutMs = timeoutOf(hook);
    let ended = await spawnAndWait(argv, invocation.cwd, prepared.env, prepared.stdin, timeoutMs, opts, spawnHelper());
    // The helper died under the run, and its group was killed: run it again the plain way, for the plain way's verdict.
    if (ended.lost) ended = await spawnAndWait(argv, invocation.cwd, prepared.env, prepared.stdin, timeoutMs, opts, undefined);
    const ran = ended.launchError === undefined;
    const cancelled = ran && (opts.cancelled?.() ?? false);
    const outcome: ProcessOutcome = {
      argv,
      cwd: invocation.cwd,
      exitCode: ended.exitCode,
      signal: ended.signal,
      timedOut: ended.timedOut,
      cancelled,
      killedFromOutside: ended.signal !== null && !ended.timedOut && !cancelled,
      ...(ended.launchError !== undefined ? { launchError: ended.launchError } : {}),
      ...(ended.errorCode !== undefined ? { errorCode: ended.errorCode } : {}),
      ...(ended.errorAfterSpawn !== undefined ? { errorAfterSpawn: ended.errorAfterSpawn } : {}),
      timeoutMs,
      stdout: ended.stdout.text(),
      stderr: ended.stderr.text(),
      stdoutTruncated: ended.stdout.truncated,
      stderrTruncated: ended.stderr.truncated,
      stdoutTail: ended.stdout.lastBytes(1024),
      stderrTail: ended.stderr.lastBytes(1024),
      durationMs: elapsed(),
      resultFile: ran && resultFile ? readResultFile(resultFile) : { state: 'empty' },
      ...(prepared.agentReading ? { agentReading: prepared.agentReading } : {}),
    };
    const record = toRecord(outcome);
    if (opts.keepResultText && resultFile && ran) {
      const text = resultFileText(resultFile);
      if (text !== undefined) record.resultText = text;
    }
    return record;
  } finally {
    // unlinkSync for a file: rmSync's recursive walk (node's rimraf) costs more than the unlink, once per hook.
    for (const f of tempPaths) {
      removeTemp(f);
      untrackFile(f);
    }
    for (const d of tempDirs) {
      rmSync(d, { recursive: true, force: true });
      untrackFile(d);
    }
  }
}

/** Removes a run's temp file in one unlink; a directory (a verified script's copy) with what it holds. */
function removeTemp(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(path, { recursive: true, force: true });
  }
}

/** The argv, environment, stdin and files of one run, or why it cannot start; throws when a file cannot be written or a foreign hook's payload is not JSON. */
function prepare(hook: Hook, invocation: Extract<Invocation, { ok: true }>, payload: string, temp: TempFiles, tempFile: (prefix: string, content: string) => string, tempDirs: string[], shared: string | undefined): Prepared | string {
  const foreign = foreignInput(hook, payload);
  const files = hookFiles(hook, foreign ? undefined : payload, tempFile, shared);
  if (typeof files === 'string') return files;
  const argv = verifiedArgv(hook, invocation.argv, invocation.scriptIndex, () => {
    const dir = temp.dirPath('script');
    tempDirs.push(dir);
    trackFile(dir);
    return dir;
  });
  if (!Array.isArray(argv)) return argv.error;
  const payloadFile = foreign ? undefined : files.files.CHRYS_HOOK_PAYLOAD_FILE;
  return {
    argv,
    env: hookProcessEnv(files.files, invocation.env),
    stdin: payloadFile !== undefined ? { path: payloadFile } : { text: foreign?.stdin ?? payload },
    ...(files.resultFile !== undefined ? { resultFile: files.resultFile } : {}),
    // A foreign hook has no result file: its agent's rules read the exit code and stdout instead.
    ...(foreign && hook.run.protocol ? { agentReading: { protocol: hook.run.protocol, agentEvent: foreign.agentEvent, failureBlocks: hook.execution.on_error === 'block' } } : {}),
  };
}

/**
 * The files a hook gets, by environment variable: the payload and result
 * files (a foreign hook, `payload` undefined, gets neither) and the prompt
 * file; or why they cannot be made (a launch error).
 */
function hookFiles(hook: Hook, payload: string | undefined, tempFile: (prefix: string, content: string) => string, sharedPayloadFile?: string): { files: Record<string, string>; resultFile?: string } | string {
  const files: Record<string, string> = {};
  let resultFile: string | undefined;
  if (payload !== undefined) {
    files.CHRYS_HOOK_PAYLOAD_FILE = sharedPayloadFile ?? tempFile('payload', payload);
    resultFile = tempFile('result', '');
    files.CHRYS_HOOK_RESULT = resultFile;
  }
  if (hook.run.prompt_file !== undefined) {
    const promptPath = resolveFromHookFile(hook, hook.run.prompt_file);
    let body: string;
    try {
      body = promptBody(readFileSync(promptPath, 'utf8'));
    } catch (e) {
      return `cannot read prompt_file ${promptPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    files.CHRYS_HOOK_PROMPT_FILE = tempFile('prompt', body);
  }
  return resultFile === undefined ? { files } : { files, resultFile };
}

/** The record of a hook that could not be started at all. */
export const launchFailure = (error: string): RunRecord => toRecord(notRun(error, 0, [], ''));

const notRun = (error: string, durationMs: number, argv: readonly string[], cwd: string, errorCode?: string): ProcessOutcome => ({
  argv, cwd, exitCode: null, signal: null, timedOut: false, cancelled: false, killedFromOutside: false, launchError: error, ...(errorCode !== undefined ? { errorCode } : {}),
  stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, stdoutTail: '', stderrTail: '', durationMs, resultFile: { state: 'empty' },
});

/** The runner's record: the process outcome, its one classification, and the captured output. */
export function toRecord(outcome: ProcessOutcome): RunRecord {
  const c = classifyOutcome(outcome);
  return {
    status: c.status,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    durationMs: outcome.durationMs,
    ...(c.error !== undefined ? { error: c.error } : {}),
    ...(c.failure !== undefined ? { failure: c.failure } : {}),
    ...(c.ask !== undefined ? { ask: c.ask } : {}),
    stderrTail: outcome.stderrTail,
    result: c.result,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    outcome,
    disposition: c.disposition,
    historyStatus: historyStatus(outcome, c.status),
  };
}

/** The result file as the hook wrote it (first 64 KiB), for `test`; undefined unless it is a readable regular file. */
function resultFileText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(64 * 1024);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

// Opening fails this way when something other than a regular file stands there: a symlink (ELOOP under O_NOFOLLOW), a socket (ENXIO), a file where its directory was (ENOTDIR).
const NOT_A_FILE = new Set(['ELOOP', 'ENXIO', 'ENOTDIR']);

/**
 * The result file's state; never follows a symlink the hook may have put in
 * its place, and never throws: a file that cannot be read is `unreadable`,
 * a result-file problem of a run that ended, not a failure to start it.
 */
export function readResultFile(path: string): ResultFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    return code === 'ENOENT' ? { state: 'absent' } : NOT_A_FILE.has(code) ? { state: 'not_a_file' } : unreadable(e);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { state: 'not_a_file' };
    if (stat.size === 0) return { state: 'empty' };
    if (stat.size > RESULT_LIMIT) return { state: 'invalid', reason: `result file is ${stat.size} bytes, over the 1 MiB limit` };
    const text = readFileSync(fd, 'utf8');
    if (text.trim() === '') return { state: 'empty' };
    return parseResult(text);
  } catch (e) {
    return unreadable(e);
  } finally {
    closeSync(fd);
  }
}

const unreadable = (e: unknown): ResultFile => ({ state: 'unreadable', reason: `cannot read the result file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });

function parseResult(text: string): ResultFile {
  try {
    const value = parseJson(text);
    if (!isJsonObject(value)) return { state: 'invalid', reason: 'result file holds JSON that is not an object' };
    return { state: 'json', value };
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof RangeError) return { state: 'invalid', reason: `result file is not valid JSON (${e.message})` };
    throw e;
  }
}

interface Ended {
  /** The spawn helper died under the run (spawn-helper.ts). */
  lost?: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  launchError?: string;
  errorCode?: string;
  errorAfterSpawn?: string;
  stdout: HeadTail;
  stderr: HeadTail;
}

/** Starts argv as the leader of a new process group, so a kill can reach everything it forks. */
export function spawnGroupLeader(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdio: StdioOptions): ChildProcess {
  return spawn(argv[0]!, argv.slice(1), { cwd, env, detached: process.platform !== 'win32', stdio, windowsHide: true });
}

/** A launch error: its sentence and, when the system gave one, its code. */
export interface LaunchError {
  launchError: string;
  errorCode?: string;
}

/** The launch error of a hook whose files could not be made or opened: the system's message, and its code. */
export const filesFailure = (e: Error & { code?: unknown }): LaunchError => ({
  launchError: `cannot prepare the hook's files: ${e.message}`,
  ...(typeof e.code === 'string' ? { errorCode: e.code } : {}),
});

const spawnErrorText = (err: NodeJS.ErrnoException, command: string): string =>
  err.code === 'ENOENT' ? `command not found: ${command}` : err.code === 'EACCES' ? `permission denied: ${command} is not executable` : err.message;

export const launchErrorOf = (err: NodeJS.ErrnoException, command: string): LaunchError => ({
  launchError: spawnErrorText(err, command),
  ...(typeof err.code === 'string' ? { errorCode: err.code } : {}),
});

/**
 * spawnGroupLeader, or the launch error of a spawn that failed at once: Node
 * throws for some errno codes (ENOTDIR, E2BIG) and emits 'error' for others.
 */
export function startGroupLeader(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdio: StdioOptions): ChildProcess | LaunchError {
  try {
    return spawnGroupLeader(argv, cwd, env, stdio);
  } catch (e) {
    return launchErrorOf(e as NodeJS.ErrnoException, argv[0]!);
  }
}

/** Who is told of a spawned run: its pid, then its output as it comes. */
type Watchers = Pick<RunOptions, 'onSpawn' | 'onOutput'>;

/**
 * Spawns argv as a process-group leader (through the spawn helper when this
 * process has a ready one), feeds stdin, waits, enforces the timeout. Only
 * an 'error' before 'spawn' is a launch error; one after it (a failed kill)
 * is noted and the run waited for as any other.
 */
function spawnAndWait(argv: string[], cwd: string, env: NodeJS.ProcessEnv, stdin: Stdin, timeoutMs: number | undefined, watch: Watchers, helper: SpawnHelper | undefined): Promise<Ended> {
  const { onSpawn, onOutput } = watch;
  return new Promise((resolvePromise) => {
    const stdout = new HeadTail(OUTPUT_LIMIT);
    const stderr = new HeadTail(OUTPUT_LIMIT);
    const started = helper?.start(argv, cwd, env, stdin) ?? startDirectly(argv, cwd, env, stdin);
    if ('launchError' in started) return resolvePromise({ exitCode: null, signal: null, timedOut: false, ...started, stdout, stderr });
    const child = started;
    let settled = false;
    let spawned = false;
    let errorAfterSpawn: string | undefined;
    const kill = (signal: NodeJS.Signals): void => {
      // A helper's run may have started before the helper's report of it reached us: its start log knows.
      const pid = child instanceof HelperChild ? child.knownPid() : child.pid;
      if (pid !== undefined) killGroup(pid, signal);
    };
    // A helper that has not reported the exit of a run whose group got SIGKILL is given up on if it is stopped.
    const unresponsive = (): void => (child instanceof HelperChild ? child.abandon() : undefined);
    const timeout = armTimeout(timeoutMs, kill, unresponsive);
    const finish = (ended: Pick<Ended, 'exitCode' | 'signal'> & Partial<LaunchError>): void => {
      if (settled) return;
      settled = true;
      timeout.stop();
      if (child.pid !== undefined) untrackGroup(child.pid);
      const lost = child instanceof HelperChild && child.lost ? { lost: true } : {};
      resolvePromise({ ...ended, ...(errorAfterSpawn !== undefined ? { errorAfterSpawn } : {}), ...lost, timedOut: timeout.fired(), stdout, stderr });
    };
    let noted = false;
    const noteStart = (): void => {
      if (noted || child.pid === undefined) return;
      noted = true;
      trackGroup(child.pid);
      try {
        onSpawn?.(child.pid);
      } catch (e) {
        // The caller's note of the pid failed; the hook runs on, bounded by its timeout, and its ending is still the verdict.
        errorAfterSpawn = `onSpawn: ${(e as Error).message}`;
      }
    };
    // Node's spawn knows the pid at once: tracked before anything else can run (a stopEverything() must reach
    // a hook that is already running). The helper tells it with its report of the start.
    if (!(child instanceof HelperChild)) noteStart();
    child.once('spawn', () => {
      spawned = true;
      noteStart();
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof PayloadFileError) finish({ exitCode: null, signal: null, ...filesFailure(err) });
      else if (!spawned) finish({ exitCode: null, signal: null, ...launchErrorOf(err, argv[0]!) });
      else errorAfterSpawn ??= err.message;
    });
    child.stdout.on('data', (c: Buffer) => {
      stdout.push(c);
      onOutput?.('stdout', c);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr.push(c);
      onOutput?.('stderr', c);
    });
    if (child.stdin && 'text' in stdin) {
      child.stdin.on('error', () => {}); // a hook need not read its stdin (EPIPE)
      child.stdin.end(stdin.text);
    }
    onEnd(child, (exit) => finish({ exitCode: exit.code, signal: exit.signal }));
  });
}

/** Node's own spawn: stdin the payload file (opened here, O_NOFOLLOW) or a pipe for the text. */
function startDirectly(argv: string[], cwd: string, env: NodeJS.ProcessEnv, stdin: Stdin): HookProcess | LaunchError {
  let fd: number | undefined;
  try {
    if ('path' in stdin) fd = openSync(stdin.path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    return filesFailure(e as Error);
  }
  const started = startGroupLeader(argv, cwd, env, [fd ?? 'pipe', 'pipe', 'pipe']);
  // The child holds its own copy of the file's descriptor once spawned.
  if (fd !== undefined) closeSync(fd);
  return started as (HookChild | LaunchError);
}

/**
 * The timeout of one run: SIGTERM to the group, SIGKILL KILL_GRACE_MS later,
 * and `unresponsive` once more KILL_GRACE_MS later if the run has still not
 * ended: the kernel reports a SIGKILLed child's end at once, so what keeps it
 * from ending is a spawn helper that stopped reporting (SIGSTOP).
 * stop() ends it when the run ends; after a timeout it also SIGKILLs
 * whatever of the group outlived SIGTERM.
 */
function armTimeout(timeoutMs: number | undefined, kill: (signal: NodeJS.Signals) => void, unresponsive: () => void): { fired: () => boolean; stop: () => void } {
  let fired = false;
  let killTimer: NodeJS.Timeout | undefined;
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
    fired = true;
    kill('SIGTERM');
    killTimer = setTimeout(() => {
      kill('SIGKILL');
      killTimer = setTimeout(unresponsive, KILL_GRACE_MS);
    }, KILL_GRACE_MS);
  }, timeoutMs);
  return {
    fired: () => fired,
    stop: () => {
      clearTimeout(timer);
      if (!fired) return;
      clearTimeout(killTimer);
      kill('SIGKILL');
    },
  };
}

/** A hook's process as spawnAndWait starts it: stdin a pipe or the payload file, stdout and stderr pipes. */
type HookChild = ChildProcessByStdio<Writable | null, Readable, Readable>;

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * Calls `done` once the child has exited and its pipes are read. 'close'
 * waits for the pipes too; a forked grandchild may hold them open after the
 * hook itself exited, so after 'exit' the pipes get a moment, then reading stops.
 */
function onEnd(child: HookProcess, done: (exit: Exit) => void): void {
  let exit: Exit | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const settle = (): void => {
    if (!exit) return;
    clearTimeout(drainTimer);
    done(exit);
  };
  child.on('close', (code, signal) => {
    exit ??= { code, signal };
    settle();
  });
  child.on('exit', (code, signal) => {
    exit = { code, signal };
    drainTimer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      settle();
    }, 100);
  });
}
