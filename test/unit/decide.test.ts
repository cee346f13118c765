import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook } from '../../src/core/config.js';
import { type Chain, type Outcome, applyOutcome, emptyDecision } from '../../src/core/decide.js';
import type { EventName } from '../../src/core/events.js';
import { type JsonObject, parseJson, stringifyJson } from '../../src/core/json.js';

const hook = (id: string, event: EventName = 'before_tool_call', on_error: 'block' | 'warn' | 'ignore' = 'warn'): Hook => testHook({ id, event, source: 'project', execution: { on_error } });
const ok = (result: string): Outcome => ({
  status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '',
  result: result === '' ? { kind: 'none' } : { kind: 'json', value: parseJson(result) as JsonObject },
});
const failed = (stderr = 'boom'): Outcome => ({ status: 'failed', exitCode: 3, signal: null, durationMs: 1, stderrTail: stderr, error: 'exited with status 3', result: { kind: 'none' } });
const chain = (event: EventName = 'before_tool_call', args = '{"path":"a","mode":"w"}'): Chain => ({ decision: emptyDecision(event), args: parseJson(args), argsModified: false });

describe('the decision merge', () => {
  it('merges args_override left to right, later wins', () => {
    const c = chain();
    applyOutcome(c, hook('a'), ok('{"action":"modify","args_override":{"path":"b","x":1}}'));
    applyOutcome(c, hook('b'), ok('{"action":"modify","args_override":{"path":"c"}}'));
    expect(stringifyJson(c.args as JsonObject)).toBe('{"path":"c","mode":"w","x":1}');
    expect(stringifyJson(c.decision.args_override)).toBe('{"path":"c","x":1}');
    expect(c.argsModified).toBe(true);
  });

  it('lets args replace everything and resets the override record', () => {
    const c = chain();
    applyOutcome(c, hook('a'), ok('{"action":"modify","args_override":{"x":1}}'));
    applyOutcome(c, hook('b'), ok('{"action":"modify","args":{"only":true}}'));
    applyOutcome(c, hook('c'), ok('{"action":"modify","args_override":{"y":2}}'));
    expect(stringifyJson(c.args as JsonObject)).toBe('{"only":true,"y":2}');
    expect(stringifyJson(c.decision.args_override)).toBe('{"y":2}');
  });

  it('ignores args_override without action: modify, with a decision_ignored warning', () => {
    const c = chain();
    applyOutcome(c, hook('a'), ok('{"args_override":{"x":1}}'));
    expect(c.argsModified).toBe(false);
    expect(c.decision.warnings).toMatchObject([{ code: 'decision_ignored', hook: 'a' }]);
  });

  it('blocks with the reason and marks the hook blocked', () => {
    const c = chain();
    const report = applyOutcome(c, hook('guard'), ok('{"action":"block","reason":"no"}'));
    expect(report.status).toBe('blocked');
    expect(c.decision).toMatchObject({ blocked: true, reason: 'no', blocked_by: { id: 'guard', source: 'project' } });
  });

  it('accumulates reminders and contexts; replace_result last wins', () => {
    const p = chain('user_prompt_submit');
    applyOutcome(p, hook('a', 'user_prompt_submit'), ok('{"system_reminder":"one","context":[{"text":"c1"},{"text":"c2","channel":"ui_notice"}]}'));
    applyOutcome(p, hook('b', 'user_prompt_submit'), ok('{"system_reminder":"two"}'));
    expect(p.decision.system_reminders).toEqual(['one', 'two']);
    expect(p.decision.contexts).toEqual([
      { channel: 'pre_prompt', text: 'c1', hook: 'a' },
      { channel: 'ui_notice', text: 'c2', hook: 'a' },
    ]);
    const t = chain('after_tool_call');
    applyOutcome(t, hook('a', 'after_tool_call'), ok('{"replace_result":"first","extra_context":"e1"}'));
    applyOutcome(t, hook('b', 'after_tool_call'), ok('{"replace_result":"second","extra_context":"e2"}'));
    expect(t.decision.replace_result).toBe('second');
    expect(t.decision.extra_context).toEqual(['e1', 'e2']);
  });

  it.each([
    [['allow', 'ask'], 'allow', false],
    [['ask'], 'ask', false],
    [['allow', 'deny'], 'deny', true],
  ])('permission %j merges to %s (deny > allow > ask)', (answers, expected, blocked) => {
    const c = chain('permission_request');
    answers.forEach((p, i) => applyOutcome(c, hook(`h${i}`, 'permission_request'), ok(`{"permission":"${p}"}`)));
    expect(c.decision.permission).toBe(expected);
    expect(c.decision.blocked).toBe(blocked);
  });

  it('reports keys that do not apply to the event as decision_ignored', () => {
    const c = chain('after_tool_call');
    applyOutcome(c, hook('a', 'after_tool_call'), ok('{"action":"block","system_reminder":"x","extra_context":"kept"}'));
    expect(c.decision.blocked).toBe(false);
    expect(c.decision.extra_context).toEqual(['kept']);
    // After a tool a block is model-visible feedback, not a gate.
    expect(c.decision.block_feedback).toBe('blocked by hook "a"');
    expect(c.decision.warnings.map((w) => w.message)).toEqual([expect.stringContaining('system_reminder ignored')]);
  });

  it('reports wrongly typed keys as result_invalid and applies the rest', () => {
    const c = chain('user_prompt_submit');
    applyOutcome(c, hook('a', 'user_prompt_submit'), ok('{"system_reminder":5,"context":[{"text":"ok"}]}'));
    expect(c.decision.warnings).toMatchObject([{ code: 'result_invalid' }]);
    expect(c.decision.contexts).toHaveLength(1);
  });

  it.each([
    ['block', true, []],
    ['warn', false, ['hook_failed']],
    ['ignore', false, []],
  ] as const)('on_error: %s on a gated event', (policy, blocked, codes) => {
    const c = chain();
    const report = applyOutcome(c, hook('f', 'before_tool_call', policy), failed('disk on fire'));
    expect(report).toMatchObject({ status: 'failed', exit_code: 3, reason: 'exited with status 3' });
    expect(c.decision.blocked).toBe(blocked);
    if (blocked) expect(c.decision.reason).toContain('disk on fire');
    expect(c.decision.warnings.map((w) => w.code)).toEqual(codes);
  });

  it('treats on_error: block as warn on an event that cannot block', () => {
    const c = chain('session_start');
    applyOutcome(c, hook('f', 'session_start', 'block'), failed());
    expect(c.decision.blocked).toBe(false);
    expect(c.decision.warnings.map((w) => w.code)).toEqual(['hook_failed']);
  });

  it('reports a timeout as hook_timeout', () => {
    const c = chain();
    applyOutcome(c, hook('t'), { ...failed(), status: 'timeout', error: 'timed out after 1 s and was killed' });
    expect(c.decision.warnings.map((w) => w.code)).toEqual(['hook_timeout']);
  });
});
