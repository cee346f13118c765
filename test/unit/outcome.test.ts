// The one classification of how a hook process ended (core/outcome.ts):
// every rule, the order between them, every result-file state, and a foreign
// hook's reading by its agent's rules as one of those rules.
import { describe, expect, it, vi } from 'vitest';
import { type AgentReading, type Classified, type ProcessOutcome, classifyOutcome, historyStatus, jobHistoryStatus } from '../../src/core/outcome.js';

const base: ProcessOutcome = {
  argv: ['hook'], cwd: '/w', exitCode: 0, signal: null, timedOut: false, cancelled: false, killedFromOutside: false,
  stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, stdoutTail: '', stderrTail: '', durationMs: 5, resultFile: { state: 'empty' },
};
const of = (o: Partial<ProcessOutcome>): ProcessOutcome => ({ ...base, ...o });
const NONE = { kind: 'none' } as const;
const claude = (over: Partial<AgentReading> = {}): AgentReading => ({ protocol: 'claude', agentEvent: 'PreToolUse', failureBlocks: false, ...over });
const BLOCKING_STDOUT = '{"decision":"block","reason":"r"}';
const JSON_RESULT = { state: 'json', value: { action: 'block' } } as const;

// In the order of the rules: each row is the first rule that applies, with what would apply after it also set.
const rules: [string, Partial<ProcessOutcome>, Classified][] = [
  ['a launch error wins over everything',
    { launchError: 'command not found: x', errorCode: 'ENOENT', cancelled: true, timedOut: true, exitCode: 0, resultFile: JSON_RESULT, agentReading: claude() },
    { status: 'launch_error', disposition: 'failed', error: 'command not found: x', result: NONE }],
  ['a cancelled run stays pending, even when it also timed out',
    { cancelled: true, timedOut: true, signal: 'SIGKILL', exitCode: null },
    { status: 'failed', disposition: 'pending', error: 'cancelled', result: NONE }],
  ['a cancelled foreign hook stays pending whatever its stdout says',
    { cancelled: true, exitCode: 2, stderr: 'no', agentReading: claude() },
    { status: 'failed', disposition: 'pending', error: 'cancelled', result: NONE }],
  ['a timeout is a timeout whatever signal ended it',
    { exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 1500 },
    { status: 'timeout', disposition: 'failed', error: 'timed out after 1.5 s and was killed', result: NONE }],
  ['a timeout of a hook that exited 0 at the last moment is still a timeout',
    { exitCode: 0, timedOut: true, timeoutMs: 30_000, resultFile: JSON_RESULT },
    { status: 'timeout', disposition: 'failed', error: 'timed out after 30 s and was killed', result: NONE }],
  ['a timeout without a known limit does not invent one',
    { exitCode: null, signal: 'SIGKILL', timedOut: true },
    { status: 'timeout', disposition: 'failed', error: 'timed out and was killed', result: NONE }],
  ['a signal nobody in chrys-hooks sent fails the run but keeps a durable job pending',
    { exitCode: null, signal: 'SIGKILL', killedFromOutside: true, agentReading: claude(), stdout: BLOCKING_STDOUT },
    { status: 'failed', disposition: 'pending', error: 'was killed by SIGKILL', result: NONE }],
  ['any other signal fails the run and the job',
    { exitCode: null, signal: 'SIGSEGV' },
    { status: 'failed', disposition: 'failed', error: 'was killed by SIGSEGV', result: NONE }],
  ['a foreign hook exiting 0: its stdout read by its agent, the result file never',
    { agentReading: claude(), stdout: '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}', resultFile: { state: 'absent' } },
    { status: 'ok', disposition: 'done', result: { kind: 'json', value: { action: 'block', reason: 'no' } } }],
  ['a foreign hook asking the user: the ask travels beside the result',
    { agentReading: claude(), stdout: '{"hookSpecificOutput":{"permissionDecision":"ask"}}' },
    { status: 'ok', disposition: 'done', result: { kind: 'json', value: {} }, ask: 'ask' }],
  ['a foreign exit 2 blocks with stderr as the reason, on_error: block or not',
    { exitCode: 2, stderr: 'not here\n', agentReading: claude({ failureBlocks: true }) },
    { status: 'ok', disposition: 'done', result: { kind: 'json', value: { action: 'block', reason: 'not here' } } }],
  ['a foreign failed exit whose stdout decides is ok and done, the failure kept',
    { exitCode: 1, stdout: BLOCKING_STDOUT, agentReading: claude() },
    { status: 'ok', disposition: 'done', result: { kind: 'json', value: { action: 'block', reason: 'r' } }, failure: 'exited with status 1' }],
  ['under on_error: block, a foreign failed exit stays a failure whatever stdout says',
    { exitCode: 1, stdout: BLOCKING_STDOUT, agentReading: claude({ failureBlocks: true }) },
    { status: 'failed', disposition: 'failed', error: 'exited with status 1', result: NONE }],
  ['a foreign failed exit that stdout does not decide stays failed, without a failure note',
    { exitCode: 1, stdout: 'plain text', agentReading: claude() },
    { status: 'failed', disposition: 'failed', error: 'exited with status 1', result: NONE }],
  ['a foreign hook exiting 0 with plain stdout is ok with no opinion, on_error: block or not',
    { agentReading: claude({ failureBlocks: true }), stdout: 'formatted 3 files' },
    { status: 'ok', disposition: 'done', result: NONE }],
  ['a foreign exit its agent reads as a failure says why (Codex: exit 2 with empty stderr)',
    { exitCode: 2, agentReading: claude({ protocol: 'codex' }) },
    { status: 'failed', disposition: 'failed', error: 'exited with status 2 and empty stderr (Codex treats that as a failure, not a block)', result: NONE }],
  ['a non-zero exit fails and ignores the result file',
    { exitCode: 3, resultFile: JSON_RESULT },
    { status: 'failed', disposition: 'failed', error: 'exited with status 3', result: NONE }],
  ['a clean exit 0 is ok and done, with the result file read',
    { resultFile: JSON_RESULT },
    { status: 'ok', disposition: 'done', result: { kind: 'json', value: { action: 'block' } } }],
  ['an empty result file is no opinion',
    {},
    { status: 'ok', disposition: 'done', result: NONE }],
  ['an invalid result file is an invalid result, not a failure',
    { resultFile: { state: 'invalid', reason: 'bad' } },
    { status: 'ok', disposition: 'done', result: { kind: 'invalid', reason: 'bad' } }],
  ['a deleted result file is an invalid result',
    { resultFile: { state: 'absent' } },
    { status: 'ok', disposition: 'done', result: { kind: 'invalid', reason: 'the result file was deleted' } }],
  ['a result file replaced by a directory or a FIFO is an invalid result',
    { resultFile: { state: 'not_a_file' } },
    { status: 'ok', disposition: 'done', result: { kind: 'invalid', reason: 'the result file was replaced by something that is not a regular file' } }],
  ['a result file that cannot be read is an invalid result, never a launch error',
    { resultFile: { state: 'unreadable', reason: 'cannot read the result file (EIO)' } },
    { status: 'ok', disposition: 'done', result: { kind: 'invalid', reason: 'cannot read the result file (EIO)' } }],
];

