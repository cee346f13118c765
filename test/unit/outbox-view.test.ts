// What `outbox list` and `outbox show` say about a job (outbox/view.ts): its
// state, when it is due, a time relative to now, its row and its history.
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/outbox/job.js';
import { JOB_STATES, type OutboxEntry, dueAt, historyLines, jobRow, relative, stateOf } from '../../src/outbox/view.js';

const NOW = Date.parse('2026-12-04T12:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function job(fields: Record<string, unknown> = {}): Job {
  return {
    job_id: 'j1', hook_id: 'deliver', event: 'after_turn', payload: { session_id: 'sess-1' },
    created_at: iso(NOW - 60_000), state: 'pending', retries: 0, last_started_at: null, last_finished_at: null,
    exit_code: null, error: null, stderr_tail: null, ...fields,
  } as Job;
}
const entry = (folder: OutboxEntry['folder'], fields: Record<string, unknown> = {}, id = 'file-1'): OutboxEntry => ({ id, folder, job: job(fields) });

describe('stateOf', () => {
  it('is deferred only for a pending job a hook said "not yet" to', () => {
    expect(stateOf(entry('pending', { error: 'deferred' }))).toBe('deferred');
    expect(stateOf(entry('pending', { error: 'boom' }))).toBe('pending');
    expect(stateOf(entry('pending'))).toBe('pending');
    expect(stateOf(entry('failed', { error: 'deferred' }))).toBe('failed');
    expect(stateOf(entry('done', { error: 'deferred' }))).toBe('done');
  });

  it('lists the four states in order', () => {
    expect(JOB_STATES).toEqual(['pending', 'deferred', 'failed', 'done']);
  });
});

describe('dueAt', () => {
  it('is undefined once a job left pending', () => {
    expect(dueAt(entry('done', { due_at: iso(NOW + 5000) }), 0, NOW)).toBeUndefined();
    expect(dueAt(entry('failed', { due_at: iso(NOW + 5000) }), 0, NOW)).toBeUndefined();
  });

  it('is now for a fresh job without due_at, and its due_at when it has one', () => {
    expect(dueAt(entry('pending'), 600, NOW)).toBe(NOW);
    expect(dueAt(entry('pending', { due_at: iso(NOW + 5000) }), 600, NOW)).toBe(NOW + 5000);
    expect(dueAt(entry('pending', { due_at: iso(NOW - 5000) }), 600, NOW)).toBe(NOW);
  });

  it('takes an empty or unparsable due_at, or one that is not a string, as now', () => {
    expect(dueAt(entry('pending', { due_at: '' }), 600, NOW)).toBe(NOW);
    expect(dueAt(entry('pending', { due_at: 'soon' }), 600, NOW)).toBe(NOW);
    expect(dueAt(entry('pending', { due_at: NOW + 5000 }), 600, NOW)).toBe(NOW);
  });

  it('waits the retry age after a start, unless the job was deferred (its run was filed)', () => {
    const started = { retries: 1, last_started_at: iso(NOW - 10_000) };
    expect(dueAt(entry('pending', started), 60, NOW)).toBe(NOW + 50_000);
    expect(dueAt(entry('pending', { ...started, error: 'deferred' }), 60, NOW)).toBe(NOW);
    expect(dueAt(entry('pending', { ...started, error: 'deferred', due_at: iso(NOW + 7000) }), 60, NOW)).toBe(NOW + 7000);
    // The later of the two holds.
    expect(dueAt(entry('pending', { ...started, due_at: iso(NOW + 70_000) }), 60, NOW)).toBe(NOW + 70_000);
    expect(dueAt(entry('pending', { ...started, due_at: iso(NOW + 7000) }), 60, NOW)).toBe(NOW + 50_000);
  });
});

describe('relative', () => {
  it.each([
    [0, 'now'],
    [400, 'now'],
    [-400, 'now'],
    [1000, 'in 1s'],
    [-3000, '3s ago'],
    [59_000, 'in 59s'],
    [60_000, 'in 1m'],
    [61_000, 'in 1m 1s'],
    [598_000, 'in 9m 58s'],
    [-125_000, '2m 5s ago'],
    [3_599_000, 'in 59m 59s'],
    [3_600_000, 'in 1h'],
    [3_660_000, 'in 1h 1m'],
    [3_659_000, 'in 1h'],
    [-7_380_000, '2h 3m ago'],
    [86_399_000, 'in 23h 59m'],
    [86_400_000, 'in 1d'],
    [90_000_000, 'in 1d 1h'],
    [-(2 * 86_400_000 + 5 * 3_600_000), '2d 5h ago'],
    [10 * 86_400_000 + 3_599_000, 'in 10d'],
  ])('%d ms -> %s', (delta, text) => {
    expect(relative(NOW + delta, NOW)).toBe(text);
  });
});

