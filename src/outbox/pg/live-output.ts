// A durable job's output while its hook runs, kept in the PostgreSQL outbox
// so that `outbox logs --follow` streams it on any machine (the file outbox
// keeps it in a file on the drainer's: run/live-log.ts). A run writes rows
// at most every FLUSH_MS, and none when its hook prints nothing; it stops at
// LIVE_CAP_BYTES. The rows outlive the run by KEEP_MINUTES, so a follower
// that sees the job filed still reads its last chunks; the job's next run
// removes them, and a drain prunes what is older. Best effort, as the live
// file is: a row that cannot be written gives up the live output, never
// the run.

import type { Client } from 'pg';
import type { LiveSource } from '../../run/live-log.js';
import type { OnOutput } from '../../run/spawn.js';
import { connect, outboxError } from './connect.js';

export const LIVE_OUTPUT_DDL = `
CREATE TABLE IF NOT EXISTS chrys_outbox.live_output (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id text NOT NULL,
  run_id text NOT NULL,
  chunk bytea NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS live_output_job ON chrys_outbox.live_output (job_id, seq);`;

/** How often a run's output is written; a follower polls as often (a tail polls, as tail -f does). */
export const FLUSH_MS = 200;
/** Live output a run keeps in the database; its log has the head and tail of all of it. */
export const LIVE_CAP_BYTES = 1 << 20;
const KEEP_MINUTES = 10;

type Sql = Pick<Client, 'query'>;

/** The writing side, for one run of one job: RunOptions.onOutput, then close() once the run ended. */
export class LiveOutputWriter {
  private pending: Buffer[] = [];
  private written = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private first = true;
  private givenUp = false;

  constructor(
    private readonly db: Sql,
    private readonly jobId: string,
    private readonly runId: string,
  ) {}

  readonly write: OnOutput = (_stream, chunk) => {
    if (this.givenUp || this.written >= LIVE_CAP_BYTES) return;
    const room = LIVE_CAP_BYTES - this.written;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.written += kept.length;
    this.pending.push(kept);
    if (this.written >= LIVE_CAP_BYTES) this.pending.push(Buffer.from(`\n[live output stopped at ${LIVE_CAP_BYTES} bytes; the run's log has its head and tail]\n`));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  };

  /** The run ended: what is left is written (resolves once it is, or was given up). */
  close(): Promise<void> {
    return this.flush();
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const chunk = Buffer.concat(this.pending);
    this.pending = [];
    if (chunk.length === 0 || this.givenUp) return this.flushing;
    const first = this.first;
    this.first = false;
    // One at a time and in order: a follower reads a job's rows by increasing seq.
    this.flushing = this.flushing.then(() =>
      this.db
        .query(
          first
            ? // The first chunk of a run removes what an earlier run of the job left.
              'WITH earlier AS (DELETE FROM chrys_outbox.live_output WHERE job_id = $1 AND run_id <> $2) INSERT INTO chrys_outbox.live_output (job_id, run_id, chunk) VALUES ($1, $2, $3)'
            : 'INSERT INTO chrys_outbox.live_output (job_id, run_id, chunk) VALUES ($1, $2, $3)',
          [this.jobId, this.runId, chunk],
        )
        .then(
          () => {},
          () => void (this.givenUp = true),
        ),
    );
    return this.flushing;
  }
}

/** Removes the live output of runs that ended long enough ago for any follower to have read it. */
export async function pruneLiveOutput(db: Sql): Promise<void> {
  await db.query(`DELETE FROM chrys_outbox.live_output WHERE written_at < now() - interval '${KEEP_MINUTES} minutes'`);
}

/**
 * The reading side: what the job's runs wrote since the last look, on one
 * connection kept for the follow. `skipRun`: the run whose log the follower
 * printed already (its rows outlive it).
 */
export class LiveOutputReader implements LiveSource {
  private client: Promise<Client> | undefined;
  private seq = '0';
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly jobId: string,
    private readonly skipRun: string | undefined,
  ) {}

  async next(): Promise<Buffer[]> {
    if (this.closed) return [];
    this.client ??= connect(this.url);
    const c = await this.client;
    const r = await c.query<{ seq: string; chunk: Buffer }>('SELECT seq::text AS seq, chunk FROM chrys_outbox.live_output WHERE job_id = $1 AND seq > $2::bigint AND run_id IS DISTINCT FROM $3 ORDER BY seq', [this.jobId, this.seq, this.skipRun ?? null]).catch((e: unknown) => {
      // A database that has no live output yet (an older outbox no drain of this version migrated): nothing to show.
      if ((e as { code?: string }).code === '42P01') return { rows: [] };
      // A role that may not read it (granted before the table was made): outbox_unreadable, with the grant to ask for.
      throw outboxError(this.url, e);
    });
    const last = r.rows.at(-1);
    if (last) this.seq = last.seq;
    return r.rows.map((row) => row.chunk);
  }

  close(): void {
    this.closed = true;
    void this.client?.then((c) => c.end()).catch(() => {});
  }
}
