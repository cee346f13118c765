// The PostgreSQL outbox as `chrys-hooks outbox` shows it: the database's jobs
// and the pending jobs in this machine's file outbox (`fire` wrote them there
// while the database was unreachable, outbox_fallback, or `outbox migrate
// --to files` moved them), which the next drain against it moves in.
// A team that looks for every pending follow-up must see those too; each
// action on one of them goes to the file outbox, where it is.

import { ChrysError } from '../core/errors.js';
import type { LiveSource } from '../run/live-log.js';
import type { Change, OutboxBackend } from './backend.js';
import type { FileOutbox } from './file-backend.js';
import type { JobState, OutboxEntry } from './view.js';

export class WithFallenBack implements OutboxBackend {
  constructor(
    private readonly database: OutboxBackend,
    private readonly files: FileOutbox,
  ) {}

  async list(state?: JobState): Promise<OutboxEntry[]> {
    const fallenBack = state === undefined || state === 'pending' || state === 'deferred' ? await this.fallenBack(state) : [];
    return [...(await this.database.list(state)), ...fallenBack];
  }

  show(jobId: string): Promise<OutboxEntry> {
    return this.either(jobId, (b) => b.show(jobId), (e) => ({ ...e, fallenBack: true }));
  }

  retry(jobId: string): Promise<Change> {
    return this.either(jobId, (b) => b.retry(jobId));
  }

  retryFailed(): Promise<Change[]> {
    return this.database.retryFailed();
  }

  drop(jobId: string): Promise<Change> {
    return this.either(jobId, (b) => b.drop(jobId));
  }

  watch(onChange: () => void): { close(): void } {
    return this.database.watch(onChange);
  }

  /** A job that fell back runs once a drain moved it into the database: its output is the database's. */
  liveOutput(jobId: string, shownLog: string | undefined): LiveSource {
    return this.database.liveOutput(jobId, shownLog);
  }

  private async fallenBack(state: JobState | undefined): Promise<OutboxEntry[]> {
    const pending = await this.files.list(state);
    return pending.filter((e) => e.folder === 'pending').map((e) => ({ ...e, fallenBack: true }));
  }

  /** The database's answer, or, for a job it does not know, the file outbox's pending one. */
  private async either<T>(jobId: string, act: (b: OutboxBackend) => Promise<T>, mark: (t: T) => T = (t) => t): Promise<T> {
    try {
      return await act(this.database);
    } catch (e) {
      if (!(e instanceof ChrysError) || e.code !== 'unknown_job') throw e;
      const local = await this.files.show(jobId).catch(() => undefined);
      if (local?.folder !== 'pending') throw e;
      return mark(await act(this.files));
    }
  }
}
