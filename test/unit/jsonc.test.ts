// The JSONC reader: what it skips as trivia, which literals it reads, and
// the message and offset of each way a file can be malformed.
import { describe, expect, it } from 'vitest';
import { JsoncError, lineColOf, memberOf, parseJsonc, plainOf, skipTrivia } from '../../src/core/jsonc.js';

/** The message and offset parseJsonc fails with. */
function failure(text: string): { message: string; offset: number } {
  try {
    parseJsonc(text);
  } catch (e) {
    if (!(e instanceof JsoncError)) throw e;
    return { message: e.message, offset: e.offset };
  }
  throw new Error(`parsed ${JSON.stringify(text)}`);
}

describe('parseJsonc', () => {
  it('reads comments and trailing commas, and keeps positions', () => {
    const text = '// head\n{ "a": [1, 2,], /* x */ "b": { "c": "d\\"e" }, }\n';
    expect(plainOf(parseJsonc(text))).toEqual({ a: [1, 2], b: { c: 'd"e' } });
    const a = memberOf(parseJsonc(text), 'a')!.value;
    expect(text.slice(a.start, a.end)).toBe('[1, 2,]');
  });

  it('fails with the offset of the problem', () => {
    for (const [bad, at] of [['{ "a": }', 7], ['{ "a": 1 "b": 2 }', 9], ['[1, 2', 5], ['{} x', 3], ['/* open', 0]] as const) {
      expect(failure(bad).offset, bad).toBe(at);
    }
  });
});

describe('skipTrivia', () => {
  it('skips a line comment that ends the text', () => {
    expect(skipTrivia('// note', 0)).toBe(7);
    expect(skipTrivia('1 // note', 1)).toBe(9);
  });

  it('skips line comments up to the next line', () => {
    expect(skipTrivia('  // a\n  1', 0)).toBe(9);
  });

  it('skips a block comment, looking for its end after the opening "/*"', () => {
    expect(skipTrivia('/* a */ 1', 0)).toBe(8);
    expect(skipTrivia('/*/ x */1', 0)).toBe(8);
  });

  it('stops at a character that is not trivia even when a comment follows it', () => {
    expect(skipTrivia('x//', 0)).toBe(0);
    expect(skipTrivia(' /x', 0)).toBe(1);
  });

  it('skips a byte-order mark', () => {
    expect(skipTrivia('\ufeff{}', 0)).toBe(1);
    expect(plainOf(parseJsonc('\ufeff{ "a": 1 }'))).toEqual({ a: 1 });
  });
});

describe('parseJsonc: literals', () => {
  it('reads fractions and exponents whole', () => {
    expect(plainOf(parseJsonc('[1.25, 1e10, 1E+5, -2.5e-3, 0]'))).toEqual([1.25, 1e10, 1e5, -0.0025, 0]);
  });

  it('reads a literal only where the value starts', () => {
    expect(failure('x1')).toEqual({ message: 'unexpected "x"', offset: 0 });
  });

  it('accepts 256 levels of nesting below the top value and no more', () => {
    const ok = `${'['.repeat(257)}${']'.repeat(257)}`;
    expect(parseJsonc(ok).end).toBe(514);
    expect(failure('['.repeat(258))).toEqual({ message: 'nested too deeply', offset: 257 });
    expect(failure(`${'{"k": '.repeat(257)}1`)).toEqual({ message: 'nested too deeply', offset: 257 * 6 });
  });
});

describe('parseJsonc: errors', () => {
  const cases: [string, string, string, number][] = [
    ['a character that starts no value', 'x//', 'unexpected "x"', 0],
    ['the end of the file where a value should be', '{"a":', 'unexpected end of the file', 5],
    ['text after the value', '{} x', 'unexpected "x" after the value', 3],
    ['a slash that starts no comment after the value', '{} /x', 'unexpected "/" after the value', 3],
    ['an unterminated block comment', '/* open', 'unterminated comment', 0],
    ['a line break inside a string', '"a\nb"', 'unterminated string', 0],
    ['an unterminated key', '{"a', 'unterminated string', 1],
    ['an object cut off before its close', '{', 'unexpected end of the file in an object', 1],
    ['a key without quotes', '{ 1: 2 }', 'expected a key in double quotes', 2],
    ['a key without its colon', '{"a" 1}', 'expected ":" after the key', 5],
    ['two members without a comma', '{"a": 1 "b": 2}', 'expected "," or "}"', 8],
    ['an array cut off before its close', '[', 'unexpected end of the file in an array', 1],
    ['two items without a comma', '[1 2]', 'expected "," or "]"', 3],
  ];
  for (const [name, text, message, offset] of cases) {
    it(`reports ${name}`, () => {
      expect(failure(text)).toEqual({ message, offset });
    });
  }
});

describe('plainOf and memberOf', () => {
  it('gives objects own properties like JSON.parse does, even for "__proto__"', () => {
    const text = '{ "a": 1, "__proto__": { "b": 2 } }';
    const plain = plainOf(parseJsonc(text));
    expect(Object.getOwnPropertyDescriptors(plain)).toEqual(Object.getOwnPropertyDescriptors(JSON.parse(text)));
    expect(Object.keys(plain as object)).toEqual(['a', '__proto__']);
  });

  it('finds the last of duplicate keys, as the agents read them', () => {
    const member = memberOf(parseJsonc('{ "a": 1, "a": 2 }'), 'a')!;
    expect(member.start).toBe(10);
    expect(plainOf(member.value)).toBe(2);
  });

  it('finds no member in a missing node or in an array', () => {
    expect(memberOf(undefined, 'a')).toBeUndefined();
    expect(memberOf(parseJsonc('[1]'), 'a')).toBeUndefined();
  });
});

describe('lineColOf', () => {
  it('counts 1-based lines and columns up to the offset', () => {
    expect(lineColOf('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColOf('abc\nd', 1)).toEqual({ line: 1, column: 2 });
    expect(lineColOf('ab\n', 3)).toEqual({ line: 2, column: 1 });
  });
});
