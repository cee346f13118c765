// The errors a command ends with (core/errors.ts): each code's exit code
// (CONTRACT §7) and the `{"error": {...}}` object built from any thrown value.
import { describe, expect, it } from 'vitest';
import { ChrysError, EXIT, type ErrorCode, asChrysError, errorObject } from '../../src/core/errors.js';

describe('exit codes', () => {
  it('keeps the documented numbers', () => {
    expect(EXIT).toEqual({ ok: 0, findings: 1, blocked: 2, usage: 64, badInput: 65, unavailable: 69, internal: 70, config: 78, ioError: 74, interrupted: 130, terminated: 143 });
  });

  it.each<[ErrorCode, number]>([
    ['usage', 64],
    ['outbox_unreachable', 69],
    ['outbox_config_invalid', 78],
    ['invalid_json', 65],
    ['not_an_object', 65],
    ['missing_event', 65],
    ['unknown_event', 65],
    ['input_too_large', 65],
    ['input_unreadable', 65],
    ['invalid_request', 65],
    ['unknown_protocol', 65],
    ['unknown_job', 65],
    ['file_exists', 1],
    ['not_found', 1],
    ['refused', 1],
    ['internal', 70],
  ])('a %s error exits with %i', (code, exit) => {
    const e = new ChrysError(code, 'm');
    expect(e.exitCode).toBe(exit);
    expect(e.code).toBe(code);
    expect(e).toBeInstanceOf(Error);
  });
});

describe('errorObject', () => {
  it('carries the code, the message and the hint when there is one', () => {
    expect(errorObject(new ChrysError('usage', 'no such option', 'see --help'))).toEqual({ error: { code: 'usage', message: 'no such option', hint: 'see --help' } });
    expect(errorObject(new ChrysError('not_found', 'gone'))).toEqual({ error: { code: 'not_found', message: 'gone' } });
    expect(Object.keys(errorObject(new ChrysError('not_found', 'gone', '')).error)).toEqual(['code', 'message']);
  });

  it('reports anything that is not a ChrysError as an internal error to be reported', () => {
    expect(errorObject(new TypeError('x is undefined'))).toEqual({
      error: { code: 'internal', message: 'internal error: x is undefined', hint: 'please report this with the command you ran' },
    });
  });
});

describe('asChrysError', () => {
  it('returns a ChrysError as it is', () => {
    const e = new ChrysError('refused', 'no');
    expect(asChrysError(e)).toBe(e);
  });

  it.each<[unknown, string]>([
    [new Error('boom'), 'internal error: boom'],
    ['plain text', 'internal error: plain text'],
    [null, 'internal error: null'],
    [undefined, 'internal error: undefined'],
    [42, 'internal error: 42'],
  ])('wraps %j as internal', (thrown, message) => {
    const e = asChrysError(thrown);
    expect(e).toBeInstanceOf(ChrysError);
    expect(e.code).toBe('internal');
    expect(e.exitCode).toBe(70);
    expect(e.message).toBe(message);
    expect(e.hint).toBe('please report this with the command you ran');
  });
});
