// The event envelope (CONTRACT §4): what each bad envelope is told, and how
// the defaults are filled.
import { describe, expect, it, vi } from 'vitest';
import { MAX_ENVELOPE_BYTES, checkEnvelope, completeEnvelope, parseEnvelope, stringField } from '../../src/core/envelope.js';
import { ChrysError } from '../../src/core/errors.js';
import { type JsonObject, JsonNumber, parseJson, stringifyJson } from '../../src/core/json.js';

const rejection = (text: string, flagEvent?: string): { code: string; message: string; hint: string | undefined } => {
  try {
    parseEnvelope(text, flagEvent);
  } catch (e) {
    if (!(e instanceof ChrysError)) throw e;
    return { code: e.code, message: e.message, hint: e.hint };
  }
  throw new Error(`${text} was accepted`);
};

describe('parseEnvelope', () => {
  it('says where the JSON breaks', () => {
    expect(rejection('{"event": }')).toEqual({ code: 'invalid_json', message: "the envelope is not valid JSON: unexpected '}' at offset 10", hint: 'send one JSON object on stdin' });
  });

  it('names the kind of value that is not an object', () => {
    for (const [text, kind] of [['[]', 'an array'], ['null', 'null'], ['"x"', 'a string'], ['1.5', 'a number'], ['true', 'a boolean']]) {
      expect(rejection(text!)).toEqual({ code: 'not_an_object', message: `the envelope must be a JSON object, not ${kind}`, hint: 'send one JSON object such as {"event":"before_tool_call", ...}' });
    }
  });

  it('asks for an event when there is none, on stdin or in the envelope', () => {
    expect(rejection(' \n\t')).toEqual({ code: 'missing_event', message: 'no envelope on stdin and no --event', hint: 'pipe a JSON object such as {"event":"before_tool_call"} or pass --event' });
    for (const text of ['{}', '{"event": null}', '{"hook_event_name": 3}']) {
      expect(rejection(text)).toEqual({ code: 'missing_event', message: 'the envelope has no "event" and no --event was given', hint: 'add "event": "<name>" to the envelope or pass --event' });
    }
  });

  it("points an agent's own hook input at --protocol", () => {
    expect(rejection('{"hook_event_name": "PreToolUse"}').hint).toBe('this looks like an agent\'s hook input ("hook_event_name": "PreToolUse"): pass --protocol claude (or codex, gemini)');
  });

  it('quotes a non-string event as it was sent', () => {
    expect(rejection('{"event": 1.50}')).toMatchObject({ code: 'unknown_event', message: '"event" must be a string, not "1.50"' });
    expect(rejection('{"event": ["a"]}')).toMatchObject({ code: 'unknown_event', message: '"event" must be a string, not ["a"]' });
    expect(rejection('{"event": false}')).toMatchObject({ code: 'unknown_event', message: '"event" must be a string, not false' });
  });

  it('suggests the nearest event name, or the events command', () => {
    expect(rejection('{"event": "before_tool_cal"}')).toEqual({ code: 'unknown_event', message: 'unknown event "before_tool_cal"', hint: 'did you mean "before_tool_call"?' });
    expect(rejection('{"event": "qqqqqqqqqqqq"}')).toEqual({ code: 'unknown_event', message: 'unknown event "qqqqqqqqqqqq"', hint: 'run chrys-hooks events for the list' });
    expect(rejection('{"event": "before_tool_call"}', 'nope_nope_nope')).toMatchObject({ message: 'unknown event "nope_nope_nope"' });
  });

  it('returns the envelope as sent with the canonical event, --event winning', () => {
    const parsed = parseEnvelope('{"event": "PreToolUse", "x": 1}', undefined);
    expect(parsed.event).toBe('before_tool_call');
    expect(stringifyJson(parsed.envelope)).toBe('{"event":"PreToolUse","x":1}');
    expect(parseEnvelope('{"event": "nonsense"}', 'Stop').event).toBe('conversation_done');
    expect(parseEnvelope('{}', 'Stop').event).toBe('conversation_done');
  });
});

describe('checkEnvelope', () => {
  it('checks an already parsed value as parseEnvelope does', () => {
    expect(checkEnvelope(parseJson('{"event": "Stop"}'), undefined).event).toBe('conversation_done');
    expect(() => checkEnvelope(new JsonNumber('1'), undefined)).toThrow('not a number');
  });
});

describe('completeEnvelope', () => {
  const now = new Date('2026-12-01T08:00:00.000Z');

  it('puts the canonical event first, then the defaults, then the rest in the order sent', () => {
    const out = completeEnvelope(parseJson('{"z": 1, "event": "Stop", "profile": "p"}') as JsonObject, 'conversation_done', '/w', now);
    expect(Object.keys(out)).toEqual(['event', 'schema', 'timestamp', 'cwd', 'session_id', 'profile', 'session_kind', 'z']);
    expect(out.event).toBe('conversation_done');
    expect(out.profile).toBe('p');
  });

  it('returns an ordinary object: fields can be changed and deleted', () => {
    const out = completeEnvelope(parseJson('{"z": 1, "y": 2}') as JsonObject, 'other', '/w', now);
    out.z = 'changed';
    delete out.y;
    expect(out).toMatchObject({ z: 'changed' });
    expect(Object.keys(out)).not.toContain('y');
  });

  it('keeps a null the agent sent instead of the default, and a "__proto__" field as data', () => {
    const out = completeEnvelope(parseJson('{"session_id": null, "__proto__": {"polluted": true}}') as JsonObject, 'other', '/w', now);
    expect(out.session_id).toBeNull();
    expect(Object.keys(out)).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('MAX_ENVELOPE_BYTES', () => {
  it('is the documented 64 MiB', () => {
    expect(MAX_ENVELOPE_BYTES).toBe(67_108_864);
  });

  // The constant is computed when the module loads, and mutation testing
  // switches a mutant on only after this file's own imports ran: only a
  // module loaded inside the test tells it apart.
  it('is the documented 64 MiB in a module loaded afresh', async () => {
    vi.resetModules();
    const fresh = await import('../../src/core/envelope.js');
    expect(fresh.MAX_ENVELOPE_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe('stringField', () => {
  it('reads a string field, and anything else as empty', () => {
    const envelope = parseJson('{"a": "x", "n": 1, "o": {}}') as JsonObject;
    expect(['a', 'n', 'o', 'missing'].map((k) => stringField(envelope, k))).toEqual(['x', '', '', '']);
  });
});
