// A long-lived spawning helper for processes that start many hooks (the
// drain): a small python3 process that starts each job on request, as a
// new session's leader, so Node never forks its own (large) heap per job.
// Node's spawn tops out near 270 starts a second here; a fork of the small
// helper is several times cheaper (docs/performance.md). A job runs only
// once its pid is known here (helper-script.ts says how). The runner
// (spawn.ts) still owns the run: timeouts and kills go to the job's process
// group from here, by the pid the helper reports. When the helper cannot
// start, or dies, jobs are spawned directly again (helperSpawnAndWait).
// Linux only: the guarantee rests on PR_SET_PDEATHSIG.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { HELPER_SCRIPT } from './helper-script.js';

/** What the helper reports of one job, in order: a pid or a launch error, output, then the exit. */
export interface HelperEvents {
  onPid(pid: number): void;
  onLaunchError(code: string, message: string): void;
  onOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  /** The helper died. `started` says whether it had reported the job's pid. */
  onHelperLost(started: boolean): void;
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/** The helper process and its in-flight requests. */
export class SpawnHelper {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly requests = new Map<number, { events: HelperEvents; started: boolean }>();
  private nextId = 1;
  private buffer: Buffer = Buffer.alloc(0);
  private lost = false;

  constructor(python = 'python3') {
    this.child = spawn(python, ['-I', '-S', '-c', HELPER_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    // Lost only once its stdout is read to the end: a pid it reported before it died still counts.
    this.child.on('error', () => {
      if (this.child.pid === undefined) this.lose(); // it never started
    });
    this.child.stdin.on('error', () => {}); // it died: its stdout's end says so
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stdout.on('close', () => this.lose());
    this.child.stderr.resume(); // a traceback is not ours to print; its death is handled
    this.child.unref();
    this.idle();
  }

  /** Whether the helper can take requests (it has not died). */
  get alive(): boolean {
    return !this.lost;
  }

  /** The helper's own pid (for tests that kill it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Asks the helper to start argv; false when it is gone (the caller spawns directly). */
  spawn(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdin: string, events: HelperEvents): boolean {
    if (this.lost) return false;
    const id = this.nextId++;
    this.requests.set(id, { events, started: false });
    if (this.requests.size === 1) this.busy();
    this.child.stdin.write(JSON.stringify({ id, argv, cwd: resolve(cwd), env: cleanEnv(env), stdin }) + '\n'); // its own cwd moves from job to job
    return true;
  }

  /** Ends the helper (its stdin closes; it exits once its jobs ended). */
  close(): void {
    this.child.stdin.end();
  }

  // While a job is in flight the helper's pipe keeps this process alive, as a child of its own would.
  private busy(): void {
    (this.child.stdout as unknown as { ref(): void }).ref();
  }

  private idle(): void {
    (this.child.stdout as unknown as { unref(): void }).unref();
    (this.child.stdin as unknown as { unref?(): void }).unref?.();
    (this.child.stderr as unknown as { unref(): void }).unref();
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 9) {
      const length = this.buffer.readUInt32BE(5);
      if (this.buffer.length < 9 + length) break;
      const kind = String.fromCharCode(this.buffer[0]!);
      const id = this.buffer.readUInt32BE(1);
      const data = this.buffer.subarray(9, 9 + length);
      this.buffer = this.buffer.subarray(9 + length);
      this.deliver(kind, id, data);
    }
  }

  private deliver(kind: string, id: number, data: Buffer): void {
    const request = this.requests.get(id);
    if (!request) return;
    const { events } = request;
    if (kind === 'P') {
      // The job is stopped before its exec: it runs once the caller knows its pid, and only then.
      request.started = true;
      events.onPid(Number(data.toString('latin1')));
      this.child.stdin.write(`{"go":${id}}\n`);
    } else if (kind === 'O' || kind === 'R') {
      events.onOutput(kind === 'O' ? 'stdout' : 'stderr', Buffer.from(data));
    } else if (kind === 'E' || kind === 'X') {
      this.end(id);
      const text = data.toString('utf8');
      if (kind === 'E') {
        const [code = 'EIO', message = ''] = text.split('\0');
        events.onLaunchError(code, message);
      } else {
        const [code, signal] = text.split(' ');
        events.onExit(code === undefined || code === '-' ? null : Number(code), signal === undefined || signal === '-' ? null : (SIGNAL_NAMES.get(Number(signal)) ?? null));
      }
    }
  }

  private end(id: number): void {
    this.requests.delete(id);
    if (this.requests.size === 0) this.idle();
  }

  private lose(): void {
    if (this.lost) return;
    this.lost = true;
    const requests = [...this.requests.values()];
    this.requests.clear();
    this.idle();
    for (const r of requests) r.events.onHelperLost(r.started);
  }
}

// JSON carries strings only: a variable set to undefined is not passed, as Node's spawn does not.
const cleanEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));

let shared: SpawnHelper | undefined;
let wanted = false;

/**
 * Lets this process start hooks through the helper (a drain, `serve`); it
 * starts on the first hook. CHRYS_SPAWN_HELPER=0 turns it off.
 */
export function useSpawnHelper(on = true): void {
  wanted = on && process.platform === 'linux' && process.env.CHRYS_SPAWN_HELPER !== '0';
  if (!wanted) stopSpawnHelper();
}

/** The helper to start a hook with, or undefined: not wanted, or it died (then hooks are spawned directly). */
export function spawnHelper(): SpawnHelper | undefined {
  if (!wanted) return undefined;
  shared ??= new SpawnHelper(process.env.CHRYS_SPAWN_HELPER_PYTHON || 'python3');
  return shared.alive ? shared : undefined;
}

/** Stops the helper (its running jobs end as they would; it exits once they did). */
export function stopSpawnHelper(): void {
  shared?.close();
  shared = undefined;
}
