// `chrys-hooks outbox list|show|logs|retry|drop`: see and change the durable
// outbox through the OutboxBackend operations, so a second backend only has
// to implement those.

import { readFileSync } from 'node:fs';
import { ChrysError, EXIT } from '../core/errors.js';
import { type Json, stringifyJson } from '../core/json.js';
import { printable, printableLines } from '../core/printable.js';
import { configDirOf } from '../config/locations.js';
import type { Change, OutboxBackend } from '../outbox/backend.js';
import { drainSettingsOf } from '../outbox/drain.js';
import { FileOutbox } from '../outbox/file-backend.js';
import type { LiveSource } from '../run/live-log.js';
import { JOB_STATES, type JobState, type OutboxEntry, historyLines, jobRow, relative } from '../outbox/view.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { table } from './render.js';

const ACTIONS = ['list', 'show', 'logs', 'retry', 'drop', 'migrate'] as const;
/** Lines of the log `outbox show` prints; `outbox logs` prints it whole. */
const LOG_TAIL_LINES = 20;

export async function runOutbox(args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const [action, jobId, ...extra] = args;
  if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) {
    throw new ChrysError('usage', `unknown outbox action "${printable(action ?? '')}"`, `use one of ${ACTIONS.join(', ')}`);
  }
  if (extra.length) throw new ChrysError('usage', `too many arguments: ${extra.map(printable).join(' ')}`, 'name one job');
  const json = Boolean(opts.json);
  if (action === 'migrate') {
    if (jobId !== undefined) throw new ChrysError('usage', 'outbox migrate takes no job id', 'it moves every pending job; use --to postgres or --to files');
    const { migrateOutbox } = await import('./outbox-migrate.js');
    return migrateOutbox(configDirOf(globals), opts.to, json);
  }
  const backend = await backendOf(configDirOf(globals));
  if (action === 'list') {
    if (jobId !== undefined) throw new ChrysError('usage', 'outbox list takes no job id', 'use `chrys-hooks outbox show JOB` for one job');
    return list(backend, stateOption(opts), json, globals);
  }
  if (action === 'retry' && opts.failed) {
    if (jobId !== undefined) throw new ChrysError('usage', 'outbox retry takes a job id or --failed, not both', 'drop one of them');
    return changed(await backend.retryFailed(), json, 'no failed jobs to retry');
  }
  if (jobId === undefined) throw new ChrysError('usage', `outbox ${action} needs a job id${action === 'retry' ? ' (or --failed)' : ''}`, 'run `chrys-hooks outbox list` for the job ids');
  if (action === 'show') return show(await backend.show(jobId), json, globals);
  if (action === 'logs') return logs(backend, jobId, Boolean(opts.follow));
  return changed([action === 'retry' ? await backend.retry(jobId) : await backend.drop(jobId)], json, '');
}

/** The outbox the user settings choose: the file outbox, or PostgreSQL (its driver loaded only then). */
async function backendOf(configDir: string): Promise<OutboxBackend> {
  const { outboxChoice } = await import('../outbox/pg/choice.js');
  const choice = await outboxChoice(configDir);
  if (choice.backend === 'files') return new FileOutbox(configDir);
  const { PostgresOutbox } = await import('../outbox/pg/backend.js');
  const { WithFallenBack } = await import('../outbox/fallen-back.js');
  return new WithFallenBack(new PostgresOutbox(choice), new FileOutbox(configDir));
}

function stateOption(opts: Record<string, unknown>): JobState | undefined {
  if (opts.state === undefined) return undefined;
  if (!JOB_STATES.includes(opts.state as JobState)) throw new ChrysError('usage', `--state takes ${JOB_STATES.join(', ')}, not "${printable(String(opts.state))}"`, 'for example --state failed');
  return opts.state as JobState;
}

async function list(backend: OutboxBackend, state: JobState | undefined, json: boolean, globals: CliGlobals): Promise<CommandResult> {
  const { outbox_retry_age_seconds: age } = await drainSettingsOf(globals);
  const now = Date.now();
  const rows = (await backend.list(state)).map((e) => jobRow(e, age, now));
  if (json) return { stdout: JSON.stringify({ jobs: rows }, null, 2), exitCode: EXIT.ok };
  if (rows.length === 0) return { stdout: state ? `no ${state} jobs` : 'the outbox is empty', exitCode: EXIT.ok };
  const due = (r: (typeof rows)[number]): string => (r.due_at === null ? '-' : `${relative(Date.parse(r.due_at), now)} (${r.due_at})`);
  const lines = table([
    ['job', 'state', 'hook', 'event', 'session', 'due', 'attempts', 'last error'],
    ...rows.map((r) => [printable(r.job_id), `${r.state}${r.fallen_back ? '*' : ''}`, printable(r.hook_id), printable(r.event), printable(r.session_id || '-'), due(r), String(r.attempts), printable(r.last_error ?? '-')]),
  ]);
  if (rows.some((r) => r.fallen_back)) lines.push('', FALLEN_BACK_NOTE);
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}

