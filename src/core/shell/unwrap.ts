// From a command line to every simple command it runs: the parsed commands
// (parse.ts), with wrappers unwrapped recursively (`sudo rm` runs `rm`,
// `bash -c '...'` runs the commands of its string, `find -exec`, `xargs`,
// `eval`, `watch`...), variables assigned earlier on the line put in, and
// what cannot be seen into (interpreter one-liners, a shell reading a pipe,
// a program known only at run time) kept aside for the matcher to fail
// closed on. The limits are documented in docs/hooks-file.md.

import { type SimpleCommand, type Word, parseCommandLine } from './parse.js';

/** A command line longer than this (UTF-8 bytes) is not parsed: a guard fails closed. */
export const MAX_COMMAND_LINE_BYTES = 64 * 1024;
/** Wrappers and nested shells are unwrapped this deep (`sudo bash -c "env rm"` is 3); deeper is a fail-closed match. */
export const MAX_UNWRAP_DEPTH = 8;

export interface Command {
  /** The words, program first, quotes removed. */
  argv: string[];
  words: Word[];
  /** argv[0]'s basename (programName), worked out once for every clause that asks. */
  program: string;
  /** The wrappers it was found inside, outermost first: `sudo`, `bash -c`, `find -exec`. */
  via: string[];
  /** Where the parser found it: `$(...)`, `(...)`, `here-document`. */
  context: string[];
  /** Why more arguments are added at run time (`xargs`), if they are. */
  openArgs?: string;
}

export interface Opaque {
  /** What runs code the parser cannot read: `python -c`, `bash reading a pipe`. */
  what: string;
  code: string;
}

export interface Analysis {
  commands: Command[];
  /** Reasons the line counts as a match for every command clause: it cannot be parsed, nests too deep, is too long. */
  failClosed: string[];
  /** Code run by an interpreter: a match for a clause whose program the code names. */
  opaque: Opaque[];
  /** Commands whose program is known only at run time (`$CMD -rf /`): a match for a clause with a program. */
  dynamic: Command[];
}

export function analyseCommandLine(line: string): Analysis {
  const a: Analysis = { commands: [], failClosed: [], opaque: [], dynamic: [] };
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a shortcut; a line this short is under the limit counted either way, and utf8 is byteLength's default
  const bytes = line.length * 3 <= MAX_COMMAND_LINE_BYTES ? line.length : Buffer.byteLength(line, 'utf8');
  if (bytes > MAX_COMMAND_LINE_BYTES) {
    a.failClosed.push(`the command line is ${bytes} bytes, over the ${MAX_COMMAND_LINE_BYTES}-byte limit, and was not parsed`);
    return a;
  }
  new Walker(a).walk(line, 0, []);
  return a;
}

const words = (ws: readonly Word[]): string[] => ws.map((w) => w.text);
const lit = (text: string): Word => ({ text, expanded: false, substituted: false, quoted: false, plain: true });
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/s;

/** `/usr/bin/rm` → `rm`; `rm.exe` → `rm`. */
export const programName = (word: string): string => {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.toLowerCase().endsWith('.exe') ? base.slice(0, -4) : base;
};

class Walker {
  private vars = new Map<string, string>();
  /** "$@" while a `sh -c` string with arguments is read (withPositionals). */
  private positionals: string[] | undefined;
  constructor(private readonly a: Analysis) {}

  /** openArgs: the text runs with arguments added at run time (`xargs bash -c '...'`): its commands inherit that. */
  walk(text: string, depth: number, via: string[], openArgs?: string): void {
    // Stryker disable next-line ConditionalExpression: code() checks the depth, with the same message, before it calls walk()
    if (depth > MAX_UNWRAP_DEPTH) return this.tooDeep(via);
    const parsed = parseCommandLine(text);
    if (parsed.error) this.a.failClosed.push(`the command line cannot be parsed${via.length ? ` inside ${via.join(' → ')}` : ''}: ${parsed.error}`);
    for (const cmd of parsed.commands) {
      this.remember(cmd);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: resolve() returns on no words as well
      if (cmd.words.length > 0) this.resolve(cmd.words.flatMap((w) => this.substitute(w)), cmd, depth, via, openArgs);
    }
  }

