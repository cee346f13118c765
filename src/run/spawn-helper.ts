// The spawn helper: one small long-lived Python process that starts hooks
// for a long-lived chrys-hooks process (a drain, `serve`), because forking
// Node costs milliseconds per hook and posix_spawn from a small process does
// not (docs/performance.md). Each hook still leads its own session, so
// timeouts and kills reach its process group as before (we signal the group
// ourselves). What a run looks like to the runner does not change: a
// HelperChild has the ChildProcess events spawn.ts listens to.
//
// Only a process that asked for it (useSpawnHelper) has one, from its
// eighth hook on, and uses it only once it said it is ready; until then, and whenever it cannot start or has died,
// hooks are spawned directly. A run the helper had started when it died is
// killed (its group) and reported as `lost`: the runner runs it again
// directly, so the verdict is the one the plain path gives.

import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { delimiter, isAbsolute } from 'node:path';
import type { Writable } from 'node:stream';
import { which } from '../base/interpreter.js';
import { trackStopper } from './live.js';
import { killGroup } from './process-group.js';
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

/** One hook's stdin, as the helper takes it: a file it opens itself, or text through a pipe. */
export type HelperStdin = { path: string } | { text: string };

/** A hook run by the helper, shaped like the ChildProcess spawn.ts would have had. */
export class HelperChild extends EventEmitter implements HookProcess {
  pid: number | undefined;
  constructor(readonly file: string) {
    super();
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

// A foreign hook's stdin crosses the helper inside its request line; a big one is cheaper through Node's own pipe.
const MAX_STDIN_TEXT = 256 * 1024;

const READY = 0x48; // H
const STARTED = 0x53; // S
const NOT_STARTED = 0x45; // E
const STDOUT = 0x4f; // O
const STDERR = 0x52; // R
const ENDED = 0x58; // X
const HEADER = 9;

export class SpawnHelper {
  private readonly process: ChildProcess | undefined;
  private isReady = false;
  private dead = false;
  private stopped = false;
  private nextId = 1;
  private readonly runs = new Map<number, HelperChild>();
  private buffered: Buffer = Buffer.alloc(0);
  private settleReady: (ready: boolean) => void = () => {};
  /** Resolves true once the helper takes requests, false when it cannot start or died first. */
  readonly ready: Promise<boolean> = new Promise((resolve) => (this.settleReady = resolve));

  constructor(python = which('python3')) {
    if (python === undefined || process.platform === 'win32') {
      this.dead = true;
      this.settleReady(false);
      return;
    }
    // -I: no PYTHON* variables, user site or cwd on sys.path; -S: no site module (faster, nothing imported from outside).
    // Its own session and the root as cwd: a terminal's ^C goes to us, not to it, and it holds no workspace open.
    const child = spawn(python, ['-I', '-S', '-c', SPAWN_HELPER_SCRIPT], { cwd: '/', stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    this.process = child;
    child.on('error', () => this.died());
    // 'close', not 'exit': the frames of runs that ended before it died are still to be read.
    child.on('close', () => this.died());
    child.stdin!.on('error', () => this.died());
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
    try {
      this.process?.kill('SIGTERM');
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
    return this.isReady && !this.dead && !this.stopped;
  }

  /**
   * Starts argv through the helper; undefined when it cannot take this one
   * (not ready, dead, or a request only Node's spawn treats as it must: a
   * program looked up on a PATH with relative entries, a NUL or a lone
   * surrogate in argv or env, a variable name that is empty or holds `=`
   * (Python refuses it, Node passes it on); or over 256 KiB of stdin text).
   */
  start(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdin: HelperStdin): HelperChild | undefined {
    if (!this.usable) return undefined;
    const file = programFile(argv[0], env.PATH);
    const names = Object.keys(env);
    if (file === undefined || ('text' in stdin && stdin.text.length > MAX_STDIN_TEXT) || names.some((n) => n === '' || n.includes('='))) return undefined;
    if (!plain([...argv, cwd, ...names, ...Object.values(env).map((v) => v ?? ''), 'path' in stdin ? stdin.path : stdin.text])) return undefined;
    const id = this.nextId++;
    const child = new HelperChild(file);
    this.runs.set(id, child);
    const request = { id, file, argv, cwd, env, ...('path' in stdin ? { stdin_path: stdin.path } : { stdin_text: stdin.text }) };
    this.process!.stdin!.write(`${JSON.stringify(request)}\n`);
    this.refWhileBusy();
    return child;
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
      const code = data.toString('latin1');
      child.emit('error', Object.assign(new Error(nodeSpawnMessage(code, child.file)), { code }));
      this.refWhileBusy();
    } else if (kind === ENDED) {
      this.runs.delete(id);
      const [how, value = ''] = data.toString('latin1').split(' ');
      const code = how === 'exit' ? Number(value) : null;
      const signal = how === 'signal' ? (value as NodeJS.Signals) : null;
      child.emit('exit', code, signal);
      child.emit('close', code, signal);
      this.refWhileBusy();
    }
  }

  /** The helper is gone: every run it had is killed and reported lost; hooks start directly from now on. */
  private died(): void {
    if (this.dead) return;
    this.dead = true;
    this.settleReady(false);
    const runs = [...this.runs.values()];
    this.runs.clear();
    for (const child of runs) {
      if (child.pid === undefined) {
        // It may have started, unseen: like a drain killed between its spawn and its note of the pid, the
        // run ends as killed from outside (a job stays pending, its start counted), never started again here.
        child.emit('spawn');
        child.emit('error', new Error('the spawn helper died before it reported whether the hook started'));
      } else {
        killGroup(child.pid, 'SIGKILL');
        // Stopped on purpose, its runs are over; otherwise each is run again the plain way, its group dead.
        child.lost = !this.stopped;
      }
      child.emit('exit', null, 'SIGKILL');
      child.emit('close', null, 'SIGKILL');
    }
  }

  // The helper must not keep a finished drain alive, nor let one with runs in flight end.
  private refWhileBusy(): void {
    if (this.runs.size > 0) {
      this.process?.ref();
      (this.process?.stdout as { ref?: () => void } | null)?.ref?.();
    } else this.unrefWhenIdle();
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

/**
 * The file Node's spawn would execute for `program`: itself when it names a
 * path, else the first match on the hook's own PATH, as execvp looks it up.
 * A PATH with a relative entry is left to Node (which() skips those).
 */
function programFile(program: string | undefined, path: string | undefined): string | undefined {
  if (program === undefined || program === '') return undefined;
  if (program.includes('/')) return program;
  if (path === undefined || path.split(delimiter).some((dir) => !isAbsolute(dir))) return undefined;
  return which(program, path);
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
