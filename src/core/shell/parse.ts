// A POSIX (and common bash) command-line parser for `match.command`: the
// simple commands a shell would run for one command line, with quotes
// removed, assignments and redirections taken apart from the words, and the
// commands inside `$(...)`, backticks, `<(...)`, subshells, `{ ...; }`,
// compound commands and here-documents found as well. It does not expand
// anything: a word keeps `$NAME` as written and says that it holds an
// expansion. Wrappers (`sudo`, `sh -c`, ...) are unwrapped in unwrap.ts.
//
// Hand-written on purpose (docs/hooks-file.md, "match.command"): measured on
// a 1 KB line, mvdan-sh (GopherJS) costs ~100 ms to load and ~1.2 ms a
// parse, bash-parser ~44 ms to load and ~13 ms a parse and fails on
// here-strings; this parser takes a few hundredths of a millisecond.

/** One word of a command, after quote removal. */
export interface Word {
  /** The value with quotes removed; expansions (`$X`, `${X}`, `$(...)`) left as written. */
  text: string;
  /** Holds a parameter expansion (`$X`, `${X}`, `$1`), unquoted or in double quotes. */
  expanded: boolean;
  /** Holds a command substitution (`$(...)`, backticks) or an arithmetic one: its value is known only at run time. */
  substituted: boolean;
  /** Some part of it was quoted or escaped (so it is no reserved word and no assignment). */
  quoted: boolean;
  /** The word with no quoting at all: brace expansion applies. */
  plain: boolean;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: string[];
  /** The command's words, program first (empty for a bare assignment or redirection). */
  words: Word[];
  /** Redirections as written after quote removal, e.g. `>out`, `2>&1`, `<<EOF`, `<<<text`. */
  redirections: string[];
  /** What the command reads on its standard input, when a here-document or here-string gives it. */
  stdin?: string;
  /** The command before it in a pipeline (`a | b`: b's pipedFrom is a). */
  pipedFrom?: SimpleCommand;
  /** How deep it is nested in substitutions and subshells (0 = top level). */
  depth: number;
  /** Where it was found: `$(...)`, `` `...` ``, `<(...)`, `(...)`, `{...}`, `here-document` ... */
  context: string[];
}

export interface ParseResult {
  commands: SimpleCommand[];
  /** The first syntax error (the commands found before it are kept), or undefined. */
  error?: string;
  /** Nesting went past the limit: the rest of that part was not read. */
  tooDeep?: boolean;
}

/** Substitutions and subshells nest at most this deep (deeper is a fail-closed match). */
export const MAX_PARSE_DEPTH = 16;
/** At most this many simple commands are read from one line (more is a fail-closed match). */
export const MAX_SIMPLE_COMMANDS = 2000;

class ShellSyntaxError extends Error {}
class TooDeep extends Error {}
class TooMany extends Error {}

const BLANK = new Set([' ', '\t', '\r']);
const META = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>']);
const NAME_START = /[A-Za-z_]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const RESERVED_START = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!']);
const RESERVED_END = new Set(['fi', 'done', 'esac']);

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expand: boolean;
  command: SimpleCommand;
}

interface Closer {
  /** `)`, `}`, `esac`/`;;` for case items, or end of input. */
  kind: ')' | '}' | 'case' | 'eof' | 'done' | 'fi';
}

export function parseCommandLine(source: string): ParseResult {
  const p = new Parser(source, 0, []);
  try {
    // Stryker disable next-line ObjectLiteral,StringLiteral: only a `}` or case closer stops at a reserved word
    p.sequence({ kind: 'eof' });
    // Stryker disable next-line all: sequence() with an eof closer reads to the end or throws
    if (p.pos < source.length) throw new ShellSyntaxError(`unexpected \`${source[p.pos]}\` at ${p.pos + 1}`);
    p.flushHeredocs();
    return { commands: p.out };
  } catch (e) {
    if (e instanceof ShellSyntaxError) return { commands: p.out, error: e.message };
    if (e instanceof TooDeep) return { commands: p.out, tooDeep: true, error: `nesting deeper than ${MAX_PARSE_DEPTH}` };
    if (e instanceof TooMany) return { commands: p.out, error: `more than ${MAX_SIMPLE_COMMANDS} simple commands` };
    throw e;
  }
}

