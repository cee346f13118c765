// The matcher clause by clause, at the edges of each clause: the value just
// inside and just outside, a missing field, and the reason it gives.

import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook, Match } from '../../src/core/config.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { describeMatch, matchHook } from '../../src/core/match.js';
import { compilePythonRegex } from '../../src/core/pyregex.js';

const hook = (match: Match | undefined): Hook => testHook({ match });
const env = (json: string): JsonObject => parseJson(json) as JsonObject;
const verdict = (match: Match, envelope: string) => matchHook(hook(match), env(envelope));
const re = (source: string) => {
  const r = compilePythonRegex(source);
  if (!r.ok) throw new Error(r.error);
  return { regex: r.regex, regexSource: source };
};

describe('profile and profiles', () => {
  it('compares profile exactly, an absent profile being ""', () => {
    expect(verdict({ profile: 'Code' }, '{"profile":"Code"}').verdict).toBe('run');
    expect(verdict({ profile: 'Code' }, '{"profile":"code"}')).toEqual({ verdict: 'no_match', reason: 'profile is `code`, hook wants `Code`' });
    expect(verdict({ profile: '' }, '{}').verdict).toBe('run');
    expect(verdict({ profile: 'Code' }, '{"profile":5}')).toEqual({ verdict: 'no_match', reason: 'profile is ``, hook wants `Code`' });
  });

  it('lists the wanted profiles', () => {
    expect(verdict({ profiles: ['QA', 'Ops'] }, '{"profile":"Code"}')).toEqual({ verdict: 'no_match', reason: 'profile is `Code`, hook wants one of `QA`, `Ops`' });
    expect(verdict({ profiles: ['QA', 'Ops'] }, '{"profile":"Ops"}').verdict).toBe('run');
  });
});

describe('tool_kind and tool_name', () => {
  const TOOL = '{"tool":{"name":"edit_file","kind":"filesystem.write"}}';
  it('matches tool_kind exactly', () => {
    expect(verdict({ tool_kind: 'filesystem.write' }, TOOL).verdict).toBe('run');
    expect(verdict({ tool_kind: 'filesystem' }, TOOL)).toEqual({ verdict: 'no_match', reason: 'tool_kind is `filesystem.write`, hook wants `filesystem`' });
    expect(verdict({ tool_kind: 'filesystem.write' }, '{"tool":{"name":"x"}}')).toEqual({ verdict: 'no_match', reason: 'tool_kind is missing, hook wants `filesystem.write`' });
  });

  it('matches tool_name exactly, case included', () => {
    expect(verdict({ tool_name: 'Edit_file' }, TOOL)).toEqual({ verdict: 'no_match', reason: 'tool_name is `edit_file`, hook wants `Edit_file`' });
    expect(verdict({ tool_name: 'edit' }, TOOL).verdict).toBe('no_match');
  });

  it('finds no tool when tool is not an object', () => {
    expect(verdict({ tool_name: 'x' }, '{"tool":"x"}')).toEqual({ verdict: 'no_match', reason: 'tool_name is missing, hook wants `x`' });
  });
});

describe('argument operators', () => {
  const ARGS = '{"tool":{"name":"t","args":{"path":"lib/src/a.ts","n":2}}}';
  it('finds contains anywhere in the value, not only at its start or end', () => {
    expect(verdict({ args: { path: { contains: 'src/' } } }, ARGS).verdict).toBe('run');
    expect(verdict({ args: { path: { contains: 'lib/' } } }, ARGS).verdict).toBe('run');
    expect(verdict({ args: { path: { contains: 'a.ts' } } }, ARGS).verdict).toBe('run');
    expect(verdict({ args: { path: { contains: 'SRC/' } } }, ARGS)).toEqual({ verdict: 'no_match', reason: 'argument path is `lib/src/a.ts`, hook wants it to contain `SRC/`' });
  });

  it('compares equals with the whole value', () => {
    expect(verdict({ args: { path: { equals: 'lib/src/a.ts' } } }, ARGS).verdict).toBe('run');
    expect(verdict({ args: { path: { equals: 'lib/src' } } }, ARGS)).toEqual({ verdict: 'no_match', reason: 'argument path is `lib/src/a.ts`, hook wants it to equal `lib/src`' });
    expect(verdict({ args: { n: { equals: '2' } } }, ARGS).verdict).toBe('run');
  });

  it('searches with the regex anywhere (re.search), and explains a miss with the source pattern', () => {
    expect(verdict({ args: { path: re('src/') } }, ARGS).verdict).toBe('run');
    expect(verdict({ args: { path: re('^src/') } }, ARGS)).toEqual({ verdict: 'no_match', reason: 'argument path is `lib/src/a.ts`, hook wants regex `^src/`' });
  });

  it('needs every operator and every argument', () => {
    expect(verdict({ args: { path: { equals: 'lib/src/a.ts', contains: 'zzz' } } }, ARGS).verdict).toBe('no_match');
    expect(verdict({ args: { path: { contains: 'src' }, n: { equals: '3' } } }, ARGS)).toEqual({ verdict: 'no_match', reason: 'argument n is `2`, hook wants it to equal `3`' });
    expect(verdict({ args: { gone: { contains: '' } } }, ARGS)).toEqual({ verdict: 'no_match', reason: 'argument gone is missing' });
  });

  it('sees no arguments when args is not an object, and does not read inherited keys', () => {
    expect(verdict({ args: { path: { contains: '' } } }, '{"tool":{"name":"t","args":"path"}}').verdict).toBe('no_match');
    expect(verdict({ args: { toString: { contains: '' } } }, '{"tool":{"name":"t","args":{}}}').verdict).toBe('no_match');
  });
});

describe('session_kinds and max_context_tokens', () => {
  it('defaults session_kind to interactive', () => {
    expect(verdict({ session_kinds: ['interactive'] }, '{}').verdict).toBe('run');
    expect(verdict({ session_kinds: ['cron'] }, '{}')).toEqual({ verdict: 'skipped', reason: 'session_kind is `interactive`, hook runs only for `cron`' });
  });

  it('skips only above the limit: equal to it still runs', () => {
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":100}').verdict).toBe('run');
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":99}').verdict).toBe('run');
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":101}')).toEqual({ verdict: 'skipped', reason: 'context_tokens 101 is above max_context_tokens 100' });
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":"900"}').verdict).toBe('run');
  });

  it('checks the tool clauses before the skip clauses', () => {
    expect(verdict({ tool_name: 'x', session_kinds: ['cron'] }, '{"tool":{"name":"y"}}').verdict).toBe('no_match');
  });
});

describe('describeMatch', () => {
  it('summarises every clause on one line', () => {
    expect(describeMatch(undefined)).toBe('*');
    expect(describeMatch({})).toBe('*');
    expect(
      describeMatch({
        profile: 'Code',
        profiles: ['A', 'B'],
        tool_kind: 'k',
        tool_name: 'n',
        args: { p: { equals: 'e', contains: 'c', ...re('r$') } },
        session_kinds: ['cron'],
        max_context_tokens: 5,
      }),
    ).toBe('profile=Code profiles=A|B tool_kind=k tool_name=n args.p=="e" args.p~"c" args.p=~/r$/ session_kinds=cron context_tokens<=5');
  });
});
