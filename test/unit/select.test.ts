// The drain's selection rules on plain data, and the "not yet" retry request.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { drainOutbox } from '../../src/outbox/drain.js';
import type { Job } from '../../src/outbox/job.js';
import { MAX_RETRY_AFTER_SECONDS, retryPolicy, retryRequest } from '../../src/outbox/retry.js';
import { type Candidate, type Lookup, selectJobs } from '../../src/outbox/select.js';
import type { RunRecord } from '../../src/run/spawn.js';
import { type Sandbox, hookYaml, outbox, useSandbox } from '../helpers/sandbox.js';

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
      job('fresh', { created_at: ago(10) }),
      job('restarted', { last_started_at: ago(10), retries: 1 }),
      job('was-due', { due_at: ago(1) }),
    ])).toEqual([['due', 'run'], ['later', 'not_due'], ['deferred', 'deferred'], ['fresh', 'run'], ['restarted', 'young'], ['was-due', 'run']]);
  });

  it('never holds a never-started job by the retry age: its due_at is the only gate (last_started_at null or "")', () => {
    expect(outcomes([
      job('fresh', { last_started_at: '' as never, created_at: ago(5) }),
      job('just-written', { created_at: ago(0) }),
      job('delayed-2s', { created_at: ago(2), due_at: ago(0) }),
      job('delayed-later', { created_at: ago(2), due_at: ago(-1) }),
    ], found, { retryAgeSeconds: 3600 })).toEqual([['fresh', 'run'], ['just-written', 'run'], ['delayed-2s', 'run'], ['delayed-later', 'not_due']]);
  });

  it('holds a job that has started by the retry age after its last start, and says until when', () => {
    const s = selectJobs([job('started', { created_at: ago(3600), last_started_at: ago(10), retries: 1, due_at: ago(100) })], found, opts);
    expect(s.verdicts).toMatchObject([{ action: 'skip', outcome: 'young', dueAt: new Date(NOW + 50_000).toISOString() }]);
    expect(s.wakeAt).toBe(NOW + 50_000);
    // a start count without a start time (a hand-written job) counts from its creation
    expect(outcomes([job('counted', { created_at: ago(10), retries: 1 })])).toEqual([['counted', 'young']]);
  });

  it('runs a requeued job at once: a requeue after its last start lifts the retry age', () => {
    expect(outcomes([
      job('requeued', { last_started_at: ago(10), retries: 0, requeued_at: ago(5) }),
      job('restarted-since', { last_started_at: ago(5), retries: 1, requeued_at: ago(10) }),
      job('bad-stamp', { last_started_at: ago(10), retries: 1, requeued_at: 'soon' }),
    ])).toEqual([['requeued', 'run'], ['restarted-since', 'young'], ['bad-stamp', 'young']]);
  });

  it('holds a deferred job back by its due_at only, not by the retry age', () => {
    expect(outcomes([job('retry-now', { error: 'deferred', due_at: ago(1), last_started_at: ago(6), retries: 1 })])).toEqual([['retry-now', 'run']]);
  });

  it('says when a skipped job is next worth a look', () => {
    const s = selectJobs([job('later', { due_at: ago(-30) }), job('young', { last_started_at: ago(50), retries: 1 })], found, opts);
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

describe('selectJobs verdicts', () => {
  const select = (candidates: Candidate[], lookup: (j: Job) => Lookup = found, o: Partial<typeof opts & { limit: number }> = {}) => selectJobs(candidates, lookup, { ...opts, ...o });

  it('gives each verdict its action, outcome, job, hook and message', () => {
    const cs = [job('run'), job('later', { due_at: ago(-30) }), job('young', { last_started_at: ago(10), retries: 1 }), job('tired', { retries: 3 }), { fileId: 'junk', invalid: 'not a JSON object' }];
    const { verdicts } = select(cs);
    const jobOf = (i: number): Job => (cs[i] as { job: Job }).job;
    expect(verdicts).toEqual([
      { action: 'run', fileId: 'run', job: jobOf(0), hook },
      { action: 'skip', fileId: 'later', job: jobOf(1), outcome: 'not_due', dueAt: ago(-30) },
      { action: 'skip', fileId: 'young', job: jobOf(2), outcome: 'young', dueAt: ago(-50) },
      { action: 'fail', fileId: 'tired', job: jobOf(3), outcome: 'max_retries', message: 'started 3 times (outbox_max_retries 3)' },
      { action: 'fail', fileId: 'junk', outcome: 'invalid_job', message: 'not a JSON object' },
    ]);
  });

  it('fails a stale or ambiguous lookup with its message, and skips an untrusted one without failing it', () => {
    const byId: Record<string, Lookup> = {
      stale: { error: 'stale_source', message: 'the hook is gone' },
      both: { error: 'ambiguous_hook', message: 'in both layers' },
      project: { error: 'untrusted', message: 'not enabled' },
    };
    const { verdicts } = select([job('stale'), job('both'), job('project')], (j) => byId[j.job_id]!);
    expect(verdicts.map(({ job: _job, ...v }) => v)).toEqual([
      { action: 'fail', fileId: 'stale', outcome: 'stale_source', message: 'the hook is gone' },
      { action: 'fail', fileId: 'both', outcome: 'ambiguous_hook', message: 'in both layers' },
      { action: 'skip', fileId: 'project', outcome: 'untrusted' },
    ]);
  });

  it('counts only runs against the limit: failed and skipped jobs leave room', () => {
    const lookup = (j: Job): Lookup => (j.job_id === 'stale' ? { error: 'stale_source', message: 'gone' } : found());
    expect(outcomes([job('stale'), job('tired', { retries: 9 }), job('a'), job('b')], lookup, { limit: 1 })).toEqual([['stale', 'stale_source'], ['tired', 'max_retries'], ['a', 'run'], ['b', 'limit']]);
    expect(outcomes([job('a')], found, { limit: 0 })).toEqual([['a', 'limit']]);
  });

  it('runs a job due exactly now, and holds back one started exactly now', () => {
    expect(outcomes([job('due-now', { due_at: ago(0) }), job('started-now', { last_started_at: ago(0), retries: 1 })])).toEqual([['due-now', 'run'], ['started-now', 'young']]);
  });

  it('runs a job exactly retry-age old, and wakes at the earliest of several skipped jobs', () => {
    expect(outcomes([job('just-old', { last_started_at: ago(60), retries: 1 })])).toEqual([['just-old', 'run']]);
    const s = select([job('young', { last_started_at: ago(50), retries: 1 }), job('later', { due_at: ago(-30) }), job('young2', { last_started_at: ago(55), retries: 2 })]);
    expect(s.wakeAt).toBe(NOW + 5_000);
  });

  it('leaves wakeAt out when no skipped job will become due', () => {
    expect(Object.keys(select([job('due'), job('project')], (j) => (j.job_id === 'project' ? { error: 'untrusted', message: '' } : found())))).toEqual(['verdicts', 'warnings']);
  });

  it('treats a missing, null or empty due_at as due, silently', () => {
    const s = select([job('none'), job('null', { due_at: null as never }), job('empty', { due_at: '' })]);
    expect(s.verdicts.map((v) => v.action)).toEqual(['run', 'run', 'run']);
    expect(s.warnings).toEqual([]);
  });

  it('warns about a due_at that is not a string, naming the job', () => {
    const s = select([job('num', { due_at: 1234 as never })]);
    expect(s.verdicts.map((v) => v.action)).toEqual(['run']);
    expect(s.warnings).toEqual([{ code: 'due_at_invalid', message: 'job num: due_at 1234 is not a date; treated as due' }]);
  });
});

// The dry run is the drain's, not selectJobs's: it reports the fail verdicts and moves nothing.
describe('a dry-run drain', () => {
  const sandbox = useSandbox();

  function outboxWith(s: Sandbox): void {
    s.globalHooks(`settings:\n  outbox_max_retries: 2\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'touch ../ran'", execution: 'mode: async\ndelivery: durable' })}\n`);
    s.write(join(outbox(s, 'pending'), 'a-garbage.json'), 'hello');
    for (const [id, retries] of [['b-tired', 2], ['c-good', 0]] as const) {
      s.write(join(outbox(s, 'pending'), `${id}.json`), JSON.stringify({ ...(job(id) as { job: Job }).job, retries, created_at: new Date(Date.now() - 3600_000).toISOString(), hook_id: 'deliver', hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml') }));
    }
  }

  it('moves no invalid or used-up job to failed/, and says it would', async () => {
    const s = sandbox();
    outboxWith(s);
    const dry = await drainOutbox({ configDir: s.configDir, cwd: s.workspace, dryRun: true });
    expect(dry.jobs.map((j) => [j.job_id, j.outcome])).toEqual([['a-garbage', 'invalid_job'], ['b-tired', 'max_retries'], ['c-good', 'would_run']]);
    expect(dry.jobs.slice(0, 2).map((j) => j.error)).toEqual([expect.stringMatching(/would move to failed\/$/), 'started 2 times (outbox_max_retries 2); would move to failed/']);
    expect(dry).toMatchObject({ would_fail: 2, failed: 0, would_run: 1, ran: 0 });
    expect(readdirSync(outbox(s, 'pending')).sort()).toEqual(['a-garbage.json', 'b-tired.json', 'c-good.json']);
    expect(existsSync(outbox(s, 'failed'))).toBe(false);

    const real = await drainOutbox({ configDir: s.configDir, cwd: s.workspace });
    expect(real).toMatchObject({ failed: 2, done: 1, would_fail: 0 });
    expect(readdirSync(outbox(s, 'failed')).sort()).toEqual(['a-garbage.json', 'b-tired.json']);
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

  it('does not read exit 75 by a signal, or a failed run\'s result file, as "not yet"', () => {
    expect(retryRequest(run('failed', 75, undefined, 'SIGTERM'), 'h', 60)).toBeUndefined();
    expect(retryRequest(run('failed', 1, '{"retry_after_seconds": 5}'), 'h', 60)).toBeUndefined();
  });

  it('takes the policy from the settings', () => {
    expect(retryPolicy({ outbox_retry_delay_seconds: 7, outbox_max_retries: 2 })).toEqual({ delaySeconds: 7, maxRetries: 2 });
  });
});
