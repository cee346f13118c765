// The matcher clause by clause, at the edges of each clause: the value just
// inside and just outside, a missing field, and the reason it gives.

import { describe, expect, it, vi } from 'vitest';
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

describe('fields', () => {
  it('needs every field to equal one of its strings, and names the one that did not', () => {
    const fields = { agent: ['claude', 'codex'], source: ['cli'] };
    expect(verdict({ fields }, '{"agent":"codex","source":"cli"}')).toStrictEqual({ verdict: 'run' });
    expect(verdict({ fields }, '{"agent":"gemini","source":"cli"}')).toEqual({ verdict: 'no_match', reason: 'agent is `gemini`, hook wants one of `claude`, `codex`' });
    expect(verdict({ fields }, '{"agent":"claude","source":"api"}')).toEqual({ verdict: 'no_match', reason: 'source is `api`, hook wants `cli`' });
    expect(verdict({ fields }, '{"agent":"claude"}')).toEqual({ verdict: 'no_match', reason: 'source is missing, hook wants `cli`' });
    expect(verdict({ fields: { n: ['5'] } }, '{"n":5}')).toEqual({ verdict: 'no_match', reason: 'n is missing, hook wants `5`' });
  });

  it('does not read an inherited key as a field', () => {
    expect(verdict({ fields: { toString: ['x'] } }, '{}')).toEqual({ verdict: 'no_match', reason: 'toString is missing, hook wants `x`' });
  });

  it('comes after the arguments and before the command', () => {
    expect(verdict({ args: { p: { contains: '' } }, fields: { agent: ['x'] } }, '{}')).toEqual({ verdict: 'no_match', reason: 'argument p is missing' });
    expect(verdict({ fields: { agent: ['x'] }, command: [{ programs: ['rm'] }] }, '{}')).toEqual({ verdict: 'no_match', reason: 'agent is missing, hook wants `x`' });
  });
});

describe('portable argument names', () => {
  it('reads path, command and content from the tool\'s own arguments when it has none of that name', () => {
    expect(verdict({ args: { path: { equals: 'a.ts' } } }, '{"tool":{"name":"Write","args":{"file_path":"a.ts","content":"x"}}}')).toStrictEqual({ verdict: 'run' });
    expect(verdict({ args: { content: { equals: 'x' }, path: { contains: '.ts' } } }, '{"tool":{"name":"Write","args":{"file_path":"a.ts","content":"x"}}}')).toEqual({ verdict: 'run' });
    expect(verdict({ args: { command: { contains: 'rm' } } }, '{"tool":{"name":"exec_command","args":{"cmd":"rm x"}}}')).toEqual({ verdict: 'run' });
    expect(verdict({ args: { path: { equals: 'b.ts' } } }, '{"tool":{"name":"Write","args":{"file_path":"a.ts"}}}')).toEqual({ verdict: 'no_match', reason: 'argument path is `a.ts`, hook wants it to equal `b.ts`' });
  });

  it('prefers an argument of the same name, and never falls back past one that is null', () => {
    expect(verdict({ args: { path: { equals: 'p' } } }, '{"tool":{"name":"list_directory","args":{"dir_path":"d","path":"p"}}}')).toEqual({ verdict: 'run' });
    expect(verdict({ args: { path: { contains: '' } } }, '{"tool":{"name":"list_directory","args":{"dir_path":"d","path":null}}}')).toEqual({ verdict: 'no_match', reason: 'argument path is missing' });
  });

  it('finds no portable name for an unknown tool, a tool without a name, a name the view lacks, or other names', () => {
    expect(verdict({ args: { path: { contains: '' } } }, '{"tool":{"name":"Unknown","args":{"file_path":"a"}}}')).toEqual({ verdict: 'no_match', reason: 'argument path is missing' });
    expect(verdict({ args: { path: { contains: '' } } }, '{"tool":{"args":{"file_path":"a"}}}')).toEqual({ verdict: 'no_match', reason: 'argument path is missing' });
    expect(verdict({ args: { content: { contains: '' } } }, '{"tool":{"name":"Edit","args":{"file_path":"a"}}}')).toEqual({ verdict: 'no_match', reason: 'argument content is missing' });
    expect(verdict({ args: { file: { contains: '' } } }, '{"tool":{"name":"Edit","args":{"file_path":"a"}}}')).toEqual({ verdict: 'no_match', reason: 'argument file is missing' });
    expect(verdict({ args: { path: { contains: '' } } }, '{}')).toEqual({ verdict: 'no_match', reason: 'argument path is missing' });
  });
});

