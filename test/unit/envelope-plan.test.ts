import { describe, expect, it } from 'vitest';
import type { Hook, Mode } from '../../src/core/config.js';
import { completeEnvelope, parseEnvelope } from '../../src/core/envelope.js';
import { ChrysError } from '../../src/core/errors.js';
import { stringifyJson } from '../../src/core/json.js';
import { planEvent } from '../../src/core/plan.js';

describe('parseEnvelope', () => {
  it.each<[string, string, string | undefined, string, number]>([
    ['invalid JSON', '{', undefined, 'invalid_json', 65],
    ['an array', '[]', undefined, 'not_an_object', 65],
    ['null', 'null', undefined, 'not_an_object', 65],
    ['no event', '{}', undefined, 'missing_event', 65],
    ['empty input without --event', '  \n', undefined, 'missing_event', 65],
    ['a non-string event', '{"event": 3}', undefined, 'unknown_event', 65],
    ['an unknown event', '{"event": "PreToolUs"}', undefined, 'unknown_event', 65],
    ['an unknown --event', '{"event": "Stop"}', 'nope', 'unknown_event', 65],
  ])('rejects %s', (_name, text, flag, code, exitCode) => {
    try {
      parseEnvelope(text, flag);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ChrysError);
      expect(e).toMatchObject({ code, exitCode });
    }
  });

  it('lets --event win and reads empty input as {} with it', () => {
    expect(parseEnvelope('{"event": "Stop"}', 'PreToolUse').event).toBe('before_tool_call');
    expect(parseEnvelope('', 'SessionEnd')).toMatchObject({ event: 'session_end', envelope: {} });
  });
});

describe('completeEnvelope', () => {
  const now = new Date('2026-11-30T10:00:00.000Z');
  it('fills every default and normalises the event, keeping other fields and number spelling', () => {
    const { envelope, event } = parseEnvelope('{"event": "PreToolUse", "n": 1.0, "tool": {"args": {"big": 123456789012345678901}}}', undefined);
    expect(stringifyJson(completeEnvelope(envelope, event, '/w', now))).toBe(
      '{"event":"before_tool_call","schema":1,"timestamp":"2026-11-30T10:00:00.000Z","cwd":"/w","session_id":"","profile":"","session_kind":"interactive","n":1.0,"tool":{"args":{"big":123456789012345678901}}}',
    );
  });

  it('keeps the values the agent sent', () => {
    const { envelope, event } = parseEnvelope('{"event": "Stop", "schema": 1, "timestamp": "t", "cwd": "/elsewhere", "session_id": "s", "profile": "QA", "session_kind": "cron"}', undefined);
    expect(completeEnvelope(envelope, event, '/w', now)).toMatchObject({ cwd: '/elsewhere', session_id: 's', profile: 'QA', session_kind: 'cron', timestamp: 't' });
  });
});

describe('planEvent', () => {
  const hook = (id: string, event: Hook['event'], mode: Mode, enabled = true, source: Hook['source'] = 'global') =>
    ({ id, event, enabled, source, execution: { mode } }) as Hook;
  it('splits the event\'s hooks into phases, keeping their order, and sets disabled ones aside', () => {
    const hooks = [
      hook('p-ff', 'session_start', 'fire_and_forget', true, 'project'),
      hook('p-block', 'session_start', 'blocking', true, 'project'),
      hook('other-event', 'session_end', 'blocking'),
      hook('g-off', 'session_start', 'blocking', false),
      hook('g-block', 'session_start', 'blocking'),
      hook('g-async', 'session_start', 'async'),
    ];
    const plan = planEvent(hooks, 'session_start');
    expect(plan.blocking.map((h) => h.id)).toEqual(['p-block', 'g-block']);
    expect(plan.nonBlocking.map((h) => h.id)).toEqual(['p-ff', 'g-async']);
    expect(plan.disabled.map((h) => h.id)).toEqual(['g-off']);
  });
});
