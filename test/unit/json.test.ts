import { describe, expect, it } from 'vitest';
import { type Json, JsonNumber, JsonPositions, JsonSyntaxError, fromPlain, isJsonObject, lineCol, parseJson, stringifyJson, toPlain } from '../../src/core/json.js';

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

  it('rejects unclosed nesting 100,000 deep with a syntax error, not a stack overflow', () => {
    expect(() => parseJson('['.repeat(100_000))).toThrow('unexpected end of input');
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

describe('parseJson, token by token', () => {
  const syntaxError = (text: string): { message: string; offset: number } => {
    try {
      parseJson(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) return { message: e.message, offset: e.offset };
      throw e;
    }
    throw new Error(`${JSON.stringify(text)} parsed`);
  };

  it('skips exactly the four JSON blanks between tokens', () => {
    expect(stringifyJson(parseJson(' \t\r\n{ \t\r\n"a" \t\r\n: \t\r\n[ 1 , 2 ] \t\r\n} \t\r\n'))).toBe('{"a":[1,2]}');
    expect(syntaxError('\f1')).toEqual({ message: "unexpected '\f'", offset: 0 });
    expect(syntaxError('1\u00a0')).toEqual({ message: "unexpected '\u00a0' after the JSON value", offset: 1 });
  });

  it('decodes every escape, and \\u escapes of either case', () => {
    expect(parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9\\u00e9x"')).toBe('"\\/\b\f\n\r\t\u00e9\u00e9x');
    expect(parseJson('"a\\u0041b\\nc"')).toBe('aAb\nc');
    expect(parseJson('"\\ud83d\\ude00"')).toBe('\u{1f600}');
    expect(parseJson('"é✓ tail"')).toBe('é✓ tail');
  });

  it('names the bad character of a string and where it is', () => {
    expect(syntaxError('["ab\\x"]')).toEqual({ message: 'bad escape in string', offset: 4 });
    expect(syntaxError('"ab\\')).toEqual({ message: 'bad escape in string', offset: 3 });
    expect(syntaxError('"\\u12g4"')).toEqual({ message: 'bad \\u escape', offset: 1 });
    expect(syntaxError('"\\u12"')).toEqual({ message: 'bad \\u escape', offset: 1 });
    expect(syntaxError('"a\nb"')).toEqual({ message: 'control character in string', offset: 2 });
    expect(syntaxError('"a\u001fb"')).toEqual({ message: 'control character in string', offset: 2 });
    expect(parseJson('" \u007f"')).toBe(' \u007f');
    expect(syntaxError('[1, "abc')).toEqual({ message: 'unterminated string', offset: 4 });
  });

  it('names what it found instead of the expected token, at its offset', () => {
    expect(syntaxError('{"a" 1}')).toEqual({ message: "expected ':' after key, found '1'", offset: 5 });
    expect(syntaxError('{"a"')).toEqual({ message: "expected ':' after key, found end of input", offset: 4 });
    expect(syntaxError('{"a":1 "b":2}')).toEqual({ message: "expected ',' or '}', found '\"'", offset: 7 });
    expect(syntaxError('{"a":1')).toEqual({ message: "expected ',' or '}', found end of input", offset: 6 });
    expect(syntaxError('[1 2]')).toEqual({ message: "expected ',' or ']', found '2'", offset: 3 });
    expect(syntaxError('[1')).toEqual({ message: "expected ',' or ']', found end of input", offset: 2 });
    expect(syntaxError('{,}')).toEqual({ message: "expected a string key, found ','", offset: 1 });
    expect(syntaxError('{"a":1, }')).toEqual({ message: 'trailing comma before }', offset: 8 });
    expect(syntaxError('[1, ]')).toEqual({ message: 'trailing comma before ]', offset: 4 });
    expect(syntaxError('[tru]')).toEqual({ message: "unexpected 't'", offset: 1 });
    expect(syntaxError('  ')).toEqual({ message: 'unexpected end of input', offset: 2 });
    expect(syntaxError('[1] ]')).toEqual({ message: "unexpected ']' after the JSON value", offset: 4 });
  });

  it('reads literals, empty containers and numbers in every JSON spelling', () => {
    expect(stringifyJson(parseJson('[true,false,null,{},[],{ },[ ],-1,0,10,1.5,1e3,1E-3,2e+2,-0.0]'))).toBe('[true,false,null,{},[],{},[],-1,0,10,1.5,1e3,1E-3,2e+2,-0.0]');
    expect(stringifyJson(parseJson('{"a":{"b":[{"c":{}}]},"d":[[]]}'))).toBe('{"a":{"b":[{"c":{}}]},"d":[[]]}');
    expect(syntaxError('.5')).toEqual({ message: "unexpected '.'", offset: 0 });
    expect(syntaxError('1.')).toEqual({ message: "unexpected '.' after the JSON value", offset: 1 });
    expect(syntaxError('+1')).toEqual({ message: "unexpected '+'", offset: 0 });
  });

  // Valid JSON an agent sends must never be refused for its depth: a refusal is exit 65, which agents read as "allow".
  it.each([600, 100_000])('parses lists and objects nested %i deep, and prints them back the same', (depth) => {
    const lists = '['.repeat(depth) + '1.0' + ']'.repeat(depth);
    expect(stringifyJson(parseJson(lists))).toBe(lists);
    const objects = '{"a":'.repeat(depth) + '[]' + '}'.repeat(depth);
    expect(stringifyJson(parseJson(objects))).toBe(objects);
    const mixed = '{"k":['.repeat(depth) + '"x"' + ']}'.repeat(depth);
    expect(stringifyJson(parseJson(mixed))).toBe(mixed);
  });

  it('still finds errors inside deep nesting, at their offset', () => {
    expect(syntaxError('['.repeat(600) + '1,]' + ']'.repeat(599))).toEqual({ message: 'trailing comma before ]', offset: 602 });
    expect(syntaxError('{"a":'.repeat(600) + '1' + '}'.repeat(599) + ']')).toEqual({ message: "expected ',' or '}', found ']'", offset: 600 * 5 + 600 });
  });

  it('records positions of members after a deep value', () => {
    const positions = new JsonPositions();
    const text = '{"deep":' + '['.repeat(600) + ']'.repeat(600) + ',"next":[1,2]}';
    parseJson(text, positions);
    expect(positions.get(['next'])).toEqual({ key: text.indexOf('"next"'), value: text.indexOf('[1,2]') });
    expect(positions.get(['next', 1])).toEqual({ value: text.indexOf('2]') });
  });

  it('tolerates one leading byte-order mark, nowhere else', () => {
    expect(parseJson('\ufeff{"a":"b"}')).toEqual({ a: 'b' });
    expect(syntaxError('\ufeff\ufeff1')).toEqual({ message: "unexpected '\ufeff'", offset: 1 });
    expect(syntaxError('1\ufeff')).toEqual({ message: "unexpected '\ufeff' after the JSON value", offset: 1 });
  });

  it('records the position of every value by path, and of object keys', () => {
    const text = '{"a": [10, {"b": true}], "c": "x"}';
    const positions = new JsonPositions();
    parseJson(text, positions);
    expect(positions.get([])).toStrictEqual({ value: 0 });
    expect(positions.get(['a'])).toEqual({ key: 1, value: 6 });
    expect(positions.get(['a', 0])).toEqual({ value: 7 });
    expect(positions.get(['a', 1])).toEqual({ value: 11 });
    expect(positions.get(['a', 1, 'b'])).toEqual({ key: 12, value: 17 });
    expect(positions.get(['c'])).toEqual({ key: 25, value: 30 });
    expect(positions.get(['a', 2])).toBeUndefined();
    const nested = new JsonPositions();
    parseJson('{"ab": 1, "a": {"b": 2}}', nested);
    expect([nested.get(['ab'])!.value, nested.get(['a', 'b'])!.value]).toEqual([7, 21]);
  });

  it('keeps the last of a repeated key, in the first one\'s place', () => {
    const v = parseJson('{"a":1,"b":2,"a":3}') as Record<string, JsonNumber>;
    expect(Object.keys(v)).toEqual(['a', 'b']);
    expect(v.a!.raw).toBe('3');
  });
});

describe('parsed objects', () => {
  it('are ordinary objects: members can be changed and deleted', () => {
    const v = parseJson('{"a":1,"b":{"c":2}}') as Record<string, Json>;
    v.a = 'changed';
    delete v.b;
    expect(v).toEqual({ a: 'changed' });
    const plain = toPlain(parseJson('{"a":1,"b":2}')) as Record<string, unknown>;
    plain.a = 'changed';
    delete plain.b;
    expect(plain).toEqual({ a: 'changed' });
  });
});

describe('JsonNumber', () => {
  it('is an integer only when spelled without a fraction or an exponent', () => {
    expect(['1', '-20', '123456789012345678901'].map((r) => new JsonNumber(r).isInteger())).toEqual([true, true, true]);
    expect(['1.0', '1e2', '1E2'].map((r) => new JsonNumber(r).isInteger())).toEqual([false, false, false]);
  });
});

describe('stringifyJson', () => {
  it('indents the first 64 levels and prints deeper ones on one line, so output stays linear in the depth', () => {
    const depth = 100_000;
    const text = stringifyJson(parseJson('['.repeat(depth) + ']'.repeat(depth)), 2);
    expect(text.length).toBeLessThan(3 * depth + 64 * 64 * 2 * 2);
    expect(stringifyJson(parseJson(text))).toBe('['.repeat(depth) + ']'.repeat(depth));
    expect(text.startsWith('[\n  [\n    [')).toBe(true);
  });

  it('converts 100,000-deep values to plain ones (toPlain, fromPlain) without the call stack', () => {
    const deep = parseJson('['.repeat(100_000) + '2.5' + ']'.repeat(100_000));
    let plain = toPlain(deep);
    let depth = 0;
    while (Array.isArray(plain)) [plain, depth] = [plain[0], depth + 1];
    expect([depth, plain]).toEqual([100_000, 2.5]);
    expect(stringifyJson(fromPlain(toPlain(deep)))).toBe(stringifyJson(deep));
  });

  it('reads a plain value as JSON.stringify would (fromPlain)', () => {
    const value = { a: [1, undefined, () => 1, NaN], b: undefined, d: new Date(0), n: new Number(3), s: -0, ['__proto__']: 1 };
    Object.defineProperty(value, '__proto__', { value: { x: 1 }, enumerable: true });
    expect(stringifyJson(fromPlain(value))).toBe(JSON.stringify(value));
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => fromPlain(cycle)).toThrow(TypeError);
    expect(() => fromPlain({ big: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(stringifyJson(fromPlain([shared, shared]))).toBe('[{"x":1},{"x":1}]');
  });

  it('indents nested containers by the given width, with a space after each colon', () => {
    expect(stringifyJson(parseJson('{"a":[1,{"b":null}],"c":{},"d":[]}'), 2)).toBe('{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {},\n  "d": []\n}');
    expect(stringifyJson(parseJson('[1]'), 4)).toBe('[\n    1\n]');
  });

  it('writes plain values as JSON: strings escaped, non-finite numbers and undefined as null, undefined members left out', () => {
    const value = { s: 'a"\n', t: true, f: false, n: 1.5, nan: NaN, inf: Infinity, gone: undefined, list: [undefined] } as unknown as Json;
    expect(stringifyJson(value)).toBe('{"s":"a\\"\\n","t":true,"f":false,"n":1.5,"nan":null,"inf":null,"list":[null]}');
    expect(stringifyJson(undefined)).toBe('null');
    expect(stringifyJson({ only: undefined } as unknown as Json)).toBe('{}');
  });
});

describe('isJsonObject and toPlain', () => {
  it('takes only plain objects as JSON objects', () => {
    expect([{}, [], null, new JsonNumber('1'), 'x', 1].map(isJsonObject)).toEqual([true, false, false, false, false, false]);
  });

  it('turns lossless numbers into numbers throughout, keeping a "__proto__" key as data', () => {
    const plain = toPlain(parseJson('{"a":[1.5,{"b":2}],"s":"x","t":true,"n":null,"__proto__":{"p":1}}')) as Record<string, unknown>;
    expect(plain).toEqual({ a: [1.5, { b: 2 }], s: 'x', t: true, n: null, ['__proto__']: { p: 1 } });
    expect(Object.keys(plain)).toEqual(['a', 's', 't', 'n', '__proto__']);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
  });
});

describe('lineCol', () => {
  it('counts lines and columns from 1, a newline ending its line', () => {
    const text = 'ab\ncd\n\nef';
    expect(lineCol(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineCol(text, 2)).toEqual({ line: 1, column: 3 });
    expect(lineCol(text, 3)).toEqual({ line: 2, column: 1 });
    expect(lineCol(text, 7)).toEqual({ line: 4, column: 1 });
    expect(lineCol(text, 9)).toEqual({ line: 4, column: 3 });
    expect(lineCol(text, 50)).toEqual({ line: 4, column: 44 });
  });
});
