// The one classification of how a hook process ended (core/outcome.ts):
// every rule, the order between them, and every result-file state.
import { describe, expect, it } from 'vitest';
import { type ProcessOutcome, classifyOutcome, historyStatus, jobHistoryStatus } from '../../src/core/outcome.js';

const base: ProcessOutcome = {
  exitCode: 0, signal: null, timedOut: false, cancelled: false, killedFromOutside: false,
  stdoutTail: '', stderrTail: '', durationMs: 5, resultFile: { state: 'empty' },
};
const of = (o: Partial<ProcessOutcome>): ProcessOutcome => ({ ...base, ...o });

describe('classifyOutcome', () => {
  it('a clean exit 0 is ok and done, with the result file read', () => {
    expect(classifyOutcome(base)).toEqual({ status: 'ok', disposition: 'done', result: { kind: 'none' } });
    expect(classifyOutcome(of({ resultFile: { state: 'json', value: { action: 'block' } } }))).toEqual({ status: 'ok', disposition: 'done', result: { kind: 'json', value: { action: 'block' } } });
    expect(classifyOutcome(of({ resultFile: { state: 'invalid', reason: 'bad' } })).result).toEqual({ kind: 'invalid', reason: 'bad' });
  });

  it('a deleted result file or one replaced by a directory is ok with an invalid result, never a launch error', () => {
    const absent = classifyOutcome(of({ resultFile: { state: 'absent' } }));
    expect(absent).toMatchObject({ status: 'ok', disposition: 'done', result: { kind: 'invalid', reason: 'the result file was deleted' } });
    const dir = classifyOutcome(of({ resultFile: { state: 'not_a_file' } }));
    expect(dir).toMatchObject({ status: 'ok', disposition: 'done', result: { kind: 'invalid' } });
    expect(dir.result.kind === 'invalid' && dir.result.reason).toContain('not a regular file');
  });

  it('a non-zero exit fails and ignores the result file', () => {
    expect(classifyOutcome(of({ exitCode: 3, resultFile: { state: 'json', value: { action: 'block' } } }))).toEqual({ status: 'failed', disposition: 'failed', error: 'exited with status 3', result: { kind: 'none' } });
  });

  it('a signal nobody in chrys-hooks sent fails the run but keeps a durable job pending', () => {
    expect(classifyOutcome(of({ exitCode: null, signal: 'SIGKILL', killedFromOutside: true }))).toEqual({ status: 'failed', disposition: 'pending', error: 'was killed by SIGKILL', result: { kind: 'none' } });
    expect(classifyOutcome(of({ exitCode: null, signal: 'SIGSEGV' }))).toMatchObject({ status: 'failed', disposition: 'failed', error: 'was killed by SIGSEGV' });
  });

  it('a timeout is a timeout whatever signal ended it, and the job fails', () => {
    expect(classifyOutcome(of({ exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 1500 }))).toEqual({ status: 'timeout', disposition: 'failed', error: 'timed out after 1.5 s and was killed', result: { kind: 'none' } });
    expect(classifyOutcome(of({ exitCode: 0, timedOut: true })).status).toBe('timeout');
  });

  it('a timeout without a known limit does not invent one', () => {
    expect(classifyOutcome(of({ exitCode: null, signal: 'SIGKILL', timedOut: true })).error).toBe('timed out and was killed');
    expect(classifyOutcome(of({ timedOut: true, timeoutMs: 30_000 })).error).toBe('timed out after 30 s and was killed');
  });

  it('a run that was not cancelled shows its classified status in history', () => {
    for (const o of [base, of({ exitCode: 1 }), of({ timedOut: true })]) expect(historyStatus(o, classifyOutcome(o).status)).toBe(classifyOutcome(o).status);
  });

  it('a cancelled run stays pending, even when it also timed out or exited 0', () => {
    for (const o of [of({ cancelled: true }), of({ cancelled: true, timedOut: true, signal: 'SIGKILL', exitCode: null }), of({ cancelled: true, exitCode: 1 })]) {
      expect(classifyOutcome(o)).toEqual({ status: 'failed', disposition: 'pending', error: 'cancelled', result: { kind: 'none' } });
      expect(historyStatus(o, classifyOutcome(o).status)).toBe('cancelled');
    }
  });

  it('a launch error wins over everything', () => {
    const o = of({ launchError: 'command not found: x', cancelled: true, timedOut: true, exitCode: 0, resultFile: { state: 'json', value: {} } });
    expect(classifyOutcome(o)).toEqual({ status: 'launch_error', disposition: 'failed', error: 'command not found: x', result: { kind: 'none' } });
    expect(historyStatus(of({ launchError: 'x' }), classifyOutcome(of({ launchError: 'x' })).status)).toBe('launch_error');
  });
});

describe('jobHistoryStatus', () => {
  it('records a deferred delivery as deferred, else what the run showed', () => {
    expect(jobHistoryStatus('deferred', { historyStatus: 'failed' })).toBe('deferred');
    expect(jobHistoryStatus('pending', { historyStatus: 'cancelled' })).toBe('cancelled');
    expect(jobHistoryStatus('done', { historyStatus: 'ok' })).toBe('ok');
  });

  it('records nothing when no hook ran (the worker used to record "claimed" or "gone" as a run)', () => {
    for (const outcome of ['claimed', 'gone', 'failed', 'pending']) expect(jobHistoryStatus(outcome, undefined)).toBeUndefined();
  });
});
