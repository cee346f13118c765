// The load-time rules of core/normalise.ts that the first file leaves open:
// how a match.command clause is compiled (docs/hooks-file.md "match.command":
// program basenames, subcommand words, flags, args globs or { glob, regex },
// `not` clauses the same way), where a bad regex inside one is reported, and
// the `args_other_agent` warning (docs/hooks-file.md "Portable argument
// names", docs/codes.md).
//
// normalise.ts is imported afresh for each test: a helper of it is built when
// it loads, and mutation testing switches a mutant on only after a test
// file's own imports ran, so it is told apart only by a module loaded inside
// the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandClause } from '../../src/core/shell/command-match.js';
import { checkHooksFile } from '../../src/core/schema.js';
import type { NormalisedFile, RuleFinding } from '../../src/core/normalise.js';

type Normalise = typeof import('../../src/core/normalise.js');
let N: Normalise;
beforeEach(async () => {
  vi.resetModules();
  N = await import('../../src/core/normalise.js');
});

const H = { id: 'a', event: 'before_tool_call', run: { type: 'shell', shell: 'x' } };
const ofHook = (extra: Record<string, unknown>): NormalisedFile => {
  const checked = checkHooksFile({ hooks: [{ ...H, ...extra }] });
  expect(checked.findings).toEqual([]);
  return N.normaliseHooksFile(checked.value, 'global', '/cfg/hooks.yaml');
};
const show = (f: RuleFinding): string => `${f.severity} ${f.code} ${f.path.join('.')}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`;
const shown = (r: NormalisedFile): string[] => r.findings.map(show);
/** The compiled clauses of a hook that loads without findings. */
const clausesOf = (command: unknown): CommandClause[] => {
  const r = ofHook({ match: { command } });
  expect(r.findings).toEqual([]);
  expect(r.hooks).toHaveLength(1);
  return r.hooks[0]!.match!.command!;
};
const globSources = (c: CommandClause): string[] | undefined => c.args?.globs.map((g) => g.source);

describe('match.command clauses', () => {
  it('compiles one clause as a list of one, each field only when the file sets it', () => {
    expect(clausesOf({ program: 'rm' })).toStrictEqual([{ programs: ['rm'] }]);
    expect(clausesOf({ flags: ['-r', '-f'] })).toStrictEqual([{ flags: ['-r', '-f'] }]);
    expect(clausesOf({ subcommand: 'push' })).toStrictEqual([{ subcommands: [['push']] }]);
    expect(clausesOf([{ program: 'git' }, { program: 'rm', flags: '-rf' }])).toStrictEqual([{ programs: ['git'] }, { programs: ['rm'], flags: ['-rf'] }]);
  });

  it('keeps only the basename of a program, one or a list', () => {
    expect(clausesOf({ program: '/usr/bin/rm' })[0]!.programs).toEqual(['rm']);
    expect(clausesOf({ program: ['git', './bin/sudo', 'a/b/c/dd'] })[0]!.programs).toEqual(['git', 'sudo', 'dd']);
  });

  it('reads a subcommand as its leading words, one or a list', () => {
    expect(clausesOf({ program: 'git', subcommand: ['push', ' remote   add '] })[0]!.subcommands).toEqual([['push'], ['remote', 'add']]);
  });

  it('reads args as a glob, a list of globs, or { glob, regex }', () => {
    const [one] = clausesOf({ args: '/*' });
    expect(globSources(one!)).toEqual(['/*']);
    expect(one!.args!.globs[0]!.regex.test('/usr/lib')).toBe(true);
    expect(one!.args!.globs[0]!.regex.test('usr')).toBe(false);
    expect(one!.args).not.toHaveProperty('regex');
    const [many] = clausesOf({ args: ['/', '~*'] });
    expect(globSources(many!)).toEqual(['/', '~*']);
    expect(many!.args).not.toHaveProperty('regex');
    const [globList] = clausesOf({ args: { glob: ['a', 'b'] } });
    expect(globSources(globList!)).toEqual(['a', 'b']);
    expect(globList!.args).not.toHaveProperty('regex');
    const [both] = clausesOf({ args: { glob: '*.env', regex: '^/etc/' } });
    expect(globSources(both!)).toEqual(['*.env']);
    expect(both!.args!.regex).toMatchObject({ source: '^/etc/', bounded: false });
    expect(both!.args!.regex!.regex.test('/etc/passwd')).toBe(true);
    const [regexOnly] = clausesOf({ args: { regex: '(a+)+$' } });
    expect(regexOnly!.args!.globs).toEqual([]);
    expect(regexOnly!.args!.regex).toMatchObject({ source: '(a+)+$', bounded: true });
  });

  it('compiles not clauses the same way, one or a list', () => {
    expect(clausesOf({ program: 'git', subcommand: 'checkout', not: { flags: ['-b'] } })).toStrictEqual([{ programs: ['git'], subcommands: [['checkout']], not: [{ flags: ['-b'] }] }]);
    const [c] = clausesOf({ program: 'rm', not: [{ program: '/bin/echo' }, { args: 'tmp/*' }] });
    expect(c!.not!.map((n) => n.programs)).toEqual([['echo'], undefined]);
    expect(globSources(c!.not![1]!)).toEqual(['tmp/*']);
  });

  it('adds no not filter for a not that is absent', () => {
    const r = N.normaliseHooksFile({ hooks: [{ ...H, match: { command: { program: 'rm', not: undefined } } } as never] }, 'global', '/g');
    expect(r.hooks[0]!.match!.command).toStrictEqual([{ programs: ['rm'] }]);
  });
});

