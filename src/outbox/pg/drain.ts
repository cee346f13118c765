// `drain-outbox` against the PostgreSQL outbox: graphile-worker claims the
// due jobs of this machine (and the portable ones) with SKIP LOCKED, and wakes
// on its NOTIFY; each job is run here, with the file outbox's semantics: its
// hook found again and trust decided on this machine, the gate and once per
// session, outbox_max_retries counted in starts, "not yet" (exit 75) as a new
// row due later, a failure filed as failed (not retried by the engine).
// graphile-worker's own lock lasts 4 hours; a drainer that dies (kill -9)
// stops its heartbeat, and after LOCK_STALE_MS its jobs are unlocked by the
// next drainer, as a stale lock of the file outbox is taken over. As there,
// the hook's process group is noted (outbox/locks/<job_id>.pgid), and a job
// whose earlier hook still runs on this machine is not started again until it
// ends. A `detach: true` hook is started detached (startDetached), done once
// it started, as the file drain does. `--limit N` starts at most N hooks: the
// engine runs at most N at once, the drain stops taking jobs at the N-th
// start, and a job handed over after it is put back due at once, its claim
// not counted.

import { EventEmitter } from 'node:events';
import type { Pool, PoolClient } from 'pg';
import { type Hook, clampParallel } from '../../core/config.js';
import type { Warning } from '../../core/diagnostics.js';
import { stringField } from '../../core/envelope.js';
import { ChrysError } from '../../core/errors.js';
import { NO_SWITCHES, gate } from '../../core/gate.js';
import { type Json, type JsonObject, stringifyJson } from '../../core/json.js';
import { jobHistoryStatus } from '../../core/outcome.js';
import { configDirOf, workspaceOf } from '../../config/locations.js';
import { existsSync } from 'node:fs';
import type { HookContext } from '../../core/hook-template.js';
import { resolveInvocation } from '../../run/invocation.js';
import { formatLog, logCopy, logName, newRunId, pruneLogs, writeLog } from '../../run/logs.js';
import { killGroup } from '../../run/process-group.js';
import { TempFiles } from '../../run/runtime.js';
import { type RunRecord, runHook } from '../../run/spawn.js';
import { ensureDir } from '../../base/runtime-layout.js';
import { startDetached } from '../../run/detached.js';
import { OnceGuard } from '../../state/once.js';
import { LOCK_STALE_MS } from '../claim.js';
import { type DrainOptions, drainSettingsOf } from '../drain.js';
import { HookFinder, type LoadMemo } from '../find-hook.js';
import type { Lookup } from '../select.js';
import { forgetGroup, noteGroup, previousRunAlive } from '../run-job.js';
import { locksDir } from '../store.js';
import { HistoryBatch } from '../history-batch.js';
import { type Job, InvalidJob, parseJob } from '../job.js';
import { retryPolicy, retryRequest } from '../retry.js';
import { spentMessage } from '../select.js';
import { type DrainSummary, Tally } from '../summary.js';
import type { OutboxChoice } from './choice.js';
import { isUnreachable, loadGraphile, outboxError, pool, unreachable } from './connect.js';
import { LiveOutputWriter, pruneLiveOutput } from './live-output.js';
import { absorbFileJobs } from './migrate.js';
import { GroupCommit } from './group-commit.js';
import { type FinishedRun, addJob, ensureSchema, fileFinished, listFinished, listPending, quietLogger, taskOf, tasksOfHost, tryPendingEntry, unlessNoSchema } from './queue.js';
import { redact } from './redact.js';

type Postgres = Extract<OutboxChoice, { backend: 'postgres' }>;
/** Files a run that ended as done or failed; resolves once that is committed. */
type Filing = (job: Job, state: 'done' | 'failed') => Promise<void>;

/** How often a drainer says it is alive (and looks for dead ones). */
const HEARTBEAT_MS = 2000;
const PRUNE_LIVE_BEATS = 30;
/** How long an untrusted or not-runnable-here job waits before it is looked at again. */
const RECHECK_SECONDS = 60;
/** How long a job whose earlier hook still runs (its drainer was killed) waits before it is looked at again. */
const ALIVE_RECHECK_MS = 2000;
/** How long the jobs that start go on seeing the hooks files and trust as they were. */
const FINDER_MS = 1000;
/** How long a filing waits for a server that went away (a restart); below LOCK_STALE_MS, so the job is not unlocked meanwhile. */
const FILING_RETRY_MS = 8000;

