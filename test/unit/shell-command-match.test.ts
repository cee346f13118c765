// The clause matcher behind match.command (src/core/shell/command-match.ts):
// every flag spelling and every option value mapped per program, the
// reasons it gives, and the path, glob and display helpers.
//
// The module is imported afresh for every test: its PROGRAMS table is built
// when it loads, and mutation testing switches a mutant on only after a test
// file's own imports have run, so a table entry can be told apart only by a
// module loaded inside the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArgsTest, CommandClause } from '../../src/core/shell/command-match.js';

type Match = typeof import('../../src/core/shell/command-match.js');
let M: Match;
beforeEach(async () => {
  vi.resetModules();
  M = await import('../../src/core/shell/command-match.js');
});

const m = (clause: CommandClause, line: string) => M.matchCommandLine([clause], line);
const glob = (...g: string[]): ArgsTest => ({ globs: g.map((source) => ({ source, regex: M.globToRegExp(source) })) });

describe('PROGRAMS: other spellings of a flag', () => {
  it.each([
    ['rm', '-R', '-r'], ['rm', '--recursive', '-r'], ['rm', '--force', '-f'], ['rm', '--interactive', '-i'], ['rm', '--dir', '-d'], ['rm', '--verbose', '-v'],
    ['rmdir', '--parents', '-p'], ['rmdir', '--verbose', '-v'],
    ['git', '--force', '-f'], ['git', '--dry-run', '-n'], ['git', '--delete', '-d'], ['git', '--verbose', '-v'], ['git', '--quiet', '-q'], ['git', '--all', '-a'], ['git', '--message', '-m'], ['git', '--patch', '-p'],
    ['cp', '-R', '-r'], ['cp', '--recursive', '-r'], ['cp', '--force', '-f'], ['cp', '--archive', '-a'], ['cp', '--target-directory', '-t'], ['cp', '--no-target-directory', '-T'],
    ['cp', '--verbose', '-v'], ['cp', '--interactive', '-i'], ['cp', '--no-clobber', '-n'], ['cp', '--link', '-l'], ['cp', '--symbolic-link', '-s'], ['cp', '--update', '-u'],
    ['mv', '--force', '-f'], ['mv', '--target-directory', '-t'], ['mv', '--interactive', '-i'], ['mv', '--no-clobber', '-n'], ['mv', '--verbose', '-v'], ['mv', '--update', '-u'],
    ['chmod', '--recursive', '-R'], ['chmod', '--verbose', '-v'], ['chmod', '--changes', '-c'], ['chmod', '--silent', '-f'], ['chmod', '--quiet', '-f'],
    ['chown', '--recursive', '-R'], ['chown', '--no-dereference', '-h'], ['chown', '--verbose', '-v'], ['chown', '--changes', '-c'], ['chown', '--silent', '-f'], ['chown', '--quiet', '-f'],
    ['chgrp', '--recursive', '-R'], ['chgrp', '--no-dereference', '-h'], ['chgrp', '--verbose', '-v'], ['chgrp', '--changes', '-c'], ['chgrp', '--silent', '-f'], ['chgrp', '--quiet', '-f'],
    ['ln', '--symbolic', '-s'], ['ln', '--force', '-f'], ['ln', '--no-dereference', '-n'], ['ln', '--verbose', '-v'],
    ['mkdir', '--parents', '-p'], ['mkdir', '--verbose', '-v'], ['mkdir', '--mode', '-m'],
    ['curl', '--request', '-X'], ['curl', '--data', '-d'], ['curl', '--data-raw', '-d'], ['curl', '--data-binary', '-d'], ['curl', '--data-ascii', '-d'], ['curl', '--data-urlencode', '-d'],
    ['curl', '--header', '-H'], ['curl', '--output', '-o'], ['curl', '--remote-name', '-O'], ['curl', '--silent', '-s'], ['curl', '--insecure', '-k'], ['curl', '--location', '-L'],
    ['curl', '--user', '-u'], ['curl', '--form', '-F'], ['curl', '--upload-file', '-T'], ['curl', '--user-agent', '-A'], ['curl', '--referer', '-e'], ['curl', '--proxy', '-x'],
    ['curl', '--include', '-i'], ['curl', '--head', '-I'], ['curl', '--fail', '-f'], ['curl', '--verbose', '-v'], ['curl', '--config', '-K'], ['curl', '--cookie', '-b'],
    ['curl', '--cookie-jar', '-c'], ['curl', '--max-time', '-m'], ['curl', '--range', '-r'], ['curl', '--cert', '-E'], ['curl', '--write-out', '-w'], ['curl', '--show-error', '-S'],
    ['wget', '--output-document', '-O'], ['wget', '--output-file', '-o'], ['wget', '--quiet', '-q'], ['wget', '--recursive', '-r'], ['wget', '--directory-prefix', '-P'],
    ['wget', '--user-agent', '-U'], ['wget', '--execute', '-e'], ['wget', '--tries', '-t'],
    ['tar', '--extract', '-x'], ['tar', '--get', '-x'], ['tar', '--create', '-c'], ['tar', '--file', '-f'], ['tar', '--gzip', '-z'], ['tar', '--verbose', '-v'], ['tar', '--directory', '-C'], ['tar', '--list', '-t'],
    ['docker', '--force', '-f'], ['docker', '--all', '-a'], ['docker', '--volumes', '-v'], ['docker', '--interactive', '-i'], ['docker', '--tty', '-t'], ['docker', '--detach', '-d'],
    ['kubectl', '--namespace', '-n'], ['kubectl', '--filename', '-f'], ['kubectl', '--selector', '-l'], ['kubectl', '--output', '-o'], ['kubectl', '--container', '-c'],
    ['npm', '--global', '-g'], ['npm', '--force', '-f'], ['npm', '--save-dev', '-D'], ['npm', '--yes', '-y'],
    ['kill', '--signal', '-s'],
  ])('%s %s is %s', (program, spelling, flag) => {
    expect(m({ programs: [program], flags: [flag] }, `${program} ${spelling} v`).matched).toBe(true);
    expect(m({ programs: [program], flags: [flag] }, `${program} v`).matched).toBe(false);
  });
});

