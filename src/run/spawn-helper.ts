// The spawn helper: one small long-lived Python process that starts hooks
// for a long-lived chrys-hooks process (a drain, `serve`), because forking
// Node costs milliseconds per hook and posix_spawn from a small process does
// not (docs/performance.md). Each hook still leads its own session, so
// timeouts and kills reach its process group as before (we signal the group
// ourselves). What a run looks like to the runner does not change: a
// HelperChild has the ChildProcess events spawn.ts listens to.
//
// Only a process that asked for it (useSpawnHelper) has one, from its
// eighth hook on, and uses it only once it said it is ready; until then, and
// whenever it cannot start or has died, hooks are spawned directly. When it
// dies, a hook that had exited keeps its exit status; one still running is
// killed with its group (its pid read from the helper's start log if the
// helper had not reported it) and reported `lost`, and the runner runs it
// again directly, so the verdict is the one the plain path gives.

import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, constants as fsConstants, fstatSync, ftruncateSync, openSync, readFileSync, readSync, readdirSync, unlinkSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { which } from '../base/interpreter.js';
import { trackStopper } from './live.js';
import { killGroup, procStatFields, processStopped } from './process-group.js';
import { SPAWN_HELPER_SCRIPT } from './spawn-helper-script.js';

/** What the runner needs of a started hook process; a ChildProcess is one. */
export interface HookProcess {
  pid?: number | undefined;
  /** A pipe to write the hook's stdin text to; null when the stdin was handed over at the start. */
  readonly stdin: Writable | null;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  once(event: 'spawn', listener: () => void): this;
  on(event: 'error', listener: (err: NodeJS.ErrnoException) => void): this;
  on(event: 'exit' | 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
}

interface OutputStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  destroy(): unknown;
}

/** A hook's stdin as the runner has it: its payload file, or (a foreign hook) text for a pipe. The helper takes only the file. */
export type HelperStdin = { path: string } | { text: string };

/** A hook run by the helper, shaped like the ChildProcess spawn.ts would have had. */
export class HelperChild extends EventEmitter implements HookProcess {
  pid: number | undefined;
  /** How the hook exited, once the helper reaped it (its output may still be coming). */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  constructor(
    readonly file: string,
    /** The payload file the helper opens as the hook's stdin. */
    readonly payloadFile: string,
    /** The run's own result file (CHRYS_HOOK_RESULT): what tells its process from any other. */
    readonly resultFile: string | undefined,
    /** The pid the helper's start log holds for this run, for a kill before the start was reported. */
    readonly startedPid: () => number | undefined,
    /** Gives the helper up as unresponsive (it is killed, and its runs settle as on its death). */
    readonly abandon: () => void,
  ) {
    super();
  }

  /** Its pid as reported, or else as the start log has it. */
  knownPid(): number | undefined {
    return this.pid ?? this.startedPid();
  }
  /** Set when the helper died under this run: its group was killed, and the runner runs it again directly. */
  lost = false;
  readonly stdin = null;
  readonly stdout = new HelperOutput();
  readonly stderr = new HelperOutput();
}

class HelperOutput extends EventEmitter implements OutputStream {
  // The helper closes its end of the pipes itself, 100 ms after the hook exited.
  destroy(): this {
    return this;
  }
}

/** A launch error of the helper's own making, before any spawn: the payload file would not open. */
export class PayloadFileError extends Error {
  constructor(readonly code: string, path: string) {
    super(`${code}: cannot open the payload file ${path}`);
  }
}

/** Starts the start log may hold before it is emptied, once nothing is in flight. */
const START_LOG_LINES = 4096;

const READY = 0x48; // H
const STARTED = 0x53; // S
const NOT_STARTED = 0x45; // E
const STDOUT = 0x4f; // O
const STDERR = 0x52; // R
const EXITED = 0x57; // W
const ENDED = 0x58; // X
const HEADER = 9;

export class SpawnHelper {
  private readonly process: ChildProcess | undefined;
  private isReady = false;
  private dead = false;
  private stopped = false;
  private unwritable = false;
  private nextId = 1;
  private readonly runs = new Map<number, HelperChild>();
  private buffered: Buffer = Buffer.alloc(0);
  /** The helper's start log (an unlinked file it appends P, S and X lines to: spawn-helper-script.ts) and what was read of it. */
  private startLog: number | undefined;
  private startLogRead = 0;
  private startsForgotten = 1;
  private readonly startedPids = new Map<number, number>();
  private readonly beingStarted = new Set<number>();
  private readonly exitsByPid = new Map<number, { code: number | null; signal: NodeJS.Signals | null }>();
  private settleReady: (ready: boolean) => void = () => {};
  /** Resolves true once the helper takes requests, false when it cannot start or died first. */
  readonly ready: Promise<boolean> = new Promise((resolve) => (this.settleReady = resolve));

