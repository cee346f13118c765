// `chrys-hooks drain-outbox`: run due durable jobs, once or (--watch) as a
// long-running scheduler; also requeue failed jobs and prune old done ones.

import { useSpawnHelper } from '../run/spawn-helper.js';
import { ChrysError, EXIT } from '../core/errors.js';
import type { Warning } from '../core/diagnostics.js';
import { drainOutbox } from '../outbox/drain.js';
import { pruneDone, requeueFailed } from '../outbox/maintenance.js';
import type { DrainSummary, JobReport } from '../outbox/summary.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { stopOnTermination } from './signals.js';
import { printable } from '../core/printable.js';
import { relative } from '../outbox/view.js';
import { configDirOf } from '../config/locations.js';
import type { OutboxChoice } from '../outbox/pg/choice.js';

function count(opts: Record<string, unknown>, key: string, what: string): number | undefined {
  const raw = opts[key];
  if (raw === undefined) return undefined;
  // Decimal digits only: Number() also takes '' and ' ' (as 0), 0x2 and 1e0.
  const n = (key === 'limit' ? /^\d+$/ : /^\d+(?:\.\d+)?$/).test(String(raw)) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) throw new ChrysError('usage', `--${what} takes a number >= 0, not "${String(raw)}"`, `for example --${what} 10`);
  return n;
}

export async function runDrain(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const limit = count(opts, 'limit', 'limit');
  const pruneDays = count(opts, 'pruneDone', 'prune-done');
  // A drain may run many hooks: a spawn helper from its eighth on (a dry run, a requeue or a prune starts none).
  useSpawnHelper();
  const { outboxChoice } = await import('../outbox/pg/choice.js');
  const choice = await outboxChoice(configDirOf(globals));
  if (choice.backend === 'postgres') return runPostgresDrain(opts, globals, choice, limit, pruneDays);
  if (opts.watch) return runWatch(opts, globals, limit, pruneDays);
  if (opts.interval !== undefined) throw new ChrysError('usage', '--interval needs --watch', 'add --watch, or drop --interval');
  if (opts.requeueFailed) {
    const requeued = requeueFailed(globals);
    if (opts.json) return { stdout: JSON.stringify({ requeued }, null, 2), exitCode: EXIT.ok };
    const ok = requeued.filter((r) => r.requeued).length;
    const lines = requeued.filter((r) => !r.requeued).map((r) => `not requeued: ${r.job_id}: ${r.error}`);
    lines.push(`requeued ${ok} failed job${ok === 1 ? '' : 's'}, due at once; run drain-outbox to deliver them`);
    return { stdout: lines.join('\n'), exitCode: EXIT.ok };
  }
  if (pruneDays !== undefined) {
    return prunedResult(pruneDays, pruneDone(globals, pruneDays), Boolean(opts.json));
  }
  const progress = process.stderr.isTTY && !opts.json
    ? (done: number, total: number): void => {
        if (total >= 20) process.stderr.write(`\rdraining ${done}/${total}${done === total ? '\n' : ''}`);
      }
    : undefined;
  stopOnTermination();
  const summary = await drainOutbox({ ...globals, dryRun: Boolean(opts.dryRun), ...(limit !== undefined ? { limit } : {}), ...(progress ? { onProgress: progress } : {}) });
  if (opts.json) return { stdout: JSON.stringify(summary, null, 2), exitCode: EXIT.ok };
  return { stdout: renderSummary(summary, Boolean(opts.dryRun)), exitCode: EXIT.ok };
}

const prunedResult = (days: number, removed: string[], json: boolean): CommandResult => ({
  stdout: json ? JSON.stringify({ days, pruned: removed }, null, 2) : `pruned ${removed.length} done job${removed.length === 1 ? '' : 's'} older than ${days} days`,
  exitCode: EXIT.ok,
});

const QUIET: ReadonlySet<string> = new Set(['young', 'not_due', 'claimed', 'limit']);
const WAITING: ReadonlySet<string> = new Set(['young', 'not_due', 'deferred']);
/** Failed jobs named in the text summary; the rest are counted. */
const FAILED_NAMED = 10;

