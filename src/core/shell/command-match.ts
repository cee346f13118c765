// `match.command`: does a shell command line run a command that a clause
// describes? The line is analysed once (unwrap.ts); a clause matches when any
// simple command matches its program, subcommand, flags and args and none of
// its `not` clauses — or when the line cannot be seen into (fail closed).
// The flag spellings mapped per program are in PROGRAMS below and in
// docs/hooks-file.md.

import { testBounded } from '../regex-budget.js';
import type { Word } from './parse.js';
import { type Analysis, type Command, analyseCommandLine } from './unwrap.js';

/** A compiled clause (normalise.ts builds it from the file). */
export interface CommandClause {
  /** Program basenames, any of them. */
  programs?: string[];
  /** Subcommands, any of them; each is one or more leading words (`push`, `remote add`). */
  subcommands?: string[][];
  /** Flags, all of them, as written (normalised per program at match time). */
  flags?: string[];
  /** Positional arguments: one of them matches a glob or the regex. */
  args?: ArgsTest;
  not?: CommandClause[];
}

export interface ArgsTest {
  globs: { source: string; regex: RegExp }[];
  regex?: { source: string; regex: RegExp; bounded: boolean };
}

export interface CommandVerdict {
  matched: boolean;
  /** One line for resolve, fire --explain and the skip reason. */
  reason: string;
  /** The simple commands found, as text. */
  commands: string[];
  /** The command that matched, when one did. */
  matchedCommand?: string;
  /** Why the line counted as a match without a command matching (fail closed). */
  failClosed?: string;
}

interface ProgramSpec {
  /** Other spellings of a flag → its canonical spelling. */
  aliases?: Readonly<Record<string, string>>;
  /** Options (canonical spelling) that take a value: the value is no positional argument. */
  values?: readonly string[];
}

/** The programs whose long and alternative flag spellings are mapped (docs/hooks-file.md lists them). */
export const PROGRAMS: Readonly<Record<string, ProgramSpec>> = {
  rm: { aliases: { '-R': '-r', '--recursive': '-r', '--force': '-f', '--interactive': '-i', '--dir': '-d', '--verbose': '-v' } },
  rmdir: { aliases: { '--parents': '-p', '--verbose': '-v' } },
  git: {
    aliases: { '--force': '-f', '--dry-run': '-n', '--delete': '-d', '--verbose': '-v', '--quiet': '-q', '--all': '-a', '--message': '-m', '--patch': '-p' },
    values: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '-m', '-o', '--push-option', '-b', '-B', '--repo', '--exec', '--receive-pack', '-F', '--file', '--author', '--date', '-S'],
  },
  cp: { aliases: { '-R': '-r', '--recursive': '-r', '--force': '-f', '--archive': '-a', '--target-directory': '-t', '--no-target-directory': '-T', '--verbose': '-v', '--interactive': '-i', '--no-clobber': '-n', '--link': '-l', '--symbolic-link': '-s', '--update': '-u' }, values: ['-t', '-S', '--suffix'] },
  mv: { aliases: { '--force': '-f', '--target-directory': '-t', '--interactive': '-i', '--no-clobber': '-n', '--verbose': '-v', '--update': '-u' }, values: ['-t', '-S', '--suffix'] },
  chmod: { aliases: { '--recursive': '-R', '--verbose': '-v', '--changes': '-c', '--silent': '-f', '--quiet': '-f' } },
  chown: { aliases: { '--recursive': '-R', '--no-dereference': '-h', '--verbose': '-v', '--changes': '-c', '--silent': '-f', '--quiet': '-f' } },
  chgrp: { aliases: { '--recursive': '-R', '--no-dereference': '-h', '--verbose': '-v', '--changes': '-c', '--silent': '-f', '--quiet': '-f' } },
  ln: { aliases: { '--symbolic': '-s', '--force': '-f', '--no-dereference': '-n', '--verbose': '-v' }, values: ['-t', '-S'] },
  mkdir: { aliases: { '--parents': '-p', '--verbose': '-v', '--mode': '-m' }, values: ['-m'] },
  curl: {
    aliases: {
      '--request': '-X', '--data': '-d', '--data-raw': '-d', '--data-binary': '-d', '--data-ascii': '-d', '--data-urlencode': '-d', '--header': '-H', '--output': '-o', '--remote-name': '-O',
      '--silent': '-s', '--insecure': '-k', '--location': '-L', '--user': '-u', '--form': '-F', '--upload-file': '-T', '--user-agent': '-A', '--referer': '-e', '--proxy': '-x',
      '--include': '-i', '--head': '-I', '--fail': '-f', '--verbose': '-v', '--config': '-K', '--cookie': '-b', '--cookie-jar': '-c', '--max-time': '-m', '--range': '-r', '--cert': '-E', '--write-out': '-w', '--show-error': '-S',
    },
    values: ['-X', '-d', '-H', '-o', '-u', '-F', '-T', '-A', '-e', '-x', '-K', '-b', '-c', '-m', '-r', '-E', '-w', '--json', '--connect-timeout', '--retry', '--cacert', '--key', '--resolve', '--form-string', '-z', '-Y', '-y', '-C', '--limit-rate'],
  },
  wget: { aliases: { '--output-document': '-O', '--output-file': '-o', '--quiet': '-q', '--recursive': '-r', '--directory-prefix': '-P', '--user-agent': '-U', '--execute': '-e', '--tries': '-t' }, values: ['-O', '-o', '-P', '-U', '-e', '-t', '--header', '--post-data', '--post-file', '--method', '--body-data'] },
  tar: { aliases: { '--extract': '-x', '--get': '-x', '--create': '-c', '--file': '-f', '--gzip': '-z', '--verbose': '-v', '--directory': '-C', '--list': '-t' }, values: ['-f', '-C'] },
  docker: { aliases: { '--force': '-f', '--all': '-a', '--volumes': '-v', '--interactive': '-i', '--tty': '-t', '--detach': '-d' }, values: ['-e', '--env', '--volume', '-p', '--publish', '--name', '-w', '--workdir', '-u', '--user', '--network', '--entrypoint', '-H', '--host', '--context', '--config', '-l', '--log-level', '--filter', '--format'] },
  kubectl: { aliases: { '--namespace': '-n', '--filename': '-f', '--selector': '-l', '--output': '-o', '--container': '-c' }, values: ['-n', '-f', '-l', '-o', '-c', '--context', '--cluster', '--kubeconfig', '--grace-period', '--timeout'] },
  npm: { aliases: { '--global': '-g', '--force': '-f', '--save-dev': '-D', '--yes': '-y' } },
  dd: {},
  kill: { aliases: { '--signal': '-s' }, values: ['-s', '-n'] },
};

