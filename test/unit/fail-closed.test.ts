// `fire --fail-closed` (core/fail-closed.ts): which load problems block which
// events, the block it makes, the decision in place of an internal error, and
// a guard whose result file cannot be read.
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type Decision, type Outcome, emptyDecision } from '../../src/core/decide.js';
import type { EventName } from '../../src/core/events.js';
import type { Warning } from '../../src/core/diagnostics.js';
import { FAIL_CLOSED_EVENTS, applyFailClosed, blockFailClosed, blockOnUnreadableResult, failClosedDecision, failClosedHook } from '../../src/core/fail-closed.js';
import { testHook } from '../helpers/hook.js';

const withWarnings = (event: EventName, ...warnings: Warning[]): Decision => ({ ...emptyDecision(event), warnings });
const w = (code: Warning['code'], message = 'm', source?: 'global' | 'project'): Warning => ({ code, message, ...(source ? { source } : {}) });

describe('blockFailClosed', () => {
  it('blocks with the cause, names fail-closed as the blocker and says so in a warning', () => {
    const d = blockFailClosed(emptyDecision('before_tool_call'), 'the file is broken', 'project');
    expect(d).toMatchObject({
      blocked: true,
      reason: 'chrys-hooks fails closed: the file is broken',
      blocked_by: { id: 'fail-closed', source: 'project' },
      permission: null,
      warnings: [{ code: 'fail_closed', message: 'blocked because --fail-closed is on: the file is broken' }],
    });
  });

  it('denies a permission request as well as blocking it', () => {
    expect(blockFailClosed(emptyDecision('permission_request'), 'x', 'global')).toMatchObject({ blocked: true, permission: 'deny' });
  });
});

describe('applyFailClosed', () => {
  it('guards before_tool_call, user_prompt_submit and permission_request only', () => {
    expect(FAIL_CLOSED_EVENTS).toEqual(['before_tool_call', 'user_prompt_submit', 'permission_request']);
    for (const event of FAIL_CLOSED_EVENTS) expect(applyFailClosed(withWarnings(event, w('hooks_config_invalid'))).blocked).toBe(true);
    for (const event of ['after_tool_call', 'session_start', 'conversation_done', 'sub_agent_end'] as const) {
      const d = applyFailClosed(withWarnings(event, w('hooks_config_invalid')));
      expect(d.blocked).toBe(false);
      expect(d.warnings.map((x) => x.code)).toEqual(['hooks_config_invalid']);
    }
  });

  it.each<[Warning['code'], 'global' | 'project']>([
    ['hooks_config_invalid', 'global'],
    ['project_hooks_config_invalid', 'project'],
    ['project_hooks_changed', 'project'],
    ['hook_skipped', 'global'],
  ])('blocks a guarded event on %s, blamed on the %s layer', (code, layer) => {
    const d = applyFailClosed(withWarnings('user_prompt_submit', w('broad_match'), w(code, 'what went wrong')));
    expect(d.reason).toBe(`chrys-hooks fails closed: [${code}] what went wrong`);
    expect(d.blocked_by).toEqual({ id: 'fail-closed', source: layer });
  });

  it('blames a skipped hook on the layer it came from', () => {
    expect(applyFailClosed(withWarnings('before_tool_call', w('hook_skipped', 'm', 'project'))).blocked_by).toEqual({ id: 'fail-closed', source: 'project' });
  });

  it('names the first lost guard when there are several', () => {
    const d = applyFailClosed(withWarnings('before_tool_call', w('hook_skipped', 'first'), w('hooks_config_invalid', 'second')));
    expect(d.reason).toBe('chrys-hooks fails closed: [hook_skipped] first');
  });

  it.each<Warning['code']>(['project_hooks_dormant', 'duplicate_hook_id', 'settings_invalid', 'broad_match', 'hook_failed'])('lets a guarded event through on %s alone', (code) => {
    const d = applyFailClosed(withWarnings('before_tool_call', w(code)));
    expect(d.blocked).toBe(false);
    expect(d.warnings).toEqual([w(code)]);
  });

  it('leaves a decision that is already blocked as it is', () => {
    const blocked: Decision = { ...withWarnings('before_tool_call', w('hooks_config_invalid')), blocked: true, reason: 'hook said no', blocked_by: { id: 'g', source: 'global' } };
    const d = applyFailClosed(blocked);
    expect(d).toMatchObject({ reason: 'hook said no', blocked_by: { id: 'g' } });
    expect(d.warnings.map((x) => x.code)).toEqual(['hooks_config_invalid']);
  });
});