describe('PROGRAMS: options whose value is no positional argument', () => {
  it.each([
    ['git', '-C'], ['git', '-c'], ['git', '--git-dir'], ['git', '--work-tree'], ['git', '--namespace'], ['git', '--super-prefix'], ['git', '--config-env'], ['git', '-m'],
    ['git', '-o'], ['git', '--push-option'], ['git', '-b'], ['git', '-B'], ['git', '--repo'], ['git', '--exec'], ['git', '--receive-pack'], ['git', '-F'], ['git', '--file'],
    ['git', '--author'], ['git', '--date'], ['git', '-S'],
    ['cp', '-t'], ['cp', '-S'], ['cp', '--suffix'], ['mv', '-t'], ['mv', '-S'], ['mv', '--suffix'], ['ln', '-t'], ['ln', '-S'], ['mkdir', '-m'],
    ['curl', '-X'], ['curl', '-d'], ['curl', '-H'], ['curl', '-o'], ['curl', '-u'], ['curl', '-F'], ['curl', '-T'], ['curl', '-A'], ['curl', '-e'], ['curl', '-x'],
    ['curl', '-K'], ['curl', '-b'], ['curl', '-c'], ['curl', '-m'], ['curl', '-r'], ['curl', '-E'], ['curl', '-w'], ['curl', '--json'], ['curl', '--connect-timeout'],
    ['curl', '--retry'], ['curl', '--cacert'], ['curl', '--key'], ['curl', '--resolve'], ['curl', '--form-string'], ['curl', '-z'], ['curl', '-Y'], ['curl', '-y'],
    ['curl', '-C'], ['curl', '--limit-rate'],
    ['wget', '-O'], ['wget', '-o'], ['wget', '-P'], ['wget', '-U'], ['wget', '-e'], ['wget', '-t'], ['wget', '--header'], ['wget', '--post-data'], ['wget', '--post-file'],
    ['wget', '--method'], ['wget', '--body-data'],
    ['tar', '-f'], ['tar', '-C'],
    ['docker', '-e'], ['docker', '--env'], ['docker', '--volume'], ['docker', '-p'], ['docker', '--publish'], ['docker', '--name'], ['docker', '-w'], ['docker', '--workdir'],
    ['docker', '-u'], ['docker', '--user'], ['docker', '--network'], ['docker', '--entrypoint'], ['docker', '-H'], ['docker', '--host'], ['docker', '--context'],
    ['docker', '--config'], ['docker', '-l'], ['docker', '--log-level'], ['docker', '--filter'], ['docker', '--format'],
    ['kubectl', '-n'], ['kubectl', '-f'], ['kubectl', '-l'], ['kubectl', '-o'], ['kubectl', '-c'], ['kubectl', '--context'], ['kubectl', '--cluster'], ['kubectl', '--kubeconfig'],
    ['kubectl', '--grace-period'], ['kubectl', '--timeout'],
    ['kill', '-s'], ['kill', '-n'],
  ])('%s %s VALUE', (program, option) => {
    expect(m({ programs: [program], args: glob('VALUE') }, `${program} ${option} VALUE arg`).matched).toBe(false);
    expect(m({ programs: [program], args: glob('arg') }, `${program} ${option} VALUE arg`).matched).toBe(true);
  });

  it('takes a value after the last letter of a cluster or after =, and none in the middle', () => {
    expect(m({ programs: ['curl'], args: glob('url') }, 'curl -XPOST url').matched).toBe(true);
    expect(m({ programs: ['curl'], args: glob('POST') }, 'curl -sX POST url').matched).toBe(false);
    expect(m({ programs: ['git'], args: glob('x') }, 'git --git-dir x status').matched).toBe(false);
    expect(m({ programs: ['git'], args: glob('y') }, 'git --git-dir=x y').matched).toBe(true);
    expect(m({ programs: ['dd'], args: glob('of=/dev/sda') }, 'dd if=x of=/dev/sda').matched).toBe(true);
  });

  it('reads a lone - as an argument and everything after -- as arguments', () => {
    expect(m({ args: glob('-') }, 'cat -').matched).toBe(true);
    expect(m({ args: glob('-v') }, 'tool -v -- x').matched).toBe(false);
    expect(m({ args: glob('x') }, 'tool -v -- x').matched).toBe(true);
    expect(m({ args: glob('-y') }, 'tool -- -y').matched).toBe(true);
    expect(m({ flags: ['--'] }, 'tool -- -y').matched).toBe(true);
    expect(m({ flags: ['-y'] }, 'tool -- -y').matched).toBe(false);
  });
});