function renderSummary(s: DrainSummary, dryRun: boolean): string {
  const now = Date.now();
  // A dry run is asked "what would happen, and when": it lists every job, with its due time.
  const lines = s.jobs.filter((j) => dryRun || !QUIET.has(j.outcome)).flatMap((j) => jobLines(j, now));
  for (const w of s.warnings) lines.push(`warning ${w.code}: ${printable(w.message)}`);
  const ran = dryRun ? `would run ${s.would_run}, would file ${s.would_fail} as failed` : `ran ${s.ran}: ${s.done} done, ${s.failed} failed, ${s.deferred} deferred`;
  lines.push(
    `${s.considered} pending considered, ${ran}; ` +
      `skipped ${s.skipped.young} young, ${s.skipped.not_due} not due, ${s.skipped.claimed} claimed, ${s.skipped.untrusted} untrusted` +
      (s.skipped.limit ? `, ${s.skipped.limit} over --limit` : ''),
  );
  if (s.failed_jobs.length) {
    const named = s.failed_jobs.slice(0, FAILED_NAMED).map((f) => `${printable(f.job_id)} (${printable(f.hook_id)}${f.error ? `: ${printable(f.error)}` : ''})`);
    const more = s.failed_jobs.length - named.length;
    lines.push(`${s.failed_jobs.length} failed job${s.failed_jobs.length === 1 ? '' : 's'} in the outbox: ${named.join(', ')}${more ? `, and ${more} more` : ''}`);
    lines.push('    see them with `chrys-hooks outbox list --state failed`; requeue them with `chrys-hooks outbox retry --failed`');
  }
  return lines.join('\n');
}

/** A job's line, then what an operator needs next: the stderr tail and log of a failure, the command for an untrusted job. */
function jobLines(j: JobReport, now = Date.now()): string[] {
  const due = j.due_at && WAITING.has(j.outcome) ? `  due ${printable(j.due_at)} (${relative(Date.parse(j.due_at), now)})` : j.outcome === 'would_run' ? '  due now' : '';
  const lines = [`${j.outcome.padEnd(14)} ${printable(j.job_id)}  ${printable(j.hook_id)}${j.error ? `  (${printable(j.error)})` : ''}${due}`];
  if (j.stderr_tail) lines.push(...j.stderr_tail.trimEnd().split('\n').map((l) => `    | ${printable(l)}`));
  if (j.log_path && j.outcome !== 'done') lines.push(`    log: ${printable(j.log_path)}`);
  if (j.command) lines.push(`    project hooks are not enabled for this drain; to run it: ${printable(j.command)}`);
  return lines;
}

async function runPostgresDrain(opts: Record<string, unknown>, globals: CliGlobals, choice: Extract<OutboxChoice, { backend: 'postgres' }>, limit: number | undefined, pruneDays: number | undefined): Promise<CommandResult> {
  if (opts.interval !== undefined && !opts.watch) throw new ChrysError('usage', '--interval is not supported with the PostgreSQL outbox', 'drop it: --watch wakes on NOTIFY');
  if (opts.watch) refuseWatchClash(opts, limit, pruneDays);
  const { drainPostgres } = await import('../outbox/pg/drain.js');
  if (opts.requeueFailed) {
    const { PostgresOutbox } = await import('../outbox/pg/backend.js');
    const changes = await new PostgresOutbox(choice).retryFailed();
    if (opts.json) return { stdout: JSON.stringify({ requeued: changes.map((c) => ({ job_id: c.job_id, requeued: c.outcome === 'requeued' })) }, null, 2), exitCode: EXIT.ok };
    return { stdout: `requeued ${changes.filter((c) => c.outcome === 'requeued').length} failed jobs, due at once`, exitCode: EXIT.ok };
  }
  if (pruneDays !== undefined) {
    const { PostgresOutbox } = await import('../outbox/pg/backend.js');
    return prunedResult(pruneDays, await new PostgresOutbox(choice).pruneDone(pruneDays), Boolean(opts.json));
  }
  if (!opts.watch) {
    stopOnTermination();
    const summary = await drainPostgres({ ...globals, dryRun: Boolean(opts.dryRun), ...(limit !== undefined ? { limit } : {}) }, choice);
    if (opts.json) return { stdout: JSON.stringify(summary, null, 2), exitCode: EXIT.ok };
    return { stdout: renderSummary(summary, Boolean(opts.dryRun)), exitCode: EXIT.ok };
  }
  const json = Boolean(opts.json);
  const log = (fields: Record<string, unknown>, text: string): void => {
    const at = new Date().toISOString();
    process.stderr.write(json ? `${JSON.stringify({ at, ...fields })}\n` : `${at} ${text}\n`);
  };
  const stopper: { stop?: () => void } = {};
  const stop = (): void => stopper.stop?.();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await drainPostgres({
    ...globals,
    watch: true,
    keepJobs: false,
    stopper,
    onReady: ({ hostId, workers, absorbed }) => log({ watching: 'postgres', host_id: hostId, workers, absorbed }, `watching the PostgreSQL outbox for host ${hostId} and portable jobs (NOTIFY; ${workers} at a time${absorbed ? `; moved ${absorbed} file jobs in` : ''})`),
    onJob: (job) => {
      if (QUIET.has(job.outcome)) return;
      log({ ...job }, jobLines(job).join('\n'));
    },
    onWarning: (w: Warning) => log({ warning: w }, `warning ${w.code}: ${printable(w.message)}`),
  }, choice);
  log({ stopped: true }, 'stopped');
  return { exitCode: EXIT.ok };
}

