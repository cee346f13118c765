import { describe, expect, it } from 'vitest';
import { compilePythonRegex } from '../../src/core/pyregex.js';
import { PYTHON_CASES } from '../helpers/pyregex-cases.js';

const search = (pattern: string, text: string): boolean => {
  const r = compilePythonRegex(pattern);
  if (!r.ok) throw new Error(r.error);
  return r.regex.test(text);
};

// Each row was checked against CPython 3.11 `bool(re.search(pattern, text))`.
describe('Python regex translation (re.search semantics)', () => {
  it.each([
    ['\\.env$', 'config/.env', true],
    ['\\.env$', 'config/.env\n', true], // $ matches before a final newline
    ['\\.env$', 'config/.env\n\n', false],
    ['\\.env\\Z', 'config/.env\n', false],
    ['\\Aabc', 'abc', true],
    ['\\Aabc', 'xabc', false],
    ['(?i)SECRET', 'my secret', true],
    ['(?P<word>ab)(?P=word)', 'xxabab', true],
    ['(?P<word>ab)(?P=word)', 'xxabac', false],
    ['^\\w+$', 'héllo', true], // \w is Unicode-aware
    ['^\\d+$', '٣٤', true], // Arabic-Indic digits are \d in Python 3
    ['\\bcat\\b', 'é cat é', true],
    ['\\bcat\\b', 'écat', false], // é is a word character, so no boundary
    ['^a.c$', 'a\nc', false],
    ['(?s)^a.c$', 'a\nc', true],
    ['(?m)^b$', 'a\nb\nc', true],
    ['x{2,}', 'axxb', true],
    ['a{,2}b', 'b', true],
    ['{literal}', 'a {literal} b', true],
    ['\\#\\:', 'x#:y', true],
    ['[\\W]', 'abc', false],
    ['[\\W]', 'a-b', true],
    ['[^\\W\\d]', '123', false],
    ['[^\\W\\d]', '12a', true],
    ['\\x41\\101', 'AA', true],
    ['(?x) a  b # comment', 'ab', true],
    ['\\s', '\u2003', true],
    ['\\s', '\x1c', true],
  ])('re.search(%j, %j) is %s', (pattern, text, expected) => {
    expect(search(pattern, text)).toBe(expected);
  });

  it.each([
    ['(?L)a', 'locale'],
    ['a(?i)b', 'start of the pattern'],
    ['(?>a)', 'atomic'],
    ['a*+', 'possessive'],
    ['\\N{EM DASH}', 'named characters'],
    ['(unclosed', ''],
    ['\\q', 'bad escape'],
  ])('rejects %j, which has no JavaScript translation or is invalid', (pattern, message) => {
    const r = compilePythonRegex(pattern);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
});

describe('why a pattern does not compile', () => {
  const failure = (pattern: string): { error: string; unsupported: boolean } => {
    const r = compilePythonRegex(pattern);
    if (r.ok) throw new Error(`${pattern} compiled`);
    return { error: r.error, unsupported: r.unsupported };
  };

  // Each of these compiles in CPython 3.11; JavaScript has no equivalent.
  it.each([
    ['(?L)a', 'the (?L) locale flag has no JavaScript equivalent'],
    ['(?i)(?L)a', 'the (?L) locale flag has no JavaScript equivalent'],
    ['a(?i:b)', 'inline flags are only supported at the start of the pattern'],
    ['a(?-i:b)', 'inline flags are only supported at the start of the pattern'],
    ['(?>a)', 'atomic groups and conditionals have no JavaScript equivalent'],
    ['(a)(?(1)b|c)', 'atomic groups and conditionals have no JavaScript equivalent'],
    ['a*+', 'possessive quantifiers have no JavaScript equivalent'],
    ['a++', 'possessive quantifiers have no JavaScript equivalent'],
    ['a?+', 'possessive quantifiers have no JavaScript equivalent'],
    ['a{2}+', 'possessive quantifiers have no JavaScript equivalent'],
    ['a{,}+', 'possessive quantifiers have no JavaScript equivalent'],
    ['\\N{EM DASH}', 'named characters (\\N{...}) are not supported'],
  ])('%j is valid Python without a JavaScript translation: %s', (pattern, error) => {
    expect(failure(pattern)).toEqual({ error, unsupported: true });
  });

  it.each([
    ['a\\', 'pattern ends with a lone backslash'],
    ['[a\\', 'pattern ends with a lone backslash'],
    ['\\x4', 'bad \\x escape'],
    ['\\u12g', 'bad \\u escape'],
    ['\\U0001F60', 'bad \\U escape'],
    ['\\q', 'bad escape \\q'],
    ['[\\B]', '\\B is not allowed in a character class'],
    ['[abc', 'unterminated character class'],
    ['[', 'unterminated character class'],
    ['a(?#no end', 'unterminated comment'],
    ['(?<=a+)b', 'look-behind requires a fixed-width pattern'],
    ['(?<!a|bc)d', 'look-behind requires a fixed-width pattern'],
    ['(unclosed', 'Unterminated group'],
    ['(?<=ab', 'Unterminated group'],
    ['a**', 'Nothing to repeat'],
  ])('%j is invalid in Python too: %s', (pattern, error) => {
    expect(failure(pattern)).toEqual({ error, unsupported: false });
  });

  it('keeps the error for the Python pattern, without quoting the translated one', () => {
    expect(failure('(?s)a.(b').error).toBe('Unterminated group');
    expect(failure('(?i)a(b').error).toBe('Unterminated group');
    expect(failure('a\n(b').error).toBe('Unterminated group');
  });
});

describe('the translated pattern', () => {
  it('is a u-mode RegExp, case-insensitive only for (?i) without (?a), which folds by hand', () => {
    const flags = (p: string): string => {
      const r = compilePythonRegex(p);
      if (!r.ok) throw new Error(r.error);
      return r.regex.flags;
    };
    expect(flags('a')).toBe('u');
    expect(flags('(?i)a')).toBe('iu');
    expect(flags('(?ai)a')).toBe('u');
    expect(flags('(?ia)a')).toBe('u');
  });
});

describe('look-behind width', () => {
  it('counts a named character as one, so what rejects it is the missing translation', () => {
    const r = compilePythonRegex('(?<=\\N{EM DASH}|a)b');
    expect(r).toEqual({ ok: false, error: 'named characters (\\N{...}) are not supported', unsupported: true });
  });

  it('measures a flag group by its body, so what rejects it is the inline flag', () => {
    const r = compilePythonRegex('(?<=(?i:ab)|cd)e');
    expect(r).toEqual({ ok: false, error: 'inline flags are only supported at the start of the pattern', unsupported: true });
  });
});

describe('Python regex translation, branch by branch', () => {
  it.each(PYTHON_CASES)('%j', (pattern, verdicts) => {
    const r = compilePythonRegex(pattern);
    if (verdicts === 'invalid') {
      expect(r).toMatchObject({ ok: false, unsupported: false });
      return;
    }
    if (!r.ok) throw new Error(r.error);
    expect(verdicts.map(([text]) => [text, r.regex.test(text)])).toEqual(verdicts);
  });
});