describe('match.command', () => {
  const rm = { command: [{ programs: ['rm'] }] };
  const shell = (line: string): string => `{"tool":{"name":"run_shell","args":{"command":${JSON.stringify(line)}}}}`;

  it('runs with the verdict of the command that matched', () => {
    expect(verdict(rm, shell('rm -rf x'))).toEqual({ verdict: 'run', command: { matched: true, reason: '`rm -rf x` matches (simple commands: `rm -rf x`)', commands: ['rm -rf x'], matchedCommand: 'rm -rf x' } });
  });

  it('does not match another command, and says why with the verdict attached', () => {
    const v = verdict(rm, shell('ls -l'));
    expect(v).toEqual({ verdict: 'no_match', reason: 'command: no command matches (simple commands: `ls -l`)', command: { matched: false, reason: 'no command matches (simple commands: `ls -l`)', commands: ['ls -l'] } });
  });

  it('looks at shell tools only, and needs their command line', () => {
    expect(verdict(rm, '{"tool":{"name":"edit_file","args":{"command":"rm x"}}}')).toEqual({ verdict: 'no_match', reason: 'tool_name is `edit_file`, not a shell tool: match.command looks at shell commands only' });
    expect(verdict(rm, '{}')).toEqual({ verdict: 'no_match', reason: 'tool_name is missing, not a shell tool: match.command looks at shell commands only' });
    expect(verdict(rm, '{"tool":{"name":"run_shell","args":{}}}')).toEqual({ verdict: 'no_match', reason: 'tool run_shell has no command line in its arguments' });
    expect(verdict(rm, '{"tool":{"name":"run_shell","args":"rm x"}}')).toEqual({ verdict: 'no_match', reason: 'tool run_shell has no command line in its arguments' });
  });

  it('comes before the skip clauses, which then keep the command verdict out', () => {
    expect(verdict({ ...rm, session_kinds: ['cron'] }, shell('ls'))).toMatchObject({ verdict: 'no_match' });
    expect(verdict({ ...rm, session_kinds: ['cron'] }, shell('rm x'))).toEqual({ verdict: 'skipped', rule: 'session_kinds', reason: 'session_kind is `interactive`, hook runs only for `cron`' });
  });
});

describe('describeMatch of commands and fields', () => {
  it('shows each command clause with its programs, subcommands, flags, args and exclusions, then the fields', () => {
    const glob = { source: '*.ts', regex: /\.ts$/ };
    const m: Match = {
      command: [{ programs: ['git'], subcommands: [['push'], ['remote', 'add']], flags: ['-f', '--force'], args: { globs: [glob], regex: { source: 'a+', regex: /a+/, bounded: false } }, not: [{ programs: ['x'] }, { flags: ['-n'] }] }, {}],
      fields: { agent: ['claude', 'codex'], b: ['x'] },
    };
    expect(describeMatch(m)).toBe('command=[git push|remote add -f --force args~*.ts|/a+/ not([x]; [* -n])] command=[*] agent=claude|codex b=x');
    expect(describeMatch({ command: [{ programs: ['rm', 'rmdir'], args: { globs: [glob, { source: '/', regex: /^\/$/ }] }, not: [] }] })).toBe('command=[rm|rmdir args~*.ts|/]');
  });
});

describe('the reasons of a module loaded afresh', () => {
  // `show` is built when the module loads: a mutant in it is switched on only for a module imported inside the test.
  it('quotes a value and says missing for none', async () => {
    vi.resetModules();
    const M = await import('../../src/core/match.js');
    const v = (match: Match, envelope: string) => M.matchHook(hook(match), env(envelope));
    expect(v({ tool_name: 'x' }, '{"tool":{"name":"y"}}')).toEqual({ verdict: 'no_match', reason: 'tool_name is `y`, hook wants `x`' });
    expect(v({ tool_name: 'x' }, '{}')).toEqual({ verdict: 'no_match', reason: 'tool_name is missing, hook wants `x`' });
  });
});
