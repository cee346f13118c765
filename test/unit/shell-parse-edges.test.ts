// The command-line parser behind match.command (src/core/shell/parse.ts) at
// the edge of each rule: every blank, operator, reserved word and
// redirection, the exact syntax errors and where they are, the flags each
// kind of word carries, here-documents, and $'...' escapes.
//
// The module is imported afresh for every test: its character and word tables
// are built when it loads, and mutation testing switches a mutant on only
// after a test file's own imports have run, so a table entry can be told
// apart only by a module loaded inside the test.

import { beforeEach, describe, expect, it, vi } from 'vitest';

type Parse = typeof import('../../src/core/shell/parse.js');
let P: Parse;
beforeEach(async () => {
  vi.resetModules();
  P = await import('../../src/core/shell/parse.js');
});

const argv = (line: string): string[][] => P.parseCommandLine(line).commands.map((c) => c.words.map((w) => w.text));
const error = (line: string): string | undefined => P.parseCommandLine(line).error;
/** Each command as its words, with where it was found. */
const found = (line: string): string[] => P.parseCommandLine(line).commands.map((c) => `${c.words.map((w) => w.text).join(' ')}${c.context.length ? ` @${c.context.join('>')}` : ''}`);
const flags = (line: string, n = 1): [string, boolean, boolean, boolean, boolean] => {
  const w = P.parseCommandLine(line).commands.at(-1)!.words[n]!;
  return [w.text, w.expanded, w.substituted, w.quoted, w.plain];
};

