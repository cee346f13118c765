// The PostgreSQL outbox's parts (outbox/pg/queue.ts, connect.ts, backend.ts,
// migrate.ts, fire-queue.ts) against a real throw-away cluster, one for the
// file, a fresh database per test: what goes into graphile-worker's tables,
// what the commands read back, and how driver errors become Chrys errors.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ChrysError } from '../../src/core/errors.js';
import { withJobLock } from '../../src/outbox/claim.js';
import type { Job } from '../../src/outbox/job.js';
import { PostgresOutbox } from '../../src/outbox/pg/backend.js';
import { CONNECT_TIMEOUT_MS, connect, isUnreachable, loadGraphile, loadPg, outboxError, pool, unreachable, withClient } from '../../src/outbox/pg/connect.js';
import { queueDurable, withOrigin } from '../../src/outbox/pg/fire-queue.js';
import { absorbFileJobs, moveToFiles } from '../../src/outbox/pg/migrate.js';
import {
  MAX_ATTEMPTS, PENDING_SELECT, PORTABLE_TASK, addJob, addJobs, ensureSchema, fileFinished, hostTask, isMissingSchema, jobKey, listFinished, listPending,
  pendingEntry, pruneFinished, quietLogger, refuseHiddenPending, removeUnlocked, taskOf, tryPendingEntry, unlessNoSchema,
} from '../../src/outbox/pg/queue.js';
import { chrysError, configDir, db as dbOf, hook, job, pendingFiles } from '../helpers/pg-queue.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1], migrate?: boolean) => dbOf(cluster, t, migrate);



const writePending = (dir: string, j: Job, text?: string): void => {
  const p = join(dir, 'hooks', 'outbox', 'pending');
  mkdirSync(p, { recursive: true });
  writeFileSync(join(p, `${j.job_id}.json`), text ?? JSON.stringify(j));
};


