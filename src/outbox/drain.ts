// `drain-outbox` (CONTRACT §9): run the pending durable jobs that are due,
// each under its claim, re-finding its hook in the current configuration.
// Nothing is ever deleted: a job ends in done/ or failed/, or stays pending.

import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Hook, type Settings, DEFAULT_SETTINGS, clampParallel } from '../core/config.js';
import { stringField } from '../core/envelope.js';
import type { Warning } from '../core/diagnostics.js';
import { discover } from '../config/discover.js';
import { type FileLoad, loadHooksFile, settingsTrust } from '../config/load.js';
import { recordTrustsFile } from '../config/project-trust.js';
import { type GlobalOptions, HOOKS_FILE_NAMES, configDirOf, findFirst, projectHooksDir, samePhysicalFile, trustOverride, workspaceOf } from '../config/locations.js';
import type { HookContext } from '../run/invocation.js';
import { TempFiles, runtimeDir, sweepStaleTemp } from '../run/runtime.js';
import { OnceGuard } from '../state/once.js';
import { recordRun } from '../state/history.js';
import { withJobLock } from './claim.js';
import { type Job, InvalidJob, parseJob, writeJob } from './job.js';
import { fileJob, runDurableJob } from './run-job.js';
import { isOddJobFile, listJobs, moveJob, outboxDir, readJobText } from './store.js';

export type DrainOutcome =
  | 'done' | 'failed' | 'pending' | 'would_run'
  | 'young' | 'not_due' | 'claimed' | 'untrusted'
  | 'stale_source' | 'ambiguous_hook' | 'max_retries' | 'invalid_job';

export interface DrainSummary {
  considered: number;
  ran: number;
  done: number;
  failed: number;
  skipped: { young: number; not_due: number; claimed: number; untrusted: number };
  jobs: { job_id: string; hook_id: string; outcome: DrainOutcome; error?: string }[];
  warnings: Warning[];
}

export interface DrainOptions extends GlobalOptions {
  dryRun?: boolean;
  limit?: number;
  onProgress?: (done: number, total: number) => void;
}

type Lookup = { hook: Hook } | { error: 'stale_source' | 'ambiguous_hook' | 'untrusted'; message: string };

/** Finds a job's hook again, by source + source path + id, in the current configuration. */
class HookFinder {
  private readonly files = new Map<string, Promise<FileLoad | undefined>>();
  constructor(
    private readonly globalPath: string | undefined,
    /** Whether the project file at this path may load; undefined = no file named. */
    private readonly trusted: (projectPath: string | undefined) => boolean,
  ) {}

  private load(path: string, layer: 'global' | 'project'): Promise<FileLoad | undefined> {
    const key = `${layer}\0${path}`;
    if (!this.files.has(key)) this.files.set(key, existsSync(path) ? loadHooksFile(path, layer) : Promise.resolve(undefined));
    return this.files.get(key)!;
  }

  async global(): Promise<FileLoad | undefined> {
    return this.globalPath ? this.load(this.globalPath, 'global') : undefined;
  }

  async find(job: Job): Promise<Lookup> {
    const stale = (message: string): Lookup => ({ error: 'stale_source', message });
    const pick = (file: FileLoad | undefined): Hook | undefined => file?.hooks.find((h) => h.id === job.hook_id && h.enabled);
    if (job.hook_source === 'project') {
      const path = job.hook_source_path;
      if (!this.trusted(typeof path === 'string' ? path : undefined)) return { error: 'untrusted', message: 'project hooks are not enabled for this drain' };
      if (typeof path !== 'string') return stale('the job names no hook_source_path');
      const file = await this.load(path, 'project');
      if (!file?.valid) return stale(`project hooks file ${path} is ${file ? 'invalid' : 'gone'}`);
      const hook = pick(file);
      return hook ? { hook } : stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
    }
    if (job.hook_source === 'global') {
      const path = job.hook_source_path;
      const file = await this.global();
      if (!file?.valid || typeof path !== 'string' || !samePhysicalFile(path, file.path)) return stale(`global hooks file ${path} is not the loaded global file, or is invalid`);
      const hook = pick(file);
      return hook ? { hook } : stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
    }
    // A legacy job without hook_source: the id must name exactly one hook.
    const candidates: Hook[] = [];
    const globalHook = pick(await this.global());
    if (globalHook) candidates.push(globalHook);
    const cwd = typeof job.payload.cwd === 'string' ? job.payload.cwd : undefined;
    if (cwd) {
      const projectPath = findFirst(projectHooksDir(cwd), HOOKS_FILE_NAMES);
      if (projectPath && !(this.globalPath && samePhysicalFile(projectPath, this.globalPath)) && this.trusted(projectPath)) {
        const hook = pick(await this.load(projectPath, 'project'));
        if (hook) candidates.push(hook);
      }
    }
    if (candidates.length > 1) return { error: 'ambiguous_hook', message: `hook id "${job.hook_id}" exists in both layers and the job does not say which` };
    return candidates[0] ? { hook: candidates[0] } : stale(`no hook "${job.hook_id}" in the current configuration`);
  }
}

