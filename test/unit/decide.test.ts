import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook } from '../../src/core/config.js';
import { type Chain, type Outcome, applyOutcome, emptyDecision } from '../../src/core/decide.js';
import { type EventName, eventSpecFor } from '../../src/core/events.js';
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

describe('applyOutcome report lines', () => {
  it('reports an ok hook with its exit code and duration', () => {
    const c = chain();
    expect(applyOutcome(c, hook('a'), { ...ok(''), exitCode: 0, durationMs: 12 })).toEqual({ id: 'a', source: 'project', mode: 'blocking', status: 'ok', exit_code: 0, duration_ms: 12 });
    expect(c.decision.warnings).toEqual([]);
  });

  it('marks only the hook that made the block as blocked', () => {
    const c = chain();
    expect(applyOutcome(c, hook('first'), ok('{"action":"block","reason":"one"}')).status).toBe('blocked');
    expect(applyOutcome(c, hook('second'), ok('{"action":"block","reason":"two"}')).status).toBe('ok');
    expect(applyOutcome(c, hook('third'), ok('{"action":"allow"}')).status).toBe('ok');
  });

  it('treats an invalid result as no opinion, with a warning', () => {
    const c = chain();
    const report = applyOutcome(c, hook('a'), { ...ok(''), result: { kind: 'invalid', reason: 'the result file is not JSON' } });
    expect(report.status).toBe('ok');
    expect(c.decision.warnings).toEqual([{ code: 'result_invalid', hook: 'a', message: 'hook "a": the result file is not JSON; treated as no opinion' }]);
    expect(c.decision.blocked).toBe(false);
  });

  it('collects the warnings a result earned on the decision', () => {
    const c = chain();
    applyOutcome(c, hook('a'), ok('{"action":"nope"}'));
    expect(c.decision.warnings).toEqual([{ code: 'result_invalid', hook: 'a', message: 'hook "a": action must be "allow", "block" or "modify"; ignored' }]);
  });

  it('says when a failed foreign hook still decided, unless its errors are ignored', () => {
    const failure = 'exited with status 1';
    for (const on_error of ['warn', 'block'] as const) {
      const c = chain();
      const report = applyOutcome(c, hook('f', 'before_tool_call', on_error), { ...ok('{"action":"block","reason":"no"}'), failure });
      expect(report.status).toBe('blocked');
      expect(c.decision.warnings).toEqual([{ code: 'hook_failed', hook: 'f', message: 'hook "f" exited with status 1; its JSON output still decided, as its agent reads it (on_error: block blocks instead)' }]);
    }
    const quiet = chain();
    applyOutcome(quiet, hook('f', 'before_tool_call', 'ignore'), { ...ok(''), failure });
    expect(quiet.decision.warnings).toEqual([]);
  });
});

describe('applyOutcome failures', () => {
  it('blocks under on_error: block with the error and the trimmed stderr tail', () => {
    const c = chain();
    const report = applyOutcome(c, hook('f', 'before_tool_call', 'block'), failed('  disk on fire\n'));
    expect(report).toEqual({ id: 'f', source: 'project', mode: 'blocking', status: 'failed', exit_code: 3, duration_ms: 1, reason: 'exited with status 3' });
    expect(c.decision).toMatchObject({ blocked: true, reason: 'hook "f" failed (exited with status 3): disk on fire', blocked_by: { id: 'f', source: 'project' } });
    expect(c.decision.warnings).toEqual([]);
  });

  it('blocks without a colon when stderr was empty or blank', () => {
    for (const tail of ['', ' \n ']) {
      const c = chain();
      applyOutcome(c, hook('f', 'before_tool_call', 'block'), failed(tail));
      expect(c.decision.reason).toBe('hook "f" failed (exited with status 3)');
    }
  });

  it('falls back on the status when the outcome has no error text', () => {
    const c = chain();
    const { error: _error, ...noText } = failed();
    const report = applyOutcome(c, hook('f'), { ...noText, status: 'launch_error', exitCode: null });
    expect(report.reason).toBe('launch_error');
    expect(c.decision.warnings).toEqual([{ code: 'hook_failed', hook: 'f', message: 'hook "f" launch_error' }]);
  });

  it('warns about a failure with the error, naming a timeout as such', () => {
    const c = chain();
    applyOutcome(c, hook('f'), failed());
    applyOutcome(c, hook('t'), { ...failed(), status: 'timeout', error: 'timed out after 1 s and was killed' });
    expect(c.decision.warnings).toEqual([
      { code: 'hook_failed', hook: 'f', message: 'hook "f" exited with status 3' },
      { code: 'hook_timeout', hook: 't', message: 'hook "t" timed out after 1 s and was killed' },
    ]);
  });

  it('blocks under on_error: block where the firing gates an agent stop', () => {
    const c: Chain = { ...chain('conversation_done'), spec: eventSpecFor('conversation_done', 'claude') };
    applyOutcome(c, hook('f', 'conversation_done', 'block'), failed());
    expect(c.decision.blocked).toBe(true);
    const plain = chain('conversation_done');
    applyOutcome(plain, hook('f', 'conversation_done', 'block'), failed());
    expect(plain.decision.blocked).toBe(false);
  });
});

describe('the decision edges', () => {
  it('starts with no hooks, no warnings and nothing decided', () => {
    expect(emptyDecision('session_start')).toStrictEqual({ schema: 1, event: 'session_start', blocked: false, reason: null, blocked_by: null, args: null, args_override: {}, system_reminders: [], extra_context: [], replace_result: null, block_feedback: null, permission: null, contexts: [], hooks: [], warnings: [] });
  });

  it('marks the args modified when a hook replaces them', () => {
    const c = chain();
    applyOutcome(c, hook('a'), ok('{"action":"modify","args":{"x":1}}'));
    expect(c.argsModified).toBe(true);
  });

  it('keeps a failure quiet under on_error: ignore on an event that cannot block', () => {
    const c = chain('session_start');
    applyOutcome(c, hook('f', 'session_start', 'ignore'), failed());
    expect(c.decision.warnings).toEqual([]);
  });
});

describe('a foreign hook\'s ask or defer on a tool call', () => {
  const asking = (ask: 'ask' | 'defer'): Outcome => ({ ...ok(''), ask });

  it('keeps the stronger of ask and defer, in either order, and records permission as applied', () => {
    for (const [first, second, expected] of [['ask', 'defer', 'defer'], ['defer', 'ask', 'defer'], ['ask', 'ask', 'ask']] as const) {
      const c: Chain = { ...chain(), applied: [] };
      applyOutcome(c, hook('a'), asking(first));
      expect(c.decision.permission).toBe(first);
      applyOutcome(c, hook('b'), asking(second));
      expect(c.decision.permission).toBe(expected);
      expect(c.applied).toEqual(['permission', 'permission']);
    }
  });

  it('changes nothing once blocked, nor on another event', () => {
    const c: Chain = { ...chain(), applied: [] };
    applyOutcome(c, hook('g'), ok('{"action":"block","reason":"no"}'));
    applyOutcome(c, hook('a'), asking('ask'));
    expect(c.decision.permission).toBeNull();
    expect(c.applied).toEqual(['action', 'reason']);
    const p: Chain = { ...chain('permission_request'), applied: [] };
    applyOutcome(p, hook('a', 'permission_request'), asking('defer'));
    expect(p.decision.permission).toBeNull();
    expect(p.applied).toEqual([]);
  });
});
