// `chrys-hooks drain-outbox`: run due durable jobs; also requeue failed jobs
// and prune old done ones.

import { ChrysError, EXIT } from '../core/errors.js';
import { drainOutbox, pruneDone, requeueFailed } from '../outbox/drain.js';
import type { CliGlobals } from './globals.js';
import type { CommandResult } from './output.js';
import { stopOnTermination } from './signals.js';

function count(opts: Record<string, unknown>, key: string, what: string): number | undefined {
  const raw = opts[key];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (key === 'limit' && !Number.isInteger(n))) throw new ChrysError('usage', `--${what} takes a number >= 0, not "${String(raw)}"`, `for example --${what} 10`);
  return n;
}

export async function runDrain(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  const limit = count(opts, 'limit', 'limit');
  const pruneDays = count(opts, 'pruneDone', 'prune-done');
  if (opts.requeueFailed) {
    const requeued = requeueFailed(globals);
    if (opts.json) return { stdout: JSON.stringify({ requeued }, null, 2), exitCode: EXIT.ok };
    const ok = requeued.filter((r) => r.requeued).length;
    const lines = requeued.filter((r) => !r.requeued).map((r) => `not requeued: ${r.job_id}: ${r.error}`);
    lines.push(`requeued ${ok} failed job${ok === 1 ? '' : 's'}; run drain-outbox to deliver them`);
    return { stdout: lines.join('\n'), exitCode: EXIT.ok };
  }
  if (pruneDays !== undefined) {
    const removed = pruneDone(globals, pruneDays);
    return { stdout: opts.json ? JSON.stringify({ pruned: removed }, null, 2) : `pruned ${removed.length} done job${removed.length === 1 ? '' : 's'} older than ${pruneDays} days`, exitCode: EXIT.ok };
  }
  const progress = process.stderr.isTTY && !opts.json
    ? (done: number, total: number): void => {
        if (total >= 20) process.stderr.write(`\rdraining ${done}/${total}${done === total ? '\n' : ''}`);
      }
    : undefined;
  stopOnTermination();
  const summary = await drainOutbox({ ...globals, dryRun: Boolean(opts.dryRun), ...(limit !== undefined ? { limit } : {}), ...(progress ? { onProgress: progress } : {}) });
  if (opts.json) return { stdout: JSON.stringify(summary, null, 2), exitCode: EXIT.ok };
  const s = summary;
  const lines = s.jobs
    .filter((j) => !['young', 'not_due', 'claimed'].includes(j.outcome))
    .map((j) => `${j.outcome.padEnd(14)} ${j.job_id}  ${j.hook_id}${j.error ? `  (${j.error})` : ''}`);
  for (const w of s.warnings) lines.push(`warning ${w.code}: ${w.message}`);
  const verb = opts.dryRun ? 'would run' : 'ran';
  const wouldRun = s.jobs.filter((j) => j.outcome === 'would_run').length;
  lines.push(
    `${s.considered} pending considered, ${verb} ${opts.dryRun ? wouldRun : s.ran}: ${s.done} done, ${s.failed} failed; ` +
      `skipped ${s.skipped.young} young, ${s.skipped.not_due} not due, ${s.skipped.claimed} claimed, ${s.skipped.untrusted} untrusted`,
  );
  return { stdout: lines.join('\n'), exitCode: EXIT.ok };
}