class Parser {
  pos = 0;
  out: SimpleCommand[];
  /** Here-documents whose body starts after the next newline; shared by the parsers of one text. */
  private pending: PendingHeredoc[];

  constructor(
    readonly src: string,
    readonly depth: number,
    readonly context: string[],
    out?: SimpleCommand[],
    pending?: PendingHeredoc[],
  ) {
    if (depth > MAX_PARSE_DEPTH) throw new TooDeep();
    this.out = out ?? [];
    this.pending = pending ?? [];
  }

  private peek(n = 0): string {
    return this.src[this.pos + n] ?? '';
  }
  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Blanks and line continuations. */
  private skipBlanks(): void {
    for (;;) {
      const c = this.peek();
      if (BLANK.has(c)) this.pos++;
      else if (c === '\\' && this.peek(1) === '\n') this.pos += 2;
      else return;
    }
  }

  private skipComment(): void {
    while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
  }

  /** A newline ends the line: the here-documents started on it are read now. */
  private newline(): void {
    this.pos++;
    this.flushHeredocs();
  }

  flushHeredocs(): void {
    const docs = this.pending.splice(0);
    for (const doc of docs) {
      let body = '';
      for (;;) {
        if (this.pos >= this.src.length) break; // an unterminated here-document runs to the end, as bash does
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        let line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        if (doc.stripTabs) line = line.replace(/^\t+/, '');
        if (line === doc.delimiter) break;
        body += `${line}\n`;
      }
      doc.command.stdin = (doc.command.stdin ?? '') + body;
      if (doc.expand) this.substitutionsIn(body, 'here-document');
    }
  }