describe('connect.ts without a server', () => {
  it.each([
    [{ code: '28P01' }, true], [{ code: '28000' }, true], [{ code: '3D000' }, true], [{ code: '57P01' }, true], [{ code: '57P03' }, true],
    [{ code: '53300' }, true], [{ code: '08006' }, true], [{ code: '08001' }, true], [{ code: 'ECONNREFUSED' }, true], [{ code: 'ETIMEDOUT' }, true],
    [{ code: '42P01' }, false], [{ code: 'E1' }, false], [{ code: 'xECONN' }, false], [{ code: 'ECONNx1' }, false], [{ code: '' }, false],
    [new Error('timeout expired'), true], [new Error('Connection terminated unexpectedly'), true], [new Error('read ECONNRESET'), true],
    [new Error('Client has encountered a connection error and is not queryable'), true], [new Error('Client was closed and is not queryable'), true],
    [new Error('TERMINATED'), true], [new Error('syntax error at or near "x"'), false], [{}, false], ['a string', false],
    [null, false], [undefined, false], [{ code: 57 }, false], [{ message: 404 }, false],
  ])('isUnreachable(%j) is %s', (e, yes) => {
    expect(isUnreachable(e)).toBe(yes);
  });

  it('says why it is unreachable, the password never shown', () => {
    const url = 'postgres://chrys:SECRET@db.example:5432/outbox';
    const e = unreachable(url, Object.assign(new Error('password authentication failed for SECRET'), { code: '28P01' }));
    expect(e.code).toBe('outbox_unreachable');
    expect(e.message).toBe('cannot use the PostgreSQL outbox at postgres://chrys:***@db.example:5432/outbox (wrong password: password authentication failed for ***)');
    expect(e.hint).toBe('check that the server runs and that the URL in the variable outbox.url_env names has the right user, password and database; pending jobs are kept');
    expect(unreachable(url, Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' })).message).toBe('cannot use the PostgreSQL outbox at postgres://chrys:***@db.example:5432/outbox (connect refused)');
    expect(unreachable(url, 'plain').message).toContain('(plain)');
  });

  it('turns a driver error into the outbox\'s own', () => {
    const url = 'postgres://chrys:SECRET@db/outbox';
    const own = new ChrysError('refused', 'x');
    expect(outboxError(url, own)).toBe(own);
    expect(outboxError(url, { code: '57P01', message: 'bye' }).code).toBe('outbox_unreachable');
    const denied = outboxError(url, Object.assign(new Error('permission denied for table jobs (SECRET)'), { code: '42501' }));
    expect(denied.code).toBe('outbox_unreadable');
    expect(denied.message).toBe('this database role may not do what the command needs in the PostgreSQL outbox (permission denied for table jobs (***))');
    expect(denied.hint).toBe('run it as the role that made the outbox, or grant what docs/outbox-postgres.md ("Roles") lists');
    const bug = outboxError(url, Object.assign(new Error(`syntax error in ${url}`), { code: '42601' }));
    expect(bug.code).toBe('internal');
    expect(bug.message).toBe('PostgreSQL outbox: syntax error in postgres://chrys:***@db/outbox');
    expect(bug.hint).toBe('please report this with the command you ran');
    expect(outboxError(url, 'odd').message).toBe('PostgreSQL outbox: odd');
    // A driver may reject with anything: a null or a number is a bug of its, reported, never a TypeError of ours.
    expect(outboxError(url, null).message).toBe('PostgreSQL outbox: null');
    expect(outboxError(url, undefined).code).toBe('internal');
    expect(outboxError(url, 42).message).toBe('PostgreSQL outbox: 42');
    expect(unreachable(url, null).message).toBe('cannot use the PostgreSQL outbox at postgres://chrys:***@db/outbox (null)');
    expect(outboxError(url, { code: 28, message: 7 }).message).toBe('PostgreSQL outbox: [object Object]');
  });

  it('loads the driver once, and graphile-worker with its functions', async () => {
    expect(await loadPg()).toBe(await loadPg());
    expect(typeof (await loadPg()).Client).toBe('function');
    const g = await loadGraphile();
    expect(typeof g.run).toBe('function');
    expect(typeof g.runMigrations).toBe('function');
    expect(CONNECT_TIMEOUT_MS).toBe(3000);
  });

  it('keeps graphile-worker quiet, telling only its errors', async () => {
    const told: unknown[] = [];
    const logger = await quietLogger((e) => told.push(e));
    logger.info('hello');
    logger.error('bad', { error: 'E1' });
    logger.error('no error field');
    logger.warn('w', { error: 'E2' });
    expect(told).toEqual(['E1']);
    (await quietLogger()).error('bad', { error: 'E3' });
  });

  it('knows a missing schema by its SQLSTATE', async () => {
    for (const code of ['3F000', '42883', '42P01']) expect(isMissingSchema({ code })).toBe(true);
    for (const e of [{ code: '42501' }, {}, { code: '' }]) expect(isMissingSchema(e)).toBe(false);
    expect(await unlessNoSchema(Promise.reject<string>(Object.assign(new Error('x'), { code: '42P01' })), () => 'empty')).toBe('empty');
    await expect(unlessNoSchema(Promise.reject<string>(Object.assign(new Error('other'), { code: '42501' })), () => 'empty')).rejects.toThrow('other');
    expect(await unlessNoSchema(Promise.resolve('seen'), () => 'empty')).toBe('seen');
  });
});

describe('queue.ts without a server', () => {
  it('keys a once-per-session job by its hook and session, else by job_key or job_id', () => {
    const once = hook('deliver', { once_per_session: true });
    expect(jobKey(job({ job_id: 'j1' }, once), once)).toBe('once:global:deliver:s1');
    expect(jobKey(job({ job_id: 'j1' }, once, {}), once)).toBe('j1');
    expect(jobKey(job({ job_id: 'j1' }), hook())).toBe('j1');
    expect(jobKey(job({ job_id: 'j1', job_key: 'k9' }))).toBe('k9');
    expect(jobKey(job({ job_id: 'j1', job_key: 7 }))).toBe('j1');
    const project = hook('deliver', { once_per_session: true }, 'project');
    expect(jobKey(job({}, project), project)).toBe('once:project:deliver:s1');
  });

  it('sends a job to its machine\'s task, or the portable one', () => {
    expect(hostTask('box')).toBe('chrys:host:box');
    expect(PORTABLE_TASK).toBe('chrys:portable');
    expect(taskOf(job(), 'here')).toBe('chrys:host:here');
    expect(taskOf(job({ origin_host: 'there' }), 'here')).toBe('chrys:host:there');
    expect(taskOf(job({ origin_host: 5 }), 'here')).toBe('chrys:host:here');
    expect(taskOf(job({ portable: true, origin_host: 'there' }), 'here')).toBe('chrys:portable');
    expect(taskOf(job({ portable: 'yes' }), 'here')).toBe('chrys:host:here');
  });

  it('reads a pending row as a job: starts counted, running when locked, due at run_at', () => {
    const j = job({ job_id: 'j1', retries: 2 });
    const future = new Date(Date.now() + 60_000);
    const row = { id: '41', payload_text: JSON.stringify(j), run_at: future, attempts: 1, locked_at: null, locked_by: null, last_error: null, key: 'j1' };
    const { payload: _p, ...rest } = j;
    const seen = pendingEntry(row);
    expect(seen).toMatchObject({ id: 'j1', folder: 'pending', job: { ...rest, retries: 3, state: 'pending', due_at: future.toISOString(), pg_job_id: '41' } });
    expect(Object.keys(seen.job).sort()).toEqual([...Object.keys(j), 'due_at', 'pg_job_id'].sort());
    const past = new Date(Date.now() - 1000);
    const running = pendingEntry({ ...row, run_at: past, locked_at: new Date() });
    expect(running.job.state).toBe('running');
    expect(running.job.due_at).toBeUndefined();
    // A job that had a due_at shows the row's run_at as it.
    expect(pendingEntry({ ...row, payload_text: JSON.stringify({ ...j, due_at: 'x' }), run_at: past }).job.due_at).toBe(past.toISOString());
    expect(tryPendingEntry({ ...row, payload_text: '{"x":1}' })).toBeUndefined();
    expect(tryPendingEntry(row)?.id).toBe('j1');
  });
});

describe.skipIf(!PG_AVAILABLE)('against PostgreSQL', () => {
  describe('connect.ts', () => {
    it('connects as chrys-hooks, with the fire bounds when asked', async (t) => {
      const { url } = await db(t, false);
      const c = await connect(url, { queryTimeoutMs: 1500 });
      try {
        const r = (await c.query("SELECT current_setting('application_name') AS app, current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt")).rows[0];
        expect(r).toEqual({ app: 'chrys-hooks', st: '1500ms', lt: '1500ms' });
      } finally {
        await c.end();
      }
      const plain = await connect(url);
      try {
        expect((await plain.query("SELECT current_setting('statement_timeout') AS st")).rows[0].st).toBe('0');
      } finally {
        await plain.end();
      }
    });

    it('says outbox_unreachable for a wrong password or database, never showing the password', async (t) => {
      const { url } = await db(t, false);
      const wrong = url.replace(`:${cluster().password}@`, ':NOT-THE-PASSWORD@');
      const e = await chrysError(connect(wrong));
      expect(e.code).toBe('outbox_unreachable');
      expect(e.message).toContain('(wrong password: ');
      expect(e.message).not.toContain('NOT-THE-PASSWORD');
      const none = await chrysError(connect(url.replace(/\/[^/]+$/, '/no_such_db')));
      expect(none.message).toContain('(no such database: ');
    });

    it('runs a function with a client, ends it, and turns its errors into Chrys errors', async (t) => {
      const { url, rows } = await db(t, false);
      expect(await withClient(url, async (c) => (await c.query('SELECT 2 AS n')).rows[0].n)).toBe(2);
      const bug = await chrysError(withClient(url, (c) => c.query('SELEC 1')));
      expect(bug.code).toBe('internal');
      expect(bug.message).toMatch(/^PostgreSQL outbox: syntax error/);
      const own = new ChrysError('refused', 'mine');
      expect(await chrysError(withClient(url, () => Promise.reject(own)))).toBe(own);
      const open = await rows<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'chrys-hooks'");
      expect(open[0]!.n).toBe(0);
    });

    it('pools clients; rawJson hands json columns over as their text, other types parsed', async (t) => {
      const { url } = await db(t, false);
      const raw = await pool(url, 2, { rawJson: true });
      const parsed = await pool(url);
      try {
        const q = "SELECT '{\"n\": 1.0}'::json AS j, 5::int AS i, '{\"n\": 1.0}'::jsonb AS b";
        expect((await raw.query(q)).rows[0]).toEqual({ j: '{"n": 1.0}', i: 5, b: { n: 1 } });
        expect((await parsed.query(q)).rows[0]).toEqual({ j: { n: 1 }, i: 5, b: { n: 1 } });
        expect(raw.options.max).toBe(2);
        expect(parsed.options.max).toBe(4);
        expect(raw.options.application_name).toBe('chrys-hooks');
        // A client that errors while idle does not crash the process.
        const c = await raw.connect();
        c.emit('error', new Error('gone'));
        c.release();
        raw.emit('error', new Error('idle client gone'));
      } finally {
        await raw.end();
        await parsed.end();
      }
    });
  });

  describe('queue.ts', () => {
    it('makes the schema, again and from two clients at once', async (t) => {
      const { url, c, rows } = await db(t, false);
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await Promise.all([ensureSchema(c, url), ensureSchema(other, url)]);
        await ensureSchema(c, url);
      } finally {
        await other.end();
      }
      const tables = await rows<{ t: string }>("SELECT table_schema || '.' || table_name AS t FROM information_schema.tables WHERE table_schema = 'chrys_outbox' ORDER BY 1");
      expect(tables.map((r) => r.t)).toEqual(['chrys_outbox.drainers', 'chrys_outbox.finished', 'chrys_outbox.live_output']);
      await expect(c.query("INSERT INTO chrys_outbox.finished (job_id, state, job) VALUES ('x', 'odd', '{}')")).rejects.toThrow(/check constraint/);
    });

    it('rolls the schema back when our DDL fails', async (t) => {
      const { url, c, rows } = await db(t, false);
      // Our DDL on a read-only session fails (graphile-worker's migrations use their own connection): rolled back, the client usable.
      await c.query('SET default_transaction_read_only = on');
      await expect(ensureSchema(c, url)).rejects.toThrow();
      expect((await rows("SELECT 1 FROM information_schema.tables WHERE table_schema = 'chrys_outbox'")).length).toBe(0);
      expect((await c.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    });

    it('adds jobs in one transaction with their task, key, run time and attempts, and lists them back', async (t) => {
      const { c, rows } = await db(t);
      const due = new Date(Date.now() + 3600_000).toISOString();
      const a = job({ job_id: 'a' });
      const b = job({ job_id: 'b', due_at: due, portable: true });
      await addJobs(c, [{ job: a, key: 'a', mode: 'replace' }, { job: b, key: 'kb', mode: 'replace' }], 'box');
      const raw = await rows<{ task_identifier: string; key: string; max_attempts: number; run_at: Date }>('SELECT task_identifier, key, max_attempts, run_at FROM graphile_worker.jobs ORDER BY id');
      expect(raw.map((r) => [r.task_identifier, r.key, r.max_attempts])).toEqual([['chrys:host:box', 'a', MAX_ATTEMPTS], ['chrys:portable', 'kb', 100]]);
      expect(raw[0]!.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(raw[1]!.run_at.toISOString()).toBe(due);
      const pending = await listPending(c);
      expect(pending.map((r) => [r.key, r.attempts, r.locked_at])).toEqual([['a', 0, null], ['kb', 0, null]]);
      const entries = pending.map((r) => pendingEntry(r));
      expect(entries[0]!.job).toMatchObject({ job_id: 'a', job_key: 'a', state: 'pending', retries: 0 });
      expect(entries[1]!.job).toMatchObject({ job_id: 'b', job_key: 'kb', due_at: due, portable: true });
      // An explicit run time wins over the job's due_at.
      const soon = new Date(Date.now() + 60_000).toISOString();
      await addJob(c, { job: job({ job_id: 'c', due_at: due }), key: 'c', runAt: soon, mode: 'replace' }, 'box');
      expect((await rows<{ run_at: Date }>("SELECT run_at FROM graphile_worker.jobs WHERE key = 'c'"))[0]!.run_at.toISOString()).toBe(soon);
      // PENDING_SELECT sees only Chrys tasks.
      await c.query("SELECT graphile_worker.add_job('other-task', '{}'::json)");
      expect((await c.query(`${PENDING_SELECT}`)).rows).toHaveLength(3);
    });

    it('adds none when one of them fails', async (t) => {
      const { c, rows } = await db(t);
      await expect(addJobs(c, [{ job: job({ job_id: 'a' }), key: 'a', mode: 'replace' }, { job: job({ job_id: 'b' }), key: 'b', runAt: 'not a time', mode: 'replace' }], 'box')).rejects.toThrow();
      expect(await rows('SELECT 1 FROM graphile_worker.jobs')).toEqual([]);
      expect((await c.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    });

    it('replaces a job under its key, or leaves the first one (unsafe_dedupe)', async (t) => {
      const { c } = await db(t);
      await addJob(c, { job: job({ job_id: 'first' }), key: 'k', mode: 'unsafe_dedupe' }, 'box');
      await addJob(c, { job: job({ job_id: 'second' }), key: 'k', mode: 'unsafe_dedupe' }, 'box');
      expect((await listPending(c)).map((r) => pendingEntry(r).id)).toEqual(['first']);
      await addJob(c, { job: job({ job_id: 'third' }), key: 'k', mode: 'replace' }, 'box');
      expect((await listPending(c)).map((r) => pendingEntry(r).id)).toEqual(['third']);
    });

    it('files finished runs and deletes their rows in one statement, the last filing of a job winning', async (t) => {
      const { c, rows } = await db(t);
      await addJobs(c, ['a', 'b', 'x'].map((id) => ({ job: job({ job_id: id }), key: id, mode: 'replace' as const })), 'box');
      const ids = (await listPending(c)).map((r) => r.id);
      await fileFinished(c, [
        { job: job({ job_id: 'a', error: 'first' }), state: 'failed', rowId: ids[0]! },
        { job: job({ job_id: 'b', payload: { nul: 'a\u0000b' } }), state: 'done', rowId: ids[1]! },
        { job: job({ job_id: 'a', error: null }), state: 'done', rowId: ids[0]! },
      ]);
      expect((await listPending(c)).map((r) => r.key)).toEqual(['x']);
      const filed = await rows<{ job_id: string; state: string }>('SELECT job_id, state FROM chrys_outbox.finished ORDER BY job_id');
      expect(filed).toEqual([{ job_id: 'a', state: 'done' }, { job_id: 'b', state: 'done' }]);
      const all = await listFinished(c);
      expect(all.map((e) => [e.id, e.folder, e.job.state, e.job.error])).toEqual([['a', 'done', 'done', null], ['b', 'done', 'done', null]]);
      expect(all[1]!.job.payload).toEqual({ nul: 'a\u0000b' });
      // Filing again replaces.
      await fileFinished(c, [{ job: job({ job_id: 'a', error: 'again' }), state: 'failed', rowId: '0' }]);
      expect((await listFinished(c, { jobId: 'a' })).map((e) => [e.folder, e.job.error])).toEqual([['failed', 'again']]);
      expect((await listFinished(c, { state: 'failed' })).map((e) => e.id)).toEqual(['a']);
      expect((await listFinished(c, { state: 'done' })).map((e) => e.id)).toEqual(['b']);
      expect(await listFinished(c, { jobId: 'nope' })).toEqual([]);
      // A record that is not a Chrys job is left out.
      await c.query("INSERT INTO chrys_outbox.finished (job_id, state, job) VALUES ('junk', 'done', '[1]')");
      expect((await listFinished(c)).map((e) => e.id)).toEqual(['a', 'b']);
    });

    it('prunes only done jobs filed more than the given days ago, oldest first', async (t) => {
      const { c } = await db(t);
      await fileFinished(c, ['d1', 'd2', 'f1', 'd3'].map((id) => ({ job: job({ job_id: id }), state: id.startsWith('f') ? 'failed' as const : 'done' as const, rowId: '0' })));
      await c.query("UPDATE chrys_outbox.finished SET finished_at = now() - interval '3 days' WHERE job_id IN ('d2', 'd1', 'f1')");
      await c.query("UPDATE chrys_outbox.finished SET finished_at = now() - interval '1 day' - interval '1 hour' WHERE job_id = 'd3'");
      expect(await pruneFinished(c, 2)).toEqual(['d1', 'd2']);
      expect((await listFinished(c)).map((e) => e.id)).toEqual(['d3', 'f1']);
      expect(await pruneFinished(c, 1)).toEqual(['d3']);
    });

    it('removes a pending job by key unless a drainer holds it', async (t) => {
      const { c } = await db(t);
      await addJobs(c, ['free', 'held'].map((id) => ({ job: job({ job_id: id }), key: id, mode: 'replace' as const })), 'box');
      await c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w' WHERE key = 'held'");
      expect(await removeUnlocked(c, 'held')).toBe(false);
      expect(await removeUnlocked(c, 'free')).toBe(true);
      expect(await removeUnlocked(c, 'free')).toBe(false);
      const left = await listPending(c);
      expect(left.map((r) => [r.key, r.locked_by])).toEqual([['held', 'w']]);
      expect(pendingEntry(left[0]!).job.state).toBe('running');
    });

    it('refuses to list for a role that cannot read the payloads (row-level security)', async (t) => {
      const { url, c } = await db(t);
      await addJob(c, { job: job({ job_id: 'a' }), key: 'a', mode: 'replace' }, 'box');
      await addJob(c, { job: job({ job_id: 'b' }), key: 'b', mode: 'replace' }, 'box');
      const role = `viewer_${Math.random().toString(36).slice(2, 8)}`;
      await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      await c.query(`GRANT USAGE ON SCHEMA graphile_worker, chrys_outbox TO ${role}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA graphile_worker, chrys_outbox TO ${role}`);
      const viewerUrl = url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`);
      const viewer = new pg.Client({ connectionString: viewerUrl });
      await viewer.connect();
      try {
        const e = await chrysError(listPending(viewer));
        expect(e.code).toBe('outbox_unreadable');
        expect(e.message).toBe('this database role cannot read 2 pending jobs of the PostgreSQL outbox (row-level security on graphile_worker._private_jobs)');
        expect(e.hint).toBe('give the role a SELECT policy on that table (docs/outbox-postgres.md, "Roles"), or use the role that made the outbox');
        await c.query(`DELETE FROM graphile_worker._private_jobs WHERE key = 'b'`);
        expect((await chrysError(refuseHiddenPending(viewer))).message).toContain('cannot read 1 pending job of');
        // The viewer's outbox, through the commands: unreadable, not empty.
        const box = new PostgresOutbox({ backend: 'postgres', url: viewerUrl, urlEnv: 'X', hostId: 'box' });
        expect((await chrysError(box.list())).code).toBe('outbox_unreadable');
        expect((await chrysError(box.show('nope'))).code).toBe('outbox_unreadable');
        await c.query(`CREATE POLICY ${role}_reads ON graphile_worker._private_jobs FOR SELECT TO ${role} USING (true)`);
        await refuseHiddenPending(viewer);
        expect((await listPending(viewer)).map((r) => r.key)).toEqual(['a']);
      } finally {
        await viewer.end();
      }
      await refuseHiddenPending(c);
    });

    it('reads a database no drain has migrated as having no schema', async (t) => {
      const { c } = await db(t, false);
      const e = await listPending(c).catch((err: unknown) => err);
      expect(isMissingSchema(e)).toBe(true);
      expect(await unlessNoSchema(listPending(c), () => [])).toEqual([]);
    });
  });

  describe('PostgresOutbox', () => {
    const outbox = (url: string): PostgresOutbox => new PostgresOutbox({ backend: 'postgres', url, urlEnv: 'X', hostId: 'box' });

    it('is an empty outbox on a database no one has used, and leaves it as it was', async (t) => {
      const { url, rows } = await db(t, false);
      const box = outbox(url);
      expect(await box.list()).toEqual([]);
      expect(await box.list('failed')).toEqual([]);
      const e = await chrysError(box.show('x'));
      expect(e.code).toBe('unknown_job');
      expect(e.message).toBe('no job "x" in the outbox');
      expect(await rows("SELECT 1 FROM information_schema.schemata WHERE schema_name IN ('graphile_worker', 'chrys_outbox')")).toEqual([]);
      // A change makes the schema first.
      expect(await box.pruneDone(1)).toEqual([]);
      expect((await rows("SELECT 1 FROM information_schema.schemata WHERE schema_name IN ('graphile_worker', 'chrys_outbox')")).length).toBe(2);
    });

    it('lists pending, deferred, done and failed jobs, by state', async (t) => {
      const { url, c } = await db(t);
      const later = new Date(Date.now() + 3600_000).toISOString();
      await addJob(c, { job: job({ job_id: 'p' }), key: 'p', mode: 'replace' }, 'box');
      await addJob(c, { job: job({ job_id: 'q', error: 'deferred', due_at: later }), key: 'q', mode: 'replace' }, 'box');
      await c.query("SELECT graphile_worker.add_job('chrys:host:box', '{\"not\": \"a job\"}'::json)");
      await fileFinished(c, [{ job: job({ job_id: 'd' }), state: 'done', rowId: '0' }, { job: job({ job_id: 'f', error: 'exit_1' }), state: 'failed', rowId: '0' }]);
      const box = outbox(url);
      expect((await box.list()).map((e) => [e.id, e.folder])).toEqual([['p', 'pending'], ['q', 'pending'], ['d', 'done'], ['f', 'failed']]);
      expect((await box.list('pending')).map((e) => e.id)).toEqual(['p']);
      expect((await box.list('deferred')).map((e) => e.id)).toEqual(['q']);
      expect((await box.list('done')).map((e) => e.id)).toEqual(['d']);
      expect((await box.list('failed')).map((e) => e.id)).toEqual(['f']);
      expect((await box.show('q')).job).toMatchObject({ due_at: later, error: 'deferred' });
      expect((await box.show('f')).folder).toBe('failed');
    });

    it('retries a pending job at once, a failed one with a fresh start count; refuses a done one', async (t) => {
      const { url, c, rows } = await db(t);
      const later = new Date(Date.now() + 3600_000).toISOString();
      await addJob(c, { job: job({ job_id: 'p', due_at: later }), key: 'p', mode: 'replace' }, 'box');
      await fileFinished(c, [{ job: job({ job_id: 'f', retries: 4, error: 'max_retries' }), state: 'failed', rowId: '0' }, { job: job({ job_id: 'd' }), state: 'done', rowId: '0' }]);
      const box = outbox(url);
      expect(await box.retry('p')).toEqual({ job_id: 'p', outcome: 'requeued', from: 'pending' });
      expect((await rows<{ run_at: Date }>("SELECT run_at FROM graphile_worker.jobs WHERE key = 'p'"))[0]!.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await box.retry('f')).toEqual({ job_id: 'f', outcome: 'requeued', from: 'failed' });
      expect(await listFinished(c, { jobId: 'f' })).toEqual([]);
      const back = (await box.show('f')).job;
      expect(back).toMatchObject({ retries: 0, state: 'pending', error: null, job_key: 'f' });
      expect(typeof back.requeued_at).toBe('string');
      const e = await chrysError(box.retry('d'));
      expect([e.code, e.message]).toEqual(['refused', 'job "d" is done; it cannot be retried']);
      expect((await chrysError(box.retry('none'))).code).toBe('unknown_job');
    });

    it('says running for a pending job a drainer holds', async (t) => {
      const { url, c } = await db(t);
      await addJob(c, { job: job({ job_id: 'p' }), key: 'p', mode: 'replace' }, 'box');
      await c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w'");
      const box = outbox(url);
      expect(await box.retry('p')).toEqual({ job_id: 'p', outcome: 'running', from: 'pending' });
      expect(await box.drop('p')).toEqual({ job_id: 'p', outcome: 'running', from: 'pending' });
      expect((await listPending(c)).length).toBe(1);
    });

    it('retries every failed job', async (t) => {
      const { url, c } = await db(t);
      await fileFinished(c, ['f1', 'f2', 'd'].map((id) => ({ job: job({ job_id: id }), state: id === 'd' ? 'done' as const : 'failed' as const, rowId: '0' })));
      const box = outbox(url);
      expect(await box.retryFailed()).toEqual([{ job_id: 'f1', outcome: 'requeued', from: 'failed' }, { job_id: 'f2', outcome: 'requeued', from: 'failed' }]);
      expect((await box.list('pending')).map((e) => e.id)).toEqual(['f1', 'f2']);
      expect((await box.list('done')).map((e) => e.id)).toEqual(['d']);
    });

    it('drops a pending job by its key, a failed one for good; refuses a done one', async (t) => {
      const { url, c } = await db(t);
      await addJob(c, { job: job({ job_id: 'p' }), key: 'once:global:deliver:s1', mode: 'replace' }, 'box');
      await fileFinished(c, [{ job: job({ job_id: 'f' }), state: 'failed', rowId: '0' }, { job: job({ job_id: 'd' }), state: 'done', rowId: '0' }]);
      const box = outbox(url);
      expect(await box.drop('p')).toEqual({ job_id: 'p', outcome: 'dropped', from: 'pending' });
      expect(await box.drop('f')).toEqual({ job_id: 'f', outcome: 'dropped', from: 'failed' });
      expect((await chrysError(box.drop('d'))).message).toBe('job "d" is done; it cannot be dropped');
      expect((await box.list()).map((e) => e.id)).toEqual(['d']);
    });

    it('prunes done jobs', async (t) => {
      const { url, c } = await db(t);
      await fileFinished(c, [{ job: job({ job_id: 'old' }), state: 'done', rowId: '0' }, { job: job({ job_id: 'new' }), state: 'done', rowId: '0' }]);
      await c.query("UPDATE chrys_outbox.finished SET finished_at = now() - interval '10 days' WHERE job_id = 'old'");
      expect(await outbox(url).pruneDone(7)).toEqual(['old']);
    });

    it('is told when a job is added, until closed', async (t) => {
      const { url, c } = await db(t);
      const box = outbox(url);
      let told = 0;
      const w = box.watch(() => told++);
      try {
        // LISTEN starts once the watcher connected: add jobs until one is told.
        for (let i = 0; told === 0 && i < 200; i++) {
          await addJob(c, { job: job({ job_id: `n${i}` }), key: `n${i}`, mode: 'replace' }, 'box');
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(told).toBeGreaterThan(0);
      } finally {
        w.close();
      }
      // Closed before it connected: the connection is ended at once.
      box.watch(() => {}).close();
    });
  });

  describe('migrate.ts', () => {
    it('moves file jobs into the database under their key, once, and leaves what is not a job', async (t) => {
      const { c } = await db(t);
      const dir = configDir();
      const due = new Date(Date.now() + 3600_000).toISOString();
      writePending(dir, job({ job_id: 'a' }));
      writePending(dir, job({ job_id: 'b', due_at: due, origin_host: 'elsewhere' }));
      writePending(dir, job({ job_id: 'done-already' }));
      writePending(dir, job({ job_id: 'junk' }), 'not json');
      await fileFinished(c, [{ job: job({ job_id: 'done-already' }), state: 'done', rowId: '0' }]);
      expect(await absorbFileJobs(dir, c, 'box')).toBe(3);
      expect(pendingFiles(dir)).toEqual(['junk.json']);
      const rows = await listPending(c);
      expect(rows.map((r) => [r.key, pendingEntry(r).job.origin_host])).toEqual([['a', 'box'], ['b', 'elsewhere']]);
      expect(rows[1]!.run_at.toISOString()).toBe(due);
      // Moved again (a crash left a copy on both sides): not added twice.
      writePending(dir, job({ job_id: 'a' }));
      expect(await absorbFileJobs(dir, c, 'box')).toBe(1);
      expect((await listPending(c)).map((r) => r.key)).toEqual(['a', 'b']);
    });

    it('leaves a file job whose claim is held', async (t) => {
      const { c } = await db(t);
      const dir = configDir();
      writePending(dir, job({ job_id: 'held' }));
      const claim = await withJobLock(dir, 'held', () => absorbFileJobs(dir, c, 'box'));
      expect(claim).toEqual({ claimed: true, value: 0 });
      expect(pendingFiles(dir)).toEqual(['held.json']);
      expect(await listPending(c)).toEqual([]);
    });

    it('moves the pending jobs no drainer holds into the file outbox', async (t) => {
      const { c } = await db(t);
      const dir = configDir();
      await addJob(c, { job: job({ job_id: 'free' }), key: 'free', mode: 'replace' }, 'box');
      await addJob(c, { job: job({ job_id: 'held' }), key: 'held', mode: 'replace' }, 'box');
      await c.query("SELECT graphile_worker.add_job('chrys:host:box', '[1]'::json)");
      await c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w' WHERE key = 'held'");
      expect(await moveToFiles(dir, c)).toEqual({ moved: 1, running: 1 });
      expect(pendingFiles(dir)).toEqual(['free.json']);
      const moved = JSON.parse(readFileSync(join(dir, 'hooks', 'outbox', 'pending', 'free.json'), 'utf8')) as Job;
      expect(moved).toMatchObject({ job_id: 'free', state: 'pending', job_key: 'free' });
      expect(moved.pg_job_id).toBeUndefined();
      expect((await listPending(c)).map((r) => r.key).filter(Boolean)).toEqual(['held']);
    });
  });

  describe('fire-queue.ts', () => {
    it('marks where a job came from, and a portable hook\'s job as portable', () => {
      const j = job();
      expect(withOrigin(j, hook(), 'box', '/w')).toEqual({ ...j, origin_host: 'box', origin_workspace: '/w' });
      expect(withOrigin(j, hook('p', { portable: true }), 'box', '/w')).toEqual({ ...j, origin_host: 'box', origin_workspace: '/w', portable: true });
    });

    it('queues a firing\'s jobs in the database, making the schema on first use; once per session dedupes', async (t) => {
      const { url, c } = await db(t, false);
      const dir = configDir();
      const once = hook('once', { once_per_session: true });
      const choice = { backend: 'postgres' as const, url, urlEnv: 'X', hostId: 'box' };
      expect(await queueDurable(dir, choice, [{ job: job({ job_id: 'a' }), hook: hook() }, { job: job({ job_id: 'o1' }, once), hook: once }])).toEqual([]);
      expect(await queueDurable(dir, choice, [{ job: job({ job_id: 'o2' }, once), hook: once }])).toEqual([]);
      const rows = await listPending(c);
      expect(rows.map((r) => [pendingEntry(r).id, r.key])).toEqual([['a', 'a'], ['o1', 'once:global:once:s1']]);
      expect(pendingFiles(dir)).toEqual([]);
    });

    it('writes the jobs to the file outbox when the database cannot take them, and says so', async (t) => {
      const { url } = await db(t);
      const dir = configDir();
      const choice = { backend: 'postgres' as const, url: url.replace(/\/[^/]+$/, '/no_such_db'), urlEnv: 'X', hostId: 'box' };
      const warnings = await queueDurable(dir, choice, [{ job: job({ job_id: 'a' }), hook: hook() }]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ code: 'outbox_fallback', hook: 'deliver' });
      expect(warnings[0]!.message).toMatch(/^cannot use the PostgreSQL outbox at .* \(no such database: .*\); job a of hook "deliver" went to the file outbox, and the next drain-outbox moves it into PostgreSQL$/);
      expect(warnings[0]!.message).not.toContain(cluster().password);
      expect(pendingFiles(dir)).toEqual(['a.json']);
    });

    it('says the follow-up was not queued when the file outbox cannot take it either', async (t) => {
      const { url } = await db(t);
      const dir = configDir();
      mkdirSync(join(dir, 'hooks'), { recursive: true });
      writeFileSync(join(dir, 'hooks', 'outbox'), 'a file where the outbox goes');
      chmodSync(join(dir, 'hooks', 'outbox'), 0o600);
      const choice = { backend: 'postgres' as const, url: url.replace(/\/[^/]+$/, '/no_such_db'), urlEnv: 'X', hostId: 'box' };
      const warnings = await queueDurable(dir, choice, [{ job: job({ job_id: 'a' }), hook: hook() }]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ code: 'outbox_unavailable', hook: 'deliver' });
      expect(warnings[0]!.message).toMatch(/; and cannot write the file outbox either \(E[A-Z]+\): the follow-up of hook "deliver" was not queued$/);
    });

    it('queues none of a firing\'s jobs when one fails, and sends them all to the files', async (t) => {
      const { url, c } = await db(t);
      const dir = configDir();
      const choice = { backend: 'postgres' as const, url, urlEnv: 'X', hostId: 'box' };
      const warnings = await queueDurable(dir, choice, [{ job: job({ job_id: 'a' }), hook: hook() }, { job: job({ job_id: 'b', due_at: 'not a time' }), hook: hook() }]);
      expect(warnings.map((w) => w.code)).toEqual(['outbox_fallback', 'outbox_fallback']);
      expect(warnings[0]!.message).toMatch(/^PostgreSQL outbox: /);
      expect(await listPending(c)).toEqual([]);
      expect(pendingFiles(dir)).toEqual(['a.json', 'b.json']);
    });
  });
});
