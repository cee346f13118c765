// Every key of the result-file merge table (CONTRACT §5–§6), one by one and in
// combination: what it does, where it is ignored, and the order keys apply in.

import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook } from '../../src/core/config.js';
import { type Chain, RESULT_KEYS, applyResult, emptyDecision, ignoredResult } from '../../src/core/decide.js';
import { type EventName, eventSpecFor } from '../../src/core/events.js';
import { type JsonObject, parseJson, stringifyJson } from '../../src/core/json.js';

const hook = (id: string, event: EventName, mode: Hook['execution']['mode'] = 'blocking'): Hook => testHook({ id, event, execution: { mode } });
const chain = (event: EventName, args = '{"path":"a"}'): Chain => ({ decision: emptyDecision(event), args: parseJson(args), argsModified: false });
const result = (json: string): JsonObject => parseJson(json) as JsonObject;
const apply = (c: Chain, json: string, id = 'h') => applyResult(c, hook(id, c.decision.event), result(json));
const args = (c: Chain): string => stringifyJson(c.args as JsonObject);

describe('args and args_override in one result', () => {
  it('applies the full args first, then merges args_override over them', () => {
    const c = chain('before_tool_call');
    expect(apply(c, '{"action":"modify","args":{"only":1},"args_override":{"extra":2}}')).toEqual([]);
    expect(args(c)).toBe('{"only":1,"extra":2}');
    expect(stringifyJson(c.decision.args_override)).toBe('{"extra":2}');
  });

  it('keeps the original args when args_override alone is applied', () => {
    const c = chain('before_tool_call', '{"path":"a","mode":"w"}');
    apply(c, '{"action":"modify","args_override":{"mode":"r"}}');
    expect(args(c)).toBe('{"path":"a","mode":"r"}');
  });

  it('merges args_override over no args at all', () => {
    const c = chain('before_tool_call', 'null');
    apply(c, '{"action":"modify","args_override":{"x":1}}');
    expect(args(c)).toBe('{"x":1}');
    expect(c.argsModified).toBe(true);
  });

  it.each(['args', 'args_override'])('ignores %s with action allow or no action', (key) => {
    for (const action of ['', '"action":"allow",']) {
      const c = chain('before_tool_call');
      const w = apply(c, `{${action}"${key}":{"x":1}}`);
      expect(c.argsModified).toBe(false);
      expect(args(c)).toBe('{"path":"a"}');
      expect(w).toEqual([{ code: 'decision_ignored', hook: 'h', message: `hook "h": ${key} ignored: it applies only with action: modify` }]);
    }
  });

  it.each(['args', 'args_override'])('rejects a %s that is not an object', (key) => {
    const c = chain('before_tool_call');
    const w = apply(c, `{"action":"modify","${key}":[1]}`);
    expect(w).toEqual([{ code: 'result_invalid', hook: 'h', message: `hook "h": ${key} must be an object; ignored` }]);
    expect(c.argsModified).toBe(false);
  });

  it('does not modify args on events other than before_tool_call', () => {
    const c = chain('user_prompt_submit');
    const w = apply(c, '{"action":"modify","args":{"x":1}}');
    expect(c.argsModified).toBe(false);
    expect(w.map((x) => x.message)).toEqual([
      'hook "h": args ignored: it does not apply to event user_prompt_submit',
      'hook "h": action ignored: it does not apply to event user_prompt_submit',
    ]);
  });
});

describe('action and reason', () => {
  it('blocks with the given reason', () => {
    const c = chain('user_prompt_submit');
    expect(apply(c, '{"action":"block","reason":"not today"}', 'guard')).toEqual([]);
    expect(c.decision).toMatchObject({ blocked: true, reason: 'not today', blocked_by: { id: 'guard', source: 'global' } });
  });

  it.each(['{"action":"block"}', '{"action":"block","reason":""}', '{"action":"block","reason":7}'])('names the hook when a block has no usable reason: %s', (json) => {
    const c = chain('before_tool_call');
    apply(c, json, 'guard');
    expect(c.decision.reason).toBe('blocked by hook "guard"');
  });

  it('leaves an allow alone', () => {
    const c = chain('before_tool_call');
    expect(apply(c, '{"action":"allow","reason":"fine"}')).toEqual([]);
    expect(c.decision.blocked).toBe(false);
    expect(c.decision.reason).toBeNull();
  });

  it('rejects an unknown action', () => {
    const c = chain('before_tool_call');
    expect(apply(c, '{"action":"deny"}')).toEqual([{ code: 'result_invalid', hook: 'h', message: 'hook "h": action must be "allow", "block" or "modify"; ignored' }]);
    expect(c.decision.blocked).toBe(false);
  });

  it('reports a reason on an event that cannot block, but not on one that can', () => {
    const observer = chain('session_start');
    expect(apply(observer, '{"reason":"x"}').map((w) => w.code)).toEqual(['decision_ignored']);
    const gated = chain('before_tool_call');
    expect(apply(gated, '{"reason":"x"}')).toEqual([]);
  });

  it('ignores a block on an event that cannot block', () => {
    const c = chain('session_start');
    expect(apply(c, '{"action":"block"}').map((w) => w.message)).toEqual(['hook "h": action ignored: it does not apply to event session_start']);
    expect(c.decision.blocked).toBe(false);
  });

  it('turns a block after a tool into block_feedback, not a block', () => {
    const c = chain('after_tool_call');
    expect(apply(c, '{"action":"block"}')).toEqual([]);
    expect(c.decision).toMatchObject({ blocked: false, block_feedback: 'blocked by hook "h"' });
  });
});