const FALLEN_BACK_NOTE = '* in this machine\'s file outbox (fire wrote it there while PostgreSQL was unreachable, or outbox migrate --to files moved it): the next drain-outbox moves it into the database';

async function show(e: OutboxEntry, json: boolean, globals: CliGlobals): Promise<CommandResult> {
  const { outbox_retry_age_seconds: age } = await drainSettingsOf(globals);
  const now = Date.now();
  const row = jobRow(e, age, now);
  const history = historyLines(e.job);
  const log = jobLog(e);
  const tail = log === undefined ? undefined : lastLines(log.text);
  if (json) {
    const out = { ...row, history, log_tail: tail ?? null, job: e.job as unknown as Json };
    return { stdout: stringifyJson(out as unknown as Json, 2), exitCode: EXIT.ok };
  }
  const lines = [
    `job       ${printable(row.job_id)}`,
    `state     ${row.state}${row.fallen_back ? '*' : ''}`,
    `hook      ${printable(row.hook_id)} (${printable(String(e.job.hook_source ?? '-'))}${typeof e.job.hook_source_path === 'string' ? ` ${printable(e.job.hook_source_path)}` : ''})`,
    `event     ${printable(row.event)}`,
    `session   ${printable(row.session_id || '-')}`,
    `due       ${row.due_at === null ? '-' : `${relative(Date.parse(row.due_at), now)} (${row.due_at})`}`,
    `attempts  ${row.attempts}`,
    `error     ${printable(row.last_error ?? '-')}`,
    '',
    'history',
    ...history.map((h) => `  ${printable(h.at)}  ${printable(h.what)}`),
  ];
  if (typeof e.job.stderr_tail === 'string' && e.job.stderr_tail) lines.push('', 'stderr tail', ...e.job.stderr_tail.trimEnd().split('\n').map((l) => `  | ${printable(l)}`));
  const where = log?.copyFrom !== undefined ? ` (no such file here: the copy filed with the job by host ${printable(log.copyFrom)})` : tail === undefined ? ' (gone)' : '';
  lines.push('', row.log_path ? `log ${printable(row.log_path)}${where}` : 'log: none yet (the job has not finished a run)');
  if (tail !== undefined) lines.push(...tail.split('\n').map((l) => `  | ${printable(l)}`));
  if (row.fallen_back) lines.push('', FALLEN_BACK_NOTE);
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}

function readLog(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // pruned after seven days, or never written
  }
}

const lastLines = (text: string): string => text.trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n');

const logPathOf = (e: OutboxEntry): string | undefined => (typeof e.job.log_path === 'string' ? e.job.log_path : undefined);

/**
 * A job's last log: its file, where the run was on this machine; else the
 * copy a PostgreSQL drain filed with the job (its first 4,096 characters and its end, 65,536 at most), naming the
 * host that ran it: the run was on another machine, or its file was pruned.
 */
function jobLog(e: OutboxEntry): { text: string; copyFrom?: string } | undefined {
  const path = logPathOf(e);
  const text = path === undefined ? undefined : readLog(path);
  if (text !== undefined) return { text };
  if (typeof e.job.log_copy !== 'string') return undefined;
  // Another machine's hook output, from the database: its control characters are shown, never run by this terminal.
  const copy = printableLines(e.job.log_copy);
  return { text: copy, copyFrom: typeof e.job.log_host === 'string' ? e.job.log_host : 'unknown' };
}

/**
 * A job's log. A run's log is written when the run ends; while a run goes on
 * its output is streamed from the backend's live output (a file on the
 * drainer's machine, rows of the PostgreSQL outbox), and once it ended only
 * the log's status lines follow. --follow ends when the job is done or
 * failed, or on SIGINT.
 */
