// A shell line read as the shell would split it, and each word's part in it:
// the program a command runs, the script file a known interpreter is given,
// a redirection target, or data (an option, a jq filter, a file `cat` reads).
// `trust` covers the files that run (program and script words), never data:
// a log a hook appends to is not code, and fingerprinting it would turn the
// layer off at the hook's first run. Only literal words are meaningful: a word
// with a variable, a command substitution, a glob or a `~` left in it names
// something trust cannot see, and the reading says so when such a word is a
// program or a script.

export type WordRole = 'program' | 'script' | 'data' | 'redirection' | 'keyword';

export interface ShellWord {
  /** The word with quotes removed and the known variables expanded. */
  text: string;
  role: WordRole;
  /** It still holds something the shell expands at run time. */
  opaque: boolean;
  /** The literal `cd` targets in effect for this word, in order (a relative path resolves through them). */
  dirs: string[];
}

export interface ShellReading {
  words: ShellWord[];
  /** What the line runs that trust cannot see, one phrase each. */
  blind: string[];
}

type Token =
  | { kind: 'word'; text: string; substitution: boolean }
  /** A line of a here-document's body that substitutes: data, but it runs what it substitutes. */
  | { kind: 'body'; text: string }
  | { kind: 'op'; text: string }
  | { kind: 'redir'; text: string };

const BLANK = new Set([' ', '\t']);
const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')', '\n', '`']);

