// A durable job's output while its hook runs, kept in the PostgreSQL outbox
// so that `outbox logs --follow` streams it on any machine (the file outbox
// keeps it in a file on the drainer's: run/live-log.ts). A run writes rows
// at most every FLUSH_MS, and none when its hook prints nothing; it stops at
// LIVE_CAP_BYTES. A run's rows stay until KEEP_MINUTES after its last one,
// so a follower that sees the job filed still reads its last chunks, and
// drains prune them after that; a follower that printed a run's log skips
// the rows of that run and of the runs before it. Best effort, as the live
// file is: a row that cannot be written gives up the live output, never
// the run.

import { StringDecoder } from 'node:string_decoder';
import type { Client } from 'pg';
import { printableLines } from '../../core/printable.js';
import type { LiveSource } from '../../run/live-log.js';
import { runStartOf } from '../../run/logs.js';
import type { OnOutput } from '../../run/spawn.js';
import { codeOf, connect, outboxError } from './connect.js';

// The key is the index: a CREATE INDEX of its own would fail for every role but the table's owner.
export const LIVE_OUTPUT_DDL = `
CREATE TABLE IF NOT EXISTS chrys_outbox.live_output (
  job_id text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  run_id text NOT NULL,
  chunk bytea NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);`;

/** How often a run's output is written; a follower polls as often (a tail polls, as tail -f does). */
export const FLUSH_MS = 200;
/** Live output a run keeps in the database; its log has the head and tail of all of it. */
export const LIVE_CAP_BYTES = 1 << 20;
const KEEP_MINUTES = 10;

type Sql = Pick<Client, 'query'>;
/** Not there (an outbox made by an older version), or not this role's to touch. */
const MISSING_OR_FORBIDDEN = new Set(['42P01', '42501']);

/** The writing side, for one run of one job: RunOptions.onOutput, then close() once the run ended. */
export class LiveOutputWriter {
  private pending: Buffer[] = [];
  private written = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private givenUp = false;

  constructor(
    private readonly db: Sql,
    private readonly jobId: string,
    private readonly runId: string,
  ) {}

  readonly write: OnOutput = (_stream, chunk) => {
    if (this.closed || this.givenUp || this.written >= LIVE_CAP_BYTES) return;
    const room = LIVE_CAP_BYTES - this.written;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.written += kept.length;
    this.pending.push(kept);
    if (this.written >= LIVE_CAP_BYTES) this.pending.push(Buffer.from(`\n[live output stopped at ${LIVE_CAP_BYTES} bytes; the run's log has its head and tail]\n`));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  };

  /** The run ended: what is left is written (resolves once it is, or was given up); later output is not kept. */
  close(): Promise<void> {
    this.closed = true;
    return this.flush();
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const chunk = Buffer.concat(this.pending);
    this.pending = [];
    if (chunk.length === 0 || this.givenUp) return this.flushing;
    // One at a time and in order: a follower reads a job's rows by increasing seq.
    this.flushing = this.flushing.then(() =>
      this.db.query('INSERT INTO chrys_outbox.live_output (job_id, run_id, chunk) VALUES ($1, $2, $3)', [this.jobId, this.runId, chunk]).then(
        () => {},
        () => void (this.givenUp = true),
      ),
    );
    return this.flushing;
  }
}

/**
 * Removes the runs whose last row is KEEP_MINUTES old: any follower has read
 * them (a run that goes on printing keeps its head). A role that may not is
 * left to the drainers whose role may: stale rows cost only room.
 */
export async function pruneLiveOutput(db: Sql): Promise<void> {
  await db
    .query(
      `DELETE FROM chrys_outbox.live_output WHERE (job_id, run_id) IN (
         SELECT job_id, run_id FROM chrys_outbox.live_output GROUP BY job_id, run_id HAVING max(written_at) < now() - interval '${KEEP_MINUTES} minutes')`,
    )
    .catch((e: unknown) => {
      if (!MISSING_OR_FORBIDDEN.has(codeOf(e) ?? '')) throw e;
    });
}

/**
 * The reading side: what the job's runs wrote since the last look, on one
 * connection kept for the follow. `shownRun`: the run whose log the follower
 * printed already; its rows and those of the runs before it are skipped (a
 * job's runs follow each other, and a run id begins with its start time).
 * The text is another machine's hook output: its control characters are
 * shown, never run by this terminal, line breaks kept.
 */
export class LiveOutputReader implements LiveSource {
  private client: Promise<Client> | undefined;
  private seq = '0';
  private run: string | undefined;
  private readonly decoder = new StringDecoder('utf8');
  private readonly shownStart: number | undefined;
  private closed = false;
  givenUp: string | undefined;

  constructor(
    private readonly url: string,
    private readonly jobId: string,
    shownRun: string | undefined,
  ) {
    this.shownStart = shownRun === undefined ? undefined : runStartOf(shownRun);
  }

  async next(): Promise<Buffer[]> {
    if (this.closed || this.givenUp !== undefined) return [];
    this.client ??= connect(this.url);
    let rows: { seq: string; run_id: string; chunk: Buffer }[];
    try {
      const c = await this.client;
      rows = (await c.query<{ seq: string; run_id: string; chunk: Buffer }>('SELECT seq::text AS seq, run_id, chunk FROM chrys_outbox.live_output WHERE job_id = $1 AND seq > $2::bigint ORDER BY seq', [this.jobId, this.seq])).rows;
    } catch (e) {
      // A database with no live output yet (an outbox made by an older version): none to show, until a drain makes it.
      if (codeOf(e) === '42P01') return [];
      if (codeOf(e) === '42501') {
        this.givenUp = 'this database role may not read the live output (grant it what docs/outbox-postgres.md, "Roles", lists)';
        return [];
      }
      throw outboxError(this.url, e);
    }
    const out: string[] = [];
    for (const row of rows) {
      this.seq = row.seq;
      const start = runStartOf(row.run_id);
      if (this.shownStart !== undefined && start !== undefined && start <= this.shownStart) continue;
      if (row.run_id !== this.run) out.push(this.decoder.end()); // a character cut at a run's end is not the next run's
      this.run = row.run_id;
      out.push(this.decoder.write(row.chunk));
    }
    const text = out.join('');
    return text === '' ? [] : [Buffer.from(printableLines(text))];
  }

  close(): void {
    this.closed = true;
    void this.client?.then((c) => c.end()).catch(() => {});
  }
}