describe('flagsOf', () => {
  it.each([
    ['-rf', ['-r', '-f']], ['-R', ['-r']], ['--force', ['-f']], ['--force=yes', ['-f']], ['-', ['-']], ['abc', ['abc']], ['ab', ['ab']], ['--x', ['--x']],
  ] as const)('%j is %j for rm', (flag, expected) => {
    expect(M.flagsOf(flag, M.PROGRAMS.rm!)).toEqual(expected);
  });
});

describe('commandMatches: subcommands, not, and run-time arguments', () => {
  it('matches subcommands word by word and takes them off the arguments', () => {
    expect(m({ programs: ['git'], subcommands: [['remote', 'add']] }, 'git remote').matched).toBe(false);
    expect(m({ programs: ['git'], subcommands: [['push']], args: glob('push') }, 'git push main').matched).toBe(false);
    expect(m({ programs: ['git'], subcommands: [['push']], args: glob('main') }, 'git push main').matched).toBe(true);
  });

  it('reads a +ref of git push as --force, for git push only', () => {
    expect(m({ programs: ['git'], subcommands: [['push']], flags: ['-f'] }, 'git push origin +main').matched).toBe(true);
    expect(m({ programs: ['git'], subcommands: [['push']], flags: ['-f'] }, 'git push origin main').matched).toBe(false);
    expect(m({ programs: ['hg'], subcommands: [['push']], flags: ['-f'] }, 'hg push +main').matched).toBe(false);
    expect(m({ programs: ['git'], subcommands: [['fetch']], flags: ['-f'] }, 'git fetch origin +main').matched).toBe(false);
  });

  it('drops a command that matches any not clause', () => {
    const clause = { programs: ['git'], not: [{ flags: ['-a'] }, { flags: ['-b'] }] };
    expect(m(clause, 'git -a').matched).toBe(false);
    expect(m(clause, 'git -b').matched).toBe(false);
    expect(m(clause, 'git -c x').matched).toBe(true);
  });

  it('fails closed on an argument known only at run time, or added by xargs', () => {
    expect(m({ programs: ['rm'], args: glob('/') }, 'rm $(x)')).toEqual({
      matched: true,
      reason: 'fails closed: the argument `$(x)` is known only at run time (simple commands: `x (in $(...))`, `rm \'$(x)\'`)',
      commands: ['x (in $(...))', "rm '$(x)'"],
      matchedCommand: "rm '$(x)'",
      failClosed: 'the argument `$(x)` is known only at run time',
    });
    expect(m({ programs: ['rm'], args: glob('/') }, 'xargs rm')).toMatchObject({ matched: true, failClosed: 'xargs adds arguments read from its input at run time' });
    expect(m({ programs: ['rm'], args: glob('/') }, 'rm x').matched).toBe(false);
  });
});

