// The matcher clause by clause, at the edges of each clause: the value just
// inside and just outside, a missing field, and the reason it gives.

import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook, Match } from '../../src/core/config.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { describeMatch, matchHook } from '../../src/core/match.js';
import { compilePythonRegex } from '../../src/core/pyregex.js';
import { compileToolMatcher } from '../../src/core/tool-matcher.js';

const hook = (match: Match | undefined): Hook => testHook({ match });
const env = (json: string): JsonObject => parseJson(json) as JsonObject;
const verdict = (match: Match, envelope: string) => matchHook(hook(match), env(envelope));
const reasonOf = (match: Match, envelope: string): string | undefined => {
  const v = verdict(match, envelope);
  return v.verdict === 'run' ? undefined : v.reason;
};
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
    expect(verdict({ session_kinds: ['cron'] }, '{}')).toEqual({ verdict: 'skipped', rule: 'session_kinds', reason: 'session_kind is `interactive`, hook runs only for `cron`' });
  });

  it('skips only above the limit: equal to it still runs', () => {
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":100}').verdict).toBe('run');
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":99}').verdict).toBe('run');
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":101}')).toEqual({ verdict: 'skipped', rule: 'max_context_tokens', reason: 'context_tokens 101 is above max_context_tokens 100' });
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

describe('tool_names and tool_name_regex', () => {
  const TOOL = '{"tool":{"name":"Edit","kind":"filesystem.write"}}';
  const matcher = (source: string): Match => {
    const compiled = compileToolMatcher(source);
    if (!compiled.ok) throw new Error(compiled.error);
    return { tool_name_regex: source, toolMatcher: compiled.matcher };
  };

  it('runs for any of the listed names, and lists them on a miss', () => {
    expect(verdict({ tool_names: ['Write', 'Edit'] }, TOOL).verdict).toBe('run');
    expect(verdict({ tool_names: ['Write', 'Bash'] }, TOOL)).toEqual({ verdict: 'no_match', reason: 'tool_name is `Edit`, hook wants one of `Write`, `Bash`' });
    expect(verdict({ tool_names: ['Edit'] }, '{}')).toEqual({ verdict: 'no_match', reason: 'tool_name is missing, hook wants one of `Edit`' });
    expect(verdict({ tool_names: [] }, '{}').verdict).toBe('run');
  });

  it('matches the name with the compiled matcher, and quotes the source on a miss', () => {
    expect(verdict(matcher('Ed.t'), TOOL).verdict).toBe('run');
    expect(verdict(matcher('Write|Bash'), TOOL)).toEqual({ verdict: 'no_match', reason: 'tool_name is `Edit`, hook wants tool_name_regex `Write|Bash`' });
    expect(verdict(matcher('^E'), '{"tool":{"kind":"k"}}')).toEqual({ verdict: 'no_match', reason: 'tool_name is missing, hook wants tool_name_regex `^E`' });
    expect(verdict(matcher('*'), '{}').verdict).toBe('run');
  });

  it('reads a tool name that is not a string as Python would print it', () => {
    expect(verdict({ tool_name: '5' }, '{"tool":{"name":5}}').verdict).toBe('run');
    expect(verdict({ tool_kind: 'True' }, '{"tool":{"kind":true}}').verdict).toBe('run');
  });

  it('checks profile before the tool clauses, and the tool clauses in order', () => {
    expect(reasonOf({ profile: 'QA', tool_name: 'x' }, TOOL)).toContain('profile');
    expect(reasonOf({ tool_kind: 'k', tool_name: 'x' }, TOOL)).toContain('tool_kind');
    expect(reasonOf({ tool_name: 'x', tool_names: ['y'] }, TOOL)).toBe('tool_name is `Edit`, hook wants `x`');
    expect(reasonOf({ tool_names: ['y'], ...matcher('z') }, TOOL)).toContain('one of');
    expect(reasonOf({ ...matcher('z'), args: { p: { contains: '' } } }, TOOL)).toContain('tool_name_regex');
    expect(verdict({ args: { p: { contains: '' } }, session_kinds: ['cron'] }, TOOL)).toEqual({ verdict: 'no_match', reason: 'argument p is missing' });
  });
});

describe('bounded argument regexes', () => {
  it('runs a pattern under the budget like any other', () => {
    const r = { ...re('a.*b.*c'), regexBounded: true };
    expect(verdict({ args: { p: r } }, '{"tool":{"args":{"p":"xaybzc"}}}').verdict).toBe('run');
    expect(verdict({ args: { p: r } }, '{"tool":{"args":{"p":"cba"}}}')).toEqual({ verdict: 'no_match', reason: 'argument p is `cba`, hook wants regex `a.*b.*c`' });
  });

  it('reports a pattern that ran out of its budget as an error, not a non-match', () => {
    const r = { ...re('(a+)+$'), regexBounded: true };
    expect(verdict({ args: { p: r } }, `{"tool":{"args":{"p":"${'a'.repeat(40)}!"}}}`)).toEqual({ verdict: 'error', reason: 'regex `(a+)+$` on argument p ran out of its 250 ms budget' });
  });
});

describe('session_kinds and context_tokens reasons', () => {
  it('lists every kind the hook runs for', () => {
    expect(verdict({ session_kinds: ['cron', 'ci'] }, '{"session_kind":"interactive"}')).toEqual({ verdict: 'skipped', rule: 'session_kinds', reason: 'session_kind is `interactive`, hook runs only for `cron`, `ci`' });
    expect(verdict({ session_kinds: ['cron', 'ci'] }, '{"session_kind":"ci"}').verdict).toBe('run');
    expect(verdict({ session_kinds: ['interactive'] }, '{"session_kind":5}').verdict).toBe('run');
  });

  it('quotes the token count as the agent sent it', () => {
    expect(verdict({ max_context_tokens: 100 }, '{"context_tokens":1.5e3}')).toEqual({ verdict: 'skipped', rule: 'max_context_tokens', reason: 'context_tokens 1.5e3 is above max_context_tokens 100' });
    expect(verdict({ max_context_tokens: 0 }, '{"context_tokens":0}').verdict).toBe('run');
  });
});

describe('describeMatch of name lists and patterns', () => {
  it('shows tool_names, tool_name_regex and a lone argument operator', () => {
    expect(describeMatch({ tool_names: ['Edit', 'Write'], tool_name_regex: 'Bash.*' })).toBe('tool_names=Edit|Write tool_name=~/Bash.*/');
    expect(describeMatch({ args: { cmd: { contains: 'rm' } } })).toBe('args.cmd~"rm"');
    expect(describeMatch({ args: { cmd: { equals: 'x "y"' } } })).toBe('args.cmd=="x \\"y\\""');
    expect(describeMatch({ profiles: [], tool_names: [], session_kinds: [], args: {} })).toBe('*');
    expect(describeMatch({ profile: '', max_context_tokens: 0 })).toBe('profile= context_tokens<=0');
  });
});

describe('hooks without a tool to look at', () => {
  it('runs a hook with no match clause on anything', () => {
    expect(matchHook(hook(undefined), env('{}'))).toEqual({ verdict: 'run' });
  });

  it('finds an argument missing when the envelope has no tool', () => {
    expect(verdict({ args: { p: { contains: '' } } }, '{}')).toEqual({ verdict: 'no_match', reason: 'argument p is missing' });
  });

  it('lists several session kinds in describeMatch', () => {
    expect(describeMatch({ session_kinds: ['cron', 'ci'] })).toBe('session_kinds=cron|ci');
  });
});
