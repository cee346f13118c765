// `drain-outbox --watch`: a long-running drain. It runs what is due, then
// sleeps until the earliest of: the next due_at or retry-age expiry, a change
// in outbox/pending/ or in the hooks files and trust, or the interval. On
// stop() it starts nothing new, gives running jobs shutdown_grace_seconds,
// then stops them; their jobs stay pending.

import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import type { Warning } from '../core/diagnostics.js';
import { configDirOf } from '../config/locations.js';
import { KILL_GRACE_MS } from '../run/spawn.js';
import { type DrainOptions, Drainer } from './drain.js';
import { ensureOutbox, outboxDir } from './store.js';

export interface WatchOptions extends DrainOptions {
  intervalSeconds: number;
  /** Told once the watcher looks at the outbox (its first pass is done). */
  onReady?: (info: { pending: string; watching: boolean }) => void;
  /** Told when a pass fails; the next one is tried at the interval. */
  onPassError?: (error: Error) => void;
}

/** File-system events come in bursts (a job write is a temp file and a rename): one pass per burst. */
const SETTLE_MS = 100;
const CONFIG_FILE = /^(hooks|settings)\.(ya?ml|json)$/;

export class Watcher {
  private stopping = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeNow: (() => void) | undefined;
  private earliest: number | undefined;
  private woken = false;
  private watchers: FSWatcher[] = [];
  private watchWarned = false;
  private readonly configDir: string;
  private readonly pendingDir: string;

  constructor(private readonly opts: WatchOptions) {
    this.configDir = configDirOf(opts);
    this.pendingDir = outboxDir(this.configDir, 'pending');
  }

  /** Runs until stop(); resolves once every job it started has finished or been stopped. Returns how many were left pending. */
  async run(): Promise<number> {
    const drainer = new Drainer({ ...this.opts, keepJobs: false });
    drainer.onDeferred = (at) => this.wakeAt(at);
    let first = true;
    try {
      while (!this.stopping) {
        this.prepareOutbox();
        let next: number | undefined;
        try {
          next = await drainer.pass();
        } catch (e) {
          // A pass that fails (an unreadable file, a full disk) is retried; the watcher stays up.
          this.opts.onPassError?.(e as Error);
        }
        if (first) {
          first = false;
          this.opts.onReady?.({ pending: this.pendingDir, watching: this.watchers.length > 0 });
        }
        if (next !== undefined) this.wakeAt(next);
        await this.sleep(Date.now() + this.opts.intervalSeconds * 1000);
      }
      return await this.shutdown(drainer);
    } finally {
      clearTimeout(this.wakeTimer);
      this.unwatch();
      drainer.close();
    }
  }

  /** Ends the watch (SIGTERM, SIGINT): start nothing new, then wind down. */
  stop(): void {
    this.stopping = true;
    this.wakeNow?.();
  }

  private async shutdown(drainer: Drainer): Promise<number> {
    drainer.stop();
    if (drainer.running === 0) return 0;
    const graceMs = drainer.settings.shutdown_grace_seconds * 1000;
    if (await settlesWithin(drainer.idle(), graceMs)) return 0;
    const stopped = drainer.running;
    drainer.kill('SIGTERM');
    if (!(await settlesWithin(drainer.idle(), KILL_GRACE_MS))) drainer.kill('SIGKILL');
    await drainer.idle();
    return stopped;
  }

  /**
   * The outbox may have been deleted or replaced meanwhile: recreate it, and
   * watch afresh the directories that are there now (a new directory can reuse
   * the old one's inode number, so identity cannot tell). A file created
   * before the new watch starts is seen by the pass that follows.
   */
  private prepareOutbox(): void {
    this.unwatch();
    try {
      ensureOutbox(this.configDir);
    } catch (e) {
      this.warnOnce({ code: 'outbox_watch_unavailable', path: this.pendingDir, message: `cannot create ${this.pendingDir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); trying again every ${this.opts.intervalSeconds} s` });
      return;
    }
    this.watchDirs();
  }

  private watchDirs(): void {
    const onChange = (dir: string, relevant: (name: string) => boolean) => (_event: string, name: string | Buffer | null): void => {
      const file = name === null ? '' : String(name);
      if (dir === this.pendingDir ? file.endsWith('.tmp') : !relevant(file)) return;
      this.wakeAt(Date.now() + SETTLE_MS);
    };
    const dirs: [string, (name: string) => boolean][] = [
      [this.pendingDir, () => true],
      // The hooks files and the user settings (trust): a change is picked up at once.
      // (and state/ appearing, so the next pass watches the trust record in it)
      [join(this.configDir, 'hooks'), (n) => CONFIG_FILE.test(n) || n === 'state'],
      [this.configDir, (n) => CONFIG_FILE.test(n)],
      // `chrys-hooks trust` writes the trust record here.
      [join(this.configDir, 'hooks', 'state'), (n) => n === 'trust.json'],
    ];
    for (const [dir, relevant] of dirs) {
      try {
        const w = watch(dir, { persistent: false }, onChange(dir, relevant));
        // The directory went away: the next pass recreates it and watches again.
        w.on('error', () => this.wakeAt(Date.now()));
        this.watchers.push(w);
      } catch (e) {
        if (dir !== this.pendingDir) continue;
        this.warnOnce({ code: 'outbox_watch_unavailable', path: dir, message: `cannot watch ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); polling every ${this.opts.intervalSeconds} s instead` });
      }
    }
  }

  private unwatch(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }

  private warnOnce(w: Warning): void {
    if (this.watchWarned) return;
    this.watchWarned = true;
    this.opts.onWarning?.(w);
  }

  /** Asks for a pass at `at` (ms) at the latest. */
  private wakeAt(at: number): void {
    // Never sleep past the interval: that bounds the timer and catches a clock set forward.
    const when = Math.min(at, Date.now() + this.opts.intervalSeconds * 1000);
    if (this.earliest !== undefined && this.earliest <= when) return;
    this.earliest = when;
    clearTimeout(this.wakeTimer);
    // A timer measures elapsed time, so a clock set back cannot stretch the sleep.
    this.wakeTimer = setTimeout(() => {
      this.earliest = undefined;
      if (this.wakeNow) this.wakeNow();
      else this.woken = true; // asked for during a pass: the next sleep returns at once
    }, Math.max(0, when - Date.now()));
  }

  private sleep(until: number): Promise<void> {
    if (this.stopping || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    this.wakeAt(until);
    return new Promise((resolve) => {
      this.wakeNow = () => {
        this.wakeNow = undefined;
        resolve();
      };
    });
  }
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