  constructor(python = which('python3')) {
    // Linux only: what the helper promises (session leaders, signal state, execvp's lookup) is tested there.
    if (python === undefined || process.platform !== 'linux') {
      this.dead = true;
      this.settleReady(false);
      return;
    }
    let startLog: number;
    try {
      startLog = openStartLog();
    } catch {
      this.dead = true;
      this.settleReady(false);
      return;
    }
    this.startLog = startLog;
    // -I: no PYTHON* variables, user site or cwd on sys.path; -S: no site module (faster, nothing imported from
    // outside); -X utf8: argv, env and paths cross as UTF-8, as Node passes them, whatever the locale.
    // Its own session and the root as cwd: a terminal's ^C goes to us, not to it, and it holds no workspace open.
    const child = spawn(python, ['-I', '-S', '-X', 'utf8', '-c', SPAWN_HELPER_SCRIPT], { cwd: '/', stdio: ['pipe', 'pipe', 'ignore', startLog], detached: true });
    this.process = child;
    child.on('error', () => this.died());
    // 'close', not 'exit': the frames of runs that ended before it died are still to be read.
    child.on('close', () => this.died());
    // A write to a helper that just died: no more requests, but its runs are settled on 'close', once the
    // frames it sent before dying (a hook's exit among them) have been read.
    child.stdin!.on('error', () => void (this.unwritable = true));
    child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
    trackStopper(() => this.stop());
    this.unrefWhenIdle();
  }

  /**
   * stopEverything(): the helper kills the group of every hook it started,
   * also those whose start it has not reported yet, reports them ended, and
   * starts nothing more. Hooks are not run again: nothing is lost here.
   */
  private stop(): void {
    if (this.dead || this.stopped) return;
    this.stopped = true;
    // Synchronously, every hook it runs, also one it logged and had not reported: we may exit before it acts on
    // its SIGTERM. One it is starting right now it kills itself, once posix_spawn returns.
    for (const child of this.runs.values()) {
      const pid = child.knownPid();
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
    }
    try {
      this.process?.kill('SIGTERM');
      // A helper stopped with SIGSTOP acts on its SIGTERM only once it runs again; it would outlive us stopped.
      this.process?.kill('SIGCONT');
    } catch {
      // gone already: its runs end as it does
    }
  }

  /** The helper's own pid, while it runs. */
  get pid(): number | undefined {
    return this.dead ? undefined : this.process?.pid;
  }

  /** Whether a hook may be started through the helper now. */
  get usable(): boolean {
    return this.isReady && !this.dead && !this.stopped && !this.unwritable;
  }

  /**
   * Starts argv through the helper; undefined when it cannot take this one
   * (not ready, dead, or a request only Node's spawn treats as it must: a
   * foreign hook (stdin text through a pipe, no result file of its own to
   * find it by), an empty argv[0], a NUL or a lone surrogate in argv or env,
   * a variable name that is empty or holds `=`: Python refuses it, Node
   * passes it on).
   */
  start(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdin: HelperStdin): HelperChild | undefined {
    if (!this.usable) return undefined;
    const file = argv[0];
    const names = Object.keys(env);
    if (!file || !('path' in stdin) || !env.CHRYS_HOOK_RESULT || names.some((n) => n === '' || n.includes('='))) return undefined;
    if (!plain([...argv, cwd, ...names, ...Object.values(env).map((v) => v ?? ''), stdin.path])) return undefined;
    const id = this.nextId++;
    const child = new HelperChild(file, stdin.path, env.CHRYS_HOOK_RESULT, () => this.pidStarted(id), () => this.abandon());
    this.runs.set(id, child);
    const request = { id, argv, cwd, env, stdin_path: stdin.path };
    this.process!.stdin!.write(`${JSON.stringify(request)}\n`);
    this.refWhileBusy();
    return child;
  }

  /**
   * A helper that does not report a hook whose group was killed is killed if
   * it is stopped (SIGSTOP; SIGKILL reaches a stopped process). Its runs then
   * settle as on any death of it, and later hooks start directly. One that
   * runs is left alone: its report may only be waiting behind a busy event
   * loop of ours.
   */
  private abandon(): void {
    if (this.dead || this.process?.pid === undefined || !processStopped(this.process.pid)) return;
    try {
      this.process?.kill('SIGKILL');
    } catch {
      // gone already: its runs end as it does
    }
  }

