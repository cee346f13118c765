// Moving pending jobs between the file outbox and PostgreSQL without loss or
// duplicates: a job is added under its key first (a key already in the
// database, pending or finished, is not added twice), and only then leaves
// the other side. A crash in between leaves it on both sides, and the next
// move takes the database's copy.

import type { Client, PoolClient } from 'pg';
import { rmSync } from 'node:fs';
import { withJobLock } from '../claim.js';
import { type Job, InvalidJob, parseJob, writeJob } from '../job.js';
import { ensureOutbox, jobPath, listJobs, readJobText } from '../store.js';
import { addJob, jobKey, listPending, removeUnlocked, tryPendingEntry } from './queue.js';

type Sql = Client | PoolClient;

/** File jobs into the database (the drain does this on every start: jobs `fire` wrote while it could not reach it). Returns how many moved. */
export async function absorbFileJobs(configDir: string, c: Sql, hostId: string): Promise<number> {
  let moved = 0;
  for (const fileId of listJobs(configDir, 'pending')) {
    const claim = await withJobLock(configDir, fileId, async () => {
      const text = readJobText(configDir, 'pending', fileId);
      if (text === undefined) return false;
      let job: Job;
      try {
        job = parseJob(text);
      } catch (e) {
        if (e instanceof InvalidJob) return false; // left for the file drain to file as invalid_job
        throw e;
      }
      const key = jobKey(job);
      const finished = await c.query('SELECT 1 FROM chrys_outbox.finished WHERE job_id = $1', [job.job_id]);
      if (finished.rowCount === 0) {
        await addJob(c, { job: { ...job, origin_host: typeof job.origin_host === 'string' ? job.origin_host : hostId }, key, mode: 'unsafe_dedupe', ...(job.due_at ? { runAt: job.due_at } : {}) }, hostId);
      }
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: under the claim the file just read is still there
      rmSync(jobPath(configDir, 'pending', fileId), { force: true });
      return true;
    });
    if (claim.claimed && claim.value) moved++;
  }
  return moved;
}

/** Pending database jobs not running now into outbox/pending/. Returns how many moved. */
export async function moveToFiles(configDir: string, c: Sql): Promise<{ moved: number; running: number }> {
  let moved = 0;
  let running = 0;
  for (const row of await listPending(c)) {
    const e = tryPendingEntry(row);
    if (!e || row.key === null) continue;
    // Stryker disable next-line BlockStatement: a locked row is not removed, so its file copy is removed again and it counts as running either way
    if (row.locked_at) {
      running++;
      continue;
    }
    ensureOutbox(configDir);
    const { pg_job_id: _id, ...job } = e.job;
    writeJob(configDir, 'pending', { ...(job as Job), state: 'pending' });
    if (!(await removeUnlocked(c, row.key))) {
      rmSync(jobPath(configDir, 'pending', e.id), { force: true });
      running++;
    } else moved++;
  }
  return { moved, running };
}
