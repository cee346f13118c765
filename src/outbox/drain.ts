// `drain-outbox` (CONTRACT §9): run the pending durable jobs that are due,
// each under its claim, re-finding its hook in the current configuration.
// Nothing is ever deleted: a job ends in done/ or failed/, or stays pending.
// A Drainer runs passes: each reloads the hooks files and trust, selects
// (select.ts) and queues what is due in a pool (run/pool.ts) that runs
// max_parallel_hooks jobs at a time. A one-shot drain is one pass; a watcher
// (watch.ts) runs many.

import { existsSync } from 'node:fs';
import { type Hook, type Settings, DEFAULT_SETTINGS, clampParallel, mergeSettings, settingValues } from '../core/config.js';
import { stringField } from '../core/envelope.js';
import type { Warning } from '../core/diagnostics.js';
import type { FileLoad } from '../config/load.js';
import { switchTrust } from '../config/project-trust.js';
import { type GlobalOptions, configDirOf, workspaceOf } from '../config/locations.js';
import type { HookContext } from '../core/hook-template.js';
import { pruneLogs } from '../run/logs.js';
import { TaskPool } from '../run/pool.js';
import { killGroup } from '../run/process-group.js';
import { runtimeDir } from '../base/runtime-layout.js';
import { TempFiles, sweepStaleTemp } from '../run/runtime.js';
import { OnceGuard } from '../state/once.js';
import { NO_SWITCHES, gate } from '../core/gate.js';
import { withJobLock } from './claim.js';
import { failedJobs } from './maintenance.js';
import { HookFinder, type LoadMemo, projectWorkspace } from './find-hook.js';
import { HistoryBatch } from './history-batch.js';
import { readCandidates } from './candidates.js';
import { type Job, parseJob } from './job.js';
import { retryPolicy } from './retry.js';
import { type JobRun, fileJob, jobRunHistoryStatus, runDurableJob } from './run-job.js';
import { type FailOutcome, type Verdict, selectJobs } from './select.js';
import { listJobs, moveJob, outboxDir, readJobText, tightenOutbox } from './store.js';
import { type DrainOutcome, type DrainSummary, type JobReport, Tally } from './summary.js';

export type { DrainOutcome, DrainSummary, JobReport } from './summary.js';

// Drain settings come from the global file alone: one drain serves the jobs of
// every workspace, so no one project's settings can apply to it.
const drainSettings = (global: FileLoad | undefined): Settings => settingValues(mergeSettings(undefined, global?.settings));

/** The settings a drain of this config dir runs with (outbox list shows due times by them). */
export async function drainSettingsOf(opts: GlobalOptions): Promise<Settings> {
  return drainSettings(await new HookFinder(opts, []).global());
}

const idsOf = (v: Verdict): { job_id: string; hook_id: string } => ({ job_id: v.job?.job_id ?? v.fileId, hook_id: v.job?.hook_id ?? '' });

export interface DrainOptions extends GlobalOptions {
  dryRun?: boolean;
  limit?: number;
  onProgress?: (done: number, total: number) => void;
  /** Told each job's report as soon as it is known (a watcher logs it at once). */
  onJob?: (report: JobReport, ran: boolean) => void;
  onWarning?: (warning: Warning) => void;
  /** Keep the job reports in the summary (a long-running watcher does not, so its memory stays flat). */
  keepJobs?: boolean;
}

/** What a queued run needs of its job, and no more: a long queue holds no payloads (spawn cost grows with the heap). */
interface Queued {
  fileId: string;
  ids: { job_id: string; hook_id: string };
  hook: Hook;
  sessionId: string;
  profile: string;
  cwd: string | undefined;
  seen: Pick<Job, 'retries' | 'last_started_at'>;
}

const queued = (fileId: string, job: Job, hook: Hook): Queued => ({
  fileId,
  ids: { job_id: job.job_id, hook_id: job.hook_id },
  hook,
  sessionId: stringField(job.payload, 'session_id'),
  profile: stringField(job.payload, 'profile'),
  cwd: typeof job.payload.cwd === 'string' ? job.payload.cwd : undefined,
  seen: { retries: job.retries, last_started_at: job.last_started_at },
});

export class Drainer {
  readonly configDir: string;
  readonly tally: Tally;
  settings: Settings = DEFAULT_SETTINGS;
  private readonly pool: TaskPool<Queued>;
  /** Job files queued or running in this process: a later pass leaves them alone. */
  private readonly busy = new Set<string>();
  private readonly pids = new Map<string, number>();
  private readonly stopped = new Set<string>();
  private finished = 0;
  private readonly temp: TempFiles;
  private readonly history: HistoryBatch;
  private readonly fallbackWorkspace: string;
  private readonly loads: LoadMemo = new Map();
  /** Told the due time of a job this drain deferred, so a watcher looks again then. */
  onDeferred?: (dueAt: number) => void;