  /** Ends the helper once what it runs has ended (it exits when its stdin closes). */
  close(): void {
    if (!this.dead) this.process?.stdin?.end();
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let at = 0;
    while (this.buffered.length - at >= HEADER) {
      const length = this.buffered.readUInt32BE(at + 5);
      if (this.buffered.length - at - HEADER < length) break;
      const data = this.buffered.subarray(at + HEADER, at + HEADER + length);
      this.frame(this.buffered[at]!, this.buffered.readUInt32BE(at + 1), data);
      at += HEADER + length;
    }
    this.buffered = this.buffered.subarray(at);
  }

  private frame(kind: number, id: number, data: Buffer): void {
    if (kind === READY) {
      this.isReady = true;
      this.settleReady(true);
      return;
    }
    const child = this.runs.get(id);
    if (!child) return;
    if (kind === STARTED) {
      child.pid = Number(data.toString('latin1'));
      child.emit('spawn');
    } else if (kind === STDOUT || kind === STDERR) {
      // The data is a view into the frame buffer; a copy, since listeners may keep chunks.
      (kind === STDOUT ? child.stdout : child.stderr).emit('data', Buffer.from(data));
    } else if (kind === NOT_STARTED) {
      this.runs.delete(id);
      const text = data.toString('latin1');
      const payload = text.startsWith('stdin ');
      const code = payload ? text.slice('stdin '.length) : text;
      child.emit('error', payload ? new PayloadFileError(code, child.payloadFile) : Object.assign(new Error(nodeSpawnMessage(code, child.file)), { code }));
      this.refWhileBusy();
    } else if (kind === EXITED) {
      child.exit = exitOf(data.toString('latin1'));
    } else if (kind === ENDED) {
      this.runs.delete(id);
      this.startedPids.delete(id);
      const exit = child.exit ?? { code: null, signal: null };
      child.emit('exit', exit.code, exit.signal);
      child.emit('close', exit.code, exit.signal);
      this.refWhileBusy();
    }
  }

  /** The helper is gone: every run it had is settled from what we know and its start log says; hooks start directly from now on. */
  private died(): void {
    if (this.dead) return;
    this.dead = true;
    this.settleReady(false);
    const runs = [...this.runs];
    this.runs.clear();
    this.readStartLog();
    for (const [id, child] of runs) {
      const pid = child.knownPid();
      const exit = child.exit ?? (pid !== undefined ? this.exitsByPid.get(pid) : undefined);
      if (exit !== undefined) {
        // It had exited: its verdict stands (its output may be cut short), it is not run again.
        child.emit('exit', exit.code, exit.signal);
        child.emit('close', exit.code, exit.signal);
        continue;
      }
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
      // Being started when the helper died: posix_spawn may have gone on to exec it, unreported. Found by
      // the result file only it was given (a run without one never goes through the helper).
      else if (this.beingStarted.has(id) && child.resultFile !== undefined) killRunsOf(child.resultFile);
      // Stopped on purpose, its runs are over; otherwise each is run again the plain way, never two at once.
      child.lost = !this.stopped;
      child.emit('exit', null, 'SIGKILL');
      child.emit('close', null, 'SIGKILL');
    }
    if (this.startLog !== undefined) closeSync(this.startLog);
    this.startLog = undefined;
  }

  /** The pid the start log holds for run `id`. */
  private pidStarted(id: number): number | undefined {
    if (!this.startedPids.has(id)) this.readStartLog();
    return this.startedPids.get(id);
  }

  /** Reads what the helper appended to its start log since last asked: P ID, S ID PID, X PID exit N|signal N. */
  private readStartLog(): void {
    if (this.startLog === undefined) return;
    const size = fstatSync(this.startLog).size;
    if (size <= this.startLogRead) return;
    const text = Buffer.alloc(size - this.startLogRead);
    readSync(this.startLog, text, 0, text.length, this.startLogRead);
    const complete = text.lastIndexOf(0x0a) + 1;
    this.startLogRead += complete;
    for (const line of text.subarray(0, complete).toString('latin1').split('\n')) {
      const [kind, a, b, rest] = line.split(' ');
      const x = Number(a);
      const y = Number(b);
      if (kind === 'P') this.beingStarted.add(x);
      else if (kind === 'S' && y > 0) {
        this.beingStarted.delete(x);
        this.startedPids.set(x, y);
      } else if (kind === 'X' && x > 0 && rest !== undefined) this.exitsByPid.set(x, exitOf(`${b} ${rest}`));
    }
  }

  // The helper must not keep a finished drain alive, nor let one with runs in flight end.
  private refWhileBusy(): void {
    if (this.runs.size > 0) {
      this.process?.ref();
      (this.process?.stdout as { ref?: () => void } | null)?.ref?.();
    } else {
      this.unrefWhenIdle();
      this.forgetStarts();
    }
  }