describe('reminders, extra context and replace_result', () => {
  it('takes system_reminder as a string or a list, on user_prompt_submit only', () => {
    const c = chain('user_prompt_submit');
    apply(c, '{"system_reminder":"a"}');
    apply(c, '{"system_reminder":["b","c"]}');
    expect(c.decision.system_reminders).toEqual(['a', 'b', 'c']);
    expect(apply(c, '{"system_reminder":["d",1]}').map((w) => w.code)).toEqual(['result_invalid']);
    const t = chain('before_tool_call');
    expect(apply(t, '{"system_reminder":"x"}').map((w) => w.code)).toEqual(['decision_ignored']);
    expect(t.decision.system_reminders).toEqual([]);
  });

  it('takes extra_context on after_tool_call and tool_error only', () => {
    for (const event of ['after_tool_call', 'tool_error'] as const) {
      const c = chain(event);
      apply(c, '{"extra_context":["x","y"]}');
      expect(c.decision.extra_context).toEqual(['x', 'y']);
    }
    const p = chain('user_prompt_submit');
    expect(apply(p, '{"extra_context":"x"}').map((w) => w.code)).toEqual(['decision_ignored']);
  });

  it('lets the last replace_result win and rejects a non-string one', () => {
    const c = chain('tool_error');
    apply(c, '{"replace_result":"one"}');
    apply(c, '{"replace_result":"two"}');
    expect(c.decision.replace_result).toBe('two');
    expect(apply(c, '{"replace_result":{"x":1}}').map((w) => w.code)).toEqual(['result_invalid']);
    expect(c.decision.replace_result).toBe('two');
    const p = chain('before_tool_call');
    expect(apply(p, '{"replace_result":"x"}').map((w) => w.code)).toEqual(['decision_ignored']);
    expect(p.decision.replace_result).toBeNull();
  });
});

describe('permission', () => {
  it.each([
    [['ask', 'allow'], 'allow'],
    [['allow', 'ask'], 'allow'],
    [['ask', 'ask'], 'ask'],
    [['deny', 'allow'], 'deny'],
    [['allow', 'deny', 'ask'], 'deny'],
  ])('%j merges to %s', (answers, expected) => {
    const c = chain('permission_request');
    answers.forEach((p, i) => apply(c, `{"permission":"${p}"}`, `h${i}`));
    expect(c.decision.permission).toBe(expected);
  });

  it('blocks on deny, with the reason or a default naming the hook, and keeps the first blocker', () => {
    const c = chain('permission_request');
    apply(c, '{"permission":"deny","reason":"no way"}', 'first');
    apply(c, '{"permission":"deny","reason":"me too"}', 'second');
    expect(c.decision).toMatchObject({ blocked: true, reason: 'no way', blocked_by: { id: 'first' } });
    const d = chain('permission_request');
    apply(d, '{"permission":"deny"}', 'p');
    expect(d.decision.reason).toBe('permission denied by hook "p"');
  });

  it('rejects an unknown permission and ignores permission on other events', () => {
    const c = chain('permission_request');
    expect(apply(c, '{"permission":"maybe"}').map((w) => w.code)).toEqual(['result_invalid']);
    expect(c.decision.permission).toBeNull();
    const t = chain('before_tool_call');
    expect(apply(t, '{"permission":"deny"}').map((w) => w.code)).toEqual(['decision_ignored']);
    expect(t.decision).toMatchObject({ permission: null, blocked: false });
  });
});

