// More of the PostgreSQL outbox's parts (pg-queue.test.ts has the rest): the
// tables and patterns built when a module loads (each loaded afresh, so a
// mutation of them shows), the redaction of odd passwords, and what a
// connection, a role or a writer other than Chrys can do; against a real
// throw-away cluster, a fresh database per test.
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { PostgresOutbox } from '../../src/outbox/pg/backend.js';
import { connect } from '../../src/outbox/pg/connect.js';
import { queueDurable } from '../../src/outbox/pg/fire-queue.js';
import { moveToFiles } from '../../src/outbox/pg/migrate.js';
import { addJob, ensureSchema, fileFinished, listPending, pendingEntry, pruneFinished } from '../../src/outbox/pg/queue.js';
import { redact } from '../../src/outbox/pg/redact.js';
import { chrysError, configDir, db as dbOf, hook, job, pendingFiles } from '../helpers/pg-queue.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1], migrate?: boolean) => dbOf(cluster, t, migrate);





/** The modules loaded afresh: their tables and patterns are built when they load. */
const fresh = async () => {
  vi.resetModules();
  return {
    queue: await import('../../src/outbox/pg/queue.js'),
    connect: await import('../../src/outbox/pg/connect.js'),
    redact: await import('../../src/outbox/pg/redact.js'),
    fire: await import('../../src/outbox/pg/fire-queue.js'),
  };
};

describe('module-level tables, loaded afresh', () => {
  it('names the tasks, keys and missing-schema states', async () => {
    const { queue } = await fresh();
    expect(queue.PORTABLE_TASK).toBe('chrys:portable');
    expect(queue.hostTask('b')).toBe('chrys:host:b');
    expect(queue.taskOf(job(), 'h')).toBe('chrys:host:h');
    expect(queue.taskOf(job({ portable: true }), 'h')).toBe('chrys:portable');
    for (const code of ['3F000', '42883', '42P01']) expect(queue.isMissingSchema({ code })).toBe(true);
    expect(queue.isMissingSchema({ code: '42501' })).toBe(false);
    expect(await queue.unlessNoSchema(Promise.reject<string>(Object.assign(new Error('x'), { code: '3F000' })), () => 'empty')).toBe('empty');
    expect(await queue.unlessNoSchema(Promise.resolve('seen'), () => 'empty')).toBe('seen');
    expect(queue.MAX_ATTEMPTS).toBe(100);
  });

  it('says why a server is unreachable, per SQLSTATE', async () => {
    const { connect } = await fresh();
    const url = 'postgres://u:pw@db/x';
    const why = (code: string): string => connect.unreachable(url, Object.assign(new Error('m'), { code })).message.replace('cannot use the PostgreSQL outbox at postgres://u:***@db/x ', '');
    expect(['28P01', '28000', '3D000', '57P01', '57P03', '53300', '08006', '08001', 'ECONNREFUSED'].map(why)).toEqual([
      '(wrong password: m)', '(login refused: m)', '(no such database: m)', '(the server shut down: m)', '(the server is starting up or shutting down: m)',
      '(too many connections: m)', '(the connection failed: m)', '(cannot connect: m)', '(m)',
    ]);
    for (const code of ['28P01', '28000', '3D000', '57P01', '57P03', '53300', '08006', '08001']) expect(connect.isUnreachable({ code })).toBe(true);
    expect(connect.isUnreachable({ code: '42601' })).toBe(false);
    expect(connect.FIRE_QUERY_TIMEOUT_MS).toBe(5000);
  });

  it('takes every secret query parameter out', async () => {
    const { redact: r } = await fresh();
    const url = 'postgres://u@db/x?password=PW1&sslpassword=PW2&sslkey=KEY3&sslcert=CERT4&sslrootcert=ROOT5&application_name=keepme';
    expect(r.redact('PW1 PW2 KEY3 CERT4 ROOT5 keepme', url)).toBe('*** *** *** *** *** keepme');
  });

  it('marks where a job came from', async () => {
    const { fire } = await fresh();
    const j = job();
    expect(fire.withOrigin(j, hook('p', { portable: true }), 'box', '/w')).toEqual({ ...j, origin_host: 'box', origin_workspace: '/w', portable: true });
  });
});

