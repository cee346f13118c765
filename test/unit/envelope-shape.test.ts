// envelope_shape: which fields of which events are checked, and how.
import { describe, expect, it } from 'vitest';
import { envelopeShapeWarnings } from '../../src/core/envelope-shape.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';

const check = (json: string, event: Parameters<typeof envelopeShapeWarnings>[1]) => envelopeShapeWarnings(parseJson(json) as JsonObject, event).map((w) => w.message);

describe('envelopeShapeWarnings', () => {
  it('accepts a well-formed envelope, lossless numbers included', () => {
    expect(check('{"tool": {"name": "x", "args": {"a": 1}}, "context_tokens": 1.0, "session_id": "s"}', 'before_tool_call')).toEqual([]);
    expect(check('{"result": {"text": "ok", "duration_ms": 12, "failed": false}}', 'after_tool_call')).toEqual([]);
  });

  it('treats null as absent', () => {
    expect(check('{"tool": null, "text": null}', 'before_tool_call')).toEqual([]);
  });

  it('names each wrong field, nested ones by their dotted path', () => {
    expect(check('{"tool": {"name": 5, "args": []}, "session_id": 7}', 'before_tool_call')).toEqual([
      'envelope field "session_id" must be a string for before_tool_call, not a number',
      'envelope field "tool.name" must be a string for before_tool_call, not a number; tool filters cannot match it',
      'envelope field "tool.args" must be an object for before_tool_call, not a list; tool filters cannot match it',
    ]);
  });

  it('checks only the fields of the fired event', () => {
    expect(check('{"text": 5}', 'before_tool_call')).toEqual([]);
    expect(check('{"text": 5}', 'user_prompt_submit')).toEqual(['envelope field "text" must be a string for user_prompt_submit, not a number']);
  });
});

describe('envelopeShapeWarnings, type by type', () => {
  it('names the expected and the actual type in words', () => {
    expect(check('{"session_id": true, "profile": {}, "cwd": [1], "context_tokens": "5", "schema": false}', 'session_start')).toEqual([
      'envelope field "schema" must be a number for session_start, not true or false',
      'envelope field "cwd" must be a string for session_start, not a list',
      'envelope field "session_id" must be a string for session_start, not true or false',
      'envelope field "profile" must be a string for session_start, not an object',
      'envelope field "context_tokens" must be a number for session_start, not a string',
    ]);
    expect(check('{"failed": "yes", "turn": 1, "status": "ok"}', 'after_turn')).toEqual(['envelope field "failed" must be true or false for after_turn, not a string']);
    expect(check('{"result": [], "tool": {"name": "x"}}', 'after_tool_call')).toEqual(['envelope field "result" must be an object for after_tool_call, not a list']);
  });

  it('reports each as an envelope_shape warning', () => {
    expect(envelopeShapeWarnings(parseJson('{"cwd": 1}') as JsonObject, 'other').map((w) => w.code)).toEqual(['envelope_shape']);
  });

  it('warns about a tool that is not an object once, without looking inside it', () => {
    expect(check('{"tool": "Bash"}', 'before_tool_call')).toEqual(['envelope field "tool" must be an object for before_tool_call, not a string; tool filters cannot match it']);
    expect(check('{"tool": {"args": null, "kind": 3}}', 'permission_request')).toEqual(['envelope field "tool.kind" must be a string for permission_request, not a number; tool filters cannot match it']);
  });
});