  /**
   * With nothing in flight the start log holds nothing we need: a long `serve`
   * or `--watch` empties it now and then, so it never grows past a few
   * thousand lines. The helper writes only for a request, and none is out.
   */
  private forgetStarts(): void {
    if (this.startLog === undefined || this.nextId - this.startsForgotten < START_LOG_LINES) return;
    try {
      ftruncateSync(this.startLog, 0);
    } catch {
      return; // kept as it is: read from where we were
    }
    this.startLogRead = 0;
    this.startedPids.clear();
    this.beingStarted.clear();
    this.exitsByPid.clear();
    this.startsForgotten = this.nextId;
  }

  private unrefWhenIdle(): void {
    this.process?.unref();
    (this.process?.stdout as { unref?: () => void } | null)?.unref?.();
    (this.process?.stdin as { unref?: () => void } | null)?.unref?.();
  }
}

// The errors Node's spawn reports as events, with the file in the message; it throws the others, without it.
const REPORTED_WITH_FILE = new Set(['EACCES', 'EAGAIN', 'EMFILE', 'ENFILE', 'ENOENT']);

/** Node's own wording of a failed spawn, so a launch error reads the same whichever way the hook was started. */
const nodeSpawnMessage = (code: string, file: string): string => (REPORTED_WITH_FILE.has(code) ? `spawn ${file} ${code}` : `spawn ${code}`);

// Node's names for signals by number; a hook killed by one it has no name for (a real-time signal) Node
// reports as an exit with status 0, and so does a run the helper started.
// The first name of a number is Node's (SIGABRT, not SIGIOT; SIGIO, not SIGPOLL).
const SIGNAL_NAMES = new Map<number, NodeJS.Signals>();
for (const [name, n] of Object.entries(constants.signals)) if (!SIGNAL_NAMES.has(n)) SIGNAL_NAMES.set(n, name as NodeJS.Signals);

/** "exit N" or "signal N" (a W frame, an X line of the start log) as Node's 'exit' event would give it. */
function exitOf(text: string): { code: number | null; signal: NodeJS.Signals | null } {
  const [how, value] = text.split(' ');
  const n = Number(value);
  if (how !== 'signal') return { code: n, signal: null };
  const signal = SIGNAL_NAMES.get(n);
  return signal ? { code: null, signal } : { code: 0, signal: null };
}

/**
 * Kills the process group of every process of ours whose environment holds
 * CHRYS_HOOK_RESULT=`resultFile`: a hook the helper started, unreported, as
 * it died. That file is made for one run, so nothing else carries it.
 */
function killRunsOf(resultFile: string): void {
  const marker = Buffer.from(`CHRYS_HOOK_RESULT=${resultFile}\0`);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`);
      if (!environ.subarray(0, marker.length).equals(marker) && !environ.includes(Buffer.concat([Buffer.from([0]), marker]))) continue;
      killGroup(Number(procStatFields(Number(pid))?.[2]), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

/** A new, already unlinked, 0600 file for the helper's start log: nothing is left behind whatever ends it. */
function openStartLog(): number {
  const path = join(tmpdir(), `chrys-hooks-starts-${process.pid}-${Math.floor(Math.random() * 2 ** 48).toString(16)}`);
  // O_APPEND: the helper's writes go to the end, also once we emptied it (forgetStarts).
  const fd = openSync(path, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_RDWR | fsConstants.O_APPEND, 0o600);
  unlinkSync(path);
  return fd;
}

/** Whether every string crosses JSON and Python's posix_spawn unchanged: no NUL, no lone surrogate. */
const plain = (strings: readonly string[]): boolean => strings.every((s) => !s.includes('\0') && !LONE_SURROGATE.test(s));
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Starting Python costs 20 ms of CPU, and 150 ms through a pyenv shim (measured): a process
// that starts only a few hooks is better off without a helper.
const HOOKS_BEFORE_HELPER = 8;

let wanted = false;
let starts = 0;
let shared: SpawnHelper | undefined;

/** This process runs many hooks (a drain, `serve`): from its HOOKS_BEFORE_HELPER-th, start a helper and use it once ready. */
export function useSpawnHelper(): void {
  wanted = true;
}

/** Asked for each hook started: this process's helper, when it has one. */
export function spawnHelper(): SpawnHelper | undefined {
  if (shared === undefined && wanted && ++starts >= HOOKS_BEFORE_HELPER) shared = new SpawnHelper();
  return shared;
}

/** This process's helper, started now whatever the count. */
export function startSpawnHelper(): SpawnHelper {
  wanted = true;
  shared ??= new SpawnHelper();
  return shared;
}

/** Ends this process's helper (once what it runs has ended); hooks start directly again. */
export function endSpawnHelper(): void {
  shared?.close();
  shared = undefined;
  wanted = false;
  starts = 0;
}
