import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonPositions, JsonSyntaxError, lineCol, parseJson, stringifyJson } from '../../src/core/json.js';

describe('lossless JSON', () => {
  it.each([
    ['{"a":1.0}', '{"a":1.0}'],
    ['{"big":123456789012345678901234567890}', '{"big":123456789012345678901234567890}'],
    ['[1e5, -0, 0.1e-7, true, null, "x\\u00e9\\n"]', '[1e5,-0,0.1e-7,true,null,"xé\\n"]'],
    ['{"__proto__": {"x": 1}}', '{"__proto__":{"x":1}}'],
  ])('round-trips %s keeping number spelling', (input, expected) => {
    expect(stringifyJson(parseJson(input))).toBe(expected);
  });

  it('keeps a "__proto__" key as data, not as the prototype', () => {
    const v = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"a":1,}', 'trailing comma'],
    ['[1,]', 'trailing comma'],
    ['{a:1}', 'expected a string key'],
    ['{"a":01}', "expected ',' or '}'"],
    ['"abc', 'unterminated string'],
    ['{"a":1} x', 'after the JSON value'],
    ['', 'unexpected end of input'],
  ])('rejects %s (%s)', (input, message) => {
    expect(() => parseJson(input)).toThrow(JsonSyntaxError);
    expect(() => parseJson(input)).toThrow(message);
  });

  it('rejects nesting deeper than its limit instead of overflowing the stack', () => {
    expect(() => parseJson('['.repeat(100_000))).toThrow('nesting deeper');
  });

  it('records key and value positions by path', () => {
    const text = '{\n  "hooks": [\n    {"id": "x"}\n  ]\n}';
    const positions = new JsonPositions();
    parseJson(text, positions);
    const id = positions.get(['hooks', 0, 'id'])!;
    expect(lineCol(text, id.key!)).toEqual({ line: 3, column: 6 });
    expect(lineCol(text, id.value)).toEqual({ line: 3, column: 12 });
  });

  it('exposes numbers as JsonNumber with their raw text', () => {
    const v = parseJson('{"n": 1.50}') as { n: JsonNumber };
    expect(v.n).toBeInstanceOf(JsonNumber);
    expect(v.n.raw).toBe('1.50');
    expect(v.n.toNumber()).toBe(1.5);
  });
});