export async function drainOutbox(opts: DrainOptions): Promise<DrainSummary> {
  const configDir = configDirOf(opts);
  const summary: DrainSummary = { considered: 0, ran: 0, done: 0, failed: 0, skipped: { young: 0, not_due: 0, claimed: 0, untrusted: 0 }, jobs: [], warnings: [] };
  const switched = trustOverride(opts) ?? ((await settingsTrust(configDir, summary.warnings)) || undefined);
  const byRecord = new Map<string, boolean>();
  const trusted = (projectPath: string | undefined): boolean => {
    if (switched !== undefined || projectPath === undefined) return switched ?? false;
    if (!byRecord.has(projectPath)) byRecord.set(projectPath, recordTrustsFile(configDir, projectPath, summary.warnings));
    return byRecord.get(projectPath)!;
  };
  const globalPath = discover({ ...opts, workspace: process.cwd() }).globalPath;
  const finder = new HookFinder(globalPath, trusted);
  const settings: Settings = { ...DEFAULT_SETTINGS, ...(await finder.global())?.settings };
  const now = Date.now();
  sweepStaleTemp(outboxDir(configDir, 'pending'), '.tmp');
  sweepStaleTemp(runtimeDir(configDir, 'tmp'), '.json');
  const record = (job: { job_id: string; hook_id: string }, outcome: DrainOutcome, error?: string): void => {
    summary.jobs.push({ job_id: job.job_id, hook_id: job.hook_id, outcome, ...(error ? { error } : {}) });
    if (outcome === 'done') summary.done++;
    if (outcome === 'failed' || outcome === 'stale_source' || outcome === 'ambiguous_hook' || outcome === 'max_retries' || outcome === 'invalid_job') summary.failed++;
    if (outcome in summary.skipped) summary.skipped[outcome as keyof DrainSummary['skipped']]++;
  };

  // `fileId` is the job file's name: the identity for claims and moves, even where a hand-written job_id differs.
  const runnable: { fileId: string; job: Job; hook: Hook }[] = [];
  for (const jobId of listJobs(configDir, 'pending')) {
    if (isOddJobFile(configDir, 'pending', jobId)) {
      summary.considered++;
      if (!opts.dryRun) moveAside(configDir, jobId);
      record({ job_id: jobId, hook_id: '' }, 'invalid_job', 'not a regular file; moved to failed/');
      continue;
    }
    const text = readJobText(configDir, 'pending', jobId);
    if (text === undefined) continue; // finished by someone else meanwhile
    let job: Job;
    try {
      job = parseJob(text);
    } catch (e) {
      if (!(e instanceof InvalidJob)) throw e;
      summary.considered++;
      if (!opts.dryRun) moveAside(configDir, jobId);
      record({ job_id: jobId, hook_id: '' }, 'invalid_job', `${e.message}; moved to failed/`);
      continue;
    }
    summary.considered++;
    if (job.due_at && Date.parse(job.due_at) > now) {
      record(job, 'not_due');
      continue;
    }
    const since = Date.parse(job.last_started_at ?? job.created_at);
    if (Number.isFinite(since) && now - since < settings.outbox_retry_age_seconds * 1000) {
      record(job, 'young');
      continue;
    }
    if (job.retries >= settings.outbox_max_retries) {
      await failUnderClaim(configDir, jobId, job, 'max_retries', `started ${job.retries} times (outbox_max_retries ${settings.outbox_max_retries})`, opts.dryRun, record);
      continue;
    }
    const found = await finder.find(job);
    if ('error' in found) {
      if (found.error === 'untrusted') record(job, 'untrusted');
      else await failUnderClaim(configDir, jobId, job, found.error, found.message, opts.dryRun, record);
      continue;
    }
    if (opts.limit !== undefined && runnable.length >= opts.limit) continue;
    if (opts.dryRun) record(job, 'would_run');
    else runnable.push({ fileId: jobId, job, hook: found.hook });
  }

  const temp = new TempFiles(configDir);
  let finished = 0;
  const fallbackWorkspace = workspaceOf(opts);
  const next = async (): Promise<void> => {
    for (let item = runnable.shift(); item; item = runnable.shift()) {
      await runOne(configDir, fallbackWorkspace, item.fileId, item.job, item.hook, temp, summary, record);
      opts.onProgress?.(++finished, finished + runnable.length);
    }
  };
  await Promise.all(Array.from({ length: clampParallel(settings.max_parallel_hooks) }, next));
  temp.cleanup();
  summary.warnings.push(...temp.warnings);
  return summary;
}