export interface PgDrainOptions extends DrainOptions {
  watch?: boolean;
  /** Told once the drainer listens (a watcher logs it). */
  onReady?: (info: { hostId: string; workers: number; absorbed: number }) => void;
  /** Set by the caller to stop a watcher. */
  stopper?: { stop?: () => void };
}

/**
 * graphile-worker's handler payload as a Chrys job; throws InvalidJob for a row
 * another writer put there. The drain's pool hands json over as its text, so
 * the payload's numbers keep their spelling.
 */
// Stryker disable next-line LogicalOperator: the drain's pool hands json over as its text (rawJson), so the payload is never null
const asJob = (payload: unknown): Job => parseJob(typeof payload === 'string' ? payload : JSON.stringify(payload ?? null));

/** The row's payload as a value, for the record of a row that is not a Chrys job. */
function rowPayload(payload: unknown): Json {
  if (typeof payload !== 'string') return (payload ?? null) as Json;
  try {
    return JSON.parse(payload) as Json;
  // Stryker disable next-line BlockStatement: a json column always holds valid JSON text
  } catch {
    return payload;
  }
}

export async function drainPostgres(opts: PgDrainOptions, choice: Postgres): Promise<DrainSummary> {
  const configDir = configDirOf(opts);
  const tally = new Tally(opts.keepJobs ?? true, opts.onJob, opts.onWarning);
  const settings = await drainSettingsOf(opts);
  const policy = retryPolicy(settings);
  const db: Pool = await pool(choice.url, clampParallel(settings.max_parallel_hooks) + 4, { rawJson: true });
  const temp = new TempFiles(configDir);
  const history = new HistoryBatch(configDir);
  const memo: LoadMemo = new Map();
  const pids = new Map<string, number>();
  const workers = new Set<string>();
  let stopping = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let rejection: ((e: unknown) => void) | undefined;
  const guard = async <T>(fn: (c: PoolClient) => Promise<T>): Promise<T> => {
    let c: PoolClient;
    try {
      c = await db.connect();
    } catch (e) {
      throw unreachable(choice.url, e);
    }
    try {
      return await fn(c);
    } catch (e) {
      if (isUnreachable(e)) throw unreachable(choice.url, e);
      throw e;
    } finally {
      c.release();
    }
  };
  // What a run ended in, once its hook ran: a server that restarts meanwhile is waited for
  // (up to FILING_RETRY_MS), as the job would otherwise run again once its lock is stale.
  const lasting = async <T>(fn: (c: PoolClient) => Promise<T>): Promise<T> => {
    for (let wait = 250; ; wait *= 2) {
      try {
        return await guard(fn);
      } catch (e) {
        if (!(e instanceof ChrysError) || e.code !== 'outbox_unreachable' || wait > FILING_RETRY_MS / 2) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
  // The ends of runs that finish together, filed (and their rows deleted) in one statement.
  const filings = new GroupCommit<FinishedRun>((runs) => lasting((c) => fileFinished(c, runs)));
  try {
    if (opts.dryRun) return await dryRun(guard, tally, opts.limit, choice.hostId, policy.maxRetries);
    await guard((c) => ensureSchema(c, choice.url));
    pruneLogs(configDir);
    ensureDir(locksDir(configDir));
    const absorbed = await guard((c) => absorbFileJobs(configDir, c, choice.hostId));
    if (absorbed > 0) tally.warn({ code: 'outbox_fallback', message: `moved ${absorbed} job${absorbed === 1 ? '' : 's'} that fire wrote to the file outbox while PostgreSQL was unreachable into the database` });

    let beats = 0;
    const beat = async (): Promise<void> => {
      await guard(async (c) => {
        if (workers.size) await c.query(`INSERT INTO chrys_outbox.drainers (worker_id, host_id) SELECT unnest($1::text[]), $2 ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()`, [[...workers], choice.hostId]);
        await unlockStale(c);
        // Live output no follower needs any more, once a minute.
        if (beats++ % PRUNE_LIVE_BEATS === 0) await pruneLiveOutput(c);
      });
    };
    await beat();
    heartbeat = setInterval(() => void beat().catch((e: unknown) => tally.warn({ code: 'outbox_unavailable', message: redact(e instanceof Error ? e.message : String(e), choice.url) })), HEARTBEAT_MS);
    heartbeat.unref();

    // The database gone mid-drain: the drain stops taking jobs and ends as outbox_unreachable.
    // What its pool had fetched but not started is handed back if the server is there
    // again, else left locked under its id, to be unlocked once its heartbeat is stale.
    let lost: unknown;
    let workerPool: import('graphile-worker').WorkerPool | undefined;
    const lose = (e: unknown): void => {
      lost ??= e;
      stopping = true;
      void Promise.resolve(workerPool?.gracefulShutdown('the database went away')).catch(() => {});
    };
    // --limit: the hooks started so far; at the limit the pool takes no more (those it holds go back).
    let starts = 0;
    const overLimit = (): boolean => opts.limit !== undefined && starts >= opts.limit;
    // Stryker disable next-line OptionalChaining,StringLiteral: pool:create sets workerPool before any job is handed over, and the reason is only logged
    const takeNoMore = (): void => void Promise.resolve(workerPool?.gracefulShutdown('--limit reached')).catch(() => {});
    const countStart = (): void => {
      starts++;
      if (overLimit()) takeNoMore();
    };

    const handler = async (payload: unknown, helpers: { job: { id: string; attempts: number; key: string | null } }): Promise<void> => {
      try {
        await handle(payload, helpers);
      } catch (e) {
        // A run that could not be filed is not lost: its row stays locked under this drainer's id.
        if ((e instanceof ChrysError && e.code === 'outbox_unreachable') || isUnreachable(e)) lose(e);
        throw e;
      }
    };

    const handle = async (payload: unknown, helpers: { job: { id: string; attempts: number; key: string | null } }): Promise<void> => {
      let job: Job;
      try {
        job = asJob(payload);
      } catch (e) {
        if (!(e instanceof InvalidJob)) throw e;
        // Not ours to run: kept as failed with why, its payload as it was.
        const bad = { job_id: `pg-${helpers.job.id}`, hook_id: '', event: '', payload: { row_payload: rowPayload(payload) } as JsonObject, created_at: new Date().toISOString(), state: 'failed', retries: helpers.job.attempts, last_started_at: null, last_finished_at: null, exit_code: null, error: 'outbox_invalid_job', stderr_tail: null, invalid_reason: e.message } as Job;
        await filings.add({ job: bad, state: 'failed', rowId: helpers.job.id });
        tally.report({ job_id: bad.job_id, hook_id: '', outcome: 'invalid_job', error: `outbox_invalid_job: ${e.message}` });
        return;
      }
      await runOne(job, helpers.job);
    };

    // One look at the hooks files and trust serves the jobs that start within FINDER_MS (a file
    // drain's pass is one look): a hooks file or trust edited mid-drain is seen by the jobs after.
    let look: { since: number; finder: HookFinder; warnings: Warning[]; told: number } | undefined;
    const findHook = async (job: Job): Promise<Lookup> => {
      if (!look || Date.now() - look.since > FINDER_MS) {
        const warnings: Warning[] = [];
        look = { since: Date.now(), finder: new HookFinder(opts, warnings, memo), warnings, told: 0 };
      }
      const current = look;
      await current.finder.preload([job]);
      tally.warn(...current.warnings.slice(current.told));
      current.told = current.warnings.length;
      return current.finder.find(job);
    };

    const runOne = async (job: Job, row: { id: string; attempts: number; key: string | null }): Promise<void> => {
      const ids = { job_id: job.job_id, hook_id: job.hook_id };
      const startsBefore = job.retries + row.attempts - 1;
      const key = row.key ?? job.job_id;
      const requeue = async (next: Job, runAt: Date): Promise<void> => lasting((c) => addJob(c, { job: next, key, runAt: runAt.toISOString(), mode: 'replace' }, choice.hostId));
      const file = (filed: Job, state: 'done' | 'failed'): Promise<void> => filings.add({ job: filed, state, rowId: row.id });
      const found = await findHook(job);
      if ('error' in found) {
        if (found.error === 'untrusted') {
          await requeue({ ...job, retries: startsBefore }, new Date(Date.now() + RECHECK_SECONDS * 1000));
          return tally.report({ ...ids, outcome: 'untrusted' });
        }
        await file({ ...job, retries: startsBefore, state: 'failed', error: found.error }, 'failed');
        return tally.report({ ...ids, outcome: found.error, error: found.message });
      }
      if (startsBefore >= policy.maxRetries) {
        await file({ ...job, retries: startsBefore, state: 'failed', error: 'max_retries' }, 'failed');
        return tally.report({ ...ids, outcome: 'max_retries', error: spentMessage(startsBefore, policy.maxRetries) });
      }
      // Only a job started before can have a hook that outlived its drainer (kill -9): not twice at once; this start not counted.
      if (startsBefore > 0 && previousRunAlive(configDir, job.job_id)) {
        await requeue({ ...job, retries: startsBefore }, new Date(Date.now() + ALIVE_RECHECK_MS));
        return tally.report({ ...ids, outcome: 'claimed' });
      }
      const hook = found.hook;
      const sessionId = stringField(job.payload, 'session_id');
      const ctx: HookContext = {
        configDir,
        workspace: typeof job.payload.cwd === 'string' && existsSync(job.payload.cwd) ? job.payload.cwd : workspaceOf(opts),
        sessionId,
        profile: stringField(job.payload, 'profile'),
      };
      const once = new OnceGuard(configDir, sessionId);
      const ask = (stamped: boolean): string | undefined => {
        const g = gate({ hook, envelope: job.payload, switches: NO_SWITCHES, once: { sessionId, stamped }, queued: true });
        return g.run ? undefined : g.reason;
      };
      const refusal = ask(false) ?? (once.claim(hook, job.job_id) ? ask(true) : undefined);
      if (refusal) {
        await file({ ...job, retries: startsBefore, state: 'failed', error: refusal }, 'failed');
        return tally.report({ ...ids, outcome: 'failed', error: refusal });
      }
      if (overLimit()) {
        // Put back due at once, which without the shutdown (--limit 0 has had no start to call it) would hand it over again.
        takeNoMore();
        await requeue({ ...job, retries: startsBefore }, new Date());
        return tally.report({ ...ids, outcome: 'limit' });
      }
      countStart();
      // Stryker disable next-line StringLiteral: every end of the run (filed, requeued, launched) sets the state anew
      const started: Job = { ...job, retries: startsBefore + 1, last_started_at: new Date().toISOString(), state: 'running' };
      if (hook.execution.detach) return launchDetached(started, hook, ctx, file);
      // One id for the run's live output and its log: a follower that printed the log skips the output.
      const runId = newRunId();
      const live = new LiveOutputWriter(db, job.job_id, runId);
      const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), stringifyJson(job.payload), temp, {
        onSpawn: (pid) => {
          pids.set(job.job_id, pid);
          noteGroup(configDir, job.job_id, pid);
        },
        onOutput: live.write,
        cancelled: () => stopping,
      }).finally(() => live.close());
      pids.delete(job.job_id);
      forgetGroup(configDir, job.job_id);
      const filed = await settle(started, hook, record, runId, requeue, file);
      tally.warn(...filed.warnings);
      tally.report({ ...ids, outcome: filed.outcome, ...(filed.error ? { error: filed.error } : {}), ...(filed.dueAt ? { due_at: filed.dueAt } : {}), ...(filed.logPath ? { log_path: filed.logPath } : {}), ...(filed.outcome === 'failed' && record.stderrTail ? { stderr_tail: record.stderrTail } : {}) }, false, true);
      const status = jobHistoryStatus(filed.outcome, record);
      if (status !== undefined) history.add(hook, { status, session_id: sessionId, exit_code: record.exitCode, duration_ms: record.durationMs });
    };

    // Durable and detached: delivery is the launch; done once it started, failed when it could not start.
    const launchDetached = async (job: Job, hook: Hook, ctx: HookContext, file: Filing): Promise<void> => {
      const ids = { job_id: job.job_id, hook_id: job.hook_id };
      const start = await startDetached(hook, ctx, stringifyJson(job.payload), newRunId());
      const logPath = start.logPath ? { log_path: start.logPath } : {};
      if ('pid' in start) {
        await file({ ...job, state: 'done', ...logPath }, 'done');
        tally.report({ ...ids, outcome: 'done', ...logPath }, false, true);
        history.add(hook, { status: 'started', session_id: stringField(job.payload, 'session_id') });
        return;
      }
      const error = start.failure.error ?? 'launch_error';
      await file({ ...job, state: 'failed', last_finished_at: new Date().toISOString(), error, ...logPath }, 'failed');
      tally.report({ ...ids, outcome: 'failed', error, ...logPath }, false, true);
    };

    const settle = async (job: Job, hook: Hook, record: RunRecord, runId: string, requeue: (next: Job, runAt: Date) => Promise<void>, file: Filing): Promise<{ outcome: 'done' | 'failed' | 'deferred' | 'pending'; error?: string; dueAt?: string; logPath?: string; warnings: Warning[] }> => {
      const retry = record.disposition === 'pending' ? undefined : retryRequest(record, hook.id, policy.delaySeconds);
      const warnings = retry?.warning ? [retry.warning] : [];
      const log = formatLog(hook, record, warnings);
      const logPath = writeLog(configDir, logName(runId, hook.id), log);
      // The log is a file on this machine; its copy in the job lets `outbox logs` show it on any other.
      const ran: Job = { ...job, last_finished_at: new Date().toISOString(), exit_code: record.exitCode, stderr_tail: record.stderrTail || null, ...(logPath ? { log_path: logPath } : {}), log_copy: logCopy(log), log_host: choice.hostId };
      const base = { warnings, ...(logPath ? { logPath } : {}) };
      if (record.disposition === 'pending') {
        // Stopped on purpose (the watcher shuts down): due again at once, this start counted.
        // Stryker disable next-line StringLiteral: a pending row is read back with the state of its lock (pendingEntry), not this one
        await requeue({ ...ran, state: 'pending' }, new Date());
        return { ...base, outcome: 'pending' };
      }
      if (retry && job.retries < policy.maxRetries) {
        const dueAt = new Date(Date.now() + retry.delaySeconds * 1000);
        await requeue({ ...ran, state: 'pending', error: 'deferred', deferred_reason: retry.reason, due_at: dueAt.toISOString() }, dueAt);
        return { ...base, outcome: 'deferred', dueAt: dueAt.toISOString() };
      }
      if (retry) {
        await file({ ...ran, state: 'failed', error: 'max_retries', deferred_reason: retry.reason }, 'failed');
        return { ...base, outcome: 'failed', error: 'max_retries' };
      }
      const error = record.disposition === 'done' ? null : (record.error ?? record.status);
      await file({ ...ran, state: record.disposition as 'done' | 'failed', error }, record.disposition as 'done' | 'failed');
      return { ...base, outcome: record.disposition as 'done' | 'failed', ...(error ? { error } : {}) };
    };

    const { run, runOnce } = await loadGraphile();
    // Never more at once than --limit lets start (a limit of 0 still takes one job, to put it back).
    const concurrency = Math.max(1, Math.min(clampParallel(settings.max_parallel_hooks), opts.limit ?? Number.POSITIVE_INFINITY));
    const events = new EventEmitter();
    // graphile-worker locks a job under its pool's id (pool-..., otpool-... for
    // runOnce), not the worker's: that is the id whose heartbeat keeps the
    // drainer's running and locally queued jobs from being taken as stale.
    events.on('pool:create', ({ workerPool: created }: { workerPool: import('graphile-worker').WorkerPool }) => {
      workerPool = created;
      workers.add(created.id);
      void beat().catch(() => {});
    });
    const taskList = Object.fromEntries(tasksOfHost(choice.hostId).map((task) => [task, handler as never]));
    const common = {
      pgPool: db,
      taskList,
      concurrency,
      noHandleSignals: true,
      // runOnce ends as if the queue were empty when its local queue cannot fetch: that is the server gone.
      logger: await quietLogger((e) => {
        if (!opts.watch && isUnreachable(e)) lose(e);
      }),
      events: events as never,
      useNodeTime: false,
      // Each fetch claims up to `concurrency` jobs at once: a worker that ends a job takes the next without a round trip.
      // Not under --limit: graphile-worker 0.17's local queue fails to hand back the jobs it holds when the pool
      // shuts down at the limit while hooks still run ("Cannot background something when the queue is already released").
      preset: { worker: { localQueue: { size: opts.limit === undefined ? concurrency : -1 } } },
    };
    // graphile-worker completes or fails a job off our handler's promise: a server gone mid-drain
    // rejects there, unhandled, until the drain's pool has ended.
    rejection = (e: unknown): void => {
      if (!isUnreachable(e)) throw e;
      lose(e);
    };
    process.on('unhandledRejection', rejection);
    if (opts.watch) {
      const runner = await run({ ...common, pollInterval: 10_000 });
      opts.stopper && (opts.stopper.stop = () => {
        stopping = true;
        for (const pid of pids.values()) killGroup(pid, 'SIGTERM');
        void runner.stop();
      });
      opts.onReady?.({ hostId: choice.hostId, workers: concurrency, absorbed });
      await runner.promise.catch((e: unknown) => {
        if (lost === undefined) throw e;
      });
    } else {
      await runOnce(common).catch((e: unknown) => {
        if (!isUnreachable(e)) throw e;
        lost ??= e;
      });
    }
    if (lost !== undefined) throw lost instanceof ChrysError ? lost : unreachable(choice.url, lost);
    return tally.summary;
  } catch (e) {
    throw outboxError(choice.url, e);
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    if (workers.size) await db.query('DELETE FROM chrys_outbox.drainers WHERE worker_id = ANY($1::text[])', [[...workers]]).catch(() => {});
    history.flush();
    temp.cleanup();
    await db.end().catch(() => {});
    if (rejection) process.off('unhandledRejection', rejection);
    try {
      tally.summary.failed_jobs = (await listFailedQuick(choice.url)).map((e) => ({ job_id: e.id, hook_id: e.job.hook_id, error: typeof e.job.error === 'string' ? e.job.error : null, failed_at: e.job.last_finished_at }));
    } catch {
      // the database went away: each job this drain filed already says so
    }
  }
}

async function listFailedQuick(url: string): Promise<Awaited<ReturnType<typeof listFinished>>> {
  const { withClient } = await import('./connect.js');
  return withClient(url, (c) => listFinished(c, { state: 'failed' }));
}

/**
 * Unlocks the jobs of drainers that stopped beating (killed, or their machine
 * went down): graphile-worker's forceUnlockWorkers, for every locker not seen
 * for LOCK_STALE_MS (a locker never seen at all counts from its lock time).
 */
async function unlockStale(c: PoolClient): Promise<void> {
  const stale = (await c.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
       LEFT JOIN chrys_outbox.drainers d ON d.worker_id = j.locked_by
      WHERE j.task_identifier LIKE 'chrys:%' AND j.locked_by IS NOT NULL
        AND COALESCE(d.seen_at, j.locked_at) < now() - make_interval(secs => $1)`,
    [LOCK_STALE_MS / 1000],
  )).rows.map((r) => r.locked_by);
  if (stale.length === 0) return;
  await c.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [stale]);
  await c.query('DELETE FROM chrys_outbox.drainers WHERE worker_id = ANY($1::text[])', [stale]);
}

/**
 * What a drain here would do, read as `outbox list` reads (no DDL: a role
 * that may only read can ask): the jobs of this host and the portable ones,
 * as the drain takes them; a job started `maxRetries` times would fail;
 * past `limit` would-runs, `limit`.
 */
async function dryRun(guard: <T>(fn: (c: PoolClient) => Promise<T>) => Promise<T>, tally: Tally, limit: number | undefined, hostId: string, maxRetries: number): Promise<DrainSummary> {
  const rows = await guard((c) => unlessNoSchema(listPending(c), () => []));
  const now = Date.now();
  const ours = new Set(tasksOfHost(hostId));
  let wouldRun = 0;
  for (const row of rows) {
    const e = tryPendingEntry(row);
    if (!e) {
      tally.report({ job_id: `pg-${row.id}`, hook_id: '', outcome: 'invalid_job', error: 'outbox_invalid_job: the payload is not a Chrys job' }, true);
      continue;
    }
    if (!ours.has(taskOf(e.job, hostId))) continue; // another machine's: this drain never takes it
    const due = row.run_at.getTime() <= now;
    const ids = { job_id: e.id, hook_id: e.job.hook_id };
    if (row.locked_at) tally.report({ ...ids, outcome: 'claimed' });
    else if (!due) tally.report({ ...ids, outcome: 'not_due', due_at: row.run_at.toISOString() });
    else if (e.job.retries >= maxRetries) tally.report({ ...ids, outcome: 'max_retries', error: spentMessage(e.job.retries, maxRetries) }, true);
    else tally.report({ ...ids, outcome: ++wouldRun > (limit ?? Number.POSITIVE_INFINITY) ? 'limit' : 'would_run' });
  }
  return tally.summary;
}
