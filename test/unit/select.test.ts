// The drain's selection rules on plain data, and the "not yet" retry request.
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import type { Job } from '../../src/outbox/job.js';
import { MAX_RETRY_AFTER_SECONDS, retryRequest } from '../../src/outbox/retry.js';
import { type Candidate, type Lookup, selectJobs } from '../../src/outbox/select.js';
import type { RunRecord } from '../../src/run/spawn.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const ago = (s: number): string => new Date(NOW - s * 1000).toISOString();
const hook = { id: 'h' } as Hook;
const job = (id: string, fields: Partial<Job> = {}): Candidate => ({
  fileId: id,
  job: { job_id: id, hook_id: 'h', event: 'after_tool_call', payload: {}, created_at: ago(3600), state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null, ...fields },
});
const found = (): Lookup => ({ hook });
const opts = { now: NOW, retryAgeSeconds: 60, maxRetries: 3 };
const outcomes = (candidates: Candidate[], lookup: (j: Job) => Lookup = found, o: Partial<typeof opts & { limit: number }> = {}): [string, string][] =>
  selectJobs(candidates, lookup, { ...opts, ...o }).verdicts.map((v) => [v.fileId, v.action === 'run' ? 'run' : v.outcome]);

describe('selectJobs', () => {
  it('runs due, old-enough jobs and skips the rest with the reason', () => {
    expect(outcomes([
      job('due'),
      job('later', { due_at: ago(-30) }),
      job('deferred', { due_at: ago(-30), error: 'deferred' }),
      job('young', { created_at: ago(10) }),
      job('restarted', { last_started_at: ago(10), retries: 1 }),
      job('was-due', { due_at: ago(1) }),
    ])).toEqual([['due', 'run'], ['later', 'not_due'], ['deferred', 'deferred'], ['young', 'young'], ['restarted', 'young'], ['was-due', 'run']]);
  });

  it('counts a never-started job (last_started_at "") young by its created_at', () => {
    expect(outcomes([job('fresh', { last_started_at: '' as never, created_at: ago(5) }), job('old', { last_started_at: '' as never })])).toEqual([['fresh', 'young'], ['old', 'run']]);
  });

  it('holds a deferred job back by its due_at only, not by the retry age', () => {
    expect(outcomes([job('retry-now', { error: 'deferred', due_at: ago(1), last_started_at: ago(6), retries: 1 })])).toEqual([['retry-now', 'run']]);
  });

  it('says when a skipped job is next worth a look', () => {
    const s = selectJobs([job('later', { due_at: ago(-30) }), job('young', { created_at: ago(50) })], found, opts);
    expect(s.wakeAt).toBe(NOW + 10_000);
    expect(selectJobs([job('due')], found, opts).wakeAt).toBeUndefined();
  });

  it('fails jobs that used their starts, and invalid files, without a lookup', () => {
    const lookups: string[] = [];
    const v = outcomes([job('tired', { retries: 3 }), { fileId: 'junk', invalid: 'not valid JSON' }, job('ok', { retries: 2 })], (j) => (lookups.push(j.job_id), found()));
    expect(v).toEqual([['tired', 'max_retries'], ['junk', 'invalid_job'], ['ok', 'run']]);
    expect(lookups).toEqual(['ok']);
    expect(outcomes([job('never')], found, { maxRetries: 0 })).toEqual([['never', 'max_retries']]);
  });

  it('reports stale, ambiguous and untrusted lookups', () => {
    const byId: Record<string, Lookup> = {
      stale: { error: 'stale_source', message: 'gone' },
      both: { error: 'ambiguous_hook', message: 'both' },
      project: { error: 'untrusted', message: 'not enabled' },
    };
    expect(outcomes([job('stale'), job('both'), job('project')], (j) => byId[j.job_id]!)).toEqual([['stale', 'stale_source'], ['both', 'ambiguous_hook'], ['project', 'untrusted']]);
  });

  it('runs at most `limit` jobs and lists the rest as over the limit', () => {
    expect(outcomes([job('a'), job('b', { due_at: ago(-5) }), job('c'), job('d')], found, { limit: 2 })).toEqual([['a', 'run'], ['b', 'not_due'], ['c', 'run'], ['d', 'limit']]);
  });

  it('treats a due_at that is not a date as due, with a warning', () => {
    const s = selectJobs([job('odd', { due_at: 'next tuesday' })], found, opts);
    expect(s.verdicts.map((v) => v.action)).toEqual(['run']);
    expect(s.warnings).toMatchObject([{ code: 'due_at_invalid', message: expect.stringContaining('"next tuesday"') }]);
  });

  it('does not hold back a job whose start lies in the future (the clock went back)', () => {
    expect(outcomes([job('ahead', { last_started_at: ago(-3600), retries: 1 })])).toEqual([['ahead', 'run']]);
  });
});

describe('retryRequest', () => {
  const run = (status: RunRecord['status'], exitCode: number | null, result?: string, signal: string | null = null): RunRecord => ({
    status, exitCode, signal, durationMs: 1, stderrTail: '', stdout: '', stderr: '',
    result: result === undefined ? { kind: 'none' } : { kind: 'json', value: parseJson(result) as JsonObject },
  }) as RunRecord;

  it('reads exit 75 as "not yet" after the default delay', () => {
    expect(retryRequest(run('failed', 75), 'h', 60)).toMatchObject({ delaySeconds: 60, reason: expect.stringContaining('75') });
    expect(retryRequest(run('failed', 1), 'h', 60)).toBeUndefined();
    expect(retryRequest(run('timeout', 75), 'h', 60)).toBeUndefined();
    expect(retryRequest(run('ok', 0), 'h', 60)).toBeUndefined();
  });

  it('takes retry_after_seconds from the result file, clamped to the documented range with a warning', () => {
    expect(retryRequest(run('ok', 0, '{"retry_after_seconds": 5}'), 'h', 60)).toEqual({ delaySeconds: 5, reason: 'asked to be retried after 5 s' });
    expect(retryRequest(run('ok', 0, '{"retry_after_seconds": -3}'), 'h', 60)).toMatchObject({ delaySeconds: 0, warning: { code: 'retry_after_invalid' } });
    expect(retryRequest(run('ok', 0, '{"retry_after_seconds": 1e12}'), 'h', 60)).toMatchObject({ delaySeconds: MAX_RETRY_AFTER_SECONDS, warning: { code: 'retry_after_invalid' } });
    expect(retryRequest(run('ok', 0, '{"retry_after_seconds": "soon"}'), 'h', 60)).toMatchObject({ delaySeconds: 60, warning: { message: expect.stringContaining('"soon", which is not a number') } });
    expect(retryRequest(run('ok', 0, '{"other": 1}'), 'h', 60)).toBeUndefined();
  });
});