describe('failClosedDecision', () => {
  it('blocks a guarded event in place of an internal error', () => {
    expect(failClosedDecision('permission_request', 'disk full')).toMatchObject({
      event: 'permission_request',
      blocked: true,
      permission: 'deny',
      reason: 'chrys-hooks fails closed: internal error: disk full',
      blocked_by: { id: 'fail-closed', source: 'global' },
    });
  });

  it('has no decision for an event it does not guard', () => {
    expect(failClosedDecision('after_tool_call', 'disk full')).toBeUndefined();
    expect(failClosedDecision('session_end', 'disk full')).toBeUndefined();
  });
});

describe('blockOnUnreadableResult', () => {
  const outcome = (result: Outcome['result'], status: Outcome['status'] = 'ok'): Outcome => ({ status, exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result });
  const unreadable = outcome({ kind: 'invalid', reason: 'the result file is not JSON' });
  const guard = failClosedHook(testHook({ id: 'g', source: 'project' }), 'before_tool_call');
  const noteOf = (hook: string, what: string): Warning => ({ code: 'result_invalid', hook, message: `hook "${hook}": ${what}` });

  it('blocks a guarded event whose guard left a result file that cannot be read, blamed on its layer', () => {
    const d = emptyDecision('before_tool_call');
    blockOnUnreadableResult(d, guard, unreadable, [noteOf('g', 'the result file is not JSON; treated as no opinion')]);
    expect(d).toMatchObject({ blocked: true, reason: 'chrys-hooks fails closed: [result_invalid] hook "g": the result file is not JSON', blocked_by: { id: 'fail-closed', source: 'project' } });
  });

  it('lets through an empty or valid result, a failure (on_error decides it), an event it does not guard, and an explicit on_error: ignore', () => {
    const cases: [Decision, Hook, Outcome][] = [
      [emptyDecision('before_tool_call'), guard, outcome({ kind: 'none' })],
      [emptyDecision('before_tool_call'), guard, outcome({ kind: 'json', value: {} })],
      [emptyDecision('before_tool_call'), guard, { ...unreadable, status: 'failed' }],
      [emptyDecision('after_tool_call'), failClosedHook(testHook(), 'after_tool_call'), unreadable],
      [emptyDecision('before_tool_call'), failClosedHook(testHook({ execution: { on_error: 'ignore', on_error_explicit: true } }), 'before_tool_call'), unreadable],
      [emptyDecision('before_tool_call'), failClosedHook(testHook({ execution: { mode: 'async' } }), 'before_tool_call'), unreadable],
    ];
    for (const [d, hook, o] of cases) {
      blockOnUnreadableResult(d, hook, o, [noteOf(hook.id, 'the result file is not JSON; treated as no opinion')]);
      expect(d.blocked).toBe(false);
    }
  });

  it('leaves a decision that is already blocked as it is', () => {
    const d: Decision = { ...emptyDecision('before_tool_call'), blocked: true, reason: 'hook said no', blocked_by: { id: 'g', source: 'global' } };
    blockOnUnreadableResult(d, guard, unreadable, [noteOf('g', 'x')]);
    expect(d).toMatchObject({ reason: 'hook said no', warnings: [] });
  });

  it('blocks on a gating key of the wrong type or value, not on a skipped context or reason', () => {
    const answered = outcome({ kind: 'json', value: {} });
    for (const key of ['action', 'permission']) {
      const d = emptyDecision('before_tool_call');
      blockOnUnreadableResult(d, guard, answered, [noteOf('g', `${key} must be one of allow, block, modify; ignored`)]);
      expect(d.reason).toBe(`chrys-hooks fails closed: [result_invalid] hook "g": ${key} must be one of allow, block, modify`);
    }
    for (const key of ['context', 'reason']) {
      const d = emptyDecision('before_tool_call');
      blockOnUnreadableResult(d, guard, answered, [noteOf('g', `${key} must be a string; ignored`)]);
      expect(d.blocked).toBe(false);
    }
    const other = emptyDecision('before_tool_call');
    blockOnUnreadableResult(other, guard, answered, [noteOf('another', 'action must be a string; ignored')]);
    expect(other.blocked).toBe(false); // another hook's warning is not this guard's answer
  });
});