describe('a bad regex in match.command', () => {
  const syntax = '(fix the pattern, written in Python re syntax)';
  it.each<[string, unknown, string]>([
    ['one clause', { args: { regex: '(' } }, 'command.args.regex'],
    ['a clause of a list', [{ program: 'rm' }, { args: { regex: '(' } }], 'command.1.args.regex'],
    ['the one not of a clause', { program: 'rm', not: { args: { regex: '(' } } }, 'command.not.args.regex'],
    ['a not of a list, in a list', [{ program: 'rm', not: [{ flags: '-i' }, { args: { regex: '(' } }] }], 'command.0.not.1.args.regex'],
  ])('leaves the hook out, reported at its path: %s', (_name, command, path) => {
    const r = ofHook({ match: { command } });
    expect(shown(r)).toEqual([`error invalid_regex hooks.0.match.${path}: hook "a" is left out: regex \`(\` is invalid: Unterminated group ${syntax}`]);
    expect(r.hooks).toEqual([]);
    expect(r.skipped.map((h) => h.id)).toEqual(['a']);
  });

  it('leaves out a hook whose command regex has no JavaScript translation, as a warning', () => {
    const r = ofHook({ match: { command: { args: { regex: '(?>a)' } } } });
    expect(r.findings).toMatchObject([{ severity: 'warning', code: 'hook_skipped', path: ['hooks', 0, 'match', 'command', 'args', 'regex'] }]);
    expect(r.skipped.map((h) => h.id)).toEqual(['a']);
  });
});

describe('match.args', () => {
  it('keeps only the operators the file sets', () => {
    expect(ofHook({ match: { args: { path: { equals: 'a' } } } }).hooks[0]!.match!.args!.path).toStrictEqual({ equals: 'a' });
  });
});

describe('locked', () => {
  it('locks a global hook without a finding: locked is refused only in a project file', () => {
    const r = ofHook({ event: 'session_start', locked: true });
    expect(r.findings).toEqual([]);
    expect(r.hooks[0]!.locked).toBe(true);
  });
});

describe('args_other_agent', () => {
  const cover = 'drop tool_name and match tool_kind to cover every agent';
  it('warns when one agent\'s tool is matched on an argument only other agents\' tools take, naming the canonical one', () => {
    const r = ofHook({ match: { tool_name: 'Write', args: { path: { contains: 'src/' } } } });
    expect(shown(r)).toEqual([
      `warning args_other_agent hooks.0.match.args.path: hook "a": Write (claude) has no argument "path", which other agents' tools take (chrys write_file, gemini list_directory, gemini glob, ...); it matches only through the canonical view (file_path) (Write takes file_path, content: write args.file_path, or ${cover})`,
    ]);
    expect(r.findings[0]).toMatchObject({ hook: 'a', event: 'before_tool_call' });
    expect(r.hooks.map((h) => h.id)).toEqual(['a']);
  });

  it('says an argument with no canonical view never matches, listing up to three tools that take it', () => {
    const r = ofHook({ match: { tool_names: ['Bash'], args: { workdir: { equals: '/' } } } });
    expect(shown(r)).toEqual([
      'warning args_other_agent hooks.0.match.args.workdir: hook "a": Bash (claude) has no argument "workdir", which other agents\' tools take (codex shell, codex exec_command, codex local_shell); it never matches (Bash takes command, description, timeout, run_in_background)',
    ]);
  });

  it('reads the tool names of tool_name_regex when it is a list of names, each name once', () => {
    const r = ofHook({ match: { tool_name: 'Bash', tool_names: ['Bash'], tool_name_regex: 'Bash|Write', args: { cmd: { contains: 'rm' } } } });
    expect(r.findings.map((f) => f.message)).toEqual([
      'hook "a": Bash (claude) has no argument "cmd", which other agents\' tools take (codex exec_command); it never matches',
      'hook "a": Write (claude) has no argument "cmd", which other agents\' tools take (codex exec_command); it never matches',
    ]);
    expect(r.findings.map((f) => f.hint)).toEqual(['Bash takes command, description, timeout, run_in_background', 'Write takes file_path, content']);
  });

  it('says nothing for an argument the tool takes, an unknown tool, or a regex of tool names', () => {
    expect(ofHook({ match: { tool_name: 'Write', args: { file_path: { contains: 'a' } } } }).findings).toEqual([]);
    expect(ofHook({ match: { tool_name: 'my_tool', args: { path: { contains: 'a' } } } }).findings).toEqual([]);
    expect(ofHook({ match: { tool_name_regex: 'Wri.e', args: { path: { contains: 'a' } } } }).findings).toEqual([]);
  });
});