/** Splits a shell line into words, operators and redirections, honouring quotes, backslashes, comments and here-documents. */
function tokens(command: string): Token[] {
  const out: Token[] = [];
  let word = '';
  let inWord = false;
  let substitution = false; // a $(...) or `...` inside double quotes: it runs commands this reading cannot see
  const heredocs: { delimiter: string; strip: boolean }[] = [];
  const end = (): void => {
    if (inWord) out.push({ kind: 'word', text: word, substitution });
    word = '';
    inWord = false;
    substitution = false;
  };
  let i = 0;
  const n = command.length;
  while (i < n) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      inWord = true;
      const close = c;
      i++;
      while (i < n && command[i] !== close) {
        if (close === '"' && command[i] === '\\' && i + 1 < n) {
          word += command[i + 1];
          i += 2;
          continue;
        }
        if (close === '"' && (command[i] === '`' || (command[i] === '$' && command[i + 1] === '('))) substitution = true;
        word += command[i++];
      }
      i++;
      continue;
    }
    if (c === '\\' && i + 1 < n) {
      if (command[i + 1] === '\n') {
        i += 2; // a line continuation
        continue;
      }
      word += command[i + 1];
      inWord = true;
      i += 2;
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < n && command[i] !== '\n') i++;
      continue;
    }
    if (c === '$' && command[i + 1] === '(') {
      // $(...) starts a command of its own; the word around it is opaque.
      word += '$';
      inWord = true;
      end();
      out.push({ kind: 'op', text: '$(' });
      i += 2;
      continue;
    }
    // A redirection; digits right before it (`2>`) are its file descriptor, not a word.
    const redir = c === '<' || c === '>' || (c === '&' && command[i + 1] === '>') ? /^(?:>>|>\||<>|<<<|<<-|<<|>&|<&|>|<|&>>|&>)/.exec(command.slice(i)) : null;
    if (redir) {
      if (inWord && /^\d+$/.test(word) && c !== '&') {
        word = '';
        inWord = false;
        substitution = false;
      } else end();
      out.push({ kind: 'redir', text: redir[0] });
      i += redir[0].length;
      if (redir[0] === '<<' || redir[0] === '<<-') {
        const m = /^[ \t]*(['"]?)([^\s'";&|<>()]+)\1/.exec(command.slice(i));
        if (m) {
          heredocs.push({ delimiter: m[2]!, strip: redir[0] === '<<-' });
          out.push({ kind: 'word', text: m[2]!, substitution: false });
          i += m[0].length;
        }
      }
      continue;
    }
    if (BLANK.has(c)) {
      end();
      i++;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      end();
      const two = command.slice(i, i + 2);
      const op = two === '&&' || two === '||' || two === ';;' || two === '|&' ? two : c;
      out.push({ kind: 'op', text: op });
      i += op.length;
      if (c === '\n' && heredocs.length > 0) i = skipHeredocs(command, i, heredocs.splice(0), out);
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  end();
  return out;
}

/** Skips the bodies of pending here-documents, starting at the line after their redirection; a body that substitutes is noted. */
function skipHeredocs(command: string, start: number, pending: { delimiter: string; strip: boolean }[], out: Token[]): number {
  let i = start;
  for (const doc of pending) {
    while (i < command.length) {
      const eol = command.indexOf('\n', i);
      const line = command.slice(i, eol === -1 ? command.length : eol);
      i = eol === -1 ? command.length : eol + 1;
      if ((doc.strip ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
      if (/\$\(|`/.test(line)) out.push({ kind: 'body', text: line });
    }
  }
  return i;
}

/** The words of a shell line, quotes removed (operators and redirections dropped). */
export function shellWords(command: string): string[] {
  return tokens(command).flatMap((t) => (t.kind === 'word' ? [t.text] : []));
}

/** $NAME and ${NAME} for the given variables replaced; anything else left as written. */
export function expandKnownVariables(word: string, values: Readonly<Record<string, string>>): string {
  return word.replace(/\$(?:\{(\w+)\}|(\w+))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return Object.hasOwn(values, name) ? values[name]! : whole;
  });
}

/** Whether a word still holds something the shell expands at run time. */
export const isOpaqueWord = (word: string): boolean => /[$`*?]|\[.*\]/.test(word) || word.startsWith('~');

/** A word that may name a file: it has a slash or an extension, and is not an option. */
export const isPathLike = (word: string): boolean => !word.startsWith('-') && (word.includes('/') || /\.\w+$/.test(word));

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'in', 'case', 'esac', '{', '}', '!', '[[', ']]', 'function', 'select']);
/** Keywords after which a command starts again. */
const COMMAND_AFTER = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '{', '!']);

/**
 * Interpreters that take a script file as their first operand: the options
 * that take a value, the options whose value is inline code (nothing more to
 * cover), and the options that run something trust cannot see.
 */
interface Interpreter {
  valued: readonly string[];
  inline: readonly string[];
  hidden?: Readonly<Record<string, string>>;
  /** A first operand that is a subcommand to skip (`deno run x.ts`, `bun run x.ts`). */
  subcommands?: readonly string[];
}

const SHELL: Interpreter = { valued: ['-o', '-O', '+o', '+O'], inline: [], hidden: { '-c': 'a command string (-c) it does not read into' } };
const PYTHON: Interpreter = { valued: ['-W', '-X', '--check-hash-based-pycs'], inline: ['-c'], hidden: { '-m': 'a module (-m) from Python\'s import path, not a file it covers' } };
const NODE: Interpreter = {
  valued: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--input-type', '-C', '--conditions', '--env-file', '--title', '--stack-size'],
  inline: ['-e', '--eval', '-p', '--print'],
};
const PLAIN: Interpreter = { valued: [], inline: [] };

const INTERPRETERS: Record<string, Interpreter> = {
  bash: SHELL, sh: SHELL, zsh: SHELL, dash: SHELL, ksh: SHELL, fish: SHELL,
  python: PYTHON, python3: PYTHON, pypy3: PYTHON,
  node: NODE, nodejs: NODE,
  tsx: NODE, 'ts-node': NODE,
  bun: { valued: ['-r', '--preload', '--cwd'], inline: ['-e', '--eval', '-p', '--print'], subcommands: ['run'] },
  deno: { valued: ['--config', '-c', '--import-map'], inline: ['--eval'], subcommands: ['run'] },
  ruby: { valued: ['-r', '-I', '-E', '-C'], inline: ['-e'] },
  perl: { valued: ['-I', '-M', '-m'], inline: ['-e', '-E'] },
  php: { valued: ['-c', '-d'], inline: ['-r'] },
  lua: { valued: ['-l'], inline: ['-e'] },
  Rscript: { valued: [], inline: ['-e'] },
  osascript: { valued: ['-l'], inline: ['-e'] },
  pwsh: { valued: ['-ExecutionPolicy', '-WorkingDirectory', '-File', '-f'], inline: [], hidden: { '-Command': 'a command string (-Command) it does not read into', '-c': 'a command string (-c) it does not read into' } },
  powershell: { valued: ['-ExecutionPolicy', '-File'], inline: [], hidden: { '-Command': 'a command string (-Command) it does not read into' } },
  source: PLAIN, '.': PLAIN,
};

/**
 * Programs that run another program: the options that take a value, and
 * whether their first operand is a subcommand word to pass over (`uv run`).
 */
const WRAPPERS: Record<string, { valued: readonly string[]; subcommand?: readonly string[]; count?: boolean }> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'] },
  exec: { valued: ['-a'] },
  command: { valued: [] },
  builtin: { valued: [] },
  nohup: { valued: [] },
  time: { valued: ['-f', '-o'] },
  nice: { valued: ['-n'] },
  ionice: { valued: ['-c', '-n'] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], count: true },
  xargs: { valued: ['-I', '-n', '-P', '-d', '-L', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--replace'] },
  npx: { valued: ['-p', '--package', '-c', '--call'] },
  bunx: { valued: [] },
  uvx: { valued: ['--from', '--with', '--python', '-p'] },
  uv: { valued: ['--with', '--python', '-p', '--project', '--directory', '--from', '--env-file'], subcommand: ['run', 'tool'] },
  poetry: { valued: [], subcommand: ['run'] },
  pipx: { valued: ['--spec'], subcommand: ['run'] },
  pnpm: { valued: [], subcommand: ['exec', 'dlx'] },
  yarn: { valued: [], subcommand: ['exec', 'dlx'] },
  sudo: { valued: ['-u', '-g', '-C', '-D'] },
};

const basename = (word: string): string => word.slice(word.lastIndexOf('/') + 1);
/** The table key of a program word: its base name, a versioned Python (`python3.12`) as python3. */
const programName = (word: string): string => {
  const base = basename(word);
  return /^python3(\.\d+)?$/.test(base) ? 'python3' : base;
};

/** A reading of the words of one simple command (argv), the program first; shared by shell lines and `run.argv`. */
class CommandReader {
  readonly blind: string[] = [];
  private expect: 'program' | 'data' = 'program';
  private interpreter: Interpreter | undefined;
  private interpreterName = '';
  private wrapper: (typeof WRAPPERS)[string] | undefined;
  private wrapperName = '';
  private subcommandDone = false;
  private countDone = false;
  private valueNext = false;
  private inlineNext = false;
  private forList = false;

  constructor(private readonly shell: boolean) {}

  /** The command ended (`;`, `|`, `&&`, `)`...): the next word is a program again. */
  reset(): void {
    this.expect = 'program';
    this.interpreter = undefined;
    this.wrapper = undefined;
    this.valueNext = false;
    this.inlineNext = false;
    this.forList = false;
  }

  role(word: string, opaque: boolean): WordRole {
    if (this.forList) return 'data';
    if (this.valueNext) {
      this.valueNext = false;
      return 'data';
    }
    if (this.inlineNext) {
      this.inlineNext = false;
      this.expect = 'data';
      this.interpreter = undefined;
      return 'data';
    }
    if (this.expect === 'program') return this.programWord(word, opaque);
    if (this.wrapper) return this.wrapperWord(word, opaque);
    if (this.interpreter) return this.interpreterWord(word, opaque);
    return 'data';
  }

  private programWord(word: string, opaque: boolean): WordRole {
    if (this.shell && KEYWORDS.has(word)) {
      if (word === 'for' || word === 'select' || word === 'case') this.forList = true;
      if (!COMMAND_AFTER.has(word) && !this.forList) this.expect = 'data';
      return 'keyword';
    }
    if (this.shell && /^[A-Za-z_]\w*=/.test(word)) return 'data'; // an assignment before the command
    this.expect = 'data';
    if (opaque) {
      this.blind.push(`runs ${JSON.stringify(word)}, a name it expands at run time`);
      return 'program';
    }
    const name = programName(word);
    if (name === 'eval') this.blind.push('runs its arguments through eval');
    this.wrapper = WRAPPERS[name];
    this.wrapperName = name;
    this.subcommandDone = false;
    this.countDone = false;
    this.interpreter = this.wrapper ? undefined : INTERPRETERS[name];
    this.interpreterName = name;
    return 'program';
  }

  private wrapperWord(word: string, opaque: boolean): WordRole {
    const w = this.wrapper!;
    if (word.startsWith('-') && word !== '-') {
      if (w.valued.includes(word)) this.valueNext = true;
      return 'data';
    }
    if (this.wrapperName === 'env' && /^[A-Za-z_]\w*=/.test(word)) return 'data';
    if (w.subcommand && !this.subcommandDone) {
      this.subcommandDone = true;
      if (w.subcommand.includes(word)) return 'data';
    }
    if (w.count && !this.countDone) {
      this.countDone = true;
      return 'data'; // timeout's DURATION
    }
    // `uv run x.py`, `npx tsx x.ts`: the operand is the program, or a script the wrapper runs itself.
    this.wrapper = undefined;
    if (/\.(py|ts|js|mjs|cjs)$/.test(word) && ['uv', 'poetry', 'pipx', 'bunx'].includes(this.wrapperName)) {
      this.expect = 'data';
      if (opaque) this.blind.push(`runs the script ${JSON.stringify(word)}, a name it expands at run time`);
      return 'script';
    }
    return this.programWord(word, opaque);
  }

  private interpreterWord(word: string, opaque: boolean): WordRole {
    const it = this.interpreter!;
    if (word.startsWith('-') && word !== '-' && word !== '--') {
      const flag = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
      // `bash -ec '...'`: a shell's -c may come with other one-letter flags.
      const hidden = it.hidden?.[flag] ?? (it === SHELL && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word) ? it.hidden?.['-c'] : undefined);
      if (hidden) {
        this.blind.push(`${this.interpreterName} runs ${hidden}`);
        this.interpreter = undefined;
        this.valueNext = true;
        return 'data';
      }
      if (it.inline.includes(flag) && !word.includes('=')) {
        this.inlineNext = true;
        return 'data';
      }
      if (it.valued.includes(flag) && !word.includes('=')) {
        if (flag === '-File' || flag === '-f') return 'data'; // pwsh -File x.ps1: the operand is the script
        this.valueNext = true;
      }
      return 'data';
    }
    if (word === '--') return 'data';
    if (it.subcommands && !this.subcommandDone) {
      this.subcommandDone = true;
      if (it.subcommands.includes(word)) return 'data';
    }
    this.interpreter = undefined;
    if (opaque) this.blind.push(`${this.interpreterName} runs the script ${JSON.stringify(word)}, a name it expands at run time`);
    return 'script';
  }
}

/**
 * The words of a shell line with their roles. `vars` are the variables whose
 * value is known (the workspace), expanded before a word is judged.
 */
export function readShellLine(command: string, vars: Readonly<Record<string, string>> = {}): ShellReading {
  const words: ShellWord[] = [];
  const reader = new CommandReader(true);
  const blind = reader.blind;
  let dirs: string[] = [];
  let opaqueDir = false;
  let redirectNext = false;
  let cdNext = false;
  for (const t of tokens(command)) {
    if (t.kind === 'op') {
      // After `;`, `|`, `&&`, `(`, `$(`, a backtick...: a command of its own starts.
      reader.reset();
      cdNext = false;
      continue;
    }
    if (t.kind === 'redir') {
      redirectNext = true;
      continue;
    }
    if (t.kind === 'body') {
      blind.push(`a here-document substitutes (${JSON.stringify(t.text.slice(0, 60))}): it runs commands it does not read`);
      words.push({ text: t.text, role: 'data', opaque: true, dirs: [...dirs] });
      continue;
    }
    const text = expandKnownVariables(t.text, vars);
    const opaque = isOpaqueWord(text) || t.substitution;
    if (t.substitution) blind.push(`a command substitution inside quotes (${JSON.stringify(t.text.slice(0, 60))}) runs commands it does not read`);
    if (redirectNext) {
      redirectNext = false;
      words.push({ text, role: 'redirection', opaque, dirs: [...dirs] });
      continue;
    }
    const role = reader.role(text, opaque);
    if (cdNext && role === 'data' && !text.startsWith('-')) {
      cdNext = false;
      words.push({ text, role, opaque, dirs: [...dirs] });
      if (opaque) opaqueDir = true;
      else dirs = text.startsWith('/') ? [text] : [...dirs, text];
      continue;
    }
    if (role === 'program' && (text === 'cd' || text === 'pushd')) cdNext = true;
    if ((role === 'program' || role === 'script') && opaqueDir && !opaque && !text.startsWith('/') && (role === 'script' || text.includes('/'))) {
      blind.push(`runs ${JSON.stringify(text)} after a cd to a directory it expands at run time`);
    }
    words.push({ text, role, opaque, dirs: [...dirs] });
  }
  return { words, blind: [...new Set(blind)] };
}

/** The words of a `run.argv` (no shell: nothing is expanded, nothing redirected) with their roles. */
export function readArgv(argv: readonly string[]): ShellReading {
  const reader = new CommandReader(false);
  const words = argv.map((text): ShellWord => ({ text, role: reader.role(text, false), opaque: false, dirs: [] }));
  return { words, blind: [...new Set(reader.blind)] };
}

/** Whether a reading runs Python on a script or inline code (so PYTHONSAFEPATH applies to it). */
export function runsPython(reading: ShellReading): boolean {
  return reading.words.some((w, i) => w.role === 'program' && programName(w.text).startsWith('python') && !reading.words.slice(i + 1, i + 3).some((x) => x.text === '-m'));
}