describe('matchCommandLine: reasons', () => {
  it('lists the simple commands, or says there are none', () => {
    const none = m({ programs: ['rm'] }, '');
    expect([none.matched, none.reason, none.commands]).toEqual([false, 'no command matches (no simple command)', []]);
    const two = m({ programs: ['rm'] }, 'ls; pwd');
    expect([two.matched, two.reason, two.commands]).toEqual([false, 'no command matches (simple commands: `ls`, `pwd`)', ['ls', 'pwd']]);
    expect(m({ programs: ['rm'] }, 'sudo rm x')).toEqual({
      matched: true, reason: '`rm x (in sudo)` matches (simple commands: `sudo rm x`, `rm x (in sudo)`)', commands: ['sudo rm x', 'rm x (in sudo)'], matchedCommand: 'rm x (in sudo)',
    });
  });

  it('fails closed on a line it cannot parse', () => {
    expect(m({ programs: ['rm'] }, "echo 'x")).toEqual({
      matched: true,
      reason: 'fails closed: the command line cannot be parsed: unterminated single quote at 6 (no simple command)',
      commands: [],
      failClosed: 'the command line cannot be parsed: unterminated single quote at 6',
    });
  });

  it('fails closed on interpreter code that names the program, spelled exactly', () => {
    expect(m({ programs: ['x.y'] }, "python -c 'x.y()'")).toEqual({
      matched: true,
      reason: "fails closed: python -c runs code that names `x.y`, which cannot be checked (simple commands: `python -c 'x.y()'`)",
      commands: ["python -c 'x.y()'"],
      failClosed: 'python -c runs code that names `x.y`, which cannot be checked',
    });
    expect(m({ programs: ['x.y'] }, 'python -c xzy').matched).toBe(false);
    expect(m({ programs: ['rm'] }, "python -c 'rmx()'").matched).toBe(false);
  });

  it('fails closed on a program known only at run time, unless a not clause drops it', () => {
    expect(m({ programs: ['git'], not: [{ flags: ['-v'] }] }, '$X -q')).toEqual({
      matched: true,
      reason: 'fails closed: the program `$X` is known only at run time (simple commands: `$X -q`)',
      commands: ['$X -q'],
      matchedCommand: '$X -q',
      failClosed: 'the program `$X` is known only at run time',
    });
    expect(m({ programs: ['git'], not: [{ flags: ['-v'] }, { flags: ['-x'] }] }, '$X -x').matched).toBe(false);
    expect(m({ programs: ['git'], not: [{ programs: ['git'], flags: ['-v'] }] }, '$X -v').matched).toBe(false);
    expect(m({ programs: ['git'] }, '$X').matched).toBe(true);
  });
});

describe('long options by a unique prefix, as getopt_long takes them', () => {
  it.each([
    ['rm', '--recu', ['-r']], ['rm', '--r', ['-r']], ['rm', '--fo', ['-f']], ['rm', '--d', ['-d']],
    ['cp', '--target', ['-t']], // --target-directory only: --no-target-directory begins otherwise
    ['curl', '--data-r', ['-d']], ['curl', '--d', ['-d']], // every --data* is -d: one meaning
    ['rm', '--recursive', ['-r']], // an exact spelling is no prefix
    ['cp', '--no', ['--no']], // --no-target-directory and --no-clobber: ambiguous, left as written
    ['rm', '--x', ['--x']], ['rm', '--', ['--']], ['frobnicate', '--recu', ['--recu']],
  ])('%s %s is %j', (program, flag, out) => {
    expect(M.flagsOf(flag, M.PROGRAMS[program] ?? {})).toEqual(out);
  });

  it('a prefix of an option that takes a value takes the next word as its value', () => {
    expect(m({ programs: ['cp'], args: glob('/') }, 'cp --target / a')).toMatchObject({ matched: false });
    expect(m({ programs: ['cp'], args: glob('/') }, 'cp --targ=x a /')).toMatchObject({ matched: true });
  });
});