  constructor(private readonly opts: DrainOptions) {
    this.configDir = configDirOf(opts);
    this.tally = new Tally(opts.keepJobs ?? true, opts.onJob, opts.onWarning);
    this.temp = new TempFiles(this.configDir);
    this.history = new HistoryBatch(this.configDir);
    this.fallbackWorkspace = workspaceOf(opts);
    this.pool = new TaskPool((item) => this.runQueued(item), () => clampParallel(this.settings.max_parallel_hooks), (item) => this.settled(item));
    if (!opts.dryRun) pruneLogs(this.configDir);
  }

  get running(): number {
    return this.pool.running;
  }

  /**
   * One look at pending/: reports what is not run, queues what is. Returns when
   * a skipped job is next worth a look. Trust and the hooks files are decided
   * afresh each pass, per workspace, as the loader decides them for `fire`.
   */
  async pass(): Promise<number | undefined> {
    const warnings: Warning[] = [];
    const finder = new HookFinder(this.opts, warnings, this.loads);
    this.settings = drainSettings(await finder.global());
    if (!this.opts.dryRun) {
      tightenOutbox(this.configDir);
      this.sweepTemp();
    }
    const ids = listJobs(this.configDir, 'pending').filter((id) => !this.busy.has(id));
    const candidates = await readCandidates(this.configDir, ids);
    await finder.preload(candidates.flatMap((c) => ('job' in c ? [c.job] : [])));
    const selection = selectJobs(candidates, (job) => finder.find(job), {
      now: Date.now(),
      retryAgeSeconds: this.settings.outbox_retry_age_seconds,
      maxRetries: this.settings.outbox_max_retries,
      ...(this.opts.limit !== undefined ? { limit: this.opts.limit } : {}),
    });
    this.tally.warn(...warnings, ...selection.warnings);
    for (const verdict of selection.verdicts) await this.decide(verdict);
    return selection.wakeAt;
  }

  private sweepTemp(): void {
    sweepStaleTemp(outboxDir(this.configDir, 'pending'), '.tmp');
    sweepStaleTemp(runtimeDir(this.configDir, 'tmp'), '.json');
  }

  /** The command that would let an untrusted job run: trust its workspace (after a review), or this drain with --project-hooks. */
  private trustCommand(job: Job): string {
    const path = job.hook_source_path;
    const config = `--config-dir ${shellWord(this.configDir)}`;
    if (switchTrust(this.opts)?.trusted === false || typeof path !== 'string') return `chrys-hooks drain-outbox --project-hooks ${config}`;
    return `chrys-hooks trust --cwd ${shellWord(projectWorkspace(path))} ${config}`;
  }

  private async decide(v: Verdict): Promise<void> {
    if (v.action === 'skip') {
      const command = v.outcome === 'untrusted' ? { command: this.trustCommand(v.job) } : {};
      this.tally.report({ ...idsOf(v), outcome: v.outcome, ...(v.dueAt ? { due_at: v.dueAt } : {}), ...command });
    } else if (v.action === 'fail') {
      await this.fail(v);
    } else if (this.opts.dryRun) {
      this.tally.report({ ...idsOf(v), outcome: 'would_run' });
    } else {
      this.busy.add(v.fileId);
      this.pool.push(queued(v.fileId, v.job, v.hook));
    }
  }

  /** A job that cannot run goes to failed/ (a dry run only says so); one this drain cannot move stays pending, with why. */
  private async fail(v: Extract<Verdict, { action: 'fail' }>): Promise<void> {
    if (this.opts.dryRun) return this.tally.report({ ...idsOf(v), outcome: v.outcome, error: `${v.message}; would move to failed/` }, true);
    const moved = await this.failUnderClaim(v.fileId, v.outcome, v.message).catch((e: unknown) => ({ outcome: 'pending' as const, error: `${v.message}; could not move it to failed/: ${e instanceof Error ? e.message : String(e)}` }));
    this.tally.report({ ...idsOf(v), ...moved });
  }

  private settled(item: Queued): void {
    this.busy.delete(item.fileId);
    this.opts.onProgress?.(++this.finished, this.finished + this.pool.waiting + this.pool.running);
  }

