// The runtime tree under <config_dir>/hooks/ (tmp, logs, state, outbox),
// created only when first needed, directories 0700 and files 0600.

import { mkdirSync, mkdtempSync, openSync, closeSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Warning } from '../core/diagnostics.js';

export const runtimeDir = (configDir: string, name: 'tmp' | 'logs' | 'state' | 'outbox'): string => join(configDir, 'hooks', name);

/** mkdir -p with 0700 on every directory it creates. */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

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

  /** Like create, but the file outlives cleanup() (a hand-off to another process, which deletes it). */
  createLasting(prefix: string, content: string | Buffer): string {
    const dir = this.directory();
    return this.writeIn(dir === this.fallback ? tmpdir() : dir, prefix, content);
  }

  private writeIn(dir: string, prefix: string, content: string | Buffer): string {
    const path = join(dir, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}.json`);
    writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
    return path;
  }

  cleanup(): void {
    if (this.fallback) rmSync(this.fallback, { recursive: true, force: true });
  }
}