async function runOne(configDir: string, fallbackWorkspace: string, fileId: string, job: Job, hook: Hook, temp: TempFiles, summary: DrainSummary, record: (j: Job, o: DrainOutcome, e?: string) => void): Promise<void> {
  const sessionId = stringField(job.payload, 'session_id');
  const ctx: HookContext = {
    configDir,
    // The workspace the event came from; else --cwd, else the current directory.
    workspace: typeof job.payload.cwd === 'string' && existsSync(job.payload.cwd) ? job.payload.cwd : fallbackWorkspace,
    sessionId,
    profile: stringField(job.payload, 'profile'),
  };
  const once = new OnceGuard(configDir, sessionId);
  // The loop guard: a once-per-session follow-up runs only as the job that stamped it.
  const refuse = (): string | undefined => (hook.execution.once_per_session ? once.claim(hook, fileId) : undefined);
  let result: Awaited<ReturnType<typeof runDurableJob>>;
  try {
    result = await runDurableJob(configDir, fileId, hook, ctx, temp, { refuse });
  } catch (e) {
    // A full disk (or similar) for one job must not cost the summary of the others.
    result = { outcome: 'pending', error: `cannot run the job (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (result.outcome === 'claimed' || result.outcome === 'gone') {
    record(job, 'claimed');
    return;
  }
  if (result.record) summary.ran++;
  if (result.error) summary.warnings.push({ code: 'outbox_unavailable', hook: hook.id, message: `job ${fileId}: ${result.error}` });
  record(job, result.outcome === 'done' ? 'done' : result.outcome === 'pending' ? 'pending' : 'failed', result.record?.error ?? result.error ?? (result.outcome === 'failed' && !result.record ? 'once_per_session' : undefined));
  if (result.record) {
    recordRun(configDir, hook, { status: result.record.historyStatus, session_id: sessionId, exit_code: result.record.exitCode, duration_ms: result.record.durationMs });
  }
}

async function failUnderClaim(configDir: string, fileId: string, job: Job, outcome: 'stale_source' | 'ambiguous_hook' | 'max_retries', message: string, dryRun: boolean | undefined, record: (j: Job, o: DrainOutcome, e?: string) => void): Promise<void> {
  if (dryRun) return record(job, outcome, message);
  const claim = await withJobLock(configDir, fileId, async () => {
    const text = readJobText(configDir, 'pending', fileId);
    if (text === undefined) return false;
    fileJob(configDir, fileId, { ...parseJob(text), state: 'failed', error: outcome === 'max_retries' ? 'max_retries' : outcome }, 'failed');
    return true;
  });
  if (claim.claimed && claim.value) record(job, outcome, message);
  else record(job, 'claimed');
}

/** A job file that is not a valid job: moved to failed/ as it is, never deleted. */
function moveAside(configDir: string, jobId: string): void {
  try {
    moveJob(configDir, jobId, 'pending', 'failed');
  } catch {
    // someone else moved it
  }
}

/** Moves failed jobs back to pending with a fresh start count, for after a hook is fixed. */
export function requeueFailed(opts: GlobalOptions): { job_id: string; requeued: boolean; error?: string }[] {
  const configDir = configDirOf(opts);
  return listJobs(configDir, 'failed').map((jobId) => {
    const text = readJobText(configDir, 'failed', jobId);
    try {
      const job = parseJob(text ?? '');
      writeJob(configDir, 'failed', { ...job, state: 'pending', retries: 0, error: null, requeued_at: new Date().toISOString() }, jobId);
      moveJob(configDir, jobId, 'failed', 'pending');
      return { job_id: jobId, requeued: true };
    } catch (e) {
      return { job_id: jobId, requeued: false, error: (e as Error).message };
    }
  });
}

/** Deletes done/ jobs older than `days` (by last_finished_at, else file time). */
export function pruneDone(opts: GlobalOptions, days: number): string[] {
  const configDir = configDirOf(opts);
  const cutoff = Date.now() - days * 86_400_000;
  const dir = outboxDir(configDir, 'done');
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return removed;
  }
  for (const name of names) {
    const path = join(dir, name);
    const jobId = name.slice(0, -5);
    let finishedAt = Number.NaN;
    try {
      finishedAt = Date.parse(parseJob(readJobText(configDir, 'done', jobId) ?? '').last_finished_at ?? '');
    } catch {
      // fall back to the file time
    }
    if (!Number.isFinite(finishedAt)) finishedAt = statSync(path).mtimeMs;
    if (finishedAt < cutoff) {
      rmSync(path, { force: true });
      removed.push(jobId);
    }
  }
  return removed;
}
