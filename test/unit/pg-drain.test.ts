// drain-outbox against PostgreSQL (outbox/pg/drain.ts), in-process, with a
// real throw-away cluster (one for the file, a database per test), real hook
// processes and the real loader: what a drain runs, files, defers and reports.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChrysError } from '../../src/core/errors.js';
import type { Job } from '../../src/outbox/job.js';
import { drainPostgres } from '../../src/outbox/pg/drain.js';
import { listPending, pendingEntry } from '../../src/outbox/pg/queue.js';
import { historyPath } from '../../src/state/history.js';
import { db as dbOf, durable, hooksFile, job, drain, ran, outcomes } from '../helpers/pg-drain.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';
import { hookYaml, sandboxFor } from '../helpers/sandbox.js';

const cluster = useCluster();
const db = (t: Parameters<typeof dbOf>[1]) => dbOf(cluster, t);
describe.skipIf(!PG_AVAILABLE)('drainPostgres', () => {
  it('runs a due job in its workspace, files it done with its log, and records the run', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'pwd >> ../ran; echo out; echo err >&2')));
    await d.add(job(s, 'a'));
    const out = await drain(s, d);
    expect(ran(s)).toEqual([s.workspace]);
    expect(out).toMatchObject({ considered: 1, ran: 1, done: 1, failed: 0, failed_jobs: [] });
    expect(out.jobs).toEqual([{ job_id: 'a', hook_id: 'deliver', outcome: 'done', log_path: expect.any(String) }]);
    const [[id, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect([id, folder]).toEqual(['a', 'done']);
    expect(filed).toMatchObject({ state: 'done', retries: 1, exit_code: 0, error: null, stderr_tail: 'err\n', log_host: 'box', log_path: out.jobs[0]!.log_path });
    expect(String(filed.log_copy)).toContain('out');
    expect(typeof filed.last_started_at).toBe('string');
    expect(await d.pending()).toEqual([]);
    const hooks = readFileSync(historyPath(s.configDir, { source: 'global', file: join(s.configDir, 'hooks', 'hooks.yaml'), id: 'deliver' }), 'utf8');
    expect(JSON.parse(hooks.trim())).toMatchObject({ hook_id: 'deliver', status: 'ok', session_id: 'sess', exit_code: 0 });
    // The drainer's heartbeat row is gone once it ends.
    expect((await d.c.query('SELECT 1 FROM chrys_outbox.drainers')).rowCount).toBe(0);
  });

  it('runs the portable jobs and those of this machine only', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo $CHRYS_HOOK_ID >> ../ran')));
    await d.add(job(s, 'mine'));
    await d.add(job(s, 'theirs'), { host: 'other' });
    await d.add(job(s, 'portable', { portable: true }), { host: 'other' });
    const out = await drain(s, d);
    expect(outcomes(out)).toEqual([['mine', 'done'], ['portable', 'done']]);
    expect((await d.pending()).map((j) => j.job_id)).toEqual(['theirs']);
  });

  it('files a failed run with its error and stderr tail, and lists the failed jobs', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo broken >&2; exit 3')));
    await d.add(job(s, 'f'));
    const out = await drain(s, d);
    expect(out).toMatchObject({ ran: 1, failed: 1, done: 0 });
    expect(out.jobs[0]).toMatchObject({ job_id: 'f', outcome: 'failed', stderr_tail: 'broken\n', error: expect.any(String) });
    const [[, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect(folder).toBe('failed');
    expect(filed).toMatchObject({ state: 'failed', exit_code: 3, retries: 1, error: out.jobs[0]!.error });
    expect(out.failed_jobs).toEqual([{ job_id: 'f', hook_id: 'deliver', error: out.jobs[0]!.error, failed_at: filed.last_finished_at }]);
  });

  it('defers a run that says "not yet" as a row due later, and fails it once the starts are spent', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('  outbox_retry_delay_seconds: 600\n  outbox_max_retries: 2\n', durable('deliver', 'exit 75')));
    await d.add(job(s, 'n'));
    const before = Date.now();
    const out = await drain(s, d);
    expect(out).toMatchObject({ ran: 1, deferred: 1 });
    const [report] = out.jobs;
    expect(report).toMatchObject({ job_id: 'n', outcome: 'deferred' });
    const due = Date.parse(report!.due_at!);
    expect(due).toBeGreaterThanOrEqual(before + 600_000);
    expect(due).toBeLessThan(Date.now() + 600_000 + 1000);
    const [waiting] = await d.pending();
    expect(waiting).toMatchObject({ job_id: 'n', state: 'pending', error: 'deferred', deferred_reason: 'exited with status 75 (not yet)', retries: 1, due_at: report!.due_at });
    // Due now, its second start spent on another "not yet": failed as max_retries.
    await d.c.query('UPDATE graphile_worker._private_jobs SET run_at = now()');
    const second = await drain(s, d);
    expect(second.jobs[0]).toMatchObject({ job_id: 'n', outcome: 'failed', error: 'max_retries' });
    const [[, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect(folder).toBe('failed');
    expect(filed).toMatchObject({ error: 'max_retries', retries: 2, deferred_reason: 'exited with status 75 (not yet)' });
  });

  it('warns about a retry_after_seconds out of range, and defers by the clamped time', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo "{\\"retry_after_seconds\\": -5}" > "$CHRYS_HOOK_RESULT"')));
    await d.add(job(s, 'r'));
    const out = await drain(s, d);
    expect(out.jobs[0]).toMatchObject({ outcome: 'deferred' });
    expect(out.warnings.map((w) => w.code)).toContain('retry_after_invalid');
  });

  it('fails a job whose hook is gone, and one whose starts are spent, without running them', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('  outbox_max_retries: 3\n', durable('deliver', 'echo ran >> ../ran')));
    await d.add(job(s, 'stale', { hook_id: 'gone' }));
    await d.add(job(s, 'spent', { retries: 3 }));
    const out = await drain(s, d);
    expect(ran(s)).toEqual([]);
    expect(outcomes(out)).toEqual([['spent', 'max_retries'], ['stale', 'stale_source']]);
    const byId = Object.fromEntries(out.jobs.map((j) => [j.job_id, j]));
    expect(byId.spent!.error).toBe('started 3 times (outbox_max_retries 3)');
    expect(byId.stale!.error).toContain('hook "gone" is no longer in');
    expect(out).toMatchObject({ failed: 2, ran: 0 });
    const filed = Object.fromEntries((await d.finished()).map(([id, folder, j]) => [id, [folder, j.error, j.retries]]));
    expect(filed).toEqual({ spent: ['failed', 'max_retries', 3], stale: ['failed', 'stale_source', 0] });
  });

  it('puts an untrusted project job back for later, unrun', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile(''));
    const path = s.projectHooks(hooksFile('', durable('deliver', 'echo project >> ../ran')));
    await d.add(job(s, 'p', { hook_source: 'project', hook_source_path: path }));
    const before = Date.now();
    const out = await drain(s, d);
    expect(out.jobs).toEqual([{ job_id: 'p', hook_id: 'deliver', outcome: 'untrusted' }]);
    expect(out.skipped.untrusted).toBe(1);
    expect(ran(s)).toEqual([]);
    const [row] = await listPending(d.c);
    expect(row!.run_at.getTime()).toBeGreaterThanOrEqual(before + 59_000);
    expect(pendingEntry(row!).job.retries).toBe(0);
  });

  it('files a row that is not a Chrys job as failed, its payload kept', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile(''));
    const id = (await d.c.query("SELECT (graphile_worker.add_job('chrys:host:box', '{\"not\": \"a job\"}'::json)).id::text AS id")).rows[0].id as string;
    const out = await drain(s, d);
    expect(out.jobs).toEqual([{ job_id: `pg-${id}`, hook_id: '', outcome: 'invalid_job', error: 'outbox_invalid_job: job_id and hook_id must be strings' }]);
    const [[jobId, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect([jobId, folder]).toEqual([`pg-${id}`, 'failed']);
    expect(filed).toMatchObject({ error: 'outbox_invalid_job', invalid_reason: 'job_id and hook_id must be strings', payload: { row_payload: { not: 'a job' } }, state: 'failed', hook_id: '' });
  });

  it('moves the jobs fire left in the file outbox into the database first, and runs them', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    s.write(join(s.configDir, 'hooks', 'outbox', 'pending', 'f1.json'), JSON.stringify(job(s, 'f1')));
    s.write(join(s.configDir, 'hooks', 'outbox', 'pending', 'f2.json'), JSON.stringify(job(s, 'f2')));
    const out = await drain(s, d);
    expect(out.warnings).toContainEqual({ code: 'outbox_fallback', message: 'moved 2 jobs that fire wrote to the file outbox while PostgreSQL was unreachable into the database' });
    expect(outcomes(out)).toEqual([['f1', 'done'], ['f2', 'done']]);
    expect(readdirSync(join(s.configDir, 'hooks', 'outbox', 'pending')).filter((f) => f.endsWith('.json'))).toEqual([]);
    s.write(join(s.configDir, 'hooks', 'outbox', 'pending', 'f3.json'), JSON.stringify(job(s, 'f3')));
    expect((await drain(s, d)).warnings).toContainEqual({ code: 'outbox_fallback', message: 'moved 1 job that fire wrote to the file outbox while PostgreSQL was unreachable into the database' });
  });

  it('starts at most --limit hooks and puts the rest back due at once, their claims not counted', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('  max_parallel_hooks: 4\n', durable('deliver', 'echo $CHRYS_HOOK_ID >> ../ran')));
    for (const id of ['a', 'b', 'c']) await d.add(job(s, id));
    const out = await drain(s, d, { limit: 1 });
    expect(ran(s)).toHaveLength(1);
    expect(out.ran).toBe(1);
    expect(out.done).toBe(1);
    const left = await d.pending();
    expect(left).toHaveLength(2);
    for (const j of left) expect(j.retries).toBe(0);
    const zero = await drain(s, d, { limit: 0 });
    expect(zero.ran).toBe(0);
    expect(ran(s)).toHaveLength(1);
    expect(await d.pending()).toHaveLength(2);
  });

  it('says what a dry run would do, changing nothing', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    const later = new Date(Date.now() + 3600_000);
    await d.add(job(s, 'a'));
    await d.add(job(s, 'b'));
    await d.add(job(s, 'later'), { runAt: later.toISOString() });
    await d.add(job(s, 'held'));
    await d.c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w' WHERE key = 'held'");
    const id = (await d.c.query("SELECT (graphile_worker.add_job('chrys:host:box', '[1]'::json)).id::text AS id")).rows[0].id as string;
    const out = await drain(s, d, { dryRun: true, limit: 1 });
    expect(out.jobs).toEqual([
      { job_id: 'a', hook_id: 'deliver', outcome: 'would_run' },
      { job_id: 'b', hook_id: 'deliver', outcome: 'limit' },
      { job_id: 'later', hook_id: 'deliver', outcome: 'not_due', due_at: later.toISOString() },
      { job_id: 'held', hook_id: 'deliver', outcome: 'claimed' },
      { job_id: `pg-${id}`, hook_id: '', outcome: 'invalid_job', error: 'outbox_invalid_job: the payload is not a Chrys job' },
    ]);
    expect(out).toMatchObject({ considered: 5, would_run: 1, would_fail: 1 });
    expect(ran(s)).toEqual([]);
    expect(await d.pending()).toHaveLength(4);
    expect((await drain(s, d, { dryRun: true })).jobs.map((j) => j.outcome)).toEqual(['would_run', 'would_run', 'not_due', 'claimed', 'invalid_job']);
  });

  it('dry-runs a database no drain has used as an empty outbox, making nothing', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(hooksFile(''));
    const url = cluster().newDatabase();
    const out = await drainPostgres({ configDir: s.configDir, cwd: s.workspace, dryRun: true }, { backend: 'postgres', url, urlEnv: 'X', hostId: 'box' });
    expect(out).toMatchObject({ considered: 0, jobs: [] });
  });

  it('unlocks and runs the jobs of a drainer that stopped beating', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    await d.add(job(s, 'orphan'));
    await d.add(job(s, 'fresh-lock'));
    await d.c.query("UPDATE graphile_worker._private_jobs SET locked_at = now() - interval '30 seconds', locked_by = 'dead' WHERE key = 'orphan'");
    await d.c.query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'alive' WHERE key = 'fresh-lock'");
    await d.c.query("INSERT INTO chrys_outbox.drainers (worker_id, host_id, seen_at) VALUES ('dead', 'box', now() - interval '30 seconds')");
    const out = await drain(s, d);
    expect(outcomes(out)).toEqual([['orphan', 'done']]);
    expect((await d.c.query("SELECT worker_id FROM chrys_outbox.drainers")).rows).toEqual([]);
    expect((await listPending(d.c)).map((r) => [r.key, r.locked_by])).toEqual([['fresh-lock', 'alive']]);
  });

  it('launches a detached hook and files it done once it started', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', hookYaml({ id: 'deliver', event: 'after_turn', run: "type: shell\nshell: 'echo ran >> ../ran'", execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })));
    await d.add(job(s, 'det'));
    const out = await drain(s, d);
    expect(out.jobs[0]).toMatchObject({ job_id: 'det', outcome: 'done' });
    expect(out.ran).toBe(1);
    const [[, folder, filed]] = await d.finished() as [[string, string, Job]];
    expect(folder).toBe('done');
    expect(filed).toMatchObject({ state: 'done', retries: 1 });
    const history = readFileSync(historyPath(s.configDir, { source: 'global', file: join(s.configDir, 'hooks', 'hooks.yaml'), id: 'deliver' }), 'utf8');
    expect(JSON.parse(history.trim())).toMatchObject({ status: 'started', session_id: 'sess' });
  });

  it('runs a once-per-session hook once for a session, refusing its second job', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', 'echo $CHRYS_HOOK_ID >> ../ran', '\nonce_per_session: true')));
    await d.add(job(s, 'one'), { key: 'k1' });
    await d.add(job(s, 'two'), { key: 'k2' });
    const out = await drain(s, d);
    expect(ran(s)).toHaveLength(1);
    expect(out.jobs.map((j) => j.outcome).sort()).toEqual(['done', 'failed']);
    const refused = out.jobs.find((j) => j.outcome === 'failed')!;
    expect(refused.error).toEqual(expect.any(String));
    const filed = (await d.finished()).find(([id]) => id === refused.job_id)!;
    expect(filed[2]).toMatchObject({ state: 'failed', error: refused.error, retries: 0 });
  });

  it('says outbox_unreachable for a database it cannot reach', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(hooksFile(''));
    const url = cluster().url.replace(/\/[^/]+$/, '/no_such_db');
    const e = await drainPostgres({ configDir: s.configDir, cwd: s.workspace }, { backend: 'postgres', url, urlEnv: 'X', hostId: 'box' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ChrysError);
    expect((e as ChrysError).code).toBe('outbox_unreachable');
    expect((e as ChrysError).message).not.toContain(cluster().password);
  });

  it('watches: runs a job added later, and stops when told', async (t) => {
    const s = sandboxFor(t);
    const d = await db(t);
    s.globalHooks(hooksFile('', durable('deliver', 'echo $CHRYS_HOOK_ID >> ../ran')));
    const stopper: { stop?: () => void } = {};
    let ready: { hostId: string; workers: number; absorbed: number } | undefined;
    const reports: string[] = [];
    const watching = drain(s, d, {
      watch: true, stopper,
      onReady: (info) => {
        ready = info;
        void d.add(job(s, 'later'));
      },
      onJob: (r) => {
        reports.push(`${r.job_id}:${r.outcome}`);
        stopper.stop?.();
      },
    });
    const out = await watching;
    expect(ready).toEqual({ hostId: 'box', workers: 4, absorbed: 0 });
    expect(reports).toEqual(['later:done']);
    expect(out.done).toBe(1);
  });
});
