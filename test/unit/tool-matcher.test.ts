// Claude Code's tool matcher, case by case: what counts as "all", as a list
// of exact names, and as an unanchored regex.
import { describe, expect, it, vi } from 'vitest';
import { compileToolMatcher, toolMatches, type ToolMatcher } from '../../src/core/tool-matcher.js';

const compiled = (source: string): ToolMatcher => {
  const c = compileToolMatcher(source);
  if (!c.ok) throw new Error(c.error);
  return c.matcher;
};

describe('compileToolMatcher', () => {
  it.each(['', '   ', '*', ' * ', '|', ' , | '])('reads %j as matching every tool', (source) => {
    expect(compiled(source)).toEqual({ kind: 'all' });
  });

  it('reads letters, digits, _, -, spaces, commas and bars as a list of exact names, trimmed', () => {
    expect(compiled('Bash')).toEqual({ kind: 'names', names: ['Bash'] });
    expect(compiled(' Edit | Write,,mcp-x_1 ')).toEqual({ kind: 'names', names: ['Edit', 'Write', 'mcp-x_1'] });
  });

  it('reads anything else as a regex, and says why a bad one does not compile', () => {
    expect(compiled('Edit.*').kind).toBe('regex');
    expect(compiled('a|b.').kind).toBe('regex');
    expect(compiled('.*Bash').kind).toBe('regex');
    const bad = compileToolMatcher('Edit(');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/Invalid regular expression.*Edit\(/);
  });

  // The pattern that tells a list of names from a regex is built when the
  // module loads, and mutation testing switches a mutant on only after this
  // file's own imports ran: only a module loaded inside the test tells it apart.
  it('reads a matcher that only starts with name characters as a regex, in a module loaded afresh', async () => {
    vi.resetModules();
    const fresh = await import('../../src/core/tool-matcher.js');
    expect(fresh.compileToolMatcher('Bash|Write')).toEqual({ ok: true, matcher: { kind: 'names', names: ['Bash', 'Write'] } });
    const regex = fresh.compileToolMatcher('Edit.*');
    expect(regex.ok && regex.matcher.kind).toBe('regex');
    expect(regex.ok && fresh.toolMatches(regex.matcher, 'Editor')).toBe(true);
  });
});

describe('toolMatches', () => {
  it('matches every tool, and an event without one, for "all"', () => {
    expect(toolMatches(compiled('*'), 'Anything')).toBe(true);
    expect(toolMatches(compiled(''), undefined)).toBe(true);
  });

  it('matches a listed name exactly, never a part or an empty name', () => {
    const names = compiled('Edit||Write');
    expect(toolMatches(names, 'Write')).toBe(true);
    expect(toolMatches(names, 'MultiEdit')).toBe(false);
    expect(toolMatches(names, '')).toBe(false);
    expect(toolMatches(names, undefined)).toBe(false);
  });

  it('searches the name with an unanchored regex, and never matches a missing name', () => {
    const regex = compiled('Edit$|^mcp__.*');
    expect(toolMatches(regex, 'MultiEdit')).toBe(true);
    expect(toolMatches(regex, 'mcp__fs__read')).toBe(true);
    expect(toolMatches(regex, 'Editor')).toBe(false);
    expect(toolMatches(compiled('undef.*'), undefined)).toBe(false);
  });
});