// One line, analysed once for all the hooks that look at it.
let last: { line: string; analysis: Analysis } | undefined;
export function analysisOf(line: string): Analysis {
  // Stryker disable next-line ConditionalExpression: a cache; analysing the line again gives the same analysis
  if (last?.line !== line) last = { line, analysis: analyseCommandLine(line) };
  return last.analysis;
}

/** Whether the command line matches any of the clauses. */
export function matchCommandLine(clauses: readonly CommandClause[], line: string): CommandVerdict {
  const a = analysisOf(line);
  let listed: string[] | undefined;
  const commands = (): string[] => (listed ??= a.commands.map(showCommand));
  const shown = (): string => (commands().length === 0 ? 'no simple command' : `simple commands: ${commands().map((c) => `\`${c}\``).join(', ')}`);
  if (a.failClosed.length > 0) {
    const why = a.failClosed[0]!;
    return { matched: true, reason: `fails closed: ${why} (${shown()})`, commands: commands(), failClosed: why };
  }
  for (const clause of clauses) {
    for (const cmd of a.commands) {
      const hit = commandMatches(clause, cmd);
      if (hit === true) return { matched: true, reason: `\`${showCommand(cmd)}\` matches (${shown()})`, commands: commands(), matchedCommand: showCommand(cmd) };
      if (typeof hit === 'string') return { matched: true, reason: `fails closed: ${hit} (${shown()})`, commands: commands(), matchedCommand: showCommand(cmd), failClosed: hit };
    }
    if (clause.programs) {
      for (const o of a.opaque) {
        const named = clause.programs.find((p) => namesProgram(o.code, p));
        if (named !== undefined) {
          const why = `${o.what} runs code that names \`${named}\`, which cannot be checked`;
          return { matched: true, reason: `fails closed: ${why} (${shown()})`, commands: commands(), failClosed: why };
        }
      }
      const dynamic = a.dynamic.find((cmd) => clause.not === undefined || !clause.not.some((n) => commandMatches({ ...n, programs: undefined }, cmd) === true));
      if (dynamic) {
        const why = `the program \`${dynamic.argv[0]}\` is known only at run time`;
        return { matched: true, reason: `fails closed: ${why} (${shown()})`, commands: commands(), matchedCommand: showCommand(dynamic), failClosed: why };
      }
    }
  }
  // The text is built only when read (resolve, --explain, a trace): listing a long line's
  // commands costs as much as matching it, and most lines match no guard.
  return {
    matched: false,
    get reason() {
      return `no command matches (${shown()})`;
    },
    get commands() {
      return commands();
    },
  };
}