  /** The commands of `$(...)` and backticks inside a text the shell expands (a here-document, a `${...}`). */
  private substitutionsIn(text: string, where: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
        const sub = new Parser(text, this.depth + 1, [...this.context, where, '$(...)'], this.out);
        sub.pos = i + 2;
        sub.sequence({ kind: ')' });
        if (sub.peek() !== ')') throw new ShellSyntaxError('unterminated `$(` in a here-document');
        i = sub.pos;
      } else if (c === '`') {
        const end = closingBacktick(text, i + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated backtick in a here-document');
        this.nested(unescapeBackticks(text.slice(i + 1, end)), [where, '`...`']);
        i = end;
      }
    }
  }

  private nested(text: string, context: string[]): void {
    const sub = new Parser(text, this.depth + 1, [...this.context, ...context], this.out);
    // Stryker disable next-line ObjectLiteral,StringLiteral: only a `}` or case closer stops at a reserved word
    sub.sequence({ kind: 'eof' });
    // Stryker disable next-line all: sequence() with an eof closer reads to the end or throws
    if (sub.pos < text.length) throw new ShellSyntaxError(`unexpected \`${text[sub.pos]}\` in ${context[context.length - 1]}`);
    sub.flushHeredocs();
  }

  /** Reads commands and operators until the closer (left unread) or the end. */
  sequence(closer: Closer): void {
    let pipedFrom: SimpleCommand | undefined;
    let expectCommand = false; // after | && ||, a command must follow
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '') {
        if (expectCommand) throw new ShellSyntaxError('the line ends after an operator');
        return;
      }
      if (c === '#') {
        this.skipComment();
        continue;
      }
      if (c === '\n') {
        this.newline();
        if (!expectCommand) {
          pipedFrom = undefined;
          this.lastWasNothing = true;
        }
        continue;
      }
      if (c === ')') {
        if (closer.kind === ')' || closer.kind === 'case') return;
        throw new ShellSyntaxError(`unexpected \`)\` at ${this.pos + 1}`);
      }
      if (c === ';') {
        if (this.peek(1) === ';' || (this.peek(1) === '&')) {
          if (closer.kind === 'case') return;
          throw new ShellSyntaxError(`unexpected \`;;\` at ${this.pos + 1}`);
        }
        if (expectCommand || this.lastWasNothing) throw new ShellSyntaxError(`unexpected \`;\` at ${this.pos + 1}`);
        this.pos++;
        pipedFrom = undefined;
        this.lastWasNothing = true;
        continue;
      }
      if (c === '&' || c === '|') {
        const op = this.startsWith('&&') ? '&&' : this.startsWith('||') ? '||' : this.startsWith('|&') ? '|&' : c;
        if (op === '&' && this.peek(1) === '>') {
          // `&>file` at the start of a command is a redirection
        } else {
          if (expectCommand || this.lastWasNothing) throw new ShellSyntaxError(`unexpected \`${op}\` at ${this.pos + 1}`);
          this.pos += op.length;
          expectCommand = op !== '&';
          pipedFrom = op === '|' || op === '|&' ? this.lastCommand : undefined;
          this.lastWasNothing = true;
          continue;
        }
      }
      // Stryker disable next-line ConditionalExpression,StringLiteral: atReserved() is false for an eof closer
      if (closer.kind !== 'eof' && this.atReserved(closer)) return;
      this.lastWasNothing = false;
      this.command(pipedFrom);
      expectCommand = false;
      pipedFrom = undefined;
    }
  }

  private lastWasNothing = true;
  private lastCommand: SimpleCommand | undefined;

  /** At a reserved word that closes the construct being read. */
  private atReserved(closer: Closer): boolean {
    const word = this.bareWordAhead();
    if (closer.kind === '}') return word === '}';
    if (closer.kind === 'case') return word === 'esac';
    return false;
  }

  /** The plain word starting here (no quotes, no expansions), if it is followed by a blank or operator. */
  private bareWordAhead(): string | undefined {
    let i = this.pos;
    // Stryker disable next-line EqualityOperator,StringLiteral: a word read on past a quote or brace still ends next to no blank, or is no reserved word
    while (i < this.src.length && !META.has(this.src[i]!) && !`'"\\$\`{}`.includes(this.src[i]!)) i++;
    if (i === this.pos && (this.src[i] === '{' || this.src[i] === '}')) i++;
    const next = this.src[i] ?? '';
    if (next !== '' && !META.has(next)) return undefined;
    return this.src.slice(this.pos, i);
  }

  /** One command: a compound one, a function definition, or a simple command. */
  private command(pipedFrom: SimpleCommand | undefined): void {
    this.skipBlanks();
    if (this.startsWith('((')) {
      this.arithmetic(this.pos + 2);
      return this.afterCompound();
    }
    if (this.peek() === '(') {
      this.pos++;
      this.sub(')', '(...)');
      return this.afterCompound();
    }
    const reserved = this.bareWordAhead();
    if (reserved === '{') {
      this.pos++;
      this.sub('}', '{...}');
      return this.afterCompound();
    }
    if (reserved === '}') throw new ShellSyntaxError(`unexpected \`}\` at ${this.pos + 1}`);
    if (reserved !== undefined && RESERVED_START.has(reserved)) {
      this.pos += reserved.length;
      return;
    }
    if (reserved !== undefined && RESERVED_END.has(reserved)) {
      this.pos += reserved.length;
      return this.afterCompound();
    }
    if (reserved === 'for' || reserved === 'select') return this.forHeader(reserved.length);
    if (reserved === 'case') return this.caseCommand();
    if (reserved === 'function') {
      this.pos += reserved.length;
      this.skipBlanks();
      this.word(); // the name
      this.skipBlanks();
      if (this.startsWith('()')) this.pos += 2;
      return;
    }
    if (reserved === '[[') return this.conditional(pipedFrom);
    this.simple(pipedFrom);
  }

  private sub(close: ')' | '}', what: string): void {
    const inner = new Parser(this.src, this.depth + 1, [...this.context, what], this.out, this.pending);
    inner.pos = this.pos;
    inner.sequence({ kind: close });
    this.pos = inner.pos;
    this.skipBlanks();
    if (close === ')') {
      if (this.peek() !== ')') throw new ShellSyntaxError('unterminated `(`');
      this.pos++;
    } else {
      if (this.peek() !== '}') throw new ShellSyntaxError('unterminated `{`');
      this.pos++;
    }
  }

  /** Redirections after a compound command (`( ... ) > out`, `done < file`). */
  private afterCompound(): void {
    const holder: SimpleCommand = { assignments: [], words: [], redirections: [], depth: this.depth, context: this.context };
    for (;;) {
      this.skipBlanks();
      if (!this.redirection(holder)) break;
    }
    this.lastCommand = holder;
  }

  private forHeader(length: number): void {
    this.pos += length;
    this.skipBlanks();
    if (this.startsWith('((')) {
      this.arithmetic(this.pos + 2);
      return;
    }
    // for NAME [in WORDS]: the words may hold substitutions; none is a command
    while (this.pos < this.src.length) {
      this.skipBlanks();
      const c = this.peek();
      if (c === ';' || c === '\n' || c === '' || c === '&' || c === '|') return;
      if (META.has(c)) throw new ShellSyntaxError(`unexpected \`${c}\` in a for loop at ${this.pos + 1}`);
      this.word();
    }
  }

  private caseCommand(): void {
    this.pos += 4;
    this.skipBlanks();
    this.word();
    this.skipSpace();
    if (this.bareWordAhead() !== 'in') throw new ShellSyntaxError('`case` without `in`');
    this.pos += 2;
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.src.length) throw new ShellSyntaxError('`case` without `esac`');
      if (this.bareWordAhead() === 'esac') {
        this.pos += 4;
        return this.afterCompound();
      }
      if (this.peek() === '(') this.pos++;
      // patterns up to `)`
      for (;;) {
        this.skipBlanks();
        const c = this.peek();
        if (c === ')') {
          this.pos++;
          break;
        }
        if (c === '|') {
          this.pos++;
          continue;
        }
        if (c === '' || META.has(c)) throw new ShellSyntaxError(`bad case pattern at ${this.pos + 1}`);
        this.word();
      }
      const inner = new Parser(this.src, this.depth, this.context, this.out, this.pending);
      inner.pos = this.pos;
      inner.sequence({ kind: 'case' });
      this.pos = inner.pos;
      if (this.startsWith(';;&')) this.pos += 3;
      else if (this.startsWith(';;') || this.startsWith(';&')) this.pos += 2;
    }
  }

  /** Blanks, newlines and comments. */
  private skipSpace(): void {
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '\n') this.newline();
      else if (c === '#') this.skipComment();
      else return;
    }
  }

  /** `[[ ... ]]`: its words (which may hold substitutions) up to `]]`; `&&`, `<` and the like are words there. */
  private conditional(pipedFrom: SimpleCommand | undefined): void {
    const cmd: SimpleCommand = { assignments: [], words: [], redirections: [], depth: this.depth, context: this.context, ...(pipedFrom ? { pipedFrom } : {}) };
    for (;;) {
      this.skipBlanks();
      if (this.peek() === '\n') {
        this.newline();
        continue;
      }
      if (this.pos >= this.src.length) throw new ShellSyntaxError('`[[` without `]]`');
      const op = ['&&', '||', '<', '>', '(', ')', '!'].find((o) => this.startsWith(o));
      if (op) {
        this.pos += op.length;
        cmd.words.push(literal(op));
        continue;
      }
      const w = this.word();
      cmd.words.push(w);
      if (w.text === ']]' && !w.quoted) break;
    }
    this.emit(cmd);
  }

  private emit(cmd: SimpleCommand): void {
    if (this.out.length >= MAX_SIMPLE_COMMANDS) throw new TooMany();
    this.out.push(cmd);
    this.lastCommand = cmd;
  }

  private simple(pipedFrom: SimpleCommand | undefined): void {
    const cmd: SimpleCommand = { assignments: [], words: [], redirections: [], depth: this.depth, context: this.context, ...(pipedFrom ? { pipedFrom } : {}) };
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '' || c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && this.peek(1) !== '>') break;
      if (c === '#') {
        this.skipComment();
        break;
      }
      if (this.redirection(cmd)) continue;
      if (c === '(') {
        // NAME() body: a function definition; its body's commands are read as commands
        if (cmd.words.length === 1 && cmd.assignments.length === 0 && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 64))) {
          this.pos = this.src.indexOf(')', this.pos) + 1;
          return;
        }
        throw new ShellSyntaxError(`unexpected \`(\` at ${this.pos + 1}`);
      }
      // Stryker disable next-line all: redirection() has read every < and > that opens no process substitution
      if ((c === '<' || c === '>') && this.peek(1) !== '(') throw new ShellSyntaxError(`bad redirection at ${this.pos + 1}`);
      const start = this.pos;
      const w = this.word();
      if (cmd.words.length === 0 && ASSIGNMENT.test(this.src.slice(start, this.pos))) {
        // NAME=(a b c): an array assignment
        if (this.peek() === '(' && this.src[this.pos - 1] === '=') {
          const close = this.src.indexOf(')', this.pos);
          if (close < 0) throw new ShellSyntaxError('unterminated array assignment');
          cmd.assignments.push(w.text + this.src.slice(this.pos, close + 1));
          this.pos = close + 1;
        } else cmd.assignments.push(w.text);
        continue;
      }
      // Stryker disable next-line StringLiteral: a plain word with no braces or no comma expands to itself
      if (w.plain && w.text.includes('{') && w.text.includes(',')) cmd.words.push(...braceExpand(w.text).map(literal));
      else cmd.words.push(w);
    }
    this.emit(cmd);
  }

  /** A redirection at the cursor, added to cmd; false when there is none. */
  private redirection(cmd: SimpleCommand): boolean {
    let i = this.pos;
    while (i < this.src.length && this.src[i]! >= '0' && this.src[i]! <= '9') i++;
    const rest = this.src.slice(i, i + 3);
    const op = REDIRECTIONS.find((o) => rest.startsWith(o));
    if (!op || (op.startsWith('&') && i !== this.pos)) return false;
    if ((op === '<' || op === '>') && this.src[i + 1] === '(') return false; // process substitution
    const fd = this.src.slice(this.pos, i);
    this.pos = i + op.length;
    this.skipBlanks();
    const c = this.peek();
    const processSubstitution = (c === '<' || c === '>') && this.peek(1) === '(';
    if (c === '' || c === '\n' || (META.has(c) && !processSubstitution)) throw new ShellSyntaxError(`redirection \`${op}\` without a target at ${this.pos + 1}`);
    const start = this.pos;
    const target = this.word();
    cmd.redirections.push(`${fd}${op}${target.text}`);
    if (op === '<<' || op === '<<-') {
      const raw = this.src.slice(start, this.pos);
      this.pending.push({ delimiter: target.text, stripTabs: op === '<<-', expand: !/['"\\]/.test(raw), command: cmd });
    } else if (op === '<<<') cmd.stdin = `${cmd.stdin ?? ''}${target.text}\n`;
    return true;
  }

  /** `$((` or `((` ... `))`: an expression, whose `$(...)` and backticks still run. */
  private arithmetic(from: number): void {
    let depth = 2;
    let i = from;
    for (; i < this.src.length && depth > 0; i++) {
      if (this.src[i] === '(') depth++;
      else if (this.src[i] === ')') depth--;
    }
    if (depth > 0) throw new ShellSyntaxError('unterminated `((`');
    const inner = this.src.slice(from, i - 2);
    this.pos = i;
    // Stryker disable next-line all: substitutionsIn() finds nothing in a text with neither
    if (inner.includes('$(') || inner.includes('`')) this.substitutionsIn(inner, '$((...))');
  }

  /** One word; the commands of its substitutions are read on the way. */
  word(): Word {
    let text = '';
    let expanded = false;
    let substituted = false;
    let quoted = false;
    const start = this.pos;
    for (;;) {
      const c = this.peek();
      if (c === '') break;
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        const from = this.pos;
        this.pos += 2;
        this.sub(')', `${c}(...)`);
        text += this.src.slice(from, this.pos);
        substituted = true;
        continue;
      }
      if (META.has(c)) break;
      if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError(`unterminated single quote at ${this.pos + 1}`);
        text += this.src.slice(this.pos + 1, end);
        this.pos = end + 1;
        quoted = true;
      } else if (c === '"') {
        this.pos++;
        const d = this.doubleQuoted();
        text += d.text;
        expanded ||= d.expanded;
        substituted ||= d.substituted;
        quoted = true;
      } else if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') this.pos += 2;
        else {
          text += n;
          this.pos += 2;
          quoted = true;
        }
      } else if (c === '$' && this.peek(1) === "'") {
        const { value, end } = ansiC(this.src, this.pos + 2);
        if (end < 0) throw new ShellSyntaxError(`unterminated $' quote at ${this.pos + 1}`);
        text += value;
        this.pos = end + 1;
        quoted = true;
      } else if (c === '$' && this.peek(1) === '"') {
        this.pos += 2;
        const d = this.doubleQuoted();
        text += d.text;
        expanded ||= d.expanded;
        substituted ||= d.substituted;
        quoted = true;
      } else if (c === '$' || c === '`') {
        const e = this.expansion();
        text += e.text;
        if (e.kind === 'parameter') expanded = true;
        else if (e.kind === 'substitution') substituted = true;
      } else {
        text += c;
        this.pos++;
      }
    }
    if (this.pos === start) throw new ShellSyntaxError(`unexpected \`${this.peek()}\` at ${this.pos + 1}`);
    return { text, expanded, substituted, quoted, plain: !quoted && !expanded && !substituted };
  }

  /** After an opening `"`: up to the closing one. */
  private doubleQuoted(): { text: string; expanded: boolean; substituted: boolean } {
    let text = '';
    let expanded = false;
    let substituted = false;
    for (;;) {
      const c = this.peek();
      if (c === '') throw new ShellSyntaxError('unterminated double quote');
      if (c === '"') {
        this.pos++;
        return { text, expanded, substituted };
      }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') this.pos += 2;
        else if ('$`"\\'.includes(n) && n !== '') {
          text += n;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === '$' || c === '`') {
        const e = this.expansion();
        text += e.text;
        if (e.kind === 'parameter') expanded = true;
        else if (e.kind === 'substitution') substituted = true;
      } else {
        text += c;
        this.pos++;
      }
    }
  }

  /** At `$` or a backtick: the expansion as written, its commands read. */
  private expansion(): { text: string; kind: 'parameter' | 'substitution' | 'literal' } {
    const start = this.pos;
    if (this.peek() === '`') {
      const end = closingBacktick(this.src, this.pos + 1);
      if (end < 0) throw new ShellSyntaxError(`unterminated backtick at ${this.pos + 1}`);
      this.nested(unescapeBackticks(this.src.slice(this.pos + 1, end)), ['`...`']);
      this.pos = end + 1;
      return { text: this.src.slice(start, this.pos), kind: 'substitution' };
    }
    const n = this.peek(1);
    if (n === '(' && this.peek(2) === '(') {
      this.arithmetic(this.pos + 3);
      return { text: this.src.slice(start, this.pos), kind: 'substitution' };
    }
    if (n === '(') {
      this.pos += 2;
      this.sub(')', '$(...)');
      return { text: this.src.slice(start, this.pos), kind: 'substitution' };
    }
    if (n === '{') {
      const end = closingBrace(this.src, this.pos + 2);
      if (end < 0) throw new ShellSyntaxError(`unterminated \`\${\` at ${this.pos + 1}`);
      const inner = this.src.slice(this.pos + 2, end);
      this.pos = end + 1;
      if (inner.includes('$(') || inner.includes('`')) {
        this.substitutionsIn(inner, '${...}');
        return { text: this.src.slice(start, this.pos), kind: 'substitution' };
      }
      return { text: this.src.slice(start, this.pos), kind: 'parameter' };
    }
    if (NAME_START.test(n)) {
      let i = this.pos + 1;
      // Stryker disable next-line all: the name characters it stops before are read as literal characters next, into the same word
      while (i < this.src.length && /\w/.test(this.src[i]!)) i++;
      this.pos = i;
      return { text: this.src.slice(start, i), kind: 'parameter' };
    }
    if (n !== '' && /[0-9@*#?$!-]/.test(n)) {
      this.pos += 2;
      return { text: this.src.slice(start, this.pos), kind: 'parameter' };
    }
    this.pos++;
    return { text: '$', kind: 'literal' };
  }
}

