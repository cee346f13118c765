// The ReDoS guard (finding 3): which patterns run unbounded, and that a
// bounded match reports an overrun instead of "no match".
import { describe, expect, it } from 'vitest';
import { provenLinear, testBounded } from '../../src/core/regex-budget.js';
import { compilePythonRegex } from '../../src/core/pyregex.js';

describe('provenLinear', () => {
  it('lets simple patterns run directly', () => {
    for (const p of ['(^|/)\\.env$', 'rm\\s+-rf', '^abc', '[a-z]+', 'a{2,3}b', '(?i)secret', 'x(?:ab)?y', '[(+*)]+']) expect(provenLinear(p), p).toBe(true);
  });
  it('sends quantified groups, back-references and several unbounded quantifiers to the bounded path', () => {
    for (const p of ['(a+)+$', '(a|a)*b', '(?:ab)+', '(a)\\1', '(?P<x>a)(?P=x)', '\\s*\\s*x', 'a.*b.*c', 'a{2,}b+', '(ab){2}']) expect(provenLinear(p), p).toBe(false);
  });
});

describe('testBounded', () => {
  const re = (p: string): RegExp => {
    const r = compilePythonRegex(p);
    if (!r.ok) throw new Error(r.error);
    return r.regex;
  };
  it('matches like RegExp.test within the budget', () => {
    expect(testBounded(re('a.*b'), 'xxaqqb')).toBe(true);
    expect(testBounded(re('a.*b'), 'xxaqq')).toBe(false);
  });
  it('reports an overrun, never a non-match', () => {
    expect(testBounded(re('(a+)+$'), 'a'.repeat(40) + '!', 50)).toBe('over_budget');
  });
});

describe('provenLinear, token by token', () => {
  it.each([
    ['a\\*b*', true], // an escaped quantifier is a literal
    ['a\\+\\+b+', true],
    ['[*+]+', true], // quantifiers inside a class are literals
    ['[]*+]+', true],
    ['[^]*+]+', true],
    ['[\\]*]+', true],
    ['[\\1]+', true], // an octal escape in a class, not a back-reference
    ['\\d+', true],
    ['a{2,3}b{,4}c+', true],
    ['a{x}+', true],
    ['(ab)?c+', true],
    ['a*', true],
    ['a+b*', false],
    ['a{2,}b{3,}', false],
    ['a{2,}b*', false],
    ['(ab)*', false],
    ['(ab){2,3}', false],
    ['(a)\\2', false],
    ['(?P<x>a)b(?P=x)', false],
    ['[a]+b+', false], // a class ends at its ]
    ['(a){x}b{2}', true], // {x} is literal text
    ['(a){,3}', false],
    ['a{2}b{3,}', true],
    ['a{,}b+', false],
  ])('%j runs unbounded: %s', (pattern, expected) => {
    expect(provenLinear(pattern)).toBe(expected);
  });
});

describe('testBounded, call after call', () => {
  it('starts each match at the beginning, even for a global regex', () => {
    const global = /ab/g;
    expect(testBounded(global, 'xab')).toBe(true);
    expect(testBounded(global, 'xab')).toBe(true);
    expect(testBounded(/ab/, 'xab')).toBe(true);
  });

  it('passes on an error that is not an overrun', () => {
    const broken = { lastIndex: 0, test: () => { throw new Error('broken matcher'); } } as unknown as RegExp;
    expect(() => testBounded(broken, 'x')).toThrow('broken matcher');
  });

  it('matches within the default budget', () => {
    expect(testBounded(/(a+)+$/u, 'a'.repeat(12) + '!')).toBe(false);
  });
});