const namesProgram = (code: string, program: string): boolean => {
  const escaped = program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_.-])${escaped}([^A-Za-z0-9_-]|$)`).test(code);
};

/** true = matches; a string = matches because part of it is unknown (fail closed, the why); false = no match. */
export function commandMatches(clause: CommandClause, cmd: Command): boolean | string {
  const prog = cmd.program;
  if (clause.programs && !clause.programs.includes(prog)) return false;
  const spec = Object.hasOwn(PROGRAMS, prog) ? PROGRAMS[prog]! : {};
  const parts = partsOfCommand(cmd, spec);
  let { flags, positional } = parts;
  if (clause.subcommands) {
    const sub = clause.subcommands.find((s) => s.every((w, i) => positional[i]?.text === w));
    if (!sub) return false;
    positional = positional.slice(sub.length);
    if (prog === 'git' && sub[0] === 'push' && positional.some((w) => w.text.startsWith('+'))) flags = new Set([...flags, '-f']);
  }
  if (clause.flags && !clause.flags.every((f) => flagsOf(f, spec).every((n) => flags.has(n)))) return false;
  let unknown: string | undefined;
  if (clause.args) {
    const a = argsMatch(clause.args, positional);
    if (a === false) {
      if (cmd.openArgs) unknown = cmd.openArgs;
      else return false;
    } else if (typeof a === 'string') unknown = a;
  }
  if (clause.not?.some((n) => commandMatches(n, cmd) === true)) return false;
  return unknown ?? true;
}

interface Parts {
  flags: ReadonlySet<string>;
  positional: readonly Word[];
}

// A command's words split once for all the clauses that look at it (its program decides the spec).
const partsCache = new WeakMap<Command, Parts>();
const partsOfCommand = (cmd: Command, spec: ProgramSpec): Parts => {
  let parts = partsCache.get(cmd);
  // Stryker disable next-line ConditionalExpression: a cache; splitting the words again gives the same parts
  if (!parts) partsCache.set(cmd, (parts = partsOf(cmd.words.slice(1), spec)));
  return parts;
};

/** The canonical spelling the program's table gives `flag`, if it names it. */
const aliasOf = (flag: string, spec: ProgramSpec): string | undefined => (spec.aliases && Object.hasOwn(spec.aliases, flag) ? spec.aliases[flag] : undefined);

const canonical = (flag: string, spec: ProgramSpec): string =>
  aliasOf(flag, spec) ?? (flag.startsWith('--') && flag.length > 2 ? (abbreviated(flag, spec) ?? flag) : flag);

/**
 * GNU getopt_long (coreutils, tar, wget), git and npm take a long option by
 * any unique prefix: `rm --recu --fo /` is `rm -r -f /`. The spelling a
 * prefix stands for when every long option of the table it begins leads to
 * one; the tables are partial, so a prefix they take that the program finds
 * ambiguous only makes the program fail.
 */
function abbreviated(prefix: string, spec: ProgramSpec): string | undefined {
  const meant = new Set<string>();
  for (const long of [...Object.keys(spec.aliases ?? {}), ...(spec.values ?? [])]) {
    if (long.startsWith(prefix) && long.startsWith('--')) meant.add(aliasOf(long, spec) ?? long);
  }
  return meant.size === 1 ? [...meant][0] : undefined;
}

/** A clause's flag as the set it stands for: `-rf` is -r and -f, `--recursive` is -r for rm. */
export function flagsOf(flag: string, spec: ProgramSpec): string[] {
  // Stryker disable next-line EqualityOperator: a two-character flag split into its letters is itself
  if (flag.startsWith('--') || !flag.startsWith('-') || flag.length <= 2) return [canonical(flag.split('=')[0]!, spec)];
  return [...flag.slice(1)].map((c) => canonical(`-${c}`, spec));
}

/** Splits a command's words into its flags (canonical) and its positional arguments (option values left out). */
function partsOf(ws: readonly Word[], spec: ProgramSpec): Parts {
  const flags = new Set<string>();
  const positional: Word[] = [];
  // Stryker disable next-line ArrayDeclaration: a table holding a word that is no option changes nothing
  const values = new Set(spec.values ?? []);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const t = w.text;
    if (t === '--') {
      flags.add('--');
      positional.push(...ws.slice(i + 1));
      break;
    }
    if (t.startsWith('--')) {
      const name = canonical(t.split('=')[0]!, spec);
      flags.add(name);
      if (values.has(name) && !t.includes('=')) i++;
      continue;
    }
    if (t.startsWith('-') && t.length > 1 && !w.substituted) {
      // Stryker disable next-line EqualityOperator: past the end the flag is `-undefined`, which no clause can ask for
      for (let j = 1; j < t.length; j++) {
        const name = canonical(`-${t[j]}`, spec);
        flags.add(name);
        if (values.has(name)) {
          if (j === t.length - 1) i++;
          break;
        }
      }
      continue;
    }
    positional.push(w);
  }
  return { flags, positional };
}

/** true when a positional argument matches; a string when one is known only at run time; false otherwise. */
function argsMatch(test: ArgsTest, positional: readonly Word[]): boolean | string {
  let unknown: string | undefined;
  for (const w of positional) {
    const spellings = w.substituted ? undefined : w.expanded ? expansionSpellings(w.text) : [w.text];
    if (spellings === undefined) {
      unknown ??= `the argument \`${w.text}\` is known only at run time`;
      continue;
    }
    const forms = new Set(spellings.flatMap((text) => [text, normalisePath(text)]));
    for (const form of forms) {
      if (test.globs.some((g) => g.regex.test(form))) return true;
      if (test.regex) {
        const found: boolean | 'over_budget' = test.regex.bounded ? testBounded(test.regex.regex, form) : test.regex.regex.test(form);
        if (found === 'over_budget') unknown ??= `regex \`${test.regex.source}\` ran out of time on \`${form}\``;
        else if (found) return true;
      }
    }
  }
  return unknown ?? false;
}

