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
