// Hook temp files: where this process puts them (the runtime tree's tmp/, or
// the OS temp dir when that cannot be written) and the sweep of those a dead
// writer left behind. Files 0600; a firing's files in one 0700 directory of
// its own (firingFile), made on its first hook and removed with cleanup().

import { type BigIntStats, mkdirSync, mkdtempSync, openSync, closeSync, writeFileSync, rmSync, rmdirSync, readdirSync, lstatSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Warning } from '../core/diagnostics.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { randomHex } from '../base/lazy-crypto.js';
import { processAlive } from './process-group.js';
import { trackFile, untrackFile } from './live.js';

/** Where this process puts hook temp files; falls back to the OS temp dir when the config dir is not writable. */
export class TempFiles {
  private dir: string | undefined;
  private fallback: string | undefined;
  private firing: string | undefined;
  private files = 0;
  readonly warnings: Warning[] = [];
  constructor(private readonly configDir: string) {}

  private directory(): string {
    if (this.dir) return this.dir;
    const wanted = runtimeDir(this.configDir, 'tmp');
    try {
      ensureDir(wanted);
      this.probe(wanted);
      this.dir = wanted;
    } catch (e) {
      this.fallBack(wanted, e);
    }
    return this.dir!;
  }

  /**
   * This firing's own 0700 directory, made once: its hooks' payload and result
   * files go there, and cleanup() removes it whole. Making it also proves the
   * runtime tmp/ writable, so it needs no probe file. Its name need not be
   * unguessable: it is made (never reused) inside a 0700 directory, either
   * ours or mkdtemp's, so Math.random spares `fire` loading node:crypto.
   */
  private firingDir(): string {
    if (this.firing) return this.firing;
    const name = `firing-${process.pid}-${Math.floor(Math.random() * 2 ** 48).toString(16).padStart(12, '0')}`;
    if (!this.dir) {
      const wanted = runtimeDir(this.configDir, 'tmp');
      try {
        ensureDir(wanted);
        mkdirSync(join(wanted, name), 0o700);
        this.dir = wanted;
        this.firing = join(wanted, name);
      } catch (e) {
        this.fallBack(wanted, e);
      }
    }
    if (!this.firing) {
      this.firing = join(this.dir!, name);
      mkdirSync(this.firing, 0o700);
    }
    trackFile(this.firing);
    return this.firing;
  }

  /**
   * A new file of this firing (0600, or 0400 when `readOnly`: the payload
   * file several hooks share); deleted by cleanup() if not before.
   */
  firingFile(prefix: string, content: string | Buffer, readOnly = false): string {
    const path = join(this.firingDir(), `${prefix}-${++this.files}.json`);
    try {
      writeFileSync(path, content, { mode: readOnly ? 0o400 : 0o600, flag: 'wx' });
    } catch (e) {
      rmSync(path, { force: true }); // a full disk must not leave a 0-byte file behind
      throw e;
    }
    return path;
  }

  private fallBack(wanted: string, e: unknown): void {
    this.fallback = mkdtempSync(join(tmpdir(), 'chrys-hooks-'));
    this.dir = this.fallback;
    this.warnings.push({
      code: 'runtime_dir_unwritable',
      path: wanted,
      message: `cannot write to ${wanted} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); hook temp files went to ${this.fallback}. Fix the permissions of ${this.configDir}.`,
    });
  }

  private probe(dir: string): void {
    const p = join(dir, `.probe-${process.pid}-${randomHex(4)}`);
    closeSync(openSync(p, 'wx', 0o600));
    rmSync(p, { force: true });
  }

  /** Creates a new 0600 file holding `content`; returns its path. */
  create(prefix: string, content: string | Buffer): string {
    return this.writeIn(this.directory(), prefix, content);
  }

  /** A path for a new directory (the caller creates it, 0700), removed with the run's other files. */
  dirPath(prefix: string): string {
    return join(this.directory(), `${prefix}-${process.pid}-${randomHex(6)}`);
  }

  /** Like create, but the file outlives cleanup() (a hand-off to another process, which deletes it). */
  createLasting(prefix: string, content: string | Buffer): string {
    const dir = this.directory();
    return this.writeIn(dir === this.fallback ? tmpdir() : dir, prefix, content);
  }

  private writeIn(dir: string, prefix: string, content: string | Buffer): string {
    const path = join(dir, `${prefix}-${process.pid}-${randomHex(6)}.json`);
    try {
      writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      rmSync(path, { force: true }); // a full disk must not leave a 0-byte file behind
      throw e;
    }
    return path;
  }

  cleanup(): void {
    if (this.firing) {
      removeFiringDir(this.firing);
      untrackFile(this.firing);
      this.firing = undefined;
    }
    if (this.fallback) rmSync(this.fallback, { recursive: true, force: true });
  }
}

/**
 * A file's identity and last change, to tell whether it is still as written:
 * a rewrite changes mtime, a chmod ctime, a replacement the inode.
 */
export const fileStamp = (path: string): string => {
  const s: BigIntStats = lstatSync(path, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mode}:${s.mtimeNs}:${s.ctimeNs}`;
};

/** fileStamp, or undefined when the file is gone. */
export function fileStampOrGone(path: string): string | undefined {
  try {
    return fileStamp(path);
  } catch {
    return undefined;
  }
}

/** A temp file left by a process that is gone for this long is swept. */
export const STALE_TEMP_MS = 10 * 60_000;
// Our temp names carry the writer's pid: `payload-<pid>-<hex>.json`, `<job>.json.<pid>.<hex>.tmp`.
const TEMP_NAME = /[.-](\d+)[.-][0-9a-f]+(?:\.json|\.tmp)$/;
/**
 * Unlinks what is left in a firing's directory (its payload; each run removed
 * its own result file), then the directory. rmSync, even of one file, loads
 * and runs Node's rimraf, a cost on every firing that ran a hook; it is kept
 * for a directory that cannot be emptied this way.
 */
function removeFiringDir(dir: string): void {
  try {
    for (const name of readdirSync(dir)) unlinkSync(join(dir, name));
    rmdirSync(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A firing's directory (TempFiles.firingFile): `firing-<pid>-<hex>`.
const FIRING_DIR = /^firing-(\d+)-[0-9a-f]+$/;

/** Deletes our temp files (`*<suffix>`) in `dir` whose writer is dead and that are older than STALE_TEMP_MS (e.g. left by a full disk). */
export function sweepStaleTemp(dir: string, suffix: '.json' | '.tmp', now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const d = suffix === '.json' ? FIRING_DIR.exec(name) : null;
    if (d) {
      sweepStaleDir(join(dir, name), Number(d[1]), now);
      continue;
    }
    const m = TEMP_NAME.exec(name);
    if (!m || !name.endsWith(suffix)) continue;
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (stat.isFile() && now - stat.mtimeMs > STALE_TEMP_MS && !processAlive(Number(m[1]))) rmSync(path, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

function sweepStaleDir(path: string, pid: number, now: number): void {
  try {
    const stat = lstatSync(path);
    if (stat.isDirectory() && now - stat.mtimeMs > STALE_TEMP_MS && !processAlive(pid)) rmSync(path, { recursive: true, force: true });
  } catch {
    // gone meanwhile
  }
}