describe('context', () => {
  it('applies on every event, with pre_prompt as the default channel', () => {
    const c = chain('session_end');
    expect(apply(c, '{"context":["bare",{"text":"t"},{"text":"p","channel":"tool_preface"},{"text":"u","channel":"ui_notice"}]}')).toEqual([]);
    expect(c.decision.contexts).toEqual([
      { channel: 'pre_prompt', text: 'bare', hook: 'h' },
      { channel: 'pre_prompt', text: 't', hook: 'h' },
      { channel: 'tool_preface', text: 'p', hook: 'h' },
      { channel: 'ui_notice', text: 'u', hook: 'h' },
    ]);
  });

  it('takes a single object or string as well as a list', () => {
    const c = chain('before_turn');
    apply(c, '{"context":{"text":"one"}}');
    apply(c, '{"context":"two"}');
    expect(c.decision.contexts.map((x) => x.text)).toEqual(['one', 'two']);
  });

  it.each([
    '{"context":[{"text":"x","channel":"sidebar"}]}',
    '{"context":[{"text":"x","channel":5}]}',
    '{"context":[{"channel":"ui_notice"}]}',
    '{"context":[{"text":"ok"},7]}',
  ])('rejects the whole list for a bad item: %s', (json) => {
    const c = chain('before_turn');
    const w = apply(c, json);
    expect(w).toEqual([{ code: 'result_invalid', hook: 'h', message: 'hook "h": context must be a list of {text, channel} with channel pre_prompt, tool_preface or ui_notice; ignored' }]);
    expect(c.decision.contexts).toEqual([]);
  });
});

describe('key order within one result', () => {
  it('gathers reminders and contexts before the block of the same result', () => {
    const c = chain('user_prompt_submit');
    apply(c, '{"action":"block","reason":"r","system_reminder":"kept","context":"also kept"}');
    expect(c.decision).toMatchObject({ blocked: true, system_reminders: ['kept'], contexts: [{ text: 'also kept' }] });
  });

  it('reports ignored keys in the table order, unknown keys not at all', () => {
    const c = chain('session_start');
    const w = apply(c, '{"action":"block","whatever":1,"system_reminder":"x","args":{}}');
    expect(w.map((x) => x.message)).toEqual([
      'hook "h": args ignored: it does not apply to event session_start',
      'hook "h": system_reminder ignored: it does not apply to event session_start',
      'hook "h": action ignored: it does not apply to event session_start',
    ]);
  });
});

describe('ignoredResult (non-blocking hooks)', () => {
  it('names every decision key a non-blocking hook wrote, and nothing for unknown keys', () => {
    const h = hook('bg', 'before_tool_call', 'async');
    expect(ignoredResult(h, result('{"action":"block","context":"x","note":1}'))).toEqual([
      { code: 'decision_ignored', hook: 'bg', message: 'hook "bg" is async: its decision (action, context) is ignored; make it blocking to have it applied' },
    ]);
    expect(ignoredResult(h, result('{"note":1}'))).toEqual([]);
  });
});

describe('the keys that took effect (--explain)', () => {
  const traced = (event: EventName, spec?: Chain['spec']): Chain => ({ ...chain(event), applied: [], ...(spec ? { spec } : {}) });

  it('lists the applied keys in table order, and reason only with the block it made', () => {
    const c = traced('user_prompt_submit');
    apply(c, '{"reason":"r","action":"block","system_reminder":"s","context":"c"}');
    expect(c.applied).toEqual(['system_reminder', 'context', 'action', 'reason']);
  });

  it('leaves out ignored and invalid keys, and a reason without a block', () => {
    const c = traced('user_prompt_submit');
    apply(c, '{"reason":"r","action":"allow","permission":"deny","system_reminder":5}');
    expect(c.applied).toEqual(['action']);
  });

  it('does not credit a reason when the chain was blocked already', () => {
    const c = traced('user_prompt_submit');
    apply(c, '{"action":"block","reason":"first"}', 'a');
    c.applied = [];
    apply(c, '{"action":"block","reason":"second"}', 'b');
    expect(c.applied).toEqual(['action']);
    expect(c.decision).toMatchObject({ reason: 'second', blocked_by: { id: 'b' } });
  });

  it('records nothing without a trace', () => {
    const c = chain('user_prompt_submit');
    apply(c, '{"action":"block","reason":"r"}');
    expect(c).not.toHaveProperty('applied');
  });
});

