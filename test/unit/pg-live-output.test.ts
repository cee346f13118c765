// The PostgreSQL outbox's live output (src/outbox/pg/live-output.ts): what a
// run writes as its hook prints, what a follower reads, on a real throw-away
// cluster, a fresh database per test. The end-to-end follow across machines
// is in test/e2e/outbox-postgres.test.ts.
import { describe, expect, it } from 'vitest';
import { FLUSH_MS, LIVE_CAP_BYTES, LiveOutputReader, LiveOutputWriter, pruneLiveOutput } from '../../src/outbox/pg/live-output.js';
import { ensureSchema } from '../../src/outbox/pg/queue.js';
import { newRunId } from '../../src/run/logs.js';
import { db as dbOf } from '../helpers/pg-queue.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1]) => dbOf(cluster, t);
const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString();
/** One run's output as a drain writes it: a writer, the chunks the hook printed, the run's end. */
async function written(c: ConstructorParameters<typeof LiveOutputWriter>[0], jobId: string, runId: string, ...chunks: (string | Buffer)[]): Promise<void> {
  const w = new LiveOutputWriter(c, jobId, runId);
  for (const chunk of chunks) w.write('stdout', typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  await w.close();
}
/** A follower's reader, closed when the test ends. */
function readerOf(t: { onTestFinished: (fn: () => void) => void }, url: string, jobId: string, shownRun?: string): LiveOutputReader {
  const reader = new LiveOutputReader(url, jobId, shownRun);
  t.onTestFinished(() => reader.close());
  return reader;
}

describe.skipIf(!PG_AVAILABLE)('live output in the database', () => {
  it('a run that prints nothing writes no row; chunks printed together are one row, read back in order', async (t) => {
    const { c, url, rows } = await db(t);
    const silent = new LiveOutputWriter(c, 'job-1', 'run-a');
    await silent.close();
    expect(await rows('SELECT * FROM chrys_outbox.live_output')).toEqual([]);

    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    w.write('stdout', Buffer.from('one '));
    w.write('stderr', Buffer.from('two '));
    // The timer's write (a poll: the database sends no event for it), then the rest at the end.
    for (const deadline = Date.now() + 20 * FLUSH_MS; (await rows('SELECT 1 FROM chrys_outbox.live_output')).length === 0; ) {
      if (Date.now() > deadline) throw new Error('the timer never wrote the first chunks');
      await new Promise((r) => setTimeout(r, FLUSH_MS / 4));
    }
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

  it('a follower that printed a run\'s log skips the rows of that run and of the runs before it, not those after or of other jobs', async (t) => {
    const { c, url } = await db(t);
    const [older, shown, later] = [1_000, 2_000, 3_000].map((ms) => newRunId(new Date(Date.UTC(2026, 11, 7, 0, 0, 0, ms))));
    await written(c, 'job-1', older!, 'older ');
    await written(c, 'job-1', shown!, 'shown ');
    await written(c, 'job-2', later!, 'other job ');
    const skipping = readerOf(t, url, 'job-1', shown);
    expect(await skipping.next()).toEqual([]);
    await written(c, 'job-1', later!, 'later');
    expect(text(await skipping.next())).toBe('later');
    expect(text(await readerOf(t, url, 'job-1').next())).toBe('older shown later');
  });

  it('shows another machine\'s control characters instead of sending them to the terminal, keeps line breaks, and a character split across rows whole', async (t) => {
    const { c, url } = await db(t);
    const e = Buffer.from('é');
    // Two rows of one run, the é cut between them.
    await written(c, 'job-1', 'run-a', Buffer.concat([Buffer.from('A\x1b]0;pwned\x07B\n'), e.subarray(0, 1)]));
    await written(c, 'job-1', 'run-a', Buffer.concat([e.subarray(1), Buffer.from('\tz\n')]));
    expect(text(await readerOf(t, url, 'job-1').next())).toBe('A\\e]0;pwned\\x07B\né\\tz\n');
  });

  it('keeps nothing written after close (the run was filed)', async (t) => {
    const { c, rows } = await db(t);
    const w = new LiveOutputWriter(c, 'job-1', 'run-a');
    await w.close();
    w.write('stdout', Buffer.from('late'));
    await w.close();
    expect(await rows('SELECT * FROM chrys_outbox.live_output')).toEqual([]);
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

  it('a follower whose role may not read the live output gives it up, says why, and does not fail', async (t) => {
    const { c, url } = await db(t);
    const role = `viewer_${Math.random().toString(36).slice(2, 8)}`;
    await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
    await c.query(`GRANT USAGE ON SCHEMA chrys_outbox TO ${role}`);
    const reader = new LiveOutputReader(url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`), 'job-1', undefined);
    t.onTestFinished(() => reader.close());
    expect(await reader.next()).toEqual([]);
    expect(reader.givenUp).toContain('may not read the live output');
    expect(await reader.next()).toEqual([]);
  });

  it('a drainer\'s role that does not own the table writes and prunes it; one that may not delete from it still prunes without failing', async (t) => {
    const { c, url, rows } = await db(t);
    const role = `drainer_${Math.random().toString(36).slice(2, 8)}`;
    await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw' BYPASSRLS`);
    await c.query(`GRANT ALL ON SCHEMA graphile_worker, chrys_outbox TO ${role}`);
    await c.query(`GRANT ALL ON ALL TABLES IN SCHEMA graphile_worker, chrys_outbox TO ${role}`);
    // What docs/outbox-postgres.md ("Roles") asks of the machines that change the outbox.
    const name = (await rows<{ name: string }>('SELECT current_database() AS name'))[0]!.name;
    await c.query(`GRANT CREATE ON DATABASE "${name}" TO ${role}`);
    const asRole = (await import('pg')).default;
    const other = new asRole.Client({ connectionString: url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`) });
    await other.connect();
    t.onTestFinished(() => other.end());
    await ensureSchema(other, url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`));
    const w = new LiveOutputWriter(other, 'job-1', 'run-a');
    w.write('stdout', Buffer.from('kept'));
    await w.close();
    expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM chrys_outbox.live_output'))[0]!.n).toBe(1);
    await c.query(`REVOKE DELETE ON chrys_outbox.live_output FROM ${role}`);
    await expect(pruneLiveOutput(other)).resolves.toBeUndefined();
  });

  it('prunes the runs whose last row is more than ten minutes old, not a run that goes on printing', async (t) => {
    const { c, rows } = await db(t);
    const print = async (job: string, what: string, minutesAgo: number) => {
      const w = new LiveOutputWriter(c, job, 'run');
      w.write('stdout', Buffer.from(what));
      await w.close();
      await c.query("UPDATE chrys_outbox.live_output SET written_at = now() - $2 * interval '1 minute' WHERE job_id = $1 AND convert_from(chunk, 'UTF8') = $3", [job, minutesAgo, what]);
    };
    await print('ended', 'old', 11);
    await print('going-on', 'head', 30);
    await print('going-on', 'tail', 1);
    await pruneLiveOutput(c);
    expect((await rows<{ job_id: string; chunk: string }>("SELECT job_id, convert_from(chunk, 'UTF8') AS chunk FROM chrys_outbox.live_output ORDER BY seq"))).toEqual([
      { job_id: 'going-on', chunk: 'head' },
      { job_id: 'going-on', chunk: 'tail' },
    ]);
  });
});
