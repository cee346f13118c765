// More of drain-outbox against PostgreSQL (outbox/pg/drain.ts; pg-drain.test.ts
// has the rest): a hook that outlived its drainer, a watcher stopped mid-run,
// its heartbeat, --limit, the job's workspace and payload, a detached launch
// that fails. A real throw-away cluster, real hook processes, the real loader.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/outbox/job.js';
import { drainPostgres } from '../../src/outbox/pg/drain.js';
import { listPending, pendingEntry } from '../../src/outbox/pg/queue.js';
import { type Job as ParsedJob, parseJob } from '../../src/outbox/job.js';
import { liveLogPath } from '../../src/run/live-log.js';
import { locksDir } from '../../src/outbox/store.js';
import { db as dbOf, durable, hooksFile, job, drain, ran, HOUR_AGO } from '../helpers/pg-drain.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';
import { type Sandbox, eventually, hookYaml, sandboxFor } from '../helpers/sandbox.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1]) => dbOf(cluster, t);

/** A live process group noted as the one a start of `jobId` left running (a sleep, killed when the test ends). */
async function noteLiveGroup(t: { onTestFinished: (fn: () => void) => void }, s: Sandbox, jobId: string): Promise<void> {
  const previous: ChildProcess = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.onTestFinished(() => {
    try {
      process.kill(-previous.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  });
  await new Promise((r) => previous.once('spawn', r));
  mkdirSync(locksDir(s.configDir), { recursive: true });
  writeFileSync(join(locksDir(s.configDir), `${jobId}.pgid`), String(previous.pid));
}

describe.skipIf(!PG_AVAILABLE)('drainPostgres, more', () => {
  it('puts a job back, unstarted, while the hook of its earlier start still runs here', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    await noteLiveGroup(t, s, 'again');
    await d.add(job(s, 'again', { retries: 1, last_started_at: HOUR_AGO }));
    const before = Date.now();
    const out = await drain(s, d);
    expect(out.jobs).toEqual([{ job_id: 'again', hook_id: 'deliver', outcome: 'claimed' }]);
    expect(out.skipped.claimed).toBe(1);
    expect(ran(s)).toEqual([]);
    const [row] = await listPending(d.c);
    expect(row!.run_at.getTime()).toBeGreaterThanOrEqual(before + 1900);
    expect(row!.run_at.getTime()).toBeLessThan(Date.now() + 2100);
    expect(pendingEntry(row!).job.retries).toBe(1);
  });

  it('a watcher stopped mid-run stops the hook and puts its job back due at once, the start counted', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'touch ../started; exec sleep 30')));
    await d.add(job(s, 'long'));
    const stopper: { stop?: () => void } = {};
    const watching = drain(s, d, { watch: true, stopper });
    await eventually(() => existsSync(join(s.root, 'started')), 30_000, 'the hook to start');
    stopper.stop!();
    const out = await watching;
    expect(out.jobs).toMatchObject([{ job_id: 'long', outcome: 'pending' }]);
    expect(out.pending).toBe(1);
    const [row] = await listPending(d.c);
    expect(row!.run_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(pendingEntry(row!).job).toMatchObject({ state: 'pending', retries: 1 });
  });

  it('runs a fresh job even when a note names a live group (no earlier start can have left it)', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    await noteLiveGroup(t, s, 'fresh');
    await d.add(job(s, 'fresh'));
    const out = await drain(s, d);
    expect(out.jobs).toMatchObject([{ job_id: 'fresh', outcome: 'done' }]);
    expect(ran(s)).toEqual(['ran']);
  });

  it('runs a job in its payload\'s cwd when it exists, else in the drain\'s, with the payload\'s numbers as written and its profile', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', 'pwd >> ../ran; cat > ../payload-$CHRYS_HOOK_ID')));
    const elsewhere = join(s.root, 'elsewhere');
    mkdirSync(elsewhere);
    const text = JSON.stringify(job(s, 'there', { payload: { event: 'after_turn', session_id: 'sess', cwd: elsewhere, profile: 'work', n: 0 } })).replace('"n":0', '"n":1.0');
    await d.add(parseJob(text) as ParsedJob);
    const out = await drain(s, d);
    expect(out.jobs).toMatchObject([{ job_id: 'there', outcome: 'done' }]);
    expect(ran(s)).toEqual([elsewhere]);
    expect(readFileSync(join(s.root, 'payload-deliver'), 'utf8')).toContain('"n":1.0');
    expect(out.warnings).toEqual([]);
    expect(existsSync(liveLogPath(s.configDir, 'there')!)).toBe(false);
    await d.add(job(s, 'gone-cwd', { payload: { event: 'after_turn', session_id: 'sess', cwd: join(s.root, 'no-such-dir') } }));
    await d.add(job(s, 'odd-cwd', { payload: { event: 'after_turn', session_id: 'sess', cwd: 7 } }));
    await drain(s, d);
    expect(ran(s).slice(1)).toEqual([s.workspace, s.workspace]);
  });

  it('keeps a job\'s key when it defers it', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'exit 75')));
    await d.add(job(s, 'n'), { key: 'custom-key' });
    expect((await drain(s, d)).jobs).toMatchObject([{ outcome: 'deferred' }]);
    expect((await listPending(d.c)).map((r) => r.key)).toEqual(['custom-key']);
  });

  it('runs a trusted project job', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile(''));
    const path = s.projectHooks(hooksFile('', durable('deliver', 'echo project >> ../ran')));
    await d.add(job(s, 'p', { hook_source: 'project', hook_source_path: path }));
    const out = await drain(s, d, { projectHooks: true });
    expect(out.jobs).toMatchObject([{ job_id: 'p', outcome: 'done' }]);
    expect(ran(s)).toEqual(['project']);
  });

  it('migrates a database no drain has used, then runs what fire left in the files', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    s.write(join(s.configDir, 'hooks', 'outbox', 'pending', 'f1.json'), JSON.stringify(job(s, 'f1')));
    const url = cluster().newDatabase();
    const out = await drainPostgres({ configDir: s.configDir, cwd: s.workspace }, { backend: 'postgres', url, urlEnv: 'X', hostId: 'box' });
    expect(out.jobs).toMatchObject([{ job_id: 'f1', outcome: 'done' }]);
  });

  it('--limit: starts one, takes no more; --limit 0 puts the job it was handed back', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo $CHRYS_HOOK_ID >> ../ran')));
    for (const id of ['a', 'b', 'c']) await d.add(job(s, id));
    const one = await drain(s, d, { limit: 1 });
    expect(one.jobs.map((j) => j.outcome)).toEqual(['done']);
    const zero = await drain(s, d, { limit: 0 });
    expect(zero.jobs.map((j) => j.outcome)).toEqual(['limit']);
    expect(zero.skipped.limit).toBe(1);
    const left = await listPending(d.c);
    expect(left).toHaveLength(2);
    for (const row of left) expect(row.run_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('dry run: a job not run (claimed, not due, invalid) leaves room under --limit', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'true')));
    await d.add(job(s, 'held'));
    await d.c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w' WHERE key = 'held'");
    await d.add(job(s, 'later'), { runAt: new Date(Date.now() + 3600_000).toISOString() });
    await d.c.query("SELECT graphile_worker.add_job('chrys:host:box', '[1]'::json)");
    await d.add(job(s, 'due'));
    const out = await drain(s, d, { dryRun: true, limit: 1 });
    expect(out.jobs.map((j) => [j.job_id.replace(/^pg-\d+$/, 'pg'), j.outcome])).toEqual([['held', 'claimed'], ['later', 'not_due'], ['pg', 'invalid_job'], ['due', 'would_run']]);
  });

  it('files a detached hook that cannot start as failed, with its log', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', hookYaml({ id: 'deliver', event: 'after_turn', run: `type: command\nargv: [${join(s.root, 'no-such-program')}]`, execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })));
    await d.add(job(s, 'det'));
    const out = await drain(s, d);
    expect(out.jobs).toHaveLength(1);
    const [report] = out.jobs;
    expect(report).toMatchObject({ job_id: 'det', outcome: 'failed', error: expect.any(String) });
    expect(out).toMatchObject({ ran: 1, failed: 1, would_fail: 0 });
    const [[, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect(folder).toBe('failed');
    expect(filed).toMatchObject({ state: 'failed', error: report!.error });
    expect(typeof filed.last_finished_at).toBe('string');
  });

  it('files a detached launch done with its log path, counted as run', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', hookYaml({ id: 'deliver', event: 'after_turn', run: "type: shell\nshell: 'echo out'", execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })));
    await d.add(job(s, 'det'));
    const out = await drain(s, d);
    expect(out).toMatchObject({ ran: 1, done: 1, would_fail: 0 });
    const logPath = out.jobs[0]!.log_path;
    expect(typeof logPath).toBe('string');
    const [[, , filed]] = await d.finished() as [[string, string, Job]];
    expect(filed.log_path).toBe(logPath);
  });

  it('a watcher says it is alive while it waits, and again every two seconds', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile(''));
    const stopper: { stop?: () => void } = {};
    let ready!: () => void;
    const listening = new Promise<void>((r) => (ready = r));
    const watching = drain(s, d, { watch: true, stopper, onReady: () => ready() });
    try {
      await listening;
      const seen = async (): Promise<{ host_id: string; seen_at: Date }[]> => (await d.c.query('SELECT host_id, seen_at FROM chrys_outbox.drainers')).rows;
      let first: Date | undefined;
      for (let i = 0; ; i++) {
        const rows = await seen();
        if (rows.length > 0 && first === undefined) first = rows[0]!.seen_at;
        if (first !== undefined && rows[0]!.seen_at.getTime() > first.getTime()) break;
        if (i > 200) throw new Error(`no heartbeat: ${JSON.stringify(rows)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await seen()).map((r) => r.host_id)).toEqual(['box']);
    } finally {
      stopper.stop!();
      await watching;
    }
    expect((await d.c.query('SELECT 1 FROM chrys_outbox.drainers')).rowCount).toBe(0);
  });
});