describe('expansionSpellings', () => {
  it.each([
    ['${HOME:?}', ['$HOME']], ['${HOME?}', ['$HOME']], ['${HOME:?unset}/x', ['$HOME/x']], ['${HOME}', ['$HOME']],
    ['${T:-/}', ['$T', '/']], ['${T-/}', ['$T', '/']], ['${T:=/}', ['$T', '/']], ['${T=/}', ['$T', '/']],
    ['${T:+/}', ['', '/']], ['${T+x}', ['', 'x']], ['${T:-}', ['$T', '']],
    ['a${X:-b}c${Y:+d}e', ['a$Xce', 'a$Xcde', 'abce', 'abcde']],
    ['$HOME/plain', ['$HOME/plain']],
  ])('%s can be %j', (text, out) => {
    expect(M.expansionSpellings(text)?.sort()).toEqual([...out].sort());
  });

  it.each([['${HOME%/}'], ['${#X}'], ['${X/a/b}'], ['${X:1}'], ['${!X}'], ['${A:-${HOME}}'], ['${A:-x}${B:-x}${C:-x}${D:-x}${E:-x}']])('%s is known only at run time', (text) => {
    expect(M.expansionSpellings(text)).toBeUndefined();
  });

  it('four choices of two are still read', () => {
    expect(M.expansionSpellings('${A:-x}${B:-x}${C:-x}${D:-x}')).toHaveLength(16);
  });
});

describe('normalisePath', () => {
  it.each([
    ['../..', '../..'], ['a~/..', '.'], ['a$/..', '.'], ['/~/..', '/~/..'], ['$HOME/..', '$HOME/..'], ['a/$x/..', 'a/$x/..'], ['/a/../..', '/'], ['a\n/b/', 'a\n/b/'],
  ])('%j → %j', (input, out) => {
    expect(M.normalisePath(input)).toBe(out);
  });
});

describe('globToRegExp', () => {
  it.each([
    ['?', 'a', true], ['a?', 'ab', true], ['a?', 'a', false],
    ['[]]', ']', true], ['[]]', '[]]', false],
    ['[!]]', 'a', true], ['[!]]', ']', false], ['[^]]', 'a', true], ['[^]]', ']', false],
    ['[!a]', '!', true], ['[!a]', 'a', false], ['[ab]', 'a', true], ['[ab]', 'c', false],
    ['[a-c]', 'b', true], ['[x^]', '^', true], ['[x^]', 'y', false], ['[\\]', '\\', true],
    ['[ab', '[ab', true], ['[ab', 'a', false], ['[', '[', true],
    ['*', 'a\nb', true], ['a/*', 'a/b/c', true],
  ] as const)('%j on %j is %j', (g, text, expected) => {
    expect(M.globToRegExp(g).test(text)).toBe(expected);
  });
});

describe('showCommand', () => {
  const cmd = (argv: string[], via: string[] = [], context: string[] = []) => ({ argv, words: [], program: argv[0]!, via, context });
  it('quotes words the shell would read differently', () => {
    expect(M.showCommand(cmd(['echo', 'a b', "it's", 'x@%+=:,./~$-_']))).toBe("echo 'a b' 'it'\\''s' x@%+=:,./~$-_");
  });

  it('says where the command was found, outermost first', () => {
    expect(M.showCommand(cmd(['rm'], ['sudo', 'bash -c'], ['$(...)']))).toBe('rm (in $(...) → sudo → bash -c)');
  });

  it('cuts a command longer than 120 characters', () => {
    expect(M.showCommand(cmd(['echo', 'a'.repeat(115)]))).toBe(`echo ${'a'.repeat(115)}`);
    expect(M.showCommand(cmd(['echo', 'a'.repeat(116)]))).toBe(`echo ${'a'.repeat(112)}...`);
  });
});