  private async runQueued({ fileId, ids, hook, sessionId, profile, cwd, seen }: Queued): Promise<void> {
    const ctx: HookContext = {
      configDir: this.configDir,
      // The workspace the event came from; else --cwd, else the current directory.
      workspace: cwd !== undefined && existsSync(cwd) ? cwd : this.fallbackWorkspace,
      sessionId,
      profile,
    };
    const once = new OnceGuard(this.configDir, sessionId);
    // The gate as for a queued job (core/gate.ts): the loop guard is once_per_session, a follow-up
    // running only as the job that stamped it (a deferred retry included).
    const ask = (payload: Job['payload'], stamped: boolean): string | undefined => {
      const g = gate({ hook, envelope: payload, switches: NO_SWITCHES, once: { sessionId, stamped }, queued: true });
      return g.run ? undefined : g.reason;
    };
    const refuse = (job: Job): string | undefined => ask(job.payload, false) ?? (once.claim(hook, fileId) ? ask(job.payload, true) : undefined);
    let result: JobRun;
    try {
      result = await runDurableJob(this.configDir, fileId, hook, ctx, this.temp, {
        refuse,
        retry: retryPolicy(this.settings),
        onSpawn: (pid) => this.pids.set(fileId, pid),
        cancelled: () => this.stopped.has(fileId),
        seen,
      });
    } catch (e) {
      // The job file is as it was (pending); say why, and let the next pass try again.
      this.tally.report({ ...ids, outcome: 'pending', error: `could not run: ${(e as Error).message}` });
      return;
    } finally {
      this.pids.delete(fileId);
    }
    this.tally.warn(...result.warnings);
    if (result.error) this.tally.warn({ code: 'outbox_unavailable', hook: hook.id, message: `job ${fileId}: ${result.error}` });
    this.reportRun(ids, hook, result, sessionId);
  }

  private reportRun(ids: Queued['ids'], hook: Hook, result: JobRun, sessionId: string): void {
    if (result.outcome === 'claimed' || result.outcome === 'gone') return this.tally.report({ ...ids, outcome: 'claimed' });
    const filed = result.job;
    const outcome: DrainOutcome = result.outcome;
    const error = result.error ?? (typeof filed?.error === 'string' ? filed.error : undefined);
    this.tally.report({
      ...ids,
      outcome,
      ...(error ? { error } : {}),
      ...(outcome === 'deferred' && typeof filed?.due_at === 'string' ? { due_at: filed.due_at } : {}),
      ...(result.logPath ? { log_path: result.logPath } : {}),
      ...(outcome === 'failed' && result.record?.stderrTail ? { stderr_tail: result.record.stderrTail } : {}),
    }, false, result.record !== undefined || result.launched !== undefined);
    if (outcome === 'deferred' && typeof filed?.due_at === 'string') this.onDeferred?.(Date.parse(filed.due_at));
    const status = jobRunHistoryStatus(result);
    if (status !== undefined) {
      // A detached launch has no exit yet: its entry is `started`, as the worker records it.
      this.history.add(hook, { status, session_id: sessionId, ...(result.record ? { exit_code: result.record.exitCode, duration_ms: result.record.durationMs } : {}) });
    }
  }

  private async failUnderClaim(fileId: string, outcome: FailOutcome, message: string): Promise<{ outcome: DrainOutcome; error?: string }> {
    if (outcome === 'invalid_job') {
      try {
        moveJob(this.configDir, fileId, 'pending', 'failed');
        return { outcome, error: `${message}; moved to failed/` };
      } catch {
        return { outcome: 'claimed' }; // someone else moved it
      }
    }
    const claim = await withJobLock(this.configDir, fileId, async () => {
      const text = readJobText(this.configDir, 'pending', fileId);
      if (text === undefined) return false;
      await fileJob(this.configDir, fileId, { ...parseJob(text), state: 'failed', error: outcome }, 'failed');
      return true;
    });
    return claim.claimed && claim.value ? { outcome, error: message } : { outcome: 'claimed' };
  }

  /** Resolves when nothing is running (and, unless stopping, nothing is queued). */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  /** Starts nothing new; queued jobs stay pending, untouched. */
  stop(): void {
    for (const item of this.pool.stop()) this.busy.delete(item.fileId);
  }

  /** Stops the running hooks (their process groups); their jobs stay pending. */
  kill(signal: NodeJS.Signals): void {
    for (const [fileId, pid] of this.pids) {
      this.stopped.add(fileId);
      killGroup(pid, signal);
    }
  }

  close(): void {
    this.history.flush();
    this.temp.cleanup();
    this.tally.warn(...this.temp.warnings.splice(0));
  }
}

/** A path as one POSIX shell word, for a command the user can paste. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/** A one-shot drain: one pass, then wait for what it started. */
export async function drainOutbox(opts: DrainOptions): Promise<DrainSummary> {
  const drainer = new Drainer(opts);
  try {
    await drainer.pass();
    await drainer.idle();
  } finally {
    drainer.close();
  }
  try {
    drainer.tally.summary.failed_jobs = failedJobs(drainer.configDir);
  } catch {
    // failed/ unreadable: each job this drain could not file there already says so
  }
  return drainer.tally.summary;
}