describe('redact, more spellings', () => {
  it('leaves a text alone for a URL without a password, or with an empty one', () => {
    expect(redact('abc', 'postgres://u@db/x')).toBe('abc');
    expect(redact('abc', 'postgres://db/x')).toBe('abc');
    expect(redact('abc', 'postgres://u:@db/x')).toBe('abc');
  });

  it('takes out a one-letter password, and a longer secret that contains another whole', () => {
    expect(redact('z is z', 'postgres://u:z@db/x')).toBe('*** is ***');
    expect(redact('pass123 and pass', 'postgres://u:pass@db/x?sslpassword=pass123')).toBe('*** and ***');
  });

  it('reads no typed password from a string without "//"', () => {
    expect(redact('pw here', 'user:pw@host')).toBe('pw here');
  });

  it('takes out a password whose percent-encoding is broken, as typed', () => {
    expect(redact('x %zz y', 'postgres://u:%zz@db/x')).toBe('x *** y');
  });
});

describe.skipIf(!PG_AVAILABLE)('against PostgreSQL', () => {
  describe('connect.ts', () => {
    it('ends a slow statement on the server at the fire bound, before the client gives up', async (t) => {
      const { url } = await db(t, false);
      const c = await connect(url, { queryTimeoutMs: 1500 });
      try {
        const e = (await c.query('SELECT pg_sleep(3)').catch((err: unknown) => err)) as { code?: string };
        expect(e.code).toBe('57014'); // canceling statement due to statement timeout
      } finally {
        await c.end();
      }
    });

    it('survives the server ending its connection: the next query says so', async (t) => {
      const { url, c: admin } = await db(t, false);
      const c = await connect(url);
      const pid = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const ended = new Promise((r) => c.once('end', r));
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await ended;
      await expect(c.query('SELECT 1')).rejects.toThrow();
      await c.end().catch(() => {});
    });

    it('connects as chrys-hooks when loaded afresh', async (t) => {
      const { url } = await db(t, false);
      vi.resetModules();
      const { connect: freshConnect } = await import('../../src/outbox/pg/connect.js');
      const c = await freshConnect(url);
      try {
        expect((await c.query("SELECT current_setting('application_name') AS app")).rows[0].app).toBe('chrys-hooks');
      } finally {
        await c.end();
      }
    });

  });

  describe('queue.ts', () => {
    it('makes the schema and lists jobs when loaded afresh (the DDL and the select are built when the module loads)', async (t) => {
      const { url, c, rows } = await db(t, false);
      vi.resetModules();
      const q = await import('../../src/outbox/pg/queue.js');
      await q.ensureSchema(c, url);
      const tables = await rows<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'chrys_outbox' ORDER BY 1");
      expect(tables.map((r) => r.t)).toEqual(['drainers', 'finished', 'live_output']);
      await q.addJob(c, { job: job({ job_id: 'a' }), key: 'a', mode: 'replace' }, 'box');
      const listed = await q.listPending(c);
      expect(listed.map((r) => [r.key, r.attempts, r.locked_at, r.locked_by, r.last_error, typeof r.id, r.run_at instanceof Date])).toEqual([['a', 0, null, null, null, 'string', true]]);
      expect(q.pendingEntry(listed[0]!).id).toBe('a');
    });

    it('makes the schema from many clients at once', async (t) => {
      const { url } = await db(t, false);
      const clients = await Promise.all(Array.from({ length: 6 }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        return c;
      }));
      try {
        await Promise.all(clients.map((c) => ensureSchema(c, url)));
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    });

  });

  describe('more of the commands and the moves', () => {
    const outbox = (url: string): PostgresOutbox => new PostgresOutbox({ backend: 'postgres', url, urlEnv: 'X', hostId: 'box' });
    const appConnections = async (c: pg.Client): Promise<number> => (await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'chrys-hooks' AND datname = current_database()")).rows[0].n as number;

    it('lists the finished jobs for a role that cannot read the pending ones', async (t) => {
      const { url, c } = await db(t);
      await addJob(c, { job: job({ job_id: 'p' }), key: 'p', mode: 'replace' }, 'box');
      await fileFinished(c, [{ job: job({ job_id: 'd' }), state: 'done', rowId: '0' }, { job: job({ job_id: 'f' }), state: 'failed', rowId: '0' }]);
      const role = `viewer_${Math.random().toString(36).slice(2, 8)}`;
      await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      await c.query(`GRANT USAGE ON SCHEMA graphile_worker, chrys_outbox TO ${role}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA graphile_worker, chrys_outbox TO ${role}`);
      const box = outbox(url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`));
      expect((await box.list('done')).map((e) => e.id)).toEqual(['d']);
      expect((await box.list('failed')).map((e) => e.id)).toEqual(['f']);
      expect((await chrysError(box.list('pending'))).code).toBe('outbox_unreadable');
    });

    it('lists the pending jobs for a role that may read the queue but not the finished jobs', async (t) => {
      const { url, c } = await db(t);
      await addJob(c, { job: job({ job_id: 'p' }), key: 'p', mode: 'replace' }, 'box');
      const role = `queue_${Math.random().toString(36).slice(2, 8)}`;
      await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      await c.query(`GRANT USAGE ON SCHEMA graphile_worker TO ${role}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA graphile_worker TO ${role}`);
      await c.query(`CREATE POLICY ${role}_reads ON graphile_worker._private_jobs FOR SELECT TO ${role} USING (true)`);
      const box = outbox(url.replace(/\/\/chrys:[^@]+@/, `//${role}:pw@`));
      expect((await box.list('pending')).map((e) => e.id)).toEqual(['p']);
      expect(await box.list('deferred')).toEqual([]);
      expect((await chrysError(box.list('done'))).code).toBe('outbox_unreadable');
    });

    it('drops a job another writer queued under its job id, without a job_key in its payload', async (t) => {
      const { url, c } = await db(t);
      const { job_key: _k, ...bare } = { ...job({ job_id: 'raw' }), job_key: undefined };
      await c.query("SELECT graphile_worker.add_job('chrys:host:box', $1::json, job_key => 'raw')", [JSON.stringify(bare)]);
      expect(await outbox(url).drop('raw')).toEqual({ job_id: 'raw', outcome: 'dropped', from: 'pending' });
      expect(await listPending(c)).toEqual([]);
    });

    it('ends the watcher\'s connection once closed', async (t) => {
      const { url, c } = await db(t);
      let told = 0;
      const w = outbox(url).watch(() => told++);
      for (let i = 0; told === 0 && i < 200; i++) {
        await addJob(c, { job: job({ job_id: `n${i}` }), key: `n${i}`, mode: 'replace' }, 'box');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(told).toBeGreaterThan(0);
      w.close();
      // Poll: the server drops the backend a moment after the client's end.
      for (let i = 0; (await appConnections(c)) > 0; i++) {
        if (i > 100) throw new Error('the watcher\'s connection stayed open');
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    it('leaves a Chrys job queued without a key where it is', async (t) => {
      const { c } = await db(t);
      const dir = configDir();
      await c.query("SELECT graphile_worker.add_job('chrys:host:box', $1::json)", [JSON.stringify(job({ job_id: 'keyless' }))]);
      await addJob(c, { job: job({ job_id: 'free' }), key: 'free', mode: 'replace' }, 'box');
      expect(await moveToFiles(dir, c)).toEqual({ moved: 1, running: 0 });
      expect(pendingFiles(dir)).toEqual(['free.json']);
      expect((await listPending(c)).map((r) => pendingEntry(r).id)).toEqual(['keyless']);
    });

    it('ends a firing\'s connection before it returns', async (t) => {
      const { url, c } = await db(t);
      const choice = { backend: 'postgres' as const, url, urlEnv: 'X', hostId: 'box' };
      expect(await queueDurable(configDir(), choice, [{ job: job({ job_id: 'a' }), hook: hook() }])).toEqual([]);
      expect(await appConnections(c)).toBe(0);
    });

    it('gives up on a table another session holds locked, within the fire bound, and queues in the files', async (t) => {
      const { url, c } = await db(t);
      await c.query('BEGIN');
      await c.query('LOCK TABLE graphile_worker._private_jobs IN ACCESS EXCLUSIVE MODE');
      try {
        const dir = configDir();
        const started = Date.now();
        const warnings = await queueDurable(dir, { backend: 'postgres', url, urlEnv: 'X', hostId: 'box' }, [{ job: job({ job_id: 'a' }), hook: hook() }]);
        expect(warnings.map((w) => w.code)).toEqual(['outbox_fallback']);
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(pendingFiles(dir)).toEqual(['a.json']);
      } finally {
        await c.query('ROLLBACK');
      }
    });

    it('prunes in id order whatever order the jobs were filed in', async (t) => {
      const { c } = await db(t);
      await fileFinished(c, ['z', 'b', 'm'].map((id) => ({ job: job({ job_id: id }), state: 'done' as const, rowId: '0' })));
      await c.query("UPDATE chrys_outbox.finished SET finished_at = now() - interval '3 days'");
      expect(await pruneFinished(c, 1)).toEqual(['b', 'm', 'z']);
    });
  });
});
