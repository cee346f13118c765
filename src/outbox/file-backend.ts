// The file outbox (CONTRACT §9) behind the OutboxBackend operations.

import { rmSync, watch } from 'node:fs';
import { type LiveSource, LiveLogReader, liveLogPath } from '../run/live-log.js';
import { type Change, type OutboxBackend, doneJob, unknownJob } from './backend.js';
import { withJobLock } from './claim.js';
import { type Job, InvalidJob, parseJob, requeued, writeJob } from './job.js';
import { type Folder, FOLDERS, jobPath, listJobs, moveJob, outboxDir, readJobText } from './store.js';
import { type JobState, type OutboxEntry, stateOf } from './view.js';

// A job id names a file in a folder: nothing that could name another path.
const JOB_ID = /^[\w][\w.-]*$/;

export class FileOutbox implements OutboxBackend {
  constructor(private readonly configDir: string) {}

  async list(state?: JobState): Promise<OutboxEntry[]> {
    const folders = state === undefined ? FOLDERS : FOLDERS.filter((f) => f === (state === 'deferred' ? 'pending' : state));
    return folders.flatMap((folder) => listJobs(this.configDir, folder).flatMap((id) => this.entry(folder, id) ?? [])).filter((e) => state === undefined || stateOf(e) === state);
  }

  async show(jobId: string): Promise<OutboxEntry> {
    return this.find(jobId);
  }

  async retry(jobId: string): Promise<Change> {
    const e = this.find(jobId);
    if (e.folder === 'done') throw doneJob(jobId, 'retried');
    return this.change(e, (job) => {
      writeJob(this.configDir, e.folder, requeued(job, new Date(), e.folder === 'failed'), e.id);
      if (e.folder === 'failed') moveJob(this.configDir, e.id, 'failed', 'pending');
    }, 'requeued');
  }

  async retryFailed(): Promise<Change[]> {
    const out: Change[] = [];
    for (const id of listJobs(this.configDir, 'failed')) {
      const e = this.entry('failed', id);
      if (e) out.push(await this.retry(e.id));
    }
    return out;
  }

  async drop(jobId: string): Promise<Change> {
    const e = this.find(jobId);
    if (e.folder === 'done') throw doneJob(jobId, 'dropped');
    return this.change(e, () => rmSync(jobPath(this.configDir, e.folder, e.id)), 'dropped');
  }

  watch(onChange: () => void): { close(): void } {
    // The folder, not the file: a job file is replaced by rename on every write, and leaves by rename.
    return watch(outboxDir(this.configDir, 'pending'), () => onChange());
  }

  /** The live log on this machine: the runner removes it at the run's end, so a run whose log was shown has none. */
  liveOutput(jobId: string): LiveSource {
    return new LiveLogReader(liveLogPath(this.configDir, jobId));
  }

  /** Changes a job under its claim, after reading it again: a drain may have run and filed it meanwhile. */
  private async change(e: OutboxEntry, apply: (job: Job) => void, outcome: 'requeued' | 'dropped'): Promise<Change> {
    const from = stateOf(e);
    const claim = await withJobLock(this.configDir, e.id, async () => {
      const now = this.entry(e.folder, e.id);
      if (!now) throw unknownJob(e.id); // filed or dropped by someone else in the meantime
      apply(now.job);
    });
    return { job_id: e.id, outcome: claim.claimed ? outcome : 'running', from };
  }

  private find(jobId: string): OutboxEntry {
    if (JOB_ID.test(jobId)) for (const folder of FOLDERS) {
      const e = this.entry(folder, jobId);
      if (e) return e;
    }
    throw unknownJob(jobId);
  }

  /** A job file, parsed; undefined when it is gone or not a job (the drain moves those to failed/). */
  private entry(folder: Folder, id: string): OutboxEntry | undefined {
    const text = readJobText(this.configDir, folder, id);
    if (text === undefined) return undefined;
    try {
      return { id, folder, job: parseJob(text) };
    } catch (err) {
      if (err instanceof InvalidJob) return undefined;
      throw err;
    }
  }
}
