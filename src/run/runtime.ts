// Hook temp files: where this process puts them (the runtime tree's tmp/, or
// the OS temp dir when that cannot be written) and the sweep of those a dead
// writer left behind. Files 0600.

import { mkdtempSync, openSync, closeSync, writeFileSync, rmSync, readdirSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Warning } from '../core/diagnostics.js';
import { ensureDir, runtimeDir } from '../config/runtime-layout.js';
import { processAlive } from './process-group.js';

/** Where this process puts hook temp files; falls back to the OS temp dir when the config dir is not writable. */
export class TempFiles {
  private dir: string | undefined;
  private fallback: string | undefined;
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
      this.fallback = mkdtempSync(join(tmpdir(), 'chrys-hooks-'));
      this.dir = this.fallback;
      this.warnings.push({
        code: 'runtime_dir_unwritable',
        path: wanted,
        message: `cannot write to ${wanted} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); hook temp files went to ${this.fallback}. Fix the permissions of ${this.configDir}.`,
      });
    }
    return this.dir;
  }

  private probe(dir: string): void {
    const p = join(dir, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    closeSync(openSync(p, 'wx', 0o600));
    rmSync(p, { force: true });
  }

  /** Creates a new 0600 file holding `content`; returns its path. */
  create(prefix: string, content: string | Buffer): string {
    return this.writeIn(this.directory(), prefix, content);
  }

  /** A path for a new directory (the caller creates it, 0700), removed with the run's other files. */
  dirPath(prefix: string): string {
    return join(this.directory(), `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}`);
  }

  /** Like create, but the file outlives cleanup() (a hand-off to another process, which deletes it). */
  createLasting(prefix: string, content: string | Buffer): string {
    const dir = this.directory();
    return this.writeIn(dir === this.fallback ? tmpdir() : dir, prefix, content);
  }

  private writeIn(dir: string, prefix: string, content: string | Buffer): string {
    const path = join(dir, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}.json`);
    try {
      writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      rmSync(path, { force: true }); // a full disk must not leave a 0-byte file behind
      throw e;
    }
    return path;
  }

  cleanup(): void {
    if (this.fallback) rmSync(this.fallback, { recursive: true, force: true });
  }
}

/** A temp file left by a process that is gone for this long is swept. */
export const STALE_TEMP_MS = 10 * 60_000;
// Our temp names carry the writer's pid: `payload-<pid>-<hex>.json`, `<job>.json.<pid>.<hex>.tmp`.
const TEMP_NAME = /[.-](\d+)[.-][0-9a-f]+(?:\.json|\.tmp)$/;

/** Deletes our temp files (`*<suffix>`) in `dir` whose writer is dead and that are older than STALE_TEMP_MS (e.g. left by a full disk). */
export function sweepStaleTemp(dir: string, suffix: '.json' | '.tmp', now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
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
