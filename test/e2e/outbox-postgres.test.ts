// The outbox's conformance scenarios against both backends (the file outbox
// and PostgreSQL through graphile-worker), through the built binary, with a
// real throw-away PostgreSQL cluster (test/helpers/postgres.ts); then what
// only the database has: concurrent drainers, kill -9, an unreachable server,
// a wrong password.
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_STALE_MS } from '../../src/outbox/claim.js';
import { BIN, type Sandbox, eventually, hookYaml, sandboxFor, useSandbox } from '../helpers/sandbox.js';
import { PG_AVAILABLE, ownCluster, useCluster } from '../helpers/postgres.js';
import type { Cluster } from '../../scripts/pg-cluster.mjs';

const sandbox = useSandbox();
const cluster = useCluster();
type Backend = 'files' | 'postgres';

/**
 * A durable hook due a moment after the firing (queued, for both backends: no worker runs it), logging each start;
 * for postgres, in a new database of `db` (the file's cluster unless the test has its own).
 */
function setup(s: Sandbox, backend: Backend, { shell = 'echo "$CHRYS_HOOK_ID" >> ../runs', execution = '', settings = '', delay = 0.2, more = '' } = {}, db: () => Cluster = cluster): Record<string, string> {
  s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\n${settings}hooks:\n${hookYaml({ id: 'follow-up', event: 'after_turn', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable\ndelay_seconds: ${delay}\n${execution}` })}\n${more}`);
  if (backend === 'postgres') hostIs(s, 'test-host');
  return backend === 'postgres' ? { CHRYS_TEST_OUTBOX_URL: db().newDatabase() } : {};
}

/** Points the config dir at the test database as the machine `hostId`. */
const hostIs = (s: Sandbox, hostId: string): void => void s.write(join(s.configDir, 'settings.yaml'), `outbox:\n  backend: postgres\n  url_env: CHRYS_TEST_OUTBOX_URL\n  host_id: ${hostId}\n`);

const fileJobs = (s: Sandbox): string[] => {
  const dir = join(s.configDir, 'hooks', 'outbox', 'pending');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
};

async function sql<T = any>(env: Record<string, string>, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: env.CHRYS_TEST_OUTBOX_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Waits for a database condition (a poll: the database sends no event for it). */
async function until(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The SQL statements of docs/outbox-postgres.md's ```sql block (the grants a read-only role needs). */
function docsStatements(): string[] {
  const page = readFileSync('docs/outbox-postgres.md', 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(page)?.[1];
  if (block === undefined) throw new Error('docs/outbox-postgres.md has no ```sql block');
  return block.split(';').map((st) => st.trim()).filter(Boolean);
}

/**
 * Waits until no locked job's locker has been seen (heartbeat, else lock time) within LOCK_STALE_MS:
 * the next drain's unlockStale (src/outbox/pg/drain.ts) then unlocks them all.
 */
const locksStale = (env: Record<string, string>): Promise<void> =>
  until(async () => (await sql(env, `SELECT 1 FROM graphile_worker.jobs j LEFT JOIN chrys_outbox.drainers d ON d.worker_id = j.locked_by
    WHERE j.locked_by IS NOT NULL AND COALESCE(d.seen_at, j.locked_at) >= now() - make_interval(secs => $1)`, [LOCK_STALE_MS / 1000])).length === 0, 'the locks to go stale');

const runs = (s: Sandbox): number => {
  try {
    return readFileSync(join(s.root, 'runs'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

async function cli(s: Sandbox, env: Record<string, string>, args: string[], exit = 0): Promise<any> {
  const r = await s.run(args, { env });
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(exit);
  return args.includes('--json') ? JSON.parse(r.stdout) : r;
}

const fire = async (s: Sandbox, env: Record<string, string>, session = 's1'): Promise<any> => {
  const r = await s.run(['fire'], { env, input: JSON.stringify({ event: 'after_turn', session_id: session }) });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

/** Drains until the job is no longer pending (its due time is a fraction of a second away). */
async function drainUntilFiled(s: Sandbox, env: Record<string, string>): Promise<any> {
  let last: any;
  for (let i = 0; i < 100; i++) {
    last = await cli(s, env, ['drain-outbox', '--json']);
    if (last.done + last.failed + last.deferred > 0) return last;
    await new Promise((r) => setTimeout(r, 100)); // the job's due_at (0.2 s) has to pass: a clock, not an event
  }
  throw new Error(`the job was never filed: ${JSON.stringify(last)}`);
}

const listed = async (s: Sandbox, env: Record<string, string>, state?: string): Promise<any[]> => (await cli(s, env, ['outbox', 'list', '--json', ...(state ? ['--state', state] : [])])).jobs;

/** Makes a done job look finished `days` ago, where each backend keeps that time. */
async function finishedDaysAgo(s: Sandbox, env: Record<string, string>, backend: Backend, jobId: string, days: number): Promise<void> {
  if (backend === 'postgres') return void (await sql(env, "UPDATE chrys_outbox.finished SET finished_at = now() - $2 * interval '1 day' WHERE job_id = $1", [jobId, days]));
  const path = join(s.configDir, 'hooks', 'outbox', 'done', `${jobId}.json`);
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), last_finished_at: new Date(Date.now() - days * 86_400_000).toISOString() }));
}

/** Moves a done job to failed, as a failed run would have filed it. */
async function fileAsFailed(s: Sandbox, env: Record<string, string>, backend: Backend, jobId: string): Promise<void> {
  if (backend === 'postgres') return void (await sql(env, "UPDATE chrys_outbox.finished SET state = 'failed' WHERE job_id = $1", [jobId]));
  const outbox = join(s.configDir, 'hooks', 'outbox');
  mkdirSync(join(outbox, 'failed'), { recursive: true });
  const job = JSON.parse(readFileSync(join(outbox, 'done', `${jobId}.json`), 'utf8'));
  writeFileSync(join(outbox, 'failed', `${jobId}.json`), JSON.stringify({ ...job, state: 'failed', error: 'exit_code' }));
  rmSync(join(outbox, 'done', `${jobId}.json`));
}

for (const backend of ['files', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !PG_AVAILABLE)(`the outbox on ${backend}`, () => {
    it('fire queues a durable job before it prints; list shows it; a drain runs it once and files it done', async () => {
      const s = sandbox();
      const env = setup(s, backend);
      const decision = await fire(s, env);
      expect(decision.hooks).toMatchObject([{ id: 'follow-up', status: 'queued' }]);
      expect(decision.warnings.filter((w: any) => w.code.startsWith('outbox_'))).toEqual([]);
      const pending = await listed(s, env);
      expect(pending).toMatchObject([{ hook_id: 'follow-up', state: 'pending', session_id: 's1' }]);
      const summary = await drainUntilFiled(s, env);
      expect(summary).toMatchObject({ done: 1, failed: 0 });
      expect(runs(s)).toBe(1);
      expect(await listed(s, env, 'done')).toMatchObject([{ job_id: pending[0].job_id, state: 'done' }]);
      expect(await listed(s, env, 'pending')).toEqual([]);
    });

    it('"not yet" (exit 75) defers the job; outbox_max_retries fails it; retry makes it pending with a fresh count; drop removes it', async () => {
      const s = sandbox();
      const env = setup(s, backend, { shell: 'echo x >> ../runs; exit 75', settings: '  outbox_max_retries: 2\n  outbox_retry_delay_seconds: 0.5\n' });
      await fire(s, env);
      expect(await drainUntilFiled(s, env)).toMatchObject({ deferred: 1 });
      expect(await listed(s, env)).toMatchObject([{ state: 'deferred', attempts: 1 }]);
      let failed: any[] = [];
      for (let i = 0; i < 100 && failed.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 200)); // the deferral's due time (1 s) has to pass: a clock, not an event
        await cli(s, env, ['drain-outbox', '--json']);
        failed = await listed(s, env, 'failed');
      }
      expect(failed).toMatchObject([{ state: 'failed', last_error: 'max_retries' }]);
      expect(runs(s)).toBe(2);
      const retried = await cli(s, env, ['outbox', 'retry', failed[0].job_id, '--json']);
      expect(JSON.stringify(retried)).toContain('requeued');
      expect(await listed(s, env, 'pending')).toMatchObject([{ job_id: failed[0].job_id, attempts: 0 }]);
      await cli(s, env, ['outbox', 'drop', failed[0].job_id]);
      expect(await listed(s, env)).toEqual([]);
    });

    it('the hook reads the payload the agent sent, numbers as numbers', async () => {
      const s = sandbox();
      const env = setup(s, backend, { shell: 'cat "$CHRYS_HOOK_PAYLOAD_FILE" > ../payload; echo x >> ../runs' });
      const r = await s.run(['fire'], { env, input: '{"event": "after_turn", "session_id": "p", "n": 12, "big": 12345678901234567890, "x": 1.5, "nul": "a\\u0000b"}' });
      expect(r.exitCode, r.stderr).toBe(0);
      await drainUntilFiled(s, env);
      const text = readFileSync(join(s.root, 'payload'), 'utf8');
      expect(JSON.parse(text)).toMatchObject({ session_id: 'p', n: 12, x: 1.5, nul: 'a\u0000b' });
      expect(text).toContain('"big":12345678901234567890'); // the spelling kept, as the file outbox keeps it
      if (backend === 'postgres') {
        // The record of the run too: filed through text, not PostgreSQL's JSON functions (they refuse \u0000).
        const [filed] = await sql(env, "SELECT job::text AS job FROM chrys_outbox.finished WHERE state = 'done'");
        expect(filed.job).toContain('"big":12345678901234567890');
        expect(JSON.parse(filed.job).payload.nul).toBe('a\u0000b');
      }
    });

    it('drain-outbox --prune-done DAYS deletes the done jobs finished longer ago, not newer or failed ones; --watch refuses it (64)', async () => {
      const s = sandbox();
      const env = setup(s, backend);
      for (const session of ['old', 'new', 'failed']) await fire(s, env, session);
      let done = 0;
      for (let i = 0; i < 100 && done < 3; i++) done += (await drainUntilFiled(s, env)).done;
      expect(done).toBe(3);
      const bySession = Object.fromEntries((await listed(s, env, 'done')).map((j) => [j.session_id, j.job_id]));
      for (const session of ['old', 'failed']) await finishedDaysAgo(s, env, backend, bySession[session], 31);
      await fileAsFailed(s, env, backend, bySession.failed);
      expect(await cli(s, env, ['drain-outbox', '--prune-done', '30', '--json'])).toEqual({ days: 30, pruned: [bySession.old] });
      expect((await listed(s, env)).map((j) => [j.session_id, j.state]).sort()).toEqual([['failed', 'failed'], ['new', 'done']]);
      const r = await s.run(['drain-outbox', '--watch', '--prune-done', '30'], { env });
      expect([r.exitCode, r.stderr]).toEqual([64, expect.stringContaining('--watch cannot be combined with --prune-done')]);
    });

    it('a once-per-session hook is queued once for a session', async () => {
      const s = sandbox();
      const env = setup(s, backend, { execution: 'once_per_session: true' });
      await fire(s, env, 'same');
      await fire(s, env, 'same');
      await fire(s, env, 'other');
      expect((await listed(s, env)).map((j) => j.session_id).sort()).toEqual(['other', 'same']);
    });
  });
}

describe.skipIf(!PG_AVAILABLE)('only the database', () => {
  it('an unreachable database: fire falls back to the file outbox (outbox_fallback, password never shown), the next drain moves the job in and runs it', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres');
    const url = new URL(env.CHRYS_TEST_OUTBOX_URL!);
    const dead = { CHRYS_TEST_OUTBOX_URL: `postgres://chrys:${url.password}@127.0.0.1:1/chrys` };
    const decision = await fire(s, dead);
    const fallback = decision.warnings.find((w: any) => w.code === 'outbox_fallback');
    expect(fallback?.message).toMatch(/went to the file outbox/);
    expect(JSON.stringify(decision)).not.toContain(url.password);
    const down = await s.run(['drain-outbox', '--json'], { env: dead });
    expect(down.exitCode).toBe(69);
    expect(down.stderr).toContain('cannot use the PostgreSQL outbox at postgres://chrys:***@127.0.0.1:1/chrys');
    expect(down.stderr + down.stdout).not.toContain(url.password);
    // Seen where it waits before the drain moves it in: outbox list and show against the database.
    const [waiting] = await listed(s, env);
    expect(waiting).toMatchObject({ hook_id: 'follow-up', state: 'pending', fallen_back: true });
    expect(fileJobs(s)).toEqual([`${waiting.job_id}.json`]);
    const text = await s.run(['outbox', 'list'], { env });
    expect(text.stdout).toMatch(/ pending\* /);
    expect(text.stdout).toContain('while PostgreSQL was unreachable');
    expect(await cli(s, env, ['outbox', 'show', waiting.job_id, '--json'])).toMatchObject({ job_id: waiting.job_id, fallen_back: true });
    const summary = await drainUntilFiled(s, env);
    expect(summary.done).toBe(1);
    expect(runs(s)).toBe(1);
    expect((await listed(s, env)).map((j) => [j.job_id, j.state, j.fallen_back])).toEqual([[waiting.job_id, 'done', false]]);
  });

  it('a fallen-back job can be dropped or retried where it waits, in the file outbox', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres');
    const url = new URL(env.CHRYS_TEST_OUTBOX_URL!);
    const dead = { CHRYS_TEST_OUTBOX_URL: `postgres://chrys:${url.password}@127.0.0.1:1/chrys` };
    await fire(s, dead);
    const [waiting] = await listed(s, env);
    expect(await cli(s, env, ['outbox', 'retry', waiting.job_id, '--json'])).toMatchObject({ changes: [{ job_id: waiting.job_id, outcome: 'requeued', from: 'pending' }] });
    expect(await cli(s, env, ['outbox', 'drop', waiting.job_id, '--json'])).toMatchObject({ changes: [{ job_id: waiting.job_id, outcome: 'dropped' }] });
    expect(fileJobs(s)).toEqual([]);
    expect(await listed(s, env)).toEqual([]);
  });

  it('a wrong password and a missing database are outbox_unreachable (69), the password redacted; a bad URL is outbox_config_invalid (78)', async () => {
    const s = sandbox();
    setup(s, 'postgres');
    const url = new URL(cluster().url);
    const wrong = `postgres://chrys:Secret-${url.password.slice(0, 4)}-x@127.0.0.1:${url.port}/chrys`;
    for (const [value, exit, text] of [[wrong, 69, 'wrong password'], [`postgres://chrys:${url.password}@127.0.0.1:${url.port}/nope`, 69, 'no such database'], ['postgres://chrys:p@ss@[::1', 78, 'not a valid URL']] as const) {
      const r = await s.run(['outbox', 'list'], { env: { CHRYS_TEST_OUTBOX_URL: value } });
      expect(r.exitCode, r.stderr).toBe(exit);
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toContain(new URL(wrong).password);
      expect(r.stderr).not.toContain(url.password);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('outbox list and show make no schema: a fresh database is an empty outbox left as it was, and a role that may only read sees the jobs', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres');
    const owner = new URL(env.CHRYS_TEST_OUTBOX_URL!);
    const database = owner.pathname.slice(1);
    // Roles belong to the cluster, so the name is this database's own.
    const role = `viewer_${database}`;
    await sql(env, `CREATE ROLE ${role} LOGIN PASSWORD 'viewer-pw'`);
    const viewer = { CHRYS_TEST_OUTBOX_URL: `postgres://${role}:viewer-pw@127.0.0.1:${owner.port}/${database}` };
    const schemas = async (): Promise<number> => Number((await sql(env, "SELECT count(*) AS n FROM pg_namespace WHERE nspname IN ('chrys_outbox', 'graphile_worker')"))[0].n);

    expect(await listed(s, viewer)).toEqual([]);
    expect(await listed(s, env)).toEqual([]);
    expect(await cli(s, viewer, ['drain-outbox', '--dry-run', '--json'])).toMatchObject({ considered: 0, jobs: [] });
    // A drain makes the schemas, which this role may not: said as such, not as a bug to report.
    const refused = await cli(s, viewer, ['drain-outbox'], 74);
    expect(refused.stderr).toContain('this database role may not do what the command needs in the PostgreSQL outbox (permission denied');
    expect(refused.stderr).not.toContain('please report');
    const unknown = await cli(s, viewer, ['outbox', 'show', 'no-such-job'], 65);
    expect(unknown.stderr).toContain('no job "no-such-job" in the outbox');
    expect(await schemas()).toBe(0);

    await fire(s, env);
    expect(await schemas()).toBe(2);
    // The page's own statements, for the role it calls `viewer`: the grants first, the policy after.
    const [grants, policy] = docsStatements().reduce<[string[], string[]]>(([g, p], st) => (st.startsWith('CREATE POLICY') ? [g, [...p, st]] : [[...g, st], p]), [[], []]);
    expect(grants).toHaveLength(2);
    expect(policy).toHaveLength(1);
    for (const st of grants) await sql(env, st.replaceAll('viewer', role));
    // graphile-worker keeps row-level security on its private tables: without a policy the role reads no payloads, and says so.
    for (const args of [['outbox', 'list'], ['outbox', 'show', 'no-such-job'], ['drain-outbox', '--dry-run']]) {
      const hidden = await cli(s, viewer, args, 74);
      expect(hidden.stderr).toContain('this database role cannot read 1 pending job of the PostgreSQL outbox (row-level security on graphile_worker._private_jobs)');
    }
    await sql(env, policy[0]!.replaceAll('viewer', role));
    const [job] = await listed(s, viewer);
    expect(job).toMatchObject({ hook_id: 'follow-up', event: 'after_turn', session_id: 's1', state: 'pending' });
    expect((await cli(s, viewer, ['outbox', 'show', job.job_id, '--json'])).job_id).toBe(job.job_id);
    expect((await cli(s, viewer, ['drain-outbox', '--dry-run', '--json'])).jobs).toMatchObject([{ job_id: job.job_id, hook_id: 'follow-up' }]);
  });

  it.concurrent('two drainers at once start each of 40 jobs exactly once', async (t) => {
    const s = sandboxFor(t);
    s.write('count.py', 'import json, os\nprint(json.load(open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"]))["n"], file=open("../runs", "a"))\n');
    const env = setup(s, 'postgres', { shell: 'python3 ../count.py' });
    for (let n = 0; n < 40; n++) {
      const r = await s.run(['fire'], { env, input: JSON.stringify({ event: 'after_turn', session_id: 'c', n }) });
      expect(r.exitCode).toBe(0);
    }
    let done = 0;
    for (let i = 0; i < 100 && done < 40; i++) {
      const [a, b] = await Promise.all([cli(s, env, ['drain-outbox', '--json']), cli(s, env, ['drain-outbox', '--json'])]);
      done += a.done + b.done;
    }
    expect(done).toBe(40);
    const seen = readFileSync(join(s.root, 'runs'), 'utf8').split('\n').filter(Boolean);
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
  }, 180_000); // 40 firings and the drains' process starts: minutes on a loaded 2-core machine

  it.concurrent('kill -9 of a drainer mid-job loses nothing: not started again while its hook runs on, run again once the hook is gone; the job waiting in its local queue runs once', async (t) => {
    const s = sandboxFor(t);
    // One hook at a time: the second job waits in the drainer's local queue, fetched and locked but not started.
    const env = setup(s, 'postgres', { delay: 0, settings: '  max_parallel_hooks: 1\n', shell: 'echo start >> ../runs; if [ ! -e ../second ]; then touch ../second; exec sleep 600; fi' });
    await fire(s, env, 's1');
    await fire(s, env, 's2');
    const child = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false, detached: true });
    await eventually(() => runs(s) === 1, 30_000, 'the first start');
    await until(async () => (await sql(env, 'SELECT 1 FROM graphile_worker.jobs WHERE locked_by IS NOT NULL')).length === 2, 'both jobs locked by the drainer');
    process.kill(-child.pid!, 'SIGKILL'); // the drainer's group; the hook leads a group of its own and runs on
    await child;
    const notes = readdirSync(join(s.configDir, 'hooks', 'outbox', 'locks')).filter((f) => f.endsWith('.pgid'));
    expect(notes).toHaveLength(1);
    const first = notes[0]!.replace(/\.pgid$/, '');
    const hook = Number(readFileSync(join(s.configDir, 'hooks', 'outbox', 'locks', notes[0]!), 'utf8'));
    expect(process.kill(hook, 0)).toBe(true);
    expect(await listed(s, env, 'pending')).toHaveLength(2);
    let seen: any;
    try {
      // Once the dead drainer's locks are stale (10 s) a drain runs the waiting job, sees the first job's hook alive, and leaves it.
      await locksStale(env);
      for (let i = 0; i < 200 && !seen; i++) seen = (await cli(s, env, ['drain-outbox', '--json'])).jobs.find((j: any) => j.outcome === 'claimed');
      expect(seen).toMatchObject({ job_id: first });
      expect(runs(s)).toBe(2);
      expect((await listed(s, env, 'done')).map((j) => j.job_id)).toEqual([expect.not.stringMatching(first)]);
    } finally {
      process.kill(-hook, 'SIGKILL');
    }
    await eventually(() => { try { process.kill(hook, 0); return false; } catch { return true; } }, 10_000, 'the hook gone');
    await locksStale(env);
    let done = 0;
    for (let i = 0; i < 200 && done === 0; i++) done = (await cli(s, env, ['drain-outbox', '--json'])).done;
    expect(done).toBe(1);
    expect(runs(s)).toBe(3);
    const filed = await listed(s, env, 'done');
    expect(filed).toHaveLength(2);
    // The killed start counts; so does the waiting job's fetch, a start that never came (counted, never missed).
    expect(filed.every((j) => j.attempts === 2)).toBe(true);
  }, 90_000);

  it.concurrent('a watcher stopped with SIGTERM hands back the job waiting in its local queue, its start not counted; the stopped run is due again', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { delay: 0, settings: '  max_parallel_hooks: 1\n', shell: 'echo start >> ../runs; while [ ! -e ../release ]; do sleep 0.05; done' });
    await fire(s, env, 's1');
    await fire(s, env, 's2');
    const child = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false });
    await eventually(() => runs(s) === 1, 30_000, 'the first start');
    await until(async () => (await sql(env, 'SELECT 1 FROM graphile_worker.jobs WHERE locked_by IS NOT NULL')).length === 2, 'both jobs locked by the watcher');
    child.kill('SIGTERM');
    const stopped = await child;
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    expect(await sql(env, 'SELECT 1 FROM graphile_worker.jobs WHERE locked_at IS NOT NULL')).toEqual([]);
    // The stopped run counted its start; the waiting job was never started.
    expect((await listed(s, env, 'pending')).map((j) => j.attempts).sort()).toEqual([0, 1]);
    expect(runs(s)).toBe(1);
    writeFileSync(join(s.root, 'release'), '');
    expect(await cli(s, env, ['drain-outbox', '--json'])).toMatchObject({ done: 2 });
    expect(runs(s)).toBe(3);
  }, 90_000);

  it.concurrent('a watcher runs the hook as the hooks file says now: an edit is seen by the jobs that start a second later', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { delay: 0, shell: 'echo one >> ../runs' });
    const child = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false });
    try {
      await fire(s, env, 's1');
      await eventually(() => runs(s) === 1, 30_000, 'the first run');
      const hooksFile = join(s.configDir, 'hooks', 'hooks.yaml');
      writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace('echo one', 'echo two'));
      await new Promise((r) => setTimeout(r, 1200)); // the drain's one look at the hooks serves a second: a clock, not an event
      await fire(s, env, 's2');
      await eventually(() => runs(s) === 2, 30_000, 'the second run');
      expect(readFileSync(join(s.root, 'runs'), 'utf8')).toBe('one\ntwo\n');
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  }, 60_000);

  it.concurrent('a job that runs past the stale time under a live drainer is not started again by another drain', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { shell: 'echo start >> ../runs; for i in $(seq 1 1200); do [ -e ../go ] && exit 0; sleep 0.05; done; exit 1', execution: 'timeout_seconds: 120\n' });
    await fire(s, env);
    const first = execa(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false });
    await eventually(() => runs(s) === 1, 30_000, 'the first start');
    // Past the 10 s a lock may go unrefreshed: the first drain's heartbeat must be what keeps its job.
    await until(async () => (await sql(env, 'SELECT 1 FROM graphile_worker.jobs WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)', [LOCK_STALE_MS / 1000])).length === 1, 'the lock to be older than the stale time');
    // The lock is held under the id the drainer beats for (a drainer on another machine has no process group to check).
    const locks = await sql(env, `SELECT j.locked_by, d.seen_at > now() - interval '5 seconds' AS fresh FROM graphile_worker.jobs j
      LEFT JOIN chrys_outbox.drainers d ON d.worker_id = j.locked_by WHERE j.locked_by IS NOT NULL`);
    expect(locks).toMatchObject([{ fresh: true }]);
    const second = await cli(s, env, ['drain-outbox', '--json']);
    expect(second.ran).toBe(0);
    writeFileSync(join(s.root, 'go'), '');
    const finished = await first;
    expect(finished.exitCode, finished.stderr).toBe(0);
    expect(JSON.parse(finished.stdout)).toMatchObject({ done: 1 });
    expect(runs(s)).toBe(1);
  }, 120_000);

  // A cluster of its own: the other tests of the file use theirs meanwhile.
  it.concurrent('the server gone mid-drain: the drain says outbox_unreachable (69, no password); after the restart the job is not lost and runs', async (t) => {
    const s = sandboxFor(t);
    const own = await ownCluster(t);
    const env = setup(s, 'postgres', { delay: 0, shell: 'echo start >> ../runs; while [ ! -e ../release ]; do sleep 0.05; done' }, () => own);
    await fire(s, env);
    const drain = s.run(['drain-outbox', '--json'], { env });
    await eventually(() => runs(s) === 1, 30_000, 'the first start');
    own.pgStop('fast');
    try {
      writeFileSync(join(s.root, 'release'), ''); // the hook ends while the server is down: its filing cannot happen
      const r = await drain;
      expect(r.exitCode, r.stderr + r.stdout).toBe(69);
      expect(r.stderr).toContain('cannot use the PostgreSQL outbox at postgres://chrys:***@');
      expect(r.stderr + r.stdout).not.toContain(own.password);
    } finally {
      own.pgStart();
    }
    expect(await listed(s, env, 'pending')).toHaveLength(1);
    await locksStale(env); // its lock goes stale after 10 s
    let done = 0;
    for (let i = 0; i < 200 && done === 0; i++) done = (await cli(s, env, ['drain-outbox', '--json'])).done;
    expect(done).toBe(1);
    expect(runs(s)).toBe(2);
    expect(await listed(s, env, 'pending')).toEqual([]);
  }, 90_000);

  it('fire does not hang on a database that holds a lock: past its query timeout the job goes to the file outbox', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres');
    await fire(s, env); // creates the schema
    const holder = new pg.Client({ connectionString: env.CHRYS_TEST_OUTBOX_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE graphile_worker._private_jobs IN ACCESS EXCLUSIVE MODE');
      const decision = await fire(s, env, 's2');
      expect(decision.warnings.find((w: any) => w.code === 'outbox_fallback')?.message).toMatch(/went to the file outbox/);
      expect(fileJobs(s)).toHaveLength(1);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  }, 60_000);

  it('outbox migrate --to files and back --to postgres moves every pending job, none lost or doubled; a drain then runs each once', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 3600 });
    for (const session of ['a', 'b', 'c']) await fire(s, env, session);
    const ids = (await listed(s, env, 'pending')).map((j) => j.job_id).sort();
    expect(ids).toHaveLength(3);
    expect(await cli(s, env, ['outbox', 'migrate', '--to', 'files', '--json'])).toEqual({ to: 'files', moved: 3, left_running: 0 });
    // Still listed against the database: in the file outbox, which a drain against PostgreSQL would move back in.
    expect((await listed(s, env)).map((j) => [j.job_id, j.fallen_back]).sort()).toEqual(ids.map((id) => [id, true]));
    expect(fileJobs(s)).toEqual(ids.map((id) => `${id}.json`));
    expect(await cli(s, env, ['outbox', 'migrate', '--to', 'postgres', '--json'])).toEqual({ to: 'postgres', moved: 3, left_running: 0 });
    expect(fileJobs(s)).toEqual([]);
    const back = await listed(s, env, 'pending');
    expect(back.map((j) => j.job_id).sort()).toEqual(ids);
    expect(back.map((j) => j.due_at).every((d: string) => Date.parse(d) > Date.now() + 3000_000)).toBe(true);
    expect(await cli(s, env, ['outbox', 'migrate', '--to', 'postgres', '--json'])).toEqual({ to: 'postgres', moved: 0, left_running: 0 });
    for (const id of ids) await cli(s, env, ['outbox', 'retry', id]);
    const summary = await cli(s, env, ['drain-outbox', '--json']);
    expect(summary.done).toBe(3);
    expect(runs(s)).toBe(3);
  });

  it('a row whose payload is not a Chrys job is filed failed as outbox_invalid_job; the Chrys job beside it runs, nothing else touched', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 0 });
    await fire(s, env);
    await sql(env, "SELECT graphile_worker.add_job('chrys:host:test-host', '{\"not\": \"a job\"}'::json)");
    const other = await sql(env, "SELECT (graphile_worker.add_job('someone-else', '{\"x\": 1}'::json)).id::text AS id");
    const summary = await cli(s, env, ['drain-outbox', '--json']);
    expect(summary.done).toBe(1);
    expect(summary.jobs).toContainEqual(expect.objectContaining({ outcome: 'invalid_job', error: expect.stringContaining('outbox_invalid_job') }));
    expect(runs(s)).toBe(1);
    const bad = await sql(env, "SELECT state, job->>'error' AS error, job->'payload'->'row_payload' AS row FROM chrys_outbox.finished WHERE job_id LIKE 'pg-%'");
    expect(bad).toEqual([{ state: 'failed', error: 'outbox_invalid_job', row: { not: 'a job' } }]);
    expect(await sql(env, 'SELECT id::text AS id, task_identifier, locked_at FROM graphile_worker.jobs')).toEqual([{ id: other[0].id, task_identifier: 'someone-else', locked_at: null }]);
  });

  it('drain-outbox --dry-run shows each job with its due time and runs nothing', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 3600 });
    await fire(s, env);
    const [job] = await listed(s, env, 'pending');
    const dry = await cli(s, env, ['drain-outbox', '--dry-run', '--json']);
    expect(dry.jobs).toEqual([{ job_id: job.job_id, hook_id: 'follow-up', outcome: 'not_due', due_at: job.due_at }]);
    expect(Date.parse(job.due_at) - Date.now()).toBeGreaterThan(3500_000);
    const text = await cli(s, env, ['drain-outbox', '--dry-run']);
    expect(text.stdout).toContain(`due ${job.due_at}`);
    expect(runs(s)).toBe(0);
    expect(await listed(s, env, 'pending')).toHaveLength(1);
  });

  it('a drainer with another host id runs the portable job, not the one bound to the machine that queued it', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 0, more: `${hookYaml({ id: 'roams', event: 'after_turn', run: "type: shell\nshell: 'echo \"$CHRYS_HOOK_ID\" >> ../runs'", execution: 'mode: async\ndelivery: durable\nportable: true' })}\n` });
    await fire(s, env);
    expect((await listed(s, env, 'pending')).map((j) => j.hook_id).sort()).toEqual(['follow-up', 'roams']);
    hostIs(s, 'other-host');
    expect((await cli(s, env, ['drain-outbox', '--json'])).done).toBe(1);
    expect(readFileSync(join(s.root, 'runs'), 'utf8')).toBe('roams\n');
    expect((await listed(s, env, 'pending')).map((j) => j.hook_id)).toEqual(['follow-up']);
    hostIs(s, 'test-host');
    expect((await cli(s, env, ['drain-outbox', '--json'])).done).toBe(1);
    expect(readFileSync(join(s.root, 'runs'), 'utf8')).toBe('roams\nfollow-up\n');
  });

  it('outbox logs JOB prints the log of a job the database filed; a detached hook is started detached and filed done at its launch', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 0, shell: 'echo "hello from $CHRYS_HOOK_ID"', more: `${hookYaml({ id: 'away', event: 'after_turn', run: "type: shell\nshell: 'echo $$ > ../away.pid; exec sleep 600'", execution: 'mode: fire_and_forget\ndetach: true\ndelivery: durable' })}\n` });
    await fire(s, env);
    const summary = await cli(s, env, ['drain-outbox', '--json']); // returns although the detached hook runs on
    expect(summary.done).toBe(2);
    const pid = Number(await eventually(() => existsSync(join(s.root, 'away.pid')) && readFileSync(join(s.root, 'away.pid'), 'utf8').trim(), 10_000, 'the detached hook'));
    try {
      expect(process.kill(pid, 0)).toBe(true);
    } finally {
      process.kill(-pid, 'SIGKILL');
    }
    const done = await listed(s, env, 'done');
    const job = done.find((j) => j.hook_id === 'follow-up');
    const logs = await cli(s, env, ['outbox', 'logs', job.job_id]);
    expect(logs.stdout).toContain('hello from follow-up');
  });

  it('drain-outbox --limit N starts N hooks and leaves the rest pending, their claims not counted; --dry-run --limit says which', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { delay: 0, settings: '  max_parallel_hooks: 4\n' });
    for (const session of ['s1', 's2', 's3', 's4', 's5']) await fire(s, env, session);
    const dry = await cli(s, env, ['drain-outbox', '--dry-run', '--limit', '2', '--json']);
    expect(dry).toMatchObject({ would_run: 2, skipped: { limit: 3 } });
    const first = await cli(s, env, ['drain-outbox', '--limit', '2', '--json']);
    expect(first).toMatchObject({ ran: 2, done: 2, failed: 0 });
    expect(first.jobs.filter((j: any) => j.outcome !== 'done').every((j: any) => j.outcome === 'limit')).toBe(true);
    expect(runs(s)).toBe(2);
    const left = await listed(s, env, 'pending');
    expect(left).toHaveLength(3);
    expect(left.map((j: any) => j.attempts)).toEqual([0, 0, 0]);
    expect((await cli(s, env, ['drain-outbox', '--limit', '0', '--json'])).ran).toBe(0);
    expect(await listed(s, env, 'pending')).toHaveLength(3);
    expect((await cli(s, env, ['drain-outbox', '--json'])).done).toBe(3);
    expect(runs(s)).toBe(5);
    const watch = await s.run(['drain-outbox', '--watch', '--limit', '1'], { env });
    expect(watch.exitCode).toBe(64);
  });

  it('drain-outbox --limit above max_parallel_hooks, with hooks that take a while, stops at the limit and ends cleanly', async (t) => {
    const s = sandboxFor(t);
    // The limit is reached while hooks still run: the pool's shutdown then waited for them and ended in an error (exit 70, no summary).
    const env = setup(s, 'postgres', { delay: 0, shell: 'sleep 0.4; echo "$CHRYS_HOOK_ID" >> ../runs', settings: '  max_parallel_hooks: 2\n' });
    for (const session of ['s1', 's2', 's3', 's4', 's5', 's6']) await fire(s, env, session);
    const drained = await cli(s, env, ['drain-outbox', '--limit', '3', '--json']);
    expect(drained).toMatchObject({ ran: 3, done: 3, failed: 0 });
    expect(runs(s)).toBe(3);
    const left = await listed(s, env, 'pending');
    expect(left.map((j: any) => j.attempts)).toEqual([0, 0, 0]);
  });

  it('a NUL in one pending job (a prompt, a hook\'s output) does not stop outbox show, logs or drop of any job', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { delay: 60 });
    await fire(s, env, 's1');
    // PostgreSQL's json ->> refuses \u0000 anywhere in a document: a lookup that parsed every payload failed for every job.
    const r = await s.run(['fire'], { env, input: JSON.stringify({ event: 'after_turn', session_id: 's2', user_text: 'a\u0000b' }) });
    expect(r.exitCode, r.stderr).toBe(0);
    const pending = await listed(s, env, 'pending');
    expect(pending).toHaveLength(2);
    for (const job of pending) {
      const shown = await cli(s, env, ['outbox', 'show', job.job_id, '--json']);
      expect(shown.job.job_id ?? shown.id).toBe(job.job_id);
      await cli(s, env, ['outbox', 'logs', job.job_id]);
    }
    await cli(s, env, ['outbox', 'drop', pending[0].job_id]);
    expect((await listed(s, env, 'pending')).map((j: any) => j.job_id)).toEqual([pending[1].job_id]);
  });

  it('drain-outbox --dry-run says what a drain here would do: not another host\'s jobs, and max_retries as a failure', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { delay: 0 });
    hostIs(s, 'machine-a');
    await fire(s, env, 's1');
    await fire(s, env, 's2');
    hostIs(s, 'machine-b');
    // It listed machine-a's jobs as would_run, where the drain here runs none of them.
    expect(await cli(s, env, ['drain-outbox', '--dry-run', '--json'])).toMatchObject({ considered: 0, would_run: 0 });
    expect((await cli(s, env, ['drain-outbox', '--json'])).ran).toBe(0);
    hostIs(s, 'machine-a');
    expect(await cli(s, env, ['drain-outbox', '--dry-run', '--json'])).toMatchObject({ considered: 2, would_run: 2 });
    s.globalHooks(readFileSync(join(s.configDir, 'hooks', 'hooks.yaml'), 'utf8').replace('settings:\n', 'settings:\n  outbox_max_retries: 0\n'));
    const dry = await cli(s, env, ['drain-outbox', '--dry-run', '--json']);
    expect(dry).toMatchObject({ would_run: 0, would_fail: 2 });
    expect(dry.jobs.map((j: any) => j.outcome)).toEqual(['max_retries', 'max_retries']);
    expect(await cli(s, env, ['drain-outbox', '--json'])).toMatchObject({ ran: 0, failed: 2 });
  });

  it('a job drained on one machine shows its log on another: outbox logs and show read the copy filed with the job', async (t) => {
    const drainer = sandboxFor(t);
    // The hook prints an escape sequence (clear the screen): another machine's terminal must not run it.
    const env = setup(drainer, 'postgres', { delay: 0, shell: 'echo "hello from $CHRYS_HOOK_ID"; printf "\\033[2Jx\\n"; echo oops >&2' });
    await fire(drainer, env);
    expect((await cli(drainer, env, ['drain-outbox', '--json'])).done).toBe(1);
    const [job] = await listed(drainer, env, 'done');
    expect((await cli(drainer, env, ['outbox', 'show', job.job_id])).stdout).not.toContain('no such file here');
    // Another machine: a config dir of its own, the same database, and the drainer's log file not there.
    rmSync(job.log_path);
    const laptop = sandboxFor(t);
    hostIs(laptop, 'laptop');
    const logs = await cli(laptop, env, ['outbox', 'logs', job.job_id]);
    expect(logs.stdout).toMatch(/^# hook follow-up \(global, after_turn\) ok exit=0/);
    expect(logs.stdout).toContain('## stdout\nhello from follow-up\n\\e[2Jx\n\n## stderr\noops\n');
    expect(logs.stdout).not.toContain('\u001b');
    expect(logs.stderr).toContain('here: the copy filed with the job by host test-host');
    const shown = await cli(laptop, env, ['outbox', 'show', job.job_id]);
    expect(shown.stdout).toContain(`log ${job.log_path} (no such file here: the copy filed with the job by host test-host)\n  | # hook follow-up`);
    expect(shown.stdout).toContain('  | hello from follow-up');
    expect((await cli(laptop, env, ['outbox', 'show', job.job_id, '--json'])).log_tail).toContain('hello from follow-up');
  });

  /** `outbox logs JOB --follow` on another machine (a config dir and host id of its own), once it printed `awaited`. */
  async function followFromLaptop(t: Parameters<typeof sandboxFor>[0], env: Record<string, string>, jobId: string, awaited: string) {
    const laptop = sandboxFor(t);
    hostIs(laptop, 'laptop');
    const follow = execa(process.execPath, [BIN, 'outbox', 'logs', jobId, '--follow', '--config-dir', laptop.configDir, '--cwd', laptop.workspace], { env: laptop.env(env), extendEnv: false, reject: false, cwd: laptop.workspace });
    let seen = '';
    await Promise.race([
      new Promise<void>((ready) => follow.stdout!.on('data', (c: Buffer) => (seen += c.toString()).includes(awaited) && ready())),
      follow.then((r) => Promise.reject(new Error(`the follower ended first: ${r.stderr}`))),
    ]);
    return { follow, seen };
  }

  it('outbox logs --follow on another machine streams a running hook\'s output before the run ends, once, and ends when the job is filed', async (t) => {
    const drainer = sandboxFor(t);
    const gate = join(drainer.root, 'gate');
    await execa('mkfifo', [gate]);
    const env = setup(drainer, 'postgres', { delay: 0, shell: 'echo first-half; echo to-stderr >&2; read line < ../gate; echo second-half' });
    await fire(drainer, env);
    const [job] = await listed(drainer, env, 'pending');
    const draining = cli(drainer, env, ['drain-outbox', '--json']);
    const { follow, seen } = await followFromLaptop(t, env, job.job_id, 'first-half');
    // The hook is still blocked on its gate: this output can only have come from the database's live output.
    expect(seen).not.toContain('second-half');
    await writeFile(gate, 'go\n');
    expect(await draining).toMatchObject({ done: 1 });
    const r = await follow;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = String(r.stdout);
    expect(out.match(/first-half/g)).toHaveLength(1);
    expect(out.match(/second-half/g)).toHaveLength(1);
    expect(out).toContain('to-stderr');
    expect(out).toMatch(/\n# hook follow-up \(global, after_turn\) ok exit=0/);
    expect(out).not.toContain('## stdout'); // the log's copy of the output is not printed again
    // No live file on either machine: the drainer kept the output in the database only.
    expect(existsSync(join(drainer.configDir, 'hooks', 'logs', 'live'))).toBe(false);
  });

  it('outbox logs --follow of a deferred job prints its last run\'s log once, not that run\'s live output again, then the next run live', async (t) => {
    const drainer = sandboxFor(t);
    // The first run prints and asks to be run again later (exit 75); the second is done.
    const env = setup(drainer, 'postgres', { delay: 0, shell: 'if [ -e ../ran ]; then echo second-run; else touch ../ran; echo first-run; exit 75; fi' });
    await fire(drainer, env);
    expect(await cli(drainer, env, ['drain-outbox', '--json'])).toMatchObject({ deferred: 1 });
    const [job] = await listed(drainer, env, 'deferred');
    const { follow } = await followFromLaptop(t, env, job.job_id, 'first-run');
    await cli(drainer, env, ['outbox', 'retry', job.job_id]);
    expect(await cli(drainer, env, ['drain-outbox', '--json'])).toMatchObject({ done: 1 });
    const r = await follow;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = String(r.stdout);
    expect(out.match(/first-run/g)).toHaveLength(1);
    expect(out.match(/second-run/g)).toHaveLength(1);
    // The first run's whole log, the second's status lines only: its output came live.
    expect(out.match(/## stdout/g)).toHaveLength(1);
  });

  it('outbox logs --follow ends when the job is dropped', async (t) => {
    const s = sandboxFor(t);
    const env = setup(s, 'postgres', { delay: 600 });
    await fire(s, env);
    const [job] = await listed(s, env, 'pending');
    const follow = execa(process.execPath, [BIN, 'outbox', 'logs', job.job_id, '--follow', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false, cwd: s.workspace });
    await new Promise<void>((ready) => follow.stderr!.on('data', (c: Buffer) => c.toString().includes(`following job ${job.job_id}`) && ready()));
    await cli(s, env, ['outbox', 'drop', job.job_id]);
    const r = await follow;
    expect(r.exitCode, String(r.stderr)).toBe(0);
  });
});

