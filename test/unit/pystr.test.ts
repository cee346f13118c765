import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { pyStr, reprFloat } from '../../src/core/pystr.js';

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