describe('jobRow', () => {
  it('shows a pending job with its due time, attempts, last error and log', () => {
    const e = entry('pending', { event: 'after_tool_call', retries: 2, last_started_at: iso(NOW - 10_000), error: 'exit_1', log_path: '/logs/x.log' });
    expect(jobRow(e, 60, NOW)).toEqual({
      job_id: 'file-1', hook_id: 'deliver', event: 'after_tool_call', session_id: 'sess-1', state: 'pending',
      due_at: iso(NOW + 50_000), due_in_seconds: 50, attempts: 2, last_error: 'exit_1', log_path: '/logs/x.log', fallen_back: false,
    });
  });

  it('rounds the seconds until due, and goes negative for an overdue job', () => {
    expect(jobRow(entry('pending', { due_at: iso(NOW + 1600) }), 0, NOW).due_in_seconds).toBe(2);
    expect(jobRow(entry('pending', { due_at: iso(NOW + 1400) }), 0, NOW).due_in_seconds).toBe(1);
    expect(jobRow(entry('pending'), 0, NOW).due_in_seconds).toBe(0);
  });

  it('shows nulls for what a finished or odd job lacks', () => {
    const e = entry('done', { event: 7, payload: {}, error: 42, log_path: 3 });
    expect(jobRow(e, 60, NOW)).toEqual({
      job_id: 'file-1', hook_id: 'deliver', event: '', session_id: '', state: 'done',
      due_at: null, due_in_seconds: null, attempts: 0, last_error: null, log_path: null, fallen_back: false,
    });
  });

  it('says when a job waits in the file outbox for a drain to move it into PostgreSQL', () => {
    expect(jobRow({ ...entry('pending'), fallenBack: true }, 60, NOW).fallen_back).toBe(true);
  });

  it('says deferred for a deferred job', () => {
    expect(jobRow(entry('pending', { error: 'deferred', due_at: iso(NOW + 3000) }), 60, NOW)).toMatchObject({ state: 'deferred', last_error: 'deferred', due_at: iso(NOW + 3000), due_in_seconds: 3 });
  });
});

describe('historyLines', () => {
  const t = (s: number): string => iso(NOW + s * 1000);

  it('tells a queued job by its creation and due time', () => {
    expect(historyLines(job({ created_at: t(0), due_at: t(30) }))).toEqual([{ at: t(0), what: `created by after_turn for hook deliver, due ${t(30)}` }]);
  });

  it('leaves the due time out once the job started, and tells its start and its end', () => {
    const j = job({ created_at: t(0), due_at: t(30), last_started_at: t(31), retries: 1, last_finished_at: t(32), state: 'done', exit_code: 0 });
    expect(historyLines(j)).toEqual([
      { at: t(0), what: 'created by after_turn for hook deliver' },
      { at: t(31), what: 'started (start 1)' },
      { at: t(32), what: 'finished done, exit 0' },
    ]);
  });

  it('tells a failure with its exit code and error, and one without an exit code', () => {
    expect(historyLines(job({ created_at: t(0), last_started_at: t(1), retries: 3, last_finished_at: t(2), state: 'failed', exit_code: 2, error: 'exit_2' })).at(-1)).toEqual({ at: t(2), what: 'finished failed, exit 2 (exit_2)' });
    expect(historyLines(job({ created_at: t(0), last_finished_at: t(2), state: 'failed', exit_code: null, error: 'stale_source' })).at(-1)).toEqual({ at: t(2), what: 'finished failed (stale_source)' });
  });

  it('tells a deferral with its reason and next due time, or placeholders', () => {
    expect(historyLines(job({ created_at: t(0), last_started_at: t(1), retries: 1, last_finished_at: t(2), error: 'deferred', deferred_reason: 'asked to be retried after 5 s', due_at: t(7) })).at(-1)).toEqual({ at: t(2), what: `deferred: asked to be retried after 5 s; due again ${t(7)}` });
    expect(historyLines(job({ created_at: t(0), last_finished_at: t(2), error: 'deferred' })).at(-1)).toEqual({ at: t(2), what: 'deferred: not yet; due again -' });
  });

  it('puts the lines in time order, a requeue included, and leaves out empty or non-string stamps', () => {
    const j = job({ created_at: t(0), last_started_at: t(1), retries: 1, last_finished_at: t(2), state: 'failed', error: 'exit_1', exit_code: 1, requeued_at: t(5) });
    expect(historyLines(j).map((l) => l.what)).toEqual(['created by after_turn for hook deliver', 'started (start 1)', 'finished failed, exit 1 (exit_1)', 'requeued']);
    const sparse = job({ created_at: '', requeued_at: 5, last_started_at: '', last_finished_at: null });
    expect(historyLines(sparse)).toEqual([]);
  });

  it('sorts by the instant, not by the text', () => {
    // A later time whose text sorts first (a different offset) still comes last.
    const j = job({ created_at: '2026-12-04T12:00:00+01:00', last_started_at: '2026-12-04T11:30:00Z', retries: 1 });
    expect(historyLines(j).map((l) => l.what)).toEqual(['created by after_turn for hook deliver', 'started (start 1)']);
  });
});
