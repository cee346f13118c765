// The PostgreSQL outbox's live output (src/outbox/pg/live-output.ts): what a
// run writes as its hook prints, what a follower reads, on a real throw-away
// cluster, a fresh database per test. The end-to-end follow across machines
// is in test/e2e/outbox-postgres.test.ts.
import { describe, expect, it } from 'vitest';
import { FLUSH_MS, LIVE_CAP_BYTES, LiveOutputReader, LiveOutputWriter, pruneLiveOutput } from '../../src/outbox/pg/live-output.js';
import { chrysError, db as dbOf } from '../helpers/pg-queue.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1]) => dbOf(cluster, t);
const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString();

describe.skipIf(!PG_AVAILABLE)('live output in the database', () => {
  it('a run that prints nothing writes no row; chunks printed together are one row, read back in order', async (t) => {
    const { c, url, rows } = await db(t);
    const silent = new LiveOutputWriter(c, 'job-1', 'run-a');
    await silent.close();
    expect(await rows('SELECT * FROM chrys_outbox.live_output')).toEqual([]);

    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    w.write('stdout', Buffer.from('one '));
    w.write('stderr', Buffer.from('two '));
    await w.close();
    w.write('stdout', Buffer.from('three'));
    await w.close();
    expect(await rows('SELECT job_id, run_id, convert_from(chunk, \'UTF8\') AS chunk FROM chrys_outbox.live_output ORDER BY seq')).toEqual([
      { job_id: 'job-1', run_id: 'run-a', chunk: 'one two ' },
      { job_id: 'job-1', run_id: 'run-a', chunk: 'three' },
    ]);
    const reader = new LiveOutputReader(url, 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    expect(text(await reader.next())).toBe('one two three');
    expect(await reader.next()).toEqual([]); // only what came since
  });

  it('writes within FLUSH_MS of a chunk, not only when the run ends', async (t) => {
    const { c, url } = await db(t);
    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    t.onTestFinished(() => w.close());
    const reader = new LiveOutputReader(url, 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    w.write('stdout', Buffer.from('early'));
    let seen = '';
    // Polled as a follower polls: the run has not ended, so only the timer can have written it.
    for (const deadline = Date.now() + 20 * FLUSH_MS; !seen && Date.now() < deadline; ) {
      seen = text(await reader.next());
      if (!seen) await new Promise((r) => setTimeout(r, FLUSH_MS / 4));
    }
    expect(seen).toBe('early');
  });

  it('keeps at most LIVE_CAP_BYTES of a run, then says it stopped', async (t) => {
    const { c, url } = await db(t);
    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    w.write('stdout', Buffer.alloc(LIVE_CAP_BYTES - 10, 'a'));
    w.write('stdout', Buffer.alloc(100, 'b'));
    w.write('stdout', Buffer.from('never kept'));
    await w.close();
    const reader = new LiveOutputReader(url, 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    const out = text(await reader.next());
    expect(out.startsWith('a'.repeat(LIVE_CAP_BYTES - 10) + 'b'.repeat(10) + '\n[live output stopped at')).toBe(true);
    expect(out).toContain("the run's log has its head and tail]");
    expect(out).not.toContain('never kept');
  });

  it('a run\'s first chunk removes what an earlier run of the job left; other jobs\' rows stay; a follower can skip the run it saw the log of', async (t) => {
    const { c, url, rows } = await db(t);
    const first = new LiveOutputWriter(c, 'job-1', 'run-a');
    first.write('stdout', Buffer.from('from a'));
    await first.close();
    const other = new LiveOutputWriter(c, 'job-2', 'run-x');
    other.write('stdout', Buffer.from('other job'));
    await other.close();
    const skipping = new LiveOutputReader(url, 'job-1', 'run-a');
    t.onTestFinished(() => skipping.close());
    expect(await skipping.next()).toEqual([]);
    const second = new LiveOutputWriter(c, 'job-1', 'run-b');
    second.write('stdout', Buffer.from('from b'));
    await second.close();
    expect(text(await skipping.next())).toBe('from b');
    expect((await rows<{ run_id: string }>('SELECT run_id FROM chrys_outbox.live_output ORDER BY seq')).map((r) => r.run_id)).toEqual(['run-x', 'run-b']);
  });

  it('a row that cannot be written gives up the live output, never throws into the run', async (t) => {
    const { c, rows } = await db(t);
    await c.query('DROP TABLE chrys_outbox.live_output');
    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    w.write('stdout', Buffer.from('lost'));
    await expect(w.close()).resolves.toBeUndefined();
    await c.query('CREATE TABLE chrys_outbox.live_output (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, job_id text NOT NULL, run_id text NOT NULL, chunk bytea NOT NULL, written_at timestamptz NOT NULL DEFAULT now())');
    w.write('stdout', Buffer.from('after'));
    await w.close();
    expect(await rows('SELECT * FROM chrys_outbox.live_output')).toEqual([]); // given up for the rest of the run
  });

  it('a follower of a database with no live output table (an older outbox) reads nothing', async (t) => {
    const { c, url } = await db(t);
    await c.query('DROP TABLE chrys_outbox.live_output');
    const reader = new LiveOutputReader(url, 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    expect(await reader.next()).toEqual([]);
  });

  it('a follower whose role may not read the live output is told so (outbox_unreadable), the password not shown', async (t) => {
    const { c, url } = await db(t);
    const role = `viewer_${Math.random().toString(36).slice(2, 8)}`;
    await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'secret-pw'`);
    await c.query(`GRANT USAGE ON SCHEMA chrys_outbox TO ${role}`);
    const reader = new LiveOutputReader(url.replace(/\/\/chrys:[^@]+@/, `//${role}:secret-pw@`), 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    const e = await chrysError(reader.next());
    expect(e.code).toBe('outbox_unreadable');
    expect(e.message).toContain('permission denied');
    expect(e.message).not.toContain('secret-pw');
  });

  it('prunes rows written more than ten minutes ago', async (t) => {
    const { c, rows } = await db(t);
    for (const [job, age] of [['old', 11], ['recent', 9]] as const) {
      const w = new LiveOutputWriter(c, job, 'run');
      w.write('stdout', Buffer.from(job));
      await w.close();
      await c.query("UPDATE chrys_outbox.live_output SET written_at = now() - $2 * interval '1 minute' WHERE job_id = $1", [job, age]);
    }
    await pruneLiveOutput(c);
    expect((await rows<{ job_id: string }>('SELECT job_id FROM chrys_outbox.live_output')).map((r) => r.job_id)).toEqual(['recent']);
  });
});
