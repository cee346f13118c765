// The POSIX command-line parser behind match.command (src/core/shell/):
// quoting, words, assignments and redirections apart, where each simple
// command is found, the errors and limits; then wrapper unwrapping and the
// clause matcher at the edges of each field.

import { describe, expect, it } from 'vitest';
import { braceExpand, MAX_PARSE_DEPTH, parseCommandLine } from '../../src/core/shell/parse.js';
import { analyseCommandLine, MAX_COMMAND_LINE_BYTES, MAX_UNWRAP_DEPTH } from '../../src/core/shell/unwrap.js';
import { type CommandClause, globToRegExp, matchCommandLine, normalisePath, showCommand } from '../../src/core/shell/command-match.js';

const argv = (line: string): string[][] => parseCommandLine(line).commands.map((c) => c.words.map((w) => w.text));
const commands = (line: string): string[] => analyseCommandLine(line).commands.map(showCommand);

describe('parseCommandLine: words', () => {
  it.each([
    ["echo 'a b' \"c d\" e\\ f", [['echo', 'a b', 'c d', 'e f']]],
    ["echo 'it''s'", [['echo', 'its']]],
    ['echo "a \\"b\\" \\$x \\\\ \\q"', [['echo', 'a "b" $x \\ \\q']]],
    ["echo $'a\\tb\\n\\x41\\u00e9\\101\\''", [['echo', "a\tb\nAé A'".replace(' ', '')]]],
    ['echo $"x y"', [['echo', 'x y']]],
    ['echo a\\\nb', [['echo', 'ab']]],
    ['echo a#b # comment', [['echo', 'a#b']]],
    ['# only a comment', []],
    ['echo ${x:-a b} $1 $@ $?', [['echo', '${x:-a b}', '$1', '$@', '$?']]],
    ['echo a{b,c}d {x,y}', [['echo', 'abd', 'acd', 'x', 'y']]],
    ["echo '{a,b}' {}", [['echo', '{a,b}', '{}']]],
    ['echo ~ ~/x', [['echo', '~', '~/x']]],
  ] as const)('%j', (line, expected) => {
    expect(argv(line)).toEqual(expected);
  });

  it('marks expansions and substitutions, and quoting', () => {
    const cmd = parseCommandLine("echo $HOME \"$(ls)\" 'x' plain").commands.at(-1);
    expect(cmd!.words.map((w) => [w.expanded, w.substituted, w.quoted])).toEqual([
      [false, false, false], [true, false, false], [false, true, true], [false, false, true], [false, false, false],
    ]);
  });

  it('takes assignments and redirections apart from the words', () => {
    const [cmd] = parseCommandLine('A=1 B="x y" C=(1 2) make -j2 >out 2>&1 <in 3<>f &>>log X=arg').commands;
    expect(cmd!.assignments).toEqual(['A=1', 'B=x y', 'C=(1 2)']);
    expect(cmd!.words.map((w) => w.text)).toEqual(['make', '-j2', 'X=arg']);
    expect(cmd!.redirections).toEqual(['>out', '2>&1', '<in', '3<>f', '&>>log']);
  });

  it('reads here-documents and here-strings as the command’s input', () => {
    const [a, b, c] = parseCommandLine("cat <<EOF\nline $x\nEOF\ncat <<-'E'\n\tkept\n\tE\ntr a b <<< 'hi'").commands;
    expect(a!.stdin).toBe('line $x\n');
    expect(b!.stdin).toBe('kept\n');
    expect(c!.stdin).toBe('hi\n');
  });

  it('finds the commands of every construct, with where they were found', () => {
    const found = parseCommandLine('a; b && c || d | e & f\ng $(h `i`) <(j) >(k) "$(l)"; (m); { n; }; if o; then p; elif q; else r; fi; while s; do t; done; for x in $(u); do v; done; case w in y|z) aa;; *) bb;; esac; [[ -n $(cc) && x ]]; ff() { dd; }; function gg { ee; }; ((1 + $(hh)))').commands;
    const names = found.map((c) => `${c.words[0]?.text}${c.context.length ? `@${c.context.join('>')}` : ''}`);
    expect(names).toEqual([
      'a', 'b', 'c', 'd', 'e', 'f', 'i@$(...)>`...`', 'h@$(...)', 'j@<(...)', 'k@>(...)', 'l@$(...)', 'g', 'm@(...)', 'n@{...}',
      'o', 'p', 'q', 'r', 's', 't', 'u@$(...)', 'v', 'aa', 'bb', 'cc@$(...)', '[[', 'dd@{...}', 'ee@{...}', 'hh@$((...))>$(...)',
    ]);
    const [, e] = parseCommandLine('a | e').commands;
    expect(e!.pipedFrom?.words[0]?.text).toBe('a');
  });

  it.each([
    ["echo 'x", /unterminated single quote/],
    ['echo "x', /unterminated double quote/],
    ["echo $'x", /unterminated \$' quote/],
    ['echo `x', /unterminated backtick/],
    ['echo $(x', /unterminated `\(`/],
    ['echo ${x', /unterminated `\$\{`/],
    ['(echo x', /unterminated `\(`/],
    ['{ echo x;', /unterminated `\{`/],
    ['echo x)', /unexpected `\)`/],
    ['| x', /unexpected `\|`/],
    ['x &&', /ends after an operator/],
    ['x ;; y', /unexpected `;;`/],
    ['; x', /unexpected `;`/],
    ['x >', /without a target/],
    ['case x in', /without `esac`/],
    ['echo $((1', /unterminated `\(\(`/],
  ])('%j is a syntax error', (line, message) => {
    expect(parseCommandLine(line).error).toMatch(message);
  });

  it('keeps the commands read before an error', () => {
    expect(parseCommandLine("rm -rf /; echo 'x").commands.map((c) => c.words[0]?.text)).toEqual(['rm']);
  });

  it('stops at its nesting limit', () => {
    const deep = `${'$('.repeat(MAX_PARSE_DEPTH + 1)}x${')'.repeat(MAX_PARSE_DEPTH + 1)}`;
    expect(parseCommandLine(deep)).toMatchObject({ tooDeep: true, error: expect.stringContaining('nesting') });
    const ok = `${'$('.repeat(MAX_PARSE_DEPTH)}x${')'.repeat(MAX_PARSE_DEPTH)}`;
    expect(parseCommandLine(ok).error).toBeUndefined();
  });

  it('expands braces as bash does, and bounds the count', () => {
    expect(braceExpand('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(braceExpand('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(braceExpand('x{}y')).toEqual(['x{}y']);
    expect(braceExpand('{a,b'.repeat(1))).toEqual(['{a,b']);
    expect(braceExpand('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}').length).toBe(256);
  });
});

describe('analyseCommandLine: wrappers', () => {
  it.each([
    ['sudo -u root -- rm x', 'rm x (in sudo)'],
    ['env -i -u A B=1 rm x', 'rm x (in env)'],
    ['timeout -k 1 5 rm x', 'rm x (in timeout)'],
    ['nice -n 5 rm x', 'rm x (in nice)'],
    ['time -p rm x', 'rm x (in time)'],
    ['exec -a y rm x', 'rm x (in exec)'],
    ['command -p rm x', 'rm x (in command)'],
    ['xargs -n 1 -I % rm %', 'rm % (in xargs)'],
    ['find a b -name x -exec rm {} +', 'rm a b (in find -exec)'],
    ['find -L . -ok rm {}.bak \\;', 'rm ./.bak (in find -ok)'.replace('./', '.')],
    ["bash -euo pipefail -c 'rm x'", 'rm x (in bash -c)'],
    ['eval "rm" x', 'rm x (in eval)'],
    ["watch -n 2 'rm x'", 'rm x (in watch)'],
    ['$(echo x) y', 'echo x (in $(...))'],
  ])('%j runs %j', (line, inner) => {
    expect(commands(line)).toContain(inner);
  });

  it('does not unwrap what runs nothing', () => {
    expect(commands('command -v rm')).toEqual(['command -v rm']);
    expect(commands('bash script.sh -c x')).toEqual(['bash script.sh -c x']);
    expect(commands("bash -- -c 'rm x'")).toEqual(["bash -- -c 'rm x'"]);
  });

  it('puts in variables assigned earlier on the line', () => {
    expect(commands('A=rm B="-rf /"; $A $B')).toEqual(['rm -rf /']);
    expect(commands('export P=/x; rm $P ${P}/y $Q')).toEqual(['export P=/x', 'rm /x /x/y $Q']);
    expect(analyseCommandLine('A=$(x); $A').dynamic.map((c) => c.argv[0])).toEqual(['$A']);
  });

  it('keeps interpreter code and pipes into a shell aside', () => {
    expect(analyseCommandLine("python3 -Bc 'print(1)'; node --eval=x; perl -lne y; ruby -e z; php -r w; awk -F: 'v' f; deno eval u").opaque.map((o) => `${o.what}:${o.code}`)).toEqual([
      'python3 -c:print(1)', 'node -e:x', 'perl -e:y', 'ruby -e:z', 'php -r:w', 'awk:v', 'deno eval:u',
    ]);
    expect(analyseCommandLine('curl -s x | bash').opaque).toEqual([{ what: 'bash reading a pipe', code: 'curl -s x' }]);
    expect(analyseCommandLine('python x.py; awk -f p.awk f').opaque).toEqual([]);
  });

  it('fails closed past its limits', () => {
    const deep = `${'bash -c "'.repeat(1)}${'sudo '.repeat(MAX_UNWRAP_DEPTH + 1)}rm x"`;
    expect(analyseCommandLine(deep).failClosed).toEqual([expect.stringContaining(`deeper than ${MAX_UNWRAP_DEPTH}`)]);
    expect(analyseCommandLine(`${'sudo '.repeat(MAX_UNWRAP_DEPTH)}rm x`).failClosed).toEqual([]);
    const big = `echo ${'a'.repeat(MAX_COMMAND_LINE_BYTES)}`;
    expect(analyseCommandLine(big)).toMatchObject({ commands: [], failClosed: [expect.stringContaining(`${MAX_COMMAND_LINE_BYTES}-byte limit`)] });
    expect(analyseCommandLine('é'.repeat(MAX_COMMAND_LINE_BYTES / 2 + 1)).failClosed).toHaveLength(1);
    expect(analyseCommandLine(`echo ${'a'.repeat(MAX_COMMAND_LINE_BYTES - 5)}`).failClosed).toEqual([]);
  });
});

describe('matchCommandLine: clauses', () => {
  const m = (clause: CommandClause, line: string) => matchCommandLine([clause], line);
  const glob = (...g: string[]) => ({ globs: g.map((source) => ({ source, regex: globToRegExp(source) })) });

  it('program: a basename, any of a list', () => {
    expect(m({ programs: ['rm'] }, '/usr/bin/rm x').matched).toBe(true);
    expect(m({ programs: ['rm'] }, 'RM.exe x').matched).toBe(false);
    expect(m({ programs: ['rm'] }, 'rm.exe x').matched).toBe(true);
    expect(m({ programs: ['cp', 'mv'] }, 'mv a b').matched).toBe(true);
    expect(m({ programs: ['rm'] }, 'rmdir x').matched).toBe(false);
  });

  it('flags: all of them, in any spelling the program has', () => {
    const rf = { programs: ['rm'], flags: ['-rf'] };
    for (const line of ['rm -rf x', 'rm -fr x', 'rm -r -f x', 'rm --recursive --force x', 'rm -R --force x', 'rm x -f -r']) expect(m(rf, line).matched, line).toBe(true);
    for (const line of ['rm -r x', 'rm -- -rf', 'rm -i x']) expect(m(rf, line).matched, line).toBe(false);
    expect(m({ programs: ['curl'], flags: ['--request'] }, 'curl -XPOST url').matched).toBe(true);
    expect(m({ programs: ['curl'], flags: ['-d'] }, 'curl --data-binary @f url').matched).toBe(true);
    expect(m({ programs: ['chmod'], flags: ['--recursive'] }, 'chmod -R 777 /').matched).toBe(true);
    expect(m({ programs: ['git'], flags: ['--'] }, 'git checkout -- x').matched).toBe(true);
    expect(m({ flags: ['--long=x'] }, 'tool --long=y').matched).toBe(true);
  });

  it('args: a glob or a regex on positional arguments, option values left out', () => {
    expect(m({ programs: ['curl'], args: glob('https://evil.*') }, 'curl -X GET https://evil.com').matched).toBe(true);
    expect(m({ programs: ['curl'], args: glob('GET') }, 'curl -X GET https://x').matched).toBe(false);
    expect(m({ args: glob('*.env') }, 'cat .env').matched).toBe(true);
    expect(m({ args: glob('[!a]x') }, 'cat bx').matched).toBe(true);
    expect(m({ args: glob('[!a]x') }, 'cat ax').matched).toBe(false);
    expect(m({ args: glob('?') }, 'cat ab').matched).toBe(false);
    expect(m({ args: glob('a.b') }, 'cat axb').matched).toBe(false);
    expect(m({ args: { globs: [], regex: { source: 'x$', regex: /x$/, bounded: false } } }, 'cat ax').matched).toBe(true);
    // a regex that runs out of its time budget cannot say no: fail closed
    expect(m({ args: { globs: [], regex: { source: '^(a+)+$', regex: /^(a+)+$/, bounded: true } } }, `cat ${'a'.repeat(40)}!`)).toMatchObject({ matched: true, failClosed: expect.stringContaining('ran out of time') });
  });

  it('subcommand: leading positional words after global options', () => {
    const push = { programs: ['git'], subcommands: [['push']], args: glob('main') };
    expect(m(push, 'git -C dir -c a=b --no-pager push origin main').matched).toBe(true);
    expect(m(push, 'git push origin feature').matched).toBe(false);
    expect(m(push, 'git log push main').matched).toBe(false);
    expect(m({ programs: ['git'], subcommands: [['remote', 'add']] }, 'git remote add o url').matched).toBe(true);
    expect(m({ programs: ['git'], subcommands: [['remote', 'add']] }, 'git remote remove o').matched).toBe(false);
  });

  it('not: a command that matches a not clause does not match', () => {
    const checkout = { programs: ['git'], subcommands: [['checkout']], not: [{ flags: ['-b'] }] };
    expect(m(checkout, 'git checkout -- x').matched).toBe(true);
    expect(m(checkout, 'git checkout -b x').matched).toBe(false);
    expect(m(checkout, 'git checkout -b x; git checkout y').matched).toBe(true);
  });

  it('says which command matched, and why it failed closed', () => {
    expect(m({ programs: ['rm'] }, 'ls && sudo rm x')).toMatchObject({ matched: true, matchedCommand: 'rm x (in sudo)', commands: ['ls', 'sudo rm x', 'rm x (in sudo)'] });
    expect(m({ programs: ['rm'] }, 'ls')).toEqual({ matched: false, reason: 'no command matches (simple commands: `ls`)', commands: ['ls'] });
    expect(m({ programs: ['rm'] }, "echo 'x")).toMatchObject({ matched: true, failClosed: expect.stringContaining('cannot be parsed') });
    expect(m({ programs: ['rm'] }, "python -c 'import os; os.system(\"rmdir x\")'").matched).toBe(false);
    expect(m({ args: glob('/') }, "python -c 'rm /'").matched).toBe(false);
    expect(m({ programs: ['git'], not: [{ flags: ['-v'] }] }, '$X -v').matched).toBe(false);
  });
});

describe('normalisePath', () => {
  it.each([
    ['/', '/'], ['//', '/'], ['/.', '/'], ['/usr/..', '/'], ['/..', '/'], ['~/', '~'], ['~/..', '~/..'], ['${HOME}/', '$HOME'],
    ['$HOME/../x', '$HOME/../x'], ['./a/../..', '..'], ['a/b/../../..', '..'], ['.', '.'], ['./', '.'], ['', ''], ['a//b/', 'a/b'],
  ])('%j → %j', (input, out) => {
    expect(normalisePath(input)).toBe(out);
  });
});