/** At most this many spellings of one word (two choices each for four expansions); past it, known only at run time. */
const MAX_SPELLINGS = 16;

/**
 * What a word holding `${NAME<op>word}` can be, as the bare `$NAME` a clause
 * names: `${HOME:?}` (ShellCheck's advice for rm) is `$HOME`, `${D:-/}` is
 * `$D` or `/`, `${D:+x}` is empty or `x`. Undefined, known only at run time,
 * for the other operators (`${HOME%/}`, `${#X}`, `${X/a/b}`, `${X:1}`),
 * a nested one, or too many.
 */
export function expansionSpellings(text: string): string[] | undefined {
  let spellings = [''];
  let last = 0;
  for (const m of text.matchAll(/\$\{([^{}]*)\}/g)) {
    const choices = expansionChoices(m[1]!);
    if (choices === undefined) return undefined;
    const literal = text.slice(last, m.index);
    spellings = spellings.flatMap((s) => choices.map((c) => s + literal + c));
    if (spellings.length > MAX_SPELLINGS) return undefined;
    last = m.index + m[0].length;
  }
  const whole = spellings.map((s) => s + text.slice(last));
  return whole.some((s) => s.includes('${')) ? undefined : whole;
}

function expansionChoices(inner: string): string[] | undefined {
  const m = /^(\w+)(?::?([-=?+])(.*))?$/s.exec(inner);
  if (!m) return undefined;
  const [, name, op, word = ''] = m;
  const value = `$${name}`;
  if (op === undefined || op === '?') return [value];
  return op === '+' ? ['', word] : [value, word];
}

/** A path argument in a canonical spelling: `${HOME}` → `$HOME`, `//` → `/`, `.` segments dropped, `a/..` folded, no trailing `/`. */
export function normalisePath(arg: string): string {
  const s = arg.replace(/\$\{(\w+)\}/g, '$$$1');
  if (s === '' || s.includes('\n')) return s;
  const absolute = s.startsWith('/');
  const out: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    const top = out[out.length - 1];
    if (seg === '..' && top !== undefined && top !== '..' && !/^[~$]/.test(top)) out.pop();
    else if (!(seg === '..' && absolute && out.length === 0)) out.push(seg);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/** Python's fnmatch: `*` any run of characters (`/` too), `?` one, `[...]` a class (`[!...]` negated), whole argument. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', glob[i + 1] === '!' || glob[i + 1] === '^' ? i + 3 : i + 2);
      // Stryker disable next-line EqualityOperator: close is at least i + 2
      if (close < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        re += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/** A simple command as shell text, with where it was found: `rm -rf / (in $(...) → sudo)`. */
export function showCommand(cmd: Command): string {
  const text = cmd.argv.map(quoteWord).join(' ');
  const where = [...cmd.context, ...cmd.via];
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return where.length > 0 ? `${shown} (in ${where.join(' → ')})` : shown;
}

const quoteWord = (s: string): string => (/^[\w@%+=:,./~$-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