const REDIRECTIONS = ['&>>', '<<<', '<<-', '&>', '<<', '>>', '<&', '>&', '<>', '>|', '<', '>'];

const literal = (text: string): Word => ({ text, expanded: false, substituted: false, quoted: false, plain: true });

/** The index of the backtick closing one opened before `from`, or -1. */
function closingBacktick(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '`') return i;
  }
  return -1;
}

/** Inside backticks, `\\`, `` \` `` and `\$` stand for the character. */
const unescapeBackticks = (s: string): string => s.replace(/\\([\\`$])/g, '$1');

/** The `}` closing a `${` (nesting and quotes honoured), or -1. */
function closingBrace(s: string, from: number): number {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** `$'...'` from after the opening quote: the decoded value and the index of the closing quote (-1 if none). */
function ansiC(s: string, from: number): { value: string; end: number } {
  let value = '';
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === "'") return { value, end: i };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const n = s[++i] ?? '';
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    if (Object.hasOwn(simple, n)) value += simple[n];
    else if (n === 'x' || n === 'u' || n === 'U') {
      const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = /^[0-9a-fA-F]+/.exec(s.slice(i + 1, i + 1 + max))?.[0] ?? '';
      if (hex) {
        value += String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
        i += hex.length;
      } else value += `\\${n}`;
    } else if (n >= '0' && n <= '7') {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i, i + 3))![0];
      value += String.fromCharCode(parseInt(oct, 8) & 0xff);
      i += oct.length - 1;
    } else if (n === 'c') {
      value += String.fromCharCode((s.charCodeAt(++i) || 0) & 0x1f);
    } else value += `\\${n}`;
  }
  return { value, end: -1 };
}

/** Bash brace expansion of an unquoted word: `{rm,-rf}` → rm -rf, `a{b,c}d` → abd acd. At most 256 words. */
export function braceExpand(word: string): string[] {
  const open = word.indexOf('{');
  if (open < 0) return [word];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < word.length; i++) {
    const c = word[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      close = i;
      break;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return [word];
  if (commas.length === 0) {
    const tail = braceExpand(word.slice(close + 1));
    return tail.map((t) => word.slice(0, close + 1) + t);
  }
  const parts: string[] = [];
  let from = open + 1;
  for (const c of [...commas, close]) {
    parts.push(word.slice(from, c));
    from = c + 1;
  }
  const prefix = word.slice(0, open);
  const suffixes = braceExpand(word.slice(close + 1));
  const out: string[] = [];
  for (const p of parts) for (const e of braceExpand(p)) for (const s of suffixes) if (out.length < 256) out.push(prefix + e + s);
  return out;
}
