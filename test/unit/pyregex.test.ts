import { describe, expect, it } from 'vitest';
import { compilePythonRegex } from '../../src/core/pyregex.js';

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
