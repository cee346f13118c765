import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook, Match } from '../../src/core/config.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { matchHook } from '../../src/core/match.js';
import { compilePythonRegex } from '../../src/core/pyregex.js';

const hook = (match: Match | undefined): Hook => testHook({ match });
const env = (json: string): JsonObject => parseJson(json) as JsonObject;
const regex = (source: string) => {
  const r = compilePythonRegex(source);
  if (!r.ok) throw new Error(r.error);
  return { regex: r.regex, regexSource: source };
};
const TOOL = env('{"profile":"Code","tool":{"name":"edit_file","kind":"filesystem.write","args":{"path":"src/.env","force":true,"n":1.0,"tags":["a","b"],"none":null}}}');

describe('matchHook', () => {
  it.each<[string, Match, string]>([
    ['no clauses', {}, 'run'],
    ['profile equal', { profile: 'Code' }, 'run'],
    ['profile differs', { profile: 'QA' }, 'no_match'],
    ['profiles any-of', { profiles: ['QA', 'Code'] }, 'run'],
    ['profiles none', { profiles: ['QA'] }, 'no_match'],
    ['profiles empty list adds no filter', { profiles: [] }, 'run'],
    ['tool_name', { tool_name: 'edit_file' }, 'run'],
    ['tool_name differs', { tool_name: 'write_file' }, 'no_match'],
    ['tool_kind', { tool_kind: 'filesystem.write' }, 'run'],
    ['args equals', { args: { path: { equals: 'src/.env' } } }, 'run'],
    ['args contains', { args: { path: { contains: 'src/' } } }, 'run'],
    ['args regex', { args: { path: regex('\\.env$') } }, 'run'],
    ['args all operators AND-ed', { args: { path: { contains: 'src/', ...regex('\\.txt$') } } }, 'no_match'],
    ['bool compared as Python str', { args: { force: { equals: 'True' } } }, 'run'],
    ['float compared as Python str', { args: { n: { equals: '1.0' } } }, 'run'],
    ['list compared as Python repr', { args: { tags: { equals: "['a', 'b']" } } }, 'run'],
    ['null argument is missing', { args: { none: { regex: regex('.*').regex, regexSource: '.*' } } }, 'no_match'],
    ['missing argument', { args: { other: { contains: '' } } }, 'no_match'],
  ])('%s', (_name, match, verdict) => {
    expect(matchHook(hook(match), TOOL).verdict).toBe(verdict);
  });

  it('says which clause failed and against which value', () => {
    expect(matchHook(hook({ tool_name: 'write_file' }), TOOL)).toEqual({
      verdict: 'no_match',
      reason: 'tool_name is `edit_file`, hook wants `write_file`',
    });
  });

  it('skips (with a reason) on session_kinds and max_context_tokens', () => {
    const cron = env('{"session_kind":"cron","context_tokens":90000}');
    expect(matchHook(hook({ session_kinds: ['interactive'] }), cron)).toMatchObject({ verdict: 'skipped', reason: expect.stringContaining('cron') });
    expect(matchHook(hook({ max_context_tokens: 60000 }), cron)).toMatchObject({ verdict: 'skipped', reason: expect.stringContaining('90000') });
    expect(matchHook(hook({ max_context_tokens: 60000 }), env('{}')).verdict).toBe('run');
    expect(matchHook(hook({ session_kinds: ['interactive'] }), env('{}')).verdict).toBe('run');
    expect(matchHook(hook({ session_kinds: [] }), cron).verdict).toBe('run');
  });

  it('never matches a tool filter when the envelope has no tool', () => {
    expect(matchHook(hook({ tool_name: 'x' }), env('{}')).verdict).toBe('no_match');
  });
});
