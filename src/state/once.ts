// The once-per-session guard: a stamp file per (hook, session) under state/,
// created with O_EXCL so two concurrent firings cannot both claim it.

import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Hook } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { keyedName } from '../base/keyed-name.js';

export const onceStampPath = (configDir: string, hook: Pick<Hook, 'source' | 'file' | 'id'>, sessionId: string): string =>
  join(runtimeDir(configDir, 'state'), 'once', `${keyedName(hook.source, hook.file, hook.id, sessionId)}.stamp`);

export class OnceGuard {
  readonly warnings: Warning[] = [];
  constructor(
    private readonly configDir: string,
    private readonly sessionId: string,
  ) {}

  /** Whether the hook already ran this session, without stamping (for `resolve`). */
  seen(hook: Hook): boolean {
    return hook.execution.once_per_session && this.sessionId !== '' && existsSync(onceStampPath(this.configDir, hook, this.sessionId));
  }

  /**
   * Stamps the hook for this session; returns a skip reason if it was already stamped.
   * `owner` (a durable job id) is written into the stamp, so drain-outbox can tell
   * the queued job that owns the stamp from a second one.
   */
  claim(hook: Hook, owner = ''): string | undefined {
    if (!hook.execution.once_per_session || this.sessionId === '') return undefined;
    const path = onceStampPath(this.configDir, hook, this.sessionId);
    try {
      ensureDir(join(runtimeDir(this.configDir, 'state'), 'once'));
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, owner);
      closeSync(fd);
      return undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        if (owner !== '' && readOwner(path) === owner) return undefined;
        return `once_per_session: already ran in session ${this.sessionId}`;
      }
      this.warnings.push({ code: 'runtime_dir_unwritable', hook: hook.id, message: `cannot record once_per_session for hook "${hook.id}" (${(e as Error).message}); it ran anyway` });
      return undefined;
    }
  }

  /**
   * Takes back the stamp `claim` took for `owner` (a durable job id): the job
   * could not be written, so nothing ran or was queued, and a later firing of
   * the session must get its chance. A stamp owned by another job is left.
   */
  release(hook: Hook, owner: string): void {
    if (!hook.execution.once_per_session || this.sessionId === '' || owner === '') return;
    const path = onceStampPath(this.configDir, hook, this.sessionId);
    if (readOwner(path) !== owner) return;
    try {
      unlinkSync(path);
    } catch (e) {
      this.warnings.push({ code: 'runtime_dir_unwritable', hook: hook.id, message: `cannot remove the once_per_session stamp ${path} of hook "${hook.id}" (${(e as Error).message}); the hook stays skipped this session: delete the file to let it run` });
    }
  }
}

function readOwner(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