  /**
   * `sh -c 'rm -rf "$1"' _ /`: the words after the string are $0, $1, ...
   * ("$@" and $* the ones from $1 on) while the string is read, and only
   * then: an enclosing `sh -c`'s come back after it.
   */
  private withPositionals(args: readonly Word[], read: () => void): void {
    if (args.length === 0) return read();
    // Only this method sets digit names (an assignment cannot), so what it replaces is an enclosing string's.
    const names = args.map((_, n) => String(n));
    const before = { vars: names.map((name) => this.vars.get(name)), positionals: this.positionals };
    const known = args.every((w) => !w.substituted);
    for (const [n, name] of names.entries()) {
      if (known) this.vars.set(name, args[n]!.text);
      else this.vars.delete(name);
    }
    this.positionals = known ? args.slice(1).map((w) => w.text) : undefined;
    try {
      read();
    } finally {
      names.forEach((name, k) => (before.vars[k] === undefined ? this.vars.delete(name) : this.vars.set(name, before.vars[k]!)));
      this.positionals = before.positionals;
    }
  }

  private tooDeep(via: string[]): void {
    this.a.failClosed.push(`wrappers nest deeper than ${MAX_UNWRAP_DEPTH} (${via.join(' → ')})`);
  }

  /** `X=val` alone (or after export/declare/local/readonly): later `$X` and `${X}` on the line become val. */
  private remember(cmd: SimpleCommand): void {
    const declared = cmd.words.length > 0 && ['export', 'declare', 'local', 'readonly', 'typeset'].includes(cmd.words[0]!.text);
    // Stryker disable next-line MethodExpression,StringLiteral,ArrayDeclaration: neither the declaring word nor any other word that is no NAME=value is remembered
    const list = cmd.words.length === 0 ? cmd.assignments : declared ? cmd.words.slice(1).map((w) => (w.substituted ? '' : w.text)) : [];
    for (const item of list) {
      const m = ASSIGNMENT.exec(item);
      if (!m) continue;
      if (/\$\(|`/.test(m[2]!)) this.vars.delete(m[1]!);
      else this.vars.set(m[1]!, this.expandText(m[2]!));
    }
  }

  private expandText(text: string): string {
    // Stryker disable next-line all: a shortcut; the replace below gives back the same text
    if (!text.includes('$') || this.vars.size === 0) return text;
    const all = this.positionals?.join(' ');
    return text.replace(/\$(?:\{(\w+|[@*])\}|([A-Za-z_]\w*|[0-9@*]))/g, (whole, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      return (name === '@' || name === '*' ? all : this.vars.get(name)) ?? whole;
    });
  }

  /** The word with known variables put in; unquoted, it is split on blanks as the shell splits it. */
  private substitute(w: Word): Word[] {
    // "$@" is one word per argument, quoted or not.
    if (this.positionals && w.expanded && (w.text === '$@' || w.text === '${@}')) return this.positionals.map((t) => ({ ...w, text: t, expanded: false }));
    if (!w.expanded || w.substituted || (this.vars.size === 0 && !this.positionals)) return [w];
    const text = this.expandText(w.text);
    if (text === w.text) return [w];
    const expanded = /\$(\{\w|[A-Za-z_0-9@*#?$!-])/.test(text);
    // Stryker disable next-line Regex: the empty words that single blanks leave are filtered out
    const parts = w.quoted ? [text] : text.split(/[ \t\n]+/).filter(Boolean);
    return parts.map((t) => ({ ...w, text: t, expanded }));
  }

  /** Records the command and whatever runs inside it. */
  private resolve(ws: Word[], cmd: SimpleCommand, depth: number, via: string[], openArgs?: string): void {
    if (ws.length === 0) return;
    const head = ws[0]!;
    const prog = programName(head.text);
    const command: Command = { argv: words(ws), words: ws, program: prog, via, context: cmd.context, ...(openArgs ? { openArgs } : {}) };
    this.a.commands.push(command);
    if (head.expanded || head.substituted) {
      this.a.dynamic.push(command);
      return;
    }
    const inner = (rest: Word[], wrapper: string, open = openArgs): void => {
      if (rest.length === 0) return;
      if (depth + 1 > MAX_UNWRAP_DEPTH) return this.tooDeep([...via, wrapper]);
      this.resolve(rest, cmd, depth + 1, [...via, wrapper], open);
    };
    const code = (text: string, wrapper: string): void => {
      // Stryker disable next-line ConditionalExpression,ArithmeticOperator: walk() makes the same check, with the same message
      if (depth + 1 > MAX_UNWRAP_DEPTH) return this.tooDeep([...via, wrapper]);
      this.walk(text, depth + 1, [...via, wrapper], openArgs);
    };
    const wrapper = WRAPPERS[prog];
    if (wrapper) return inner(wrapper(ws), prog);
    if (SHELLS.has(prog)) return this.shell(ws, cmd, prog, code);
    switch (prog) {
      case 'eval':
        return code(words(ws.slice(1)).join(' '), 'eval');
      case 'watch': {
        const i = skipOptions(ws, 1, WATCH_VALUES);
        return code(words(ws.slice(i)).join(' '), 'watch');
      }
      case 'xargs': {
        const i = skipOptions(ws, 1, XARGS_VALUES);
        return inner(ws.length > i ? ws.slice(i) : [lit('echo')], 'xargs', 'xargs adds arguments read from its input at run time');
      }
      case 'parallel': {
        const i = skipOptions(ws, 1, PARALLEL_VALUES);
        const sep = ws.findIndex((w, j) => j >= i && (w.text === ':::' || w.text === '::::'));
        // Stryker disable next-line EqualityOperator: sep is never 0, it is at or after the first word past the options
        if (sep < 0) return inner(ws.slice(i), 'parallel', 'parallel adds arguments read from its input at run time');
        const args = ws.slice(sep + 1).filter((w) => w.text !== ':::');
        return inner([...ws.slice(i, sep), ...args], 'parallel', ws[sep]!.text === '::::' ? 'parallel reads arguments from files at run time' : openArgs);
      }
      case 'find':
        return this.find(ws, inner);
      case 'env':
        return inner(this.env(ws), 'env');
      case 'command': {
        const i = skipOptions(ws, 1, new Set());
        if (ws.slice(1, i).some((w) => /^-[a-z]*[vV]/.test(w.text))) return; // command -v: looks the name up, runs nothing
        return inner(ws.slice(i), 'command');
      }
    }
    const interpreter = interpreterCode(prog, ws, cmd);
    if (interpreter) this.a.opaque.push(interpreter);
  }

  /** sh|bash|zsh... -c STRING runs STRING; with no -c and no script it runs its standard input. */
  private shell(ws: Word[], cmd: SimpleCommand, prog: string, code: (text: string, wrapper: string) => void): void {
    let i = 1;
    let wantsCode = false;
    for (; i < ws.length; i++) {
      const t = ws[i]!.text;
      if (t === '--' || t === '-') {
        i++;
        break;
      }
      if (!/^[-+]./.test(t)) break;
      if (t.startsWith('--')) {
        if (t === '--rcfile' || t === '--init-file') i++;
        continue;
      }
      // Stryker disable next-line MethodExpression: t starts with - or +, which is neither c nor o
      if (t.slice(1).includes('c')) wantsCode = true;
      // Stryker disable next-line MethodExpression: t starts with - or +, which is neither c nor o
      if (/[oO]/.test(t.slice(1))) i++;
    }
    if (wantsCode) {
      const script = ws[i];
      return script ? this.withPositionals(ws.slice(i + 1), () => code(script.text, `${prog} -c`)) : undefined;
    }
    if (i < ws.length && !STDIN_PATHS.has(ws[i]!.text)) return; // a script file: its text is not on the line
    const input = stdinOf(cmd);
    if (input.known !== undefined) return code(input.known, `${prog} reading its input`);
    if (input.unknown !== undefined) this.a.opaque.push({ what: `${prog} reading a pipe`, code: input.unknown });
  }

  /** `find ROOTS... -exec CMD {} ;` runs CMD with {} replaced by what it finds under ROOTS (the roots stand for it). */
  private find(ws: Word[], inner: (rest: Word[], wrapper: string) => void): void {
    let i = 1;
    while (i < ws.length && /^-[HLP]$|^-O\d$/.test(ws[i]!.text)) i++;
    if (ws[i]?.text === '-D') i += 2;
    const roots: Word[] = [];
    while (i < ws.length && !/^[-(!)]/.test(ws[i]!.text)) roots.push(ws[i++]!);
    if (roots.length === 0) roots.push(lit('.'));
    for (; i < ws.length; i++) {
      const t = ws[i]!.text;
      if (t !== '-exec' && t !== '-execdir' && t !== '-ok' && t !== '-okdir') continue;
      const run: Word[] = [];
      for (i++; i < ws.length && ws[i]!.text !== ';' && ws[i]!.text !== '+'; i++) {
        const w = ws[i]!;
        if (w.text === '{}') run.push(...roots);
        else run.push(w.text.includes('{}') ? { ...w, text: w.text.replaceAll('{}', roots[0]!.text) } : w);
      }
      inner(run, `find ${t}`);
    }
  }

  /** env [options] [NAME=value]... command: -S splits its string into words. */
  private env(ws: Word[]): Word[] {
    const out: Word[] = [];
    let i = 1;
    for (; i < ws.length; i++) {
      const t = ws[i]!.text;
      if (t === '--') {
        i++;
        break;
      }
      if (t === '-S' || t === '--split-string') {
        out.push(...splitString(ws[++i]?.text ?? ''));
        continue;
      }
      const split = /^(?:-S|--split-string=)(.+)$/s.exec(t);
      if (split) {
        out.push(...splitString(split[1]!));
        continue;
      }
      if (t === '-u' || t === '--unset' || t === '-C' || t === '--chdir' || t === '--argv0') {
        i++;
        continue;
      }
      // A cluster: -iS 'cmd' is -i -S 'cmd'; a letter that takes a value (S, u, C, and BSD's P, coreutils' a) ends it.
      const cluster = /^-([^-SuCPa]*)([SuCPa])(.*)$/s.exec(t);
      if (cluster) {
        const value = cluster[3] !== '' ? cluster[3]! : (ws[++i]?.text ?? '');
        if (cluster[2] === 'S') out.push(...splitString(value));
        continue;
      }
      if (t.startsWith('-')) continue; // `-` alone is -i
      break;
    }
    while (i < ws.length && ASSIGNMENT.test(ws[i]!.text)) i++;
    return [...out, ...ws.slice(i)];
  }
}

function splitString(text: string): Word[] {
  const parsed = parseCommandLine(text);
  return parsed.commands[0] ? [...parsed.commands[0].assignments.map(lit), ...parsed.commands[0].words] : [];
}

/** What a command reads on its standard input: known text (here-document, here-string, echo/printf piped in) or the pipe's source. */
function stdinOf(cmd: SimpleCommand): { known?: string; unknown?: string } {
  if (cmd.stdin !== undefined) return { known: cmd.stdin };
  // `bash < <(echo ...)`: the input is what a process substitution prints.
  const substituted = cmd.redirections.map((r) => /^0?<<\((.*)\)$/s.exec(r)).find((m) => m !== null);
  if (substituted) return { unknown: substituted[1]! };
  const from = cmd.pipedFrom;
  if (!from) return {};
  // Stryker disable next-line StringLiteral: with no words the program is neither echo nor printf, whatever it is called
  const prog = from.words[0] ? programName(from.words[0].text) : '';
  const args = from.words.slice(1);
  if (prog === 'cat' && from.stdin !== undefined && args.every((w) => w.text === '-')) return { known: from.stdin };
  if ((prog === 'echo' || prog === 'printf') && args.every((w) => !w.substituted && !w.expanded)) {
    const texts = words(args).filter((t, i) => !(prog === 'echo' && i === 0 && /^-[neE]+$/.test(t)));
    const joined = prog === 'printf' ? (texts[0] ?? '').replace(/\\n/g, '\n').replace(/%s/g, () => texts.splice(1, 1)[0] ?? '') : texts.join(' ');
    return { known: joined };
  }
  return { unknown: [...from.assignments, ...words(from.words)].join(' ') || from.redirections.join(' ') };
}

/** Interpreter one-liners: the code is run, but not as shell. */
function interpreterCode(prog: string, ws: Word[], cmd: SimpleCommand): Opaque | undefined {
  const after = (i: number, rest: string): string | undefined => (rest !== '' ? rest : ws[i + 1]?.text);
  const clusterCode = (letters: RegExp, what: string, values: ReadonlySet<string> = NO_VALUES): Opaque | undefined => {
    for (let i = 1; i < ws.length; i++) {
      const t = ws[i]!.text;
      if (!t.startsWith('-') || t === '-' || t === '--') break;
      if (values.has(t)) {
        i++; // its value: `php -d x=1 -r CODE`
        continue;
      }
      const m = letters.exec(t);
      if (m) {
        const code = after(i, t.slice(m.index + m[0].length));
        return code === undefined ? undefined : { what, code };
      }
    }
    return undefined;
  };
  const longCode = (names: string[], what: string): Opaque | undefined => {
    for (let i = 1; i < ws.length; i++) {
      const t = ws[i]!.text;
      const eq = names.find((n) => t.startsWith(`${n}=`));
      if (eq) return { what, code: t.slice(eq.length + 1) };
      if (names.includes(t) && ws[i + 1]) return { what, code: ws[i + 1]!.text };
    }
    return undefined;
  };
  const fromStdin = (what: string): Opaque | undefined => {
    const input = stdinOf(cmd);
    const code = input.known ?? input.unknown;
    return code === undefined ? undefined : { what: `${what} reading its input`, code };
  };
  /** With no script on the line, or the script the standard input (`-`, `/dev/stdin`), the code is what it reads. */
  const scriptFromStdin = (values: ReadonlySet<string>): Opaque | undefined => {
    const i = skipOptions(ws, 1, values);
    return i >= ws.length || STDIN_PATHS.has(ws[i]!.text) ? fromStdin(prog) : undefined;
  };
  if (/^(python[0-9.]*|pypy[0-9.]*)$/.test(prog)) return pythonCode(prog, ws, fromStdin);
  if (prog === 'node' || prog === 'nodejs' || prog === 'bun') {
    return longCode(['--eval', '--print', '-e', '-p', '-pe'], `${prog} -e`) ?? scriptFromStdin(NODE_VALUES);
  }
  if (prog === 'deno') return ws[1]?.text === 'eval' && ws[2] ? { what: 'deno eval', code: words(ws.slice(2)).join(' ') } : undefined;
  if (prog === 'perl' || prog === 'ruby') {
    const values = prog === 'ruby' ? RUBY_VALUES : NO_VALUES;
    return clusterCode(/^-[A-Za-z0-9]*?[eE]/, `${prog} -e`, values) ?? scriptFromStdin(values);
  }
  if (prog === 'php') return clusterCode(/^-r/, 'php -r', PHP_VALUES) ?? scriptFromStdin(PHP_VALUES);
  if (prog === 'lua' || prog === 'rscript' || prog === 'Rscript' || prog === 'osascript') return clusterCode(/^-e/, `${prog} -e`, LUA_VALUES);
  if (['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk'].includes(prog)) {
    let i = 1;
    for (; i < ws.length; i++) {
      const t = ws[i]!.text;
      if (t === '--') {
        i++;
        break;
      }
      if (t === '-f' || t.startsWith('--file')) return undefined;
      if (!t.startsWith('-') || t === '-') break;
      if (t === '-F' || t === '-v') i++;
    }
    return ws[i] ? { what: prog, code: ws[i]!.text } : undefined;
  }
  return undefined;
}

/** Paths a program reads its standard input through, given as its script. */
const STDIN_PATHS = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
const NO_VALUES: ReadonlySet<string> = new Set();
const NODE_VALUES = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--title']);
const RUBY_VALUES = new Set(['-I', '-r', '-C', '-x']);
const PHP_VALUES = new Set(['-d', '-c', '-z']);
const LUA_VALUES = new Set(['-l']);

/**
 * python [options] (-c CODE | -m MODULE | SCRIPT | - | nothing): -W and -X
 * take a value (`-W ignore`, `-Wonce`), so a `c` in it is no -c.
 */
function pythonCode(prog: string, ws: readonly Word[], fromStdin: (what: string) => Opaque | undefined): Opaque | undefined {
  for (let i = 1; i < ws.length; i++) {
    const t = ws[i]!.text;
    if (STDIN_PATHS.has(t)) return fromStdin(prog);
    if (t === '--') return i + 1 >= ws.length || STDIN_PATHS.has(ws[i + 1]!.text) ? fromStdin(prog) : undefined;
    if (!t.startsWith('-')) return undefined; // a script file: its text is not on the line
    if (t.startsWith('--')) {
      if (t === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const letter = t[j];
      if (letter === 'c') {
        const code = t.slice(j + 1) || ws[i + 1]?.text;
        return code === undefined ? undefined : { what: `${prog} -c`, code };
      }
      if (letter === 'm') return undefined; // a module from disk
      if (letter === 'W' || letter === 'X') {
        if (j === t.length - 1) i++;
        break;
      }
    }
  }
  return fromStdin(prog);
}

/** The index of the first word after the options from `from` on (a `--` is passed over). */
export function skipOptions(ws: readonly Word[], from: number, values: ReadonlySet<string>): number {
  let i = from;
  while (i < ws.length) {
    const t = ws[i]!.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    if (t.startsWith('--')) {
      i += values.has(t) ? 2 : 1;
      continue;
    }
    let taken = 1;
    // Stryker disable next-line EqualityOperator: past the end the option is `-undefined`, which no table holds
    for (let j = 1; j < t.length; j++) {
      if (values.has(`-${t[j]}`)) {
        if (j === t.length - 1) taken = 2;
        break;
      }
    }
    i += taken;
  }
  return i;
}

/** After `prog [options]` (and for timeout its duration, for sudo its NAME=value words): the command run. */
function wrapped(values: string[], positionalsBefore = 0, assignments = false): (ws: Word[]) => Word[] {
  const set = new Set(values);
  return (ws) => {
    let i = skipOptions(ws, 1, set) + positionalsBefore;
    if (assignments) while (i < ws.length && ASSIGNMENT.test(ws[i]!.text)) i++;
    return ws.slice(i);
  };
}

const SUDO_VALUES = ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-T', '-U', '-R', '--user', '--group', '--close-from', '--chdir', '--chroot', '--host', '--prompt', '--role', '--type', '--command-timeout', '--other-user'];

/**
 * `su -c STRING`, `script -qc STRING`, `flock FILE -c STRING`: the string is
 * run by a shell, so it is read as `sh -c STRING`; without the option,
 * `otherwise` (su and script then start a shell of their own, whose input is
 * not on the line).
 */
function commandString(otherwise: (ws: Word[]) => Word[] = () => []): (ws: Word[]) => Word[] {
  return (ws) => {
    for (let i = 1; i < ws.length; i++) {
      const t = ws[i]!.text;
      if ((t === '--command' || /^-[A-Za-z]*c$/.test(t)) && ws[i + 1]) return [lit('sh'), lit('-c'), ws[i + 1]!];
      if (t.startsWith('--command=')) return [lit('sh'), lit('-c'), { ...ws[i]!, text: t.slice('--command='.length) }];
    }
    return otherwise(ws);
  };
}
const WRAPPERS: Readonly<Record<string, (ws: Word[]) => Word[]>> = {
  sudo: wrapped(SUDO_VALUES, 0, true),
  doas: wrapped(['-u', '-C']),
  exec: wrapped(['-a']),
  // Stryker disable ArrayDeclaration: a table holding a word that is no option changes nothing
  nohup: wrapped([]),
  setsid: wrapped([]),
  unbuffer: wrapped([]),
  builtin: wrapped([]),
  // Stryker restore ArrayDeclaration
  time: wrapped(['-f', '--format', '-o', '--output']),
  timeout: wrapped(['-s', '--signal', '-k', '--kill-after'], 1),
  nice: wrapped(['-n', '--adjustment']),
  ionice: wrapped(['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid']),
  stdbuf: wrapped(['-i', '-o', '-e', '--input', '--output', '--error']),
  // Stryker disable ArrayDeclaration: a table holding a word that is no option changes nothing
  chronic: wrapped([]),
  busybox: wrapped([]),
  coproc: wrapped([]),
  // Stryker restore ArrayDeclaration
  chroot: wrapped(['--userspec', '--groups'], 1),
  strace: wrapped(['-e', '-o', '-p', '-s', '-u', '-a', '-b', '-E', '-I', '-O', '-P', '-S', '-X', '-U']),
  ltrace: wrapped(['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-l', '-w', '-A', '-D', '-F', '-x']),
  'systemd-run': wrapped(['-p', '--property', '-u', '--unit', '-E', '--setenv', '-M', '--machine', '-H', '--host', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--service-type', '--on-active', '--on-calendar']),
  su: commandString(),
  script: commandString(),
  flock: commandString(wrapped(['-w', '--wait', '--timeout', '-E', '--conflict-exit-code'], 1)),
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish']);
const XARGS_VALUES = new Set(['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-J', '-R', '-S', '-L', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var', '--max-lines', '--eof']);
const PARALLEL_VALUES = new Set(['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file', '-d', '--delimiter', '-I', '--joblog', '--results', '--tmpdir', '--timeout', '-N', '-n', '--max-args', '--colsep', '-C', '--halt', '--delay', '--retries', '--load', '--memfree', '--workdir', '--env', '--tagstring', '--sshloginfile', '--basefile']);
const WATCH_VALUES = new Set(['-n', '--interval', '-d', '-q', '--equexit']);
