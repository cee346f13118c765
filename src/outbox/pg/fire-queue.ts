// `fire`'s side of the PostgreSQL outbox: the durable jobs of one firing go
// into the database in one transaction that commits before `fire` prints its
// decision (the file outbox's "written before" promise). When the database
// cannot take them, they go to the file outbox instead, with warning
// outbox_fallback, and the next drain against PostgreSQL moves them there.

import type { Hook } from '../../core/config.js';
import type { Warning } from '../../core/diagnostics.js';
import { ChrysError } from '../../core/errors.js';
import { type Job, writeJob } from '../job.js';
import { ensureOutbox } from '../store.js';
import { type OutboxChoice, outboxChoice } from './choice.js';
import { FIRE_QUERY_TIMEOUT_MS, connect, outboxError } from './connect.js';
import { addJobs, ensureSchema, isMissingSchema, jobKey } from './queue.js';

export interface DurableJob {
  job: Job;
  hook: Hook;
}

/** The outbox a firing's durable jobs go to; an invalid `outbox` section falls back to the files, and says why. */
export async function fireOutbox(configDir: string): Promise<{ choice: OutboxChoice; warning?: Warning }> {
  try {
    return { choice: await outboxChoice(configDir) };
  } catch (e) {
    if (!(e instanceof ChrysError)) throw e;
    return { choice: { backend: 'files' }, warning: { code: 'outbox_fallback', message: `${e.message}; durable jobs go to the file outbox (${e.hint ?? 'fix the settings'})` } };
  }
}

/** The job as the database keeps it: where it came from, so a drainer elsewhere knows whether it may run it. */
export const withOrigin = (job: Job, hook: Hook, hostId: string, workspace: string): Job => ({
  ...job,
  origin_host: hostId,
  origin_workspace: workspace,
  ...(hook.execution.portable ? { portable: true } : {}),
});

/** Queues the jobs in PostgreSQL, else in the file outbox; returns the warnings to report. */
export async function queueDurable(configDir: string, choice: Extract<OutboxChoice, { backend: 'postgres' }>, jobs: readonly DurableJob[]): Promise<Warning[]> {
  const queued = jobs.map(({ job, hook }) => ({ job, key: jobKey(job, hook), mode: hook.execution.once_per_session ? ('unsafe_dedupe' as const) : ('replace' as const) }));
  try {
    const client = await connect(choice.url, { queryTimeoutMs: FIRE_QUERY_TIMEOUT_MS });
    try {
      try {
        await addJobs(client, queued, choice.hostId);
      } catch (e) {
        if (!isMissingSchema(e)) throw e;
        await ensureSchema(client, choice.url); // a database no drain has used yet
        await addJobs(client, queued, choice.hostId);
      }
    } finally {
      await client.end().catch(() => {});
    }
    return [];
  } catch (e) {
    return toFiles(configDir, jobs, outboxError(choice.url, e).message);
  }
}

function toFiles(configDir: string, jobs: readonly DurableJob[], why: string): Warning[] {
  const warnings: Warning[] = [];
  for (const { job, hook } of jobs) {
    try {
      ensureOutbox(configDir);
      writeJob(configDir, 'pending', job);
      warnings.push({ code: 'outbox_fallback', hook: hook.id, message: `${why}; job ${job.job_id} of hook "${hook.id}" went to the file outbox, and the next drain-outbox moves it into PostgreSQL` });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      warnings.push({ code: 'outbox_unavailable', hook: hook.id, message: `${why}; and cannot write the file outbox either (${code}): the follow-up of hook "${hook.id}" was not queued` });
    }
  }
  return warnings;
}