describe('classifyOutcome', () => {
  it.each(rules)('%s', (_, facts, classified) => {
    expect(classifyOutcome(of(facts))).toStrictEqual(classified);
  });

  it('classifies an error after the spawn by how the process ended, not as a launch error', () => {
    expect(classifyOutcome(of({ errorAfterSpawn: 'kill EPERM' }))).toEqual({ status: 'ok', disposition: 'done', result: NONE });
    expect(classifyOutcome(of({ errorAfterSpawn: 'kill EPERM', exitCode: 4 })).status).toBe('failed');
  });

  it('a run that was not cancelled shows its classified status in history; a cancelled one, cancelled', () => {
    for (const o of [base, of({ exitCode: 1 }), of({ timedOut: true }), of({ launchError: 'x' })]) expect(historyStatus(o, classifyOutcome(o).status)).toBe(classifyOutcome(o).status);
    expect(historyStatus(of({ cancelled: true }), classifyOutcome(of({ cancelled: true })).status)).toBe('cancelled');
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

describe('outcome, loaded afresh', () => {
  // Built when the module loads: a mutant in them is switched on only for a module imported inside the test.
  it('gives no result, the history status and the job history status', async () => {
    vi.resetModules();
    const O = await import('../../src/core/outcome.js');
    expect(O.classifyOutcome(of({ exitCode: 1 }))).toStrictEqual({ status: 'failed', disposition: 'failed', error: 'exited with status 1', result: { kind: 'none' } });
    expect(O.historyStatus(of({ cancelled: true }), 'failed')).toBe('cancelled');
    expect(O.historyStatus(base, 'ok')).toBe('ok');
    expect(O.jobHistoryStatus('deferred', { historyStatus: 'failed' })).toBe('deferred');
    expect(O.jobHistoryStatus('done', { historyStatus: 'ok' })).toBe('ok');
    expect(O.jobHistoryStatus('done', undefined)).toBeUndefined();
  });
});