/** The one-shot actions --watch does not combine with (either backend). */
function refuseWatchClash(opts: Record<string, unknown>, limit: number | undefined, pruneDays: number | undefined): void {
  const clash = ['dryRun', 'requeueFailed'].find((k) => opts[k]) ?? (limit !== undefined ? 'limit' : pruneDays !== undefined ? 'pruneDone' : undefined);
  if (clash) throw new ChrysError('usage', `--watch cannot be combined with --${clash.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, 'run that as a one-shot drain-outbox');
}

async function runWatch(opts: Record<string, unknown>, globals: CliGlobals, limit: number | undefined, pruneDays: number | undefined): Promise<CommandResult> {
  refuseWatchClash(opts, limit, pruneDays);
  const interval = opts.interval === undefined ? 10 : Number(opts.interval);
  if (!Number.isFinite(interval) || interval < 0.05) throw new ChrysError('usage', `--interval takes a number of seconds >= 0.05, not "${String(opts.interval)}"`, 'for example --interval 10');
  const json = Boolean(opts.json);
  const log = (fields: Record<string, unknown>, text: string): void => {
    const at = new Date().toISOString();
    process.stderr.write(json ? `${JSON.stringify({ at, ...fields })}\n` : `${at} ${text}\n`);
  };
  const seenUntrusted = new Set<string>();
  const seenWarnings = new Set<string>();
  const { Watcher } = await import('../outbox/watch.js');
  const watcher = new Watcher({
    ...globals,
    intervalSeconds: interval,
    onReady: ({ pending, watching }) => log({ watching: pending, interval_seconds: interval, fs_events: watching }, `watching ${pending} (${watching ? 'file events, ' : ''}every ${interval} s at most)`),
    onJob: (job, ran) => {
      // Waiting jobs are looked at on every pass: log what changed, and an untrusted job once.
      if (QUIET.has(job.outcome) || (job.outcome === 'deferred' && !ran)) return;
      if (job.outcome === 'untrusted' && seenUntrusted.has(job.job_id)) return;
      if (job.outcome === 'untrusted') seenUntrusted.add(job.job_id);
      log({ ...job }, jobLines(job).join('\n'));
    },
    onPassError: (e) => log({ error: e.message }, `error: ${printable(e.message)}; trying again in ${interval} s`),
    onWarning: (w: Warning) => {
      if (seenWarnings.has(w.message)) return;
      seenWarnings.add(w.message);
      log({ warning: w }, `warning ${w.code}: ${printable(w.message)}`);
    },
  });
  const stop = (): void => watcher.stop();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const leftPending = await watcher.run();
  log({ stopped: true, left_pending: leftPending }, `stopped${leftPending ? `; ${leftPending} running job${leftPending === 1 ? '' : 's'} stopped, left pending` : ''}`);
  return { exitCode: EXIT.ok };
}
