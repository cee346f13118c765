import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJson } from '../../src/core/json.js';
import { pyRepr, pyStr, reprFloat } from '../../src/core/pystr.js';

// Expected values are what CPython 3 prints for str(json.loads(text)).
describe("Python str() of JSON values", () => {
  it.each([
    ['"plain"', 'plain'],
    ['true', 'True'],
    ['false', 'False'],
    ['1', '1'],
    ['1.0', '1.0'],
    ['-0', '0'],
    ['1e5', '100000.0'],
    ['1E+2', '100.0'],
    ['0.0001', '0.0001'],
    ['0.00001', '1e-05'],
    ['1e16', '1e+16'],
    ['123456789012345678901', '123456789012345678901'],
    ['1.5e300', '1.5e+300'],
    ['0.1', '0.1'],
    ['2.5e-3', '0.0025'],
    ['123.456', '123.456'],
    ['[1, "a", true, null]', "[1, 'a', True, None]"],
    ['{"k": "v", "n": [1.0]}', "{'k': 'v', 'n': [1.0]}"],
    [`["it's"]`, `["it's"]`],
    [`["a'b\\"c"]`, `['a\\'b"c']`],
    ['["tab\\there\\n"]', "['tab\\there\\n']"],
    ['["\\u0001"]', "['\\x01']"],
    ['["é✓"]', "['é✓']"],
    ['["\\u00a0"]', "['\\xa0']"],
    ['[[]]', '[[]]'],
    ['{}', '{}'],
  ])('str(json.loads(%s)) == %s', (json, expected) => {
    expect(pyStr(parseJson(json))).toBe(expected);
  });

  it('treats null as a missing value', () => {
    expect(pyStr(null)).toBeUndefined();
  });

  it.each([
    [1e22, '1e+22'],
    [-2.5, '-2.5'],
    [1234567890123456.0, '1234567890123456.0'],
    [0.5, '0.5'],
  ])('reprFloat(%d) == %s', (x, expected) => {
    expect(reprFloat(x)).toBe(expected);
  });
});

// Expected values are what CPython 3.11 prints (repr of the float, str of the list).
describe('Python repr, case by case', () => {
  it('prints lists and dicts nested 100,000 deep without the call stack', () => {
    const depth = 100_000;
    expect(pyStr(parseJson('['.repeat(depth) + 'true' + ']'.repeat(depth)))).toBe('['.repeat(depth) + 'True' + ']'.repeat(depth));
    expect(pyStr(parseJson('{"a":'.repeat(depth) + '[1, "b"]' + '}'.repeat(depth)))).toBe("{'a': ".repeat(depth) + "[1, 'b']" + '}'.repeat(depth));
  });

  it.each([
    [NaN, 'nan'], [Infinity, 'inf'], [-Infinity, '-inf'], [0, '0.0'], [-0, '-0.0'],
    [1e-4, '0.0001'], [1e-5, '1e-05'], [1e16, '1e+16'], [9999999999999998, '9999999999999998.0'],
    [1.5e-7, '1.5e-07'], [1e100, '1e+100'], [12345.678, '12345.678'], [100, '100.0'], [-0.001, '-0.001'],
    [1.25e-10, '1.25e-10'], [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'],
    [0.000123, '0.000123'], [123456789.125, '123456789.125'], [-1e-7, '-1e-07'], [-2e20, '-2e+20'],
  ])('reprFloat(%d) == %s', (x, expected) => {
    expect(reprFloat(x)).toBe(expected);
  });

  it('quotes strings as Python does: double quotes only for a lone kind of quote, escapes for the rest', () => {
    const list = parseJson(String.raw`["a'b", "a\"b", "a'\"b", "back\\slash", "\r", "\u007f", "\u001f", "\u00ad", "\u200b", "\udb40\udc01", "\ud800", "\u2028", "\u3000", " ", "\ud83d\ude00", "\u0085", "\u00a0x"]`);
    expect(pyStr(list)).toBe(String.raw`["a'b", 'a"b', 'a\'"b', 'back\\slash', '\r', '\x7f', '\x1f', '\xad', '\u200b', '\U000e0001', '\ud800', '\u2028', '\u3000', ' ', '😀', '\x85', '\xa0x']`);
  });

  it('prints nested values with their Python spelling and dict keys quoted', () => {
    expect(pyStr(parseJson(`{"k'": true, "n": null, "l": [false, 2.50, -0]}`))).toBe(`{"k'": True, 'n': None, 'l': [False, 2.5, 0]}`);
    expect(pyRepr(parseJson('"top"'))).toBe("'top'");
    expect(pyRepr(null)).toBe('None');
  });

  it('escapes a non-printable code point in the shortest of \\x, \\u and \\U', () => {
    expect(pyStr(parseJson(String.raw`["\uffff", "\udbff\udfff", "\u0100\u00ff", "\u0378"]`))).toBe(String.raw`['\uffff', '\U0010ffff', 'Āÿ', '\u0378']`);
  });

  it('prints an integer exactly, without leading zeros or a negative zero', () => {
    expect(['007', '-007', '-0', '-00', '0', '10', '-10'].map((raw) => pyStr(new JsonNumber(raw)))).toEqual(['7', '-7', '0', '0', '0', '10', '-10']);
  });

  it('takes a missing value as missing, and a string as itself', () => {
    expect(pyStr(undefined)).toBeUndefined();
    expect(pyStr("it's")).toBe("it's");
  });
});
