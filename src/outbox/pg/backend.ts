// The PostgreSQL outbox behind the OutboxBackend operations: pending jobs are
// graphile-worker rows, done and failed ones chrys_outbox.finished rows. A
// job a drainer holds (locked) is never changed: retry and drop say `running`.

import type { Client } from 'pg';
import { type Change, type OutboxBackend, doneJob, unknownJob } from '../backend.js';
import { requeued } from '../job.js';
import type { JobState, OutboxEntry } from '../view.js';
import { stateOf } from '../view.js';
import type { OutboxChoice } from './choice.js';
import { connect, withClient } from './connect.js';
import type { LiveSource } from '../../run/live-log.js';
import { runIdOfLog } from '../../run/logs.js';
import { LiveOutputReader } from './live-output.js';
import { LEFT_CHANNEL, PENDING_SELECT, type PendingRow, addJob, ensureSchema, jobKey, listFinished, listPending, pruneFinished, refuseHiddenPending, removeUnlocked, tryPendingEntry, unlessNoSchema } from './queue.js';

type Postgres = Extract<OutboxChoice, { backend: 'postgres' }>;

export class PostgresOutbox implements OutboxBackend {
  private migrated = false;
  constructor(private readonly choice: Postgres) {}

  /** For a change: the schema is made first if this database has none yet. */
  private use<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    return withClient(this.choice.url, async (c) => {
      if (!this.migrated) {
        await ensureSchema(c, this.choice.url);
        // Stryker disable next-line BooleanLiteral: ensureSchema is idempotent: migrating again changes nothing but the time it takes
        this.migrated = true;
      }
      return fn(c);
    });
  }

  /**
   * For a look: no DDL, so a role that may only read can see the outbox, and
   * a database no one has used yet is an empty outbox, left as it was.
   */
  private look<T>(fn: (c: Client) => Promise<T>, empty: () => T): Promise<T> {
    return withClient(this.choice.url, (c) => unlessNoSchema(fn(c), empty));
  }

  async list(state?: JobState): Promise<OutboxEntry[]> {
    return this.look(async (c) => {
      const wanted = state === undefined || state === 'pending' || state === 'deferred';
      const pending = wanted ? (await listPending(c)).flatMap((r) => tryPendingEntry(r) ?? []) : [];
      const finished = state === undefined || state === 'done' || state === 'failed' ? await listFinished(c, state === 'done' || state === 'failed' ? { state } : undefined) : [];
      return [...pending, ...finished].filter((e) => state === undefined || stateOf(e) === state);
    }, () => []);
  }

  async show(jobId: string): Promise<OutboxEntry> {
    return this.look((c) => this.find(c, jobId), () => {
      throw unknownJob(jobId);
    });
  }

  async retry(jobId: string): Promise<Change> {
    return this.use(async (c) => {
      const e = await this.find(c, jobId);
      const from = stateOf(e);
      if (e.folder === 'done') throw doneJob(jobId, 'retried');
      if (e.folder === 'failed') {
        // One transaction: the job leaves failed only as it becomes pending again.
        await c.query('BEGIN');
        try {
          const gone = await c.query('DELETE FROM chrys_outbox.finished WHERE job_id = $1 AND state = $2', [e.id, 'failed']);
          if (gone.rowCount === 0) throw unknownJob(jobId);
          await addJob(c, { job: requeued(e.job, new Date(), true), key: jobKey(e.job), mode: 'replace' }, this.choice.hostId);
          await c.query('COMMIT');
        } catch (err) {
          await c.query('ROLLBACK').catch(() => {});
          throw err;
        }
        return { job_id: e.id, outcome: 'requeued', from };
      }
      const r = await c.query('SELECT 1 FROM graphile_worker.reschedule_jobs(ARRAY[$1::bigint], run_at => now())', [String(e.job.pg_job_id)]);
      return { job_id: e.id, outcome: r.rowCount ? 'requeued' : 'running', from };
    });
  }

  async retryFailed(): Promise<Change[]> {
    const failed = await this.list('failed');
    const out: Change[] = [];
    for (const e of failed) out.push(await this.retry(e.id));
    return out;
  }

  async drop(jobId: string): Promise<Change> {
    return this.use(async (c) => {
      const e = await this.find(c, jobId);
      const from = stateOf(e);
      if (e.folder === 'done') throw doneJob(jobId, 'dropped');
      if (e.folder === 'failed') {
        await c.query('DELETE FROM chrys_outbox.finished WHERE job_id = $1', [e.id]);
        return { job_id: e.id, outcome: 'dropped', from };
      }
      const key = typeof e.job.job_key === 'string' ? e.job.job_key : e.id;
      return { job_id: e.id, outcome: (await removeUnlocked(c, key)) ? 'dropped' : 'running', from };
    });
  }

  /** Deletes done jobs filed more than `days` ago (`drain-outbox --prune-done`); their ids. */
  pruneDone(days: number): Promise<string[]> {
    return this.use((c) => pruneFinished(c, days));
  }

  /** LISTEN on graphile-worker's own channel, which every add_job NOTIFYs, and on ours for the jobs that leave. */
  watch(onChange: () => void): { close(): void } {
    let client: Client | undefined;
    let closed = false;
    void connect(this.choice.url).then(async (c) => {
      if (closed) return void c.end();
      client = c;
      c.on('notification', () => onChange());
      await c.query(`LISTEN "jobs:insert"; LISTEN "${LEFT_CHANNEL}"`);
    }).catch(() => {});
    return { close: () => { closed = true; void client?.end(); } };
  }

  liveOutput(jobId: string, shownLog: string | undefined): LiveSource {
    return new LiveOutputReader(this.choice.url, jobId, shownLog === undefined ? undefined : runIdOfLog(shownLog));
  }

  private async find(c: Client, jobId: string): Promise<OutboxEntry> {
    // A text search, then the parsed id: ->> parses every pending payload, and one \u0000 in any of them
    // (a hook's output, a prompt) fails the query for every job.
    const rows = (await c.query<PendingRow>(`${PENDING_SELECT} AND strpos(p.payload::text, $1) > 0`, [jobId])).rows;
    const pending = rows.map(tryPendingEntry).find((e) => e?.id === jobId);
    if (pending) return pending;
    const [finished] = await listFinished(c, { jobId });
    if (finished) return finished;
    await refuseHiddenPending(c);
    throw unknownJob(jobId);
  }
}