describe('the event rules of one firing', () => {
  it('lets an agent stop be refused when the firing gates it', () => {
    const observer = chain('conversation_done');
    expect(apply(observer, '{"action":"block","reason":"keep going"}').map((w) => w.message)).toEqual([
      'hook "h": reason ignored: it does not apply to event conversation_done',
      'hook "h": action ignored: it does not apply to event conversation_done',
    ]);
    expect(observer.decision.blocked).toBe(false);
    const gated: Chain = { ...chain('conversation_done'), spec: eventSpecFor('conversation_done', 'claude') };
    expect(apply(gated, '{"action":"block","reason":"keep going"}')).toEqual([]);
    expect(gated.decision).toMatchObject({ blocked: true, reason: 'keep going' });
  });

  it('keeps a reason quiet where it could serve a block or block feedback', () => {
    expect(apply(chain('after_tool_call'), '{"reason":"x"}')).toEqual([]);
    expect(apply(chain('permission_request'), '{"reason":"x"}')).toEqual([]);
    expect(apply(chain('before_turn'), '{"reason":"x"}')).toEqual([{ code: 'decision_ignored', hook: 'h', message: 'hook "h": reason ignored: it does not apply to event before_turn' }]);
  });

  it('gives block feedback the reason, and leaves the decision unblocked', () => {
    const c = chain('tool_error');
    apply(c, '{"action":"block","reason":"try again"}');
    expect(c.decision).toMatchObject({ blocked: false, reason: null, blocked_by: null, block_feedback: 'try again' });
  });

  it('rejects a reason that is not a string, and names the hook in the block instead', () => {
    const c = chain('before_tool_call');
    expect(apply(c, '{"action":"block","reason":["x"]}', 'g')).toEqual([{ code: 'result_invalid', hook: 'g', message: 'hook "g": reason must be a string; ignored' }]);
    expect(c.decision.reason).toBe('blocked by hook "g"');
  });

  it('ignores modify keys with a modify action on an event that cannot modify', () => {
    const c = chain('permission_request');
    expect(apply(c, '{"action":"modify","args_override":{"x":1}}').map((w) => w.message)).toEqual([
      'hook "h": args_override ignored: it does not apply to event permission_request',
      'hook "h": action ignored: it does not apply to event permission_request',
    ]);
  });

  it('accepts an allow on every event, even one that cannot block', () => {
    expect(apply(chain('session_start'), '{"action":"allow"}')).toEqual([]);
  });
});

describe('permission and block together', () => {
  it('does not take over a block made earlier in the chain', () => {
    const c = chain('permission_request');
    apply(c, '{"action":"block","reason":"first"}', 'a');
    apply(c, '{"permission":"deny","reason":"second"}', 'b');
    expect(c.decision).toMatchObject({ permission: 'deny', reason: 'first', blocked_by: { id: 'a' } });
  });

  it('lets a later ask or allow not weaken a deny', () => {
    const c = chain('permission_request');
    apply(c, '{"permission":"deny"}', 'a');
    apply(c, '{"permission":"ask"}', 'b');
    apply(c, '{"permission":"allow"}', 'c');
    expect(c.decision.permission).toBe('deny');
  });

  it('names the hook in a deny with an empty or non-string reason', () => {
    for (const reason of ['""', '3', 'null']) {
      const c = chain('permission_request');
      apply(c, `{"permission":"deny","reason":${reason}}`, 'p');
      expect(c.decision.reason).toBe('permission denied by hook "p"');
    }
  });
});

describe('RESULT_KEYS', () => {
  it('lists every key in apply order', () => {
    expect(RESULT_KEYS).toEqual(['args', 'args_override', 'system_reminder', 'extra_context', 'replace_result', 'context', 'permission', 'reason', 'action']);
  });
});

describe('ignoredResult for fire_and_forget hooks', () => {
  it('names the mode, and every decision key once', () => {
    expect(ignoredResult(hook('bg', 'after_turn', 'fire_and_forget'), result('{"reason":"x","args":{}}'))[0]!.message).toBe('hook "bg" is fire_and_forget: its decision (reason, args) is ignored; make it blocking to have it applied');
    expect(ignoredResult(hook('bg', 'after_turn', 'async'), result('{}'))).toEqual([]);
  });
});

describe('what a wrongly shaped key must be', () => {
  it.each<[EventName, string, string]>([
    ['user_prompt_submit', '{"system_reminder":{"x":1}}', 'system_reminder must be a string or a list of strings'],
    ['after_tool_call', '{"extra_context":[1]}', 'extra_context must be a string or a list of strings'],
    ['after_tool_call', '{"replace_result":1}', 'replace_result must be a string'],
    ['permission_request', '{"permission":true}', 'permission must be "allow", "ask" or "deny"'],
    ['before_tool_call', '{"action":"block","reason":{}}', 'reason must be a string'],
  ])('on %s: %s', (event, json, message) => {
    expect(apply(chain(event), json)).toEqual([{ code: 'result_invalid', hook: 'h', message: `hook "h": ${message}; ignored` }]);
  });
});