describe('blanks and operators end words', () => {
  it.each([
    ['echo a', [['echo', 'a']]],
    ['echo\ta', [['echo', 'a']]],
    ['echo\ra', [['echo', 'a']]],
    ['echo a\nb', [['echo', 'a'], ['b']]],
    ['echo a;b', [['echo', 'a'], ['b']]],
    ['echo a&b', [['echo', 'a'], ['b']]],
    ['echo a|b', [['echo', 'a'], ['b']]],
    ['echo a \\\n b', [['echo', 'a', 'b']]],
    ['a # c\nb', [['a'], ['b']]],
    ['for ((i=0; i<3; i++)); do rm x; done', [['rm', 'x']]],
    ['for x in a\ndo rm; done', [['rm']]],
    ['for x in a b', []],
    ['for x in a b ', []],
    ['for x in a & rm y', [['rm', 'y']]],
    ['for x in a | rm y', [['rm', 'y']]],
    ['select x in a b; do rm $x; done', [['rm', '$x']]],
    ['if a; then b; elif c; then d; else e; fi', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['while a; do b; done; until c; do d; done', [['a'], ['b'], ['c'], ['d']]],
    ['! rm x', [['rm', 'x']]],
    ['echo a; fi; done; esac', [['echo', 'a']]],
    ['f() { rm x; }', [['rm', 'x']]],
    ['f ( ) { rm x; }', [['rm', 'x']]],
    ['function f() { rm x; }', [['rm', 'x']]],
    ['case x in (a) rm;; esac', [['rm']]],
    ['case x in ")") rm;; esac', [['rm']]],
    ['case x in "a b") rm;; esac', [['rm']]],
    ['case x in a|b) rm;; esac', [['rm']]],
    ['case x in a) b;;& c) d;; esac', [['b'], ['d']]],
    ['case x in a) b;& c) d;; esac', [['b'], ['d']]],
    ['case x in a) b;;esac', [['b']]],
    ['case x in a) b\nesac', [['b']]],
    ['case x\nin a) b;; esac', [['b']]],
    ['case x in # c\n a) b;; esac', [['b']]],
    ['case x in a) b ) c;; esac', [['b'], ['c']]],
    ['echo $(esac)', [['echo', '$(esac)']]],
    ['((1))`a`', [['a'], ['`a`']]],
  ] as const)('%j', (line, expected) => {
    expect(error(line)).toBeUndefined();
    expect(argv(line)).toEqual(expected);
  });
});

describe('syntax errors, and where they are', () => {
  it.each([
    ['echo x)', 'unexpected `)` at 7'],
    ['{ a ) }', 'unexpected `)` at 5'],
    ['a ;; b', 'unexpected `;;` at 3'],
    ['a ;& b', 'unexpected `;;` at 3'],
    ['; x', 'unexpected `;` at 1'],
    ['a; ;', 'unexpected `;` at 4'],
    ['a\n;b', 'unexpected `;` at 3'],
    ['| x', 'unexpected `|` at 1'],
    ['a & & b', 'unexpected `&` at 5'],
    ['a && && b', 'unexpected `&&` at 6'],
    ['x &&', 'the line ends after an operator'],
    ['}', 'unexpected `}` at 1'],
    ['echo $(a; })', 'unexpected `}` at 11'],
    ['for x in a (b)', 'unexpected `(` in a for loop at 12'],
    ['case ;', 'unexpected `;` at 6'],
    ['case x foo', '`case` without `in`'],
    ['case x in', '`case` without `esac`'],
    ['case x in a', 'bad case pattern at 12'],
    ['case x in a;', 'bad case pattern at 12'],
    ['[[ a', '`[[` without `]]`'],
    ['echo a (b)', 'unexpected `(` at 8'],
    ['echo a ()', 'unexpected `(` at 8'],
    ['A=1 f()', 'unexpected `(` at 6'],
    ['f (b)()', 'unexpected `(` at 3'],
    ['A=x(1)', 'unexpected `(` at 4'],
    ['A=(1 2', 'unterminated array assignment'],
    ['echo >', 'redirection `>` without a target at 7'],
    ['echo >;', 'redirection `>` without a target at 7'],
    ['echo >;(', 'redirection `>` without a target at 7'],
    ['cat > ((', 'redirection `>` without a target at 7'],
    ['cat > <', 'redirection `>` without a target at 7'],
    ["echo 'x", 'unterminated single quote at 6'],
    ['echo "x', 'unterminated double quote'],
    ["echo $'x", "unterminated $' quote at 6"],
    ['echo `x', 'unterminated backtick at 6'],
    ['echo ${x', 'unterminated `${` at 6'],
    ["echo ${x:-'a}", 'unterminated `${` at 6'],
    ['echo $(x', 'unterminated `(`'],
    ['(echo x', 'unterminated `(`'],
    ['{ echo x;', 'unterminated `{`'],
    ['echo $((1', 'unterminated `((`'],
    ['cat <<E\n$(rm x\nE', 'unterminated `$(` in a here-document'],
    ['cat <<E\n`rm x\nE', 'unterminated backtick in a here-document'],
  ])('%j: %s', (line, message) => {
    expect(error(line)).toBe(message);
  });

  it('reads at most 2000 simple commands, and says so', () => {
    expect(P.MAX_SIMPLE_COMMANDS).toBe(2000);
    expect(P.MAX_PARSE_DEPTH).toBe(16);
    expect(P.parseCommandLine('a;'.repeat(2000)).error).toBeUndefined();
    const over = P.parseCommandLine('a;'.repeat(2001));
    expect(over.error).toBe('more than 2000 simple commands');
    expect(over.tooDeep).toBeUndefined();
    expect(over.commands).toHaveLength(2000);
  });
});

describe('pipes', () => {
  it('links each command to the one piped into it, through a newline after |', () => {
    const piped = (line: string): (string | undefined)[] => P.parseCommandLine(line).commands.map((c) => c.pipedFrom?.words.map((w) => w.text).join(' '));
    expect(piped('a |\nb')).toEqual([undefined, 'a']);
    expect(piped('a |& b')).toEqual([undefined, 'a']);
    expect(piped('a && b')).toEqual([undefined, undefined]);
    expect(piped('a\nb')).toEqual([undefined, undefined]);
    expect(piped('a | [[ -n x ]]')).toEqual([undefined, 'a']);
  });

  it('pipes a compound command as its redirections', () => {
    const [, b] = P.parseCommandLine('(a) >out | b').commands;
    expect(b!.pipedFrom).toEqual({ assignments: [], words: [], redirections: ['>out'], depth: 0, context: [] });
    const [, c] = P.parseCommandLine('(a) | c').commands;
    expect(c!.pipedFrom).toEqual({ assignments: [], words: [], redirections: [], depth: 0, context: [] });
  });

  it('reads |> as a pipe into a redirection, and &> at a command’s start as a redirection', () => {
    const [a, r] = P.parseCommandLine('a |>b').commands;
    expect([a!.words.map((w) => w.text), r!.words, r!.redirections]).toEqual([['a'], [], ['>b']]);
    const [log] = P.parseCommandLine('&>log a').commands;
    expect([log!.words.map((w) => w.text), log!.redirections]).toEqual([['a'], ['&>log']]);
  });
});

describe('[[ ... ]]', () => {
  it('keeps its operators as words, across lines', () => {
    const [cmd] = P.parseCommandLine('[[ ! ( a < b ) || c > d &&\n e ]]').commands;
    expect(cmd!.words.map((w) => w.text)).toEqual(['[[', '!', '(', 'a', '<', 'b', ')', '||', 'c', '>', 'd', '&&', 'e', ']]']);
    expect([cmd!.assignments, cmd!.redirections, cmd!.depth, cmd!.context]).toEqual([[], [], 0, []]);
    expect(cmd!.words[1]).toEqual({ text: '!', expanded: false, substituted: false, quoted: false, plain: true });
  });
});

describe('assignments and redirections', () => {
  it('takes NAME=value, NAME+=value and NAME[i]=value as assignments', () => {
    const [cmd] = P.parseCommandLine('A+=1 B[i]=2 AB[12]=3 _c= x').commands;
    expect(cmd!.assignments).toEqual(['A+=1', 'B[i]=2', 'AB[12]=3', '_c=']);
    expect(cmd!.words.map((w) => w.text)).toEqual(['x']);
    expect(argv('1A=x cmd')).toEqual([['1A=x', 'cmd']]);
    expect(P.parseCommandLine('A= b').commands[0]!.assignments).toEqual(['A=']);
  });

  it('reads every redirection operator, with its descriptor', () => {
    const [cmd] = P.parseCommandLine('cmd &>>a <<<b >>c <&0 >&2 <>d >|e <f >g 0>h 9>i 2>&1 &>j').commands;
    expect(cmd!.redirections).toEqual(['&>>a', '<<<b', '>>c', '<&0', '>&2', '<>d', '>|e', '<f', '>g', '0>h', '9>i', '2>&1', '&>j']);
    expect(cmd!.words.map((w) => w.text)).toEqual(['cmd']);
    expect(cmd!.stdin).toBe('b\n');
    expect(P.parseCommandLine('cat <in').commands[0]!.stdin).toBeUndefined();
  });

  it('does not take a word before & as a descriptor, nor a non-digit', () => {
    const [a] = P.parseCommandLine('echo 2&>x').commands;
    expect([a!.words.map((w) => w.text), a!.redirections]).toEqual([['echo', '2'], ['&>x']]);
    const [b] = P.parseCommandLine('echo !>x').commands;
    expect([b!.words.map((w) => w.text), b!.redirections]).toEqual([['echo', '!'], ['>x']]);
    const [c] = P.parseCommandLine('echo a<b').commands;
    expect([c!.words.map((w) => w.text), c!.redirections]).toEqual([['echo', 'a'], ['<b']]);
  });

  it('reads a process substitution as a word or as a redirection target', () => {
    expect(flags('diff <(a) x')).toEqual(['<(a)', false, true, false, false]);
    expect(found('diff <(a) x')).toEqual(['a @<(...)', 'diff <(a) x']);
    expect(P.parseCommandLine('cat < >(x)').commands.at(-1)!.redirections).toEqual(['<>(x)']);
  });
});

describe('here-documents', () => {
  it('reads the body up to the delimiter, tabs stripped for <<- only', () => {
    const stdin = (line: string) => P.parseCommandLine(line).commands[0]!.stdin;
    expect(stdin('cat <<E\n\tx\nE')).toBe('\tx\n');
    expect(stdin('cat <<-E\n\t\tx\na\tb\n\tE')).toBe('x\na\tb\n');
    expect(stdin('cat <<E\nline')).toBe('line\n');
    expect(stdin('cat <<E\nE\n')).toBe('');
  });

  it('finds the commands of an unquoted body, with their depth', () => {
    const cmds = P.parseCommandLine('cat <<E\n$(rm x) `rm y` \\$(no) f(z) $((1+2))\nE').commands;
    expect(cmds.map((c) => [c.words.map((w) => w.text).join(' '), c.context.join('>'), c.depth])).toEqual([
      ['cat', '', 0], ['rm x', 'here-document>$(...)', 1], ['rm y', 'here-document>`...`', 1],
    ]);
    expect(found('cat <<E "x"\n$(rm y)\nE')).toEqual(['cat x', 'rm y @here-document>$(...)']);
    expect(found("cat <<'E'\n$(rm y)\nE")).toEqual(['cat']);
  });
});

describe('words: what each kind carries', () => {
  it.each([
    ['echo $x', ['$x', true, false, false, false]],
    ['echo $1', ['$1', true, false, false, false]],
    ['echo $%', ['$%', false, false, false, true]],
    ['echo $', ['$', false, false, false, true]],
    ['echo "$"', ['$', false, false, true, false]],
    ['echo $(a)', ['$(a)', false, true, false, false]],
    ['echo `a`', ['`a`', false, true, false, false]],
    ['echo "`a`"', ['`a`', false, true, true, false]],
    ['echo $((1+2))', ['$((1+2))', false, true, false, false]],
    ['echo ${x}', ['${x}', true, false, false, false]],
    ['echo ${x:-$(rm y)}', ['${x:-$(rm y)}', false, true, false, false]],
    ['echo ${x:-`rm y`}', ['${x:-`rm y`}', false, true, false, false]],
    ["echo ${x:-\\}'a b'}", ["${x:-\\}'a b'}", true, false, false, false]],
    ["echo ${x:-'}'}", ["${x:-'}'}", true, false, false, false]],
    ["echo ${x:-${y}'a b'}", ["${x:-${y}'a b'}", true, false, false, false]],
    ['echo $"$x"', ['$x', true, false, true, false]],
    ['echo $"$(a)"', ['$(a)', false, true, true, false]],
    ['echo "{a,b}"', ['{a,b}', false, false, true, false]],
    ["echo $'{a,b}'", ['{a,b}', false, false, true, false]],
    ['echo $"{a,b}"', ['{a,b}', false, false, true, false]],
    ['echo "a\\\nb"', ['ab', false, false, true, false]],
    ['echo {a,b}', ['a', false, false, false, true]],
    ['echo \\{a,b}', ['{a,b}', false, false, true, false]],
  ] as const)('%j', (line, expected) => {
    expect(flags(line)).toEqual(expected);
  });

  it('finds the commands inside ${...} and nested backticks, once each', () => {
    expect(found('echo ${x:-$(rm y)}')).toEqual(['rm y @${...}>$(...)', 'echo ${x:-$(rm y)}']);
    expect(found('echo ${x:-`rm y`}')).toEqual(['rm y @${...}>`...`', 'echo ${x:-`rm y`}']);
    expect(found('echo ${x} $(a)')).toEqual(['a @$(...)', 'echo ${x} $(a)']);
    expect(found('echo `echo \\`x\\``')).toEqual(['x @`...`>`...`', 'echo `x` @`...`', 'echo `echo \\`x\\``']);
    expect(found('echo `echo \\$x`')).toEqual(['echo $x @`...`', 'echo `echo \\$x`']);
    expect(P.parseCommandLine('echo `echo \\$x`').commands[0]!.words[1]!.expanded).toBe(true);
    expect(P.parseCommandLine('echo `rm x`').commands[0]!.depth).toBe(1);
  });

  it('expands braces into plain words', () => {
    const [cmd] = P.parseCommandLine('echo {a,b}').commands;
    expect(cmd!.words).toEqual([
      { text: 'echo', expanded: false, substituted: false, quoted: false, plain: true },
      { text: 'a', expanded: false, substituted: false, quoted: false, plain: true },
      { text: 'b', expanded: false, substituted: false, quoted: false, plain: true },
    ]);
  });
});

describe("$'...' escapes", () => {
  it.each([
    ["$'\\r\\a\\b\\e\\E\\f\\v\\\\\\\"\\?\\''", "\r\x07\b\x1b\x1b\f\v\\\"?'"],
    ["$'\\x41\\x414'", 'AA4'],
    ["$'\\u00e9a'", 'éa'],
    ["$'\\U00000041B'", 'AB'],
    ["$'\\U0001F600'", '😀'],
    ["$'\\xg'", '\\xg'],
    ["$'\\xg1'", '\\xg1'],
    ["$'\\0\\7\\101'", '\0\x07A'],
    ["$'\\8\\!\\q'", '\\8\\!\\q'],
    ["$'\\cB'", '\x02'],
  ])('%j is %j', (word, value) => {
    expect(argv(`echo ${word}`)).toEqual([['echo', value]]);
  });
});
