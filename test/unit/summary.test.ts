// A drain's tally: each job counted once, under the right heading, so the
// counts add up to the jobs listed.
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../src/core/diagnostics.js';
import { type DrainOutcome, type JobReport, Tally } from '../../src/outbox/summary.js';

const report = (outcome: DrainOutcome, id: string = outcome): JobReport => ({ job_id: id, hook_id: 'h', outcome });

describe('Tally', () => {
  it('starts at zero', () => {
    expect(new Tally(true).summary).toEqual({
      considered: 0, ran: 0, done: 0, failed: 0, deferred: 0, pending: 0, would_run: 0, would_fail: 0,
      skipped: { young: 0, not_due: 0, claimed: 0, untrusted: 0, limit: 0 }, jobs: [], warnings: [], failed_jobs: [],
    });
  });

  it('counts every outcome under its heading, and every failure kind as failed', () => {
    const tally = new Tally(true);
    const outcomes: DrainOutcome[] = ['done', 'deferred', 'pending', 'would_run', 'failed', 'invalid_job', 'max_retries', 'stale_source', 'ambiguous_hook', 'young', 'not_due', 'claimed', 'untrusted', 'limit'];
    for (const o of outcomes) tally.report(report(o));
    expect(tally.summary).toEqual({
      considered: 14, ran: 0, done: 1, failed: 5, deferred: 1, pending: 1, would_run: 1, would_fail: 0,
      skipped: { young: 1, not_due: 1, claimed: 1, untrusted: 1, limit: 1 },
      jobs: outcomes.map((o) => report(o)), warnings: [], failed_jobs: [],
    });
  });

  it('counts a dry run\'s failure as would_fail only, and a started hook as ran', () => {
    const tally = new Tally(true);
    tally.report(report('max_retries'), true);
    tally.report(report('done'), false, true);
    tally.report(report('failed', 'f'), false, true);
    expect(tally.summary).toMatchObject({ considered: 3, would_fail: 1, failed: 1, done: 1, ran: 2 });
  });

  it('tells each job and warning as it comes, and keeps them only when asked to', () => {
    const told: unknown[] = [];
    const w: Warning = { code: 'due_at_invalid', message: 'm' };
    const keeping = new Tally(true, (r, ran) => told.push([r.job_id, ran]), (x) => told.push(x.code));
    keeping.report(report('done', 'a'), false, true);
    keeping.warn(w, w);
    expect(told).toEqual([['a', true], 'due_at_invalid', 'due_at_invalid']);
    expect(keeping.summary.warnings).toEqual([w, w]);
    expect(keeping.summary.jobs).toEqual([report('done', 'a')]);

    const lean = new Tally(false, (r, ran) => told.push([r.job_id, ran]), (x) => told.push(x.message));
    lean.report(report('young', 'b'));
    lean.warn(w);
    expect(told.slice(3)).toEqual([['b', false], 'm']);
    expect(lean.summary).toMatchObject({ considered: 1, jobs: [], warnings: [], skipped: { young: 1 } });
  });
});