async function logs(backend: OutboxBackend, jobId: string, follow: boolean): Promise<CommandResult> {
  const first = await backend.show(jobId);
  const path = logPathOf(first);
  const log = jobLog(first);
  const text = log?.text;
  if (log?.copyFrom !== undefined) process.stderr.write(`no log file${path ? ` ${printable(path)}` : ''} here: the copy filed with the job by host ${printable(log.copyFrom)}\n`);
  if (!follow || first.folder !== 'pending') {
    if (text === undefined) return { stderr: [path ? `the log of job ${printable(jobId)} is gone: ${printable(path)}` : `job ${printable(jobId)} has no log yet (it has not finished a run)`], exitCode: EXIT.ok };
    return { stdout: text, exitCode: EXIT.ok };
  }
  if (text !== undefined) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  else process.stderr.write(`following job ${printable(jobId)}: its output while a run goes on, its log when the run ends...\n`);
  await followJob(backend, jobId, path, backend.liveOutput(first.job.job_id, path));
  return { exitCode: EXIT.ok };
}

/** How often a follower looks at the live output (a run's output comes as it comes; a tail polls, as tail -f does). */
const LIVE_POLL_MS = 200;

function followJob(backend: OutboxBackend, jobId: string, shown: string | undefined, live: LiveSource): Promise<void> {
  let last = shown;
  let printedLive = false;
  return new Promise((resolve, reject) => {
    let watcher: { close(): void } | undefined;
    let ended = false;
    // One read at a time, each printed in order with the log lines around it.
    let reading: Promise<void> = Promise.resolve();
    let toldGivenUp = false;
    const readLive = (): Promise<void> =>
      (reading = reading.then(async () => {
        for (const chunk of await live.next()) {
          printedLive = true;
          process.stdout.write(chunk);
        }
        if (live.givenUp !== undefined && !toldGivenUp) {
          toldGivenUp = true;
          process.stderr.write(`no live output: ${live.givenUp}; the run's log follows when it ends\n`);
        }
      }));
    // A tick while a read goes on (a slow database) adds none: the reads would pile up.
    let polling = false;
    const poll = setInterval(() => {
      if (polling) return;
      polling = true;
      readLive().then(() => void (polling = false), end);
    }, LIVE_POLL_MS);
    let looking = false;
    let again = false;
    function end(e?: unknown): void {
      if (ended) return;
      ended = true;
      clearInterval(poll);
      live.close();
      watcher?.close();
      process.off('SIGINT', onSigint);
      if (e) reject(e);
      else resolve();
    }
    const onSigint = (): void => end();
    // Events come in bursts (temp file, rename): one look at a time, and one more after it if any came meanwhile.
    const look = async (): Promise<void> => {
      if (looking) return void (again = true);
      looking = true;
      try {
        do {
          again = false;
          const e = await backend.show(jobId).catch((err: unknown) => (err instanceof ChrysError && err.code === 'unknown_job' ? undefined : Promise.reject(err)));
          if (!e) return end(); // dropped
          const path = logPathOf(e);
          if (path && path !== last) {
            const text = jobLog(e)?.text;
            if (text !== undefined) {
              await readLive(); // what the run printed last
              const shownLive = printedLive;
              printedLive = false;
              const body = shownLive ? statusLines(text) : text;
              process.stdout.write(`${last || shownLive ? '\n' : ''}${body.endsWith('\n') ? body : `${body}\n`}`);
              last = path;
            }
          }
          if (e.folder !== 'pending') return end();
        } while (again);
      } catch (err) {
        end(err);
      } finally {
        looking = false;
      }
    };
    process.on('SIGINT', onSigint);
    try {
      watcher = backend.watch(() => void look());
    } catch (e) {
      return end(e);
    }
    void look(); // it may have changed before the watch began
  });
}

function changed(changes: Change[], json: boolean, none: string): CommandResult {
  if (json) return { stdout: JSON.stringify({ changes }, null, 2), exitCode: EXIT.ok };
  if (changes.length === 0) return { stdout: none, exitCode: EXIT.ok };
  const line = (c: Change): string =>
    c.outcome === 'running'
      ? `job ${printable(c.job_id)} is running (a drain or fire's worker holds its claim); left as it is, try again when it ends`
      : c.outcome === 'requeued'
        ? `requeued ${printable(c.job_id)} (was ${c.from}): due now; a drain runs it next (drain-outbox, or a running --watch)`
        : `dropped ${printable(c.job_id)} (was ${c.from}); it will not run`;
  const running = changes.some((c) => c.outcome === 'running');
  return { stdout: changes.map(line).join('\n'), exitCode: running ? EXIT.findings : EXIT.ok };
}

/** A log's status lines (its head, before the output it holds). */
const statusLines = (log: string): string => log.slice(0, Math.max(0, log.indexOf('## stdout\n')));
