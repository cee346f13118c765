// Chrys hook files hold Python regular expressions (re.search semantics).
// This translates the Python spellings into an equivalent JavaScript RegExp
// with the `u` flag, or says why it cannot.

import { patternWidth } from './pyregex-width.js';

/** `unsupported`: valid Python with no JavaScript equivalent; otherwise the pattern is invalid in Python too. */
export type RegexResult = { ok: true; regex: RegExp } | { ok: false; error: string; unsupported: boolean };

const WORD = '\\p{L}\\p{N}_';
const WORD_ASCII = 'A-Za-z0-9_';
// Python's str.isspace(); JavaScript's \s differs (it has U+FEFF, lacks \x1c-\x1f and \x85).
const SPACE_UNICODE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const END = '(?![\\s\\S])';
// Python's IGNORECASE treats i, I, U+0130 and U+0131 as one letter; JavaScript's `iu` does not.
// (Its other special folds, Lib/re/_casefix.py: long s, Kelvin sign, final
// sigma, micro sign, the Greek symbol forms..., are ones `iu` makes too.)
const DOTTED_I = 'iI\u0130\u0131';
// Letters that have a case pair in JavaScript's Unicode data (15.0 and later)
// but none in Python 3.11's (14.0): under (?i) JavaScript would match the pair
// and Python not, so a pattern that needs them folded is refused.
const NEWER_CASED: readonly [number, number][] = [
  [0x19b, 0x19b], [0x264, 0x264], [0x1c89, 0x1c8a], [0xa7cb, 0xa7cf], [0xa7d2, 0xa7d5], [0xa7da, 0xa7dc],
  [0x10d50, 0x10d65], [0x10d70, 0x10d85], [0x16ea0, 0x16eb8], [0x16ebb, 0x16ed3],
];
const START = '(?<![\\s\\S])';
// Characters that must stay escaped to be literal in a JS `u` pattern.
const JS_SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);

export function compilePythonRegex(source: string): RegexResult {
  try {
    const { pattern, flags } = translate(source);
    return { ok: true, regex: new RegExp(pattern, flags) };
  } catch (e) {
    if (e instanceof Untranslatable) return { ok: false, error: e.message, unsupported: true };
    // The engine's message quotes the translated pattern; keep only its reason.
    const reason = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return { ok: false, error: reason, unsupported: false };
  }
}

class Untranslatable extends Error {}
/** A pattern Python's `re` rejects as well. */
class InvalidPattern extends Error {}

type Piece = { text: string; length: number };
/** An escape; `cp` when it stands for one character (\x41, \u0130, \n, \.), so it folds and bounds ranges like one. */
type Escaped = Piece & { cp?: number };
const codePointText = (cp: number): string => `\\u{${cp.toString(16)}}`;
const U = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
/** The case pair of a NEWER_CASED letter, as JavaScript knows it. */
const partnerOf = (cp: number): number => {
  const c = String.fromCodePoint(cp);
  const other = c.toLowerCase() !== c ? c.toLowerCase() : c.toUpperCase();
  return other.codePointAt(0)!;
};
function refuseNewerCase(lo: number, hi: number): void {
  for (const [a, b] of NEWER_CASED) {
    for (let cp = Math.max(a, lo); cp <= Math.min(b, hi); cp++) {
      const pair = partnerOf(cp);
      if (pair < lo || pair > hi) throw new Untranslatable(`${U(cp)} and ${U(pair)} are one letter in two cases only in Unicode 15 and later; Python 3.11 (Unicode 14) does not fold them, so (?i) cannot match as Python does`);
    }
  }
}
const piece = (text: string, length = 1): Piece => ({ text, length });

function translate(source: string): { pattern: string; flags: string } {
  const { flags, length } = leadingFlags(source);
  if (flags.has('L')) throw new Untranslatable('the (?L) locale flag has no JavaScript equivalent');
  const src = flags.has('x') ? source.slice(0, length) + stripVerbose(source.slice(length)) : source;
  const t = new Translator(src, flags);
  let out = '';
  for (let i = length; i < src.length; ) {
    const { text, length: used } = t.token(i);
    out += text;
    i += used;
  }
  // With (?a), only ASCII letters fold (JavaScript's `i` would also fold K to the Kelvin sign): folded by hand.
  return { pattern: out, flags: t.ignoreCase && !t.ascii ? 'iu' : 'u' };
}

/** A leading global inline-flag group: (?i), (?ms), (?aiL) ... */
function leadingFlags(src: string): { flags: Set<string>; length: number } {
  const flags = new Set<string>();
  let length = 0;
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(src); m; m = /^\(\?([aiLmsux]+)\)/.exec(src.slice(length))) {
    for (const f of m[1]!) flags.add(f);
    length += m[0].length;
  }
  return { flags, length };
}

/** The translation of one pattern under its global flags, a token at a time. */
class Translator {
  readonly ascii: boolean;
  readonly ignoreCase: boolean;
  private readonly multiline: boolean;
  private readonly dotall: boolean;
  private readonly word: string;
  private readonly boundary: string;
  private readonly nonBoundary: string;
  private readonly digit: string;
  private readonly space: string;

  constructor(
    private readonly src: string,
    flags: ReadonlySet<string>,
  ) {
    this.ascii = flags.has('a');
    this.ignoreCase = flags.has('i');
    this.multiline = flags.has('m');
    this.dotall = flags.has('s');
    const word = this.ascii ? WORD_ASCII : WORD;
    this.word = word;
    this.boundary = `(?:(?<=[${word}])(?![${word}])|(?<![${word}])(?=[${word}]))`;
    this.nonBoundary = `(?:(?<=[${word}])(?=[${word}])|(?<![${word}])(?![${word}]))`;
    this.digit = this.ascii ? '0-9' : '\\p{Nd}';
    this.space = this.ascii ? ' \\t\\n\\r\\f\\v' : SPACE_UNICODE;
  }

  /** The JavaScript for the token at `i`, and how many characters of the source it took. */
  token(i: number): Piece {
    const c = this.src[i]!;
    switch (c) {
      case '\\': {
        const e = this.escape(this.src, i, false);
        return e.cp !== undefined && this.ignoreCase ? piece(this.foldedLiteral(e.cp, e.text), e.length) : e;
      }
      case '[':
        return this.charClass(this.src, i);
      case '(':
        return this.group(i);
      case '{':
        return this.brace(i);
      case '}':
      case ']':
        return piece('\\' + c);
      case '.':
        return piece(this.dotall ? '[\\s\\S]' : '[^\\n]');
      case '$':
        return piece(this.multiline ? `(?=\\n|${END})` : `(?=\\n?${END})`);
      case '^':
        return piece(this.multiline ? `(?:${START}|(?<=\\n))` : START);
    }
    if ((c === '+' || c === '*' || c === '?') && this.src[i + 1] === '+') throw new Untranslatable('possessive quantifiers have no JavaScript equivalent');
    const ch = String.fromCodePoint(this.src.codePointAt(i)!);
    return piece(this.ignoreCase ? this.foldedLiteral(ch.codePointAt(0)!, ch) : ch, ch.length);
  }

  /** A group opening: named groups and back-references respelled, comments dropped, what JavaScript lacks refused. */
  private group(i: number): Piece {
    const src = this.src;
    if (src.startsWith('(?P<', i)) return piece('(?<', 4);
    const backref = /^\(\?P=(\w+)\)/.exec(src.slice(i));
    if (backref) return piece(`\\k<${backref[1]}>`, backref[0].length);
    if (src.startsWith('(?#', i)) {
      const close = src.indexOf(')', i);
      if (close < 0) throw new InvalidPattern('unterminated comment');
      return piece('', close + 1 - i);
    }
    if (/^\(\?[aiLmsux-]+[:)]/.test(src.slice(i))) {
      throw new Untranslatable('inline flags are only supported at the start of the pattern');
    }
    if ((src.startsWith('(?<=', i) || src.startsWith('(?<!', i)) && patternWidth(src, i + 4).width === undefined) {
      throw new SyntaxError('look-behind requires a fixed-width pattern'); // Python rejects it too: invalid, not untranslatable
    }
    if (src.startsWith('(?>', i) || src.startsWith('(?(', i)) {
      throw new Untranslatable('atomic groups and conditionals have no JavaScript equivalent');
    }
    return piece('(');
  }

  /** A `{`: a counted quantifier ({2}, {,3}, {2,}, and {,} as Python reads it: {0,}) or a literal brace ({}, {x}). */
  private brace(i: number): Piece {
    const q = /^\{(\d*)(,?)(\d*)\}/.exec(this.src.slice(i));
    if (!q || !(q[1] || q[2])) return piece('\\{');
    if (this.src[i + q[0].length] === '+') throw new Untranslatable('possessive quantifiers have no JavaScript equivalent');
    return piece(`{${q[1] || '0'}${q[2]}${q[3]}}`, q[0].length);
  }

  private escape(s: string, at: number, inClass: boolean): Escaped {
    const e = s[at + 1];
    if (e === undefined) throw new InvalidPattern('pattern ends with a lone backslash');
    const two = (text: string): Escaped => ({ text, length: 2 });
    const char = (cp: number, length: number, text = codePointText(cp)): Escaped => ({ text, length, cp });
    switch (e) {
      case 'w':
        return two(inClass ? this.word : `[${this.word}]`);
      case 'W':
        return two(`[^${this.word}]`); // in a class, handled by charClass
      case 'd':
        return two(inClass ? this.digit : `[${this.digit}]`);
      case 'D':
        return two(this.ascii ? (inClass ? '\\D' : '[^0-9]') : '\\P{Nd}');
      case 's':
        return two(inClass ? this.space : `[${this.space}]`);
      case 'S':
        return two(`[^${this.space}]`); // in a class, handled by charClass
      case 'b':
        return inClass ? char(8, 2, '\\x08') : two(this.boundary);
      case 'B':
        if (inClass) throw new InvalidPattern('\\B is not allowed in a character class');
        return two(this.nonBoundary);
      case 'A':
        return two(START);
      case 'Z':
        return two(END);
      case 'a':
        return char(7, 2, '\\x07');
      case 'n': case 't': case 'r': case 'f': case 'v':
        return char({ n: 10, t: 9, r: 13, f: 12, v: 11 }[e], 2, '\\' + e);
      case 'x': {
        const h = /^[0-9a-fA-F]{2}/.exec(s.slice(at + 2));
        if (!h) throw new InvalidPattern('bad \\x escape');
        return char(parseInt(h[0], 16), 4, '\\x' + h[0]);
      }
      case 'u': {
        const h = /^[0-9a-fA-F]{4}/.exec(s.slice(at + 2));
        if (!h) throw new InvalidPattern('bad \\u escape');
        return char(parseInt(h[0], 16), 6, '\\u' + h[0]);
      }
      case 'U': {
        const h = /^[0-9a-fA-F]{8}/.exec(s.slice(at + 2));
        if (!h) throw new InvalidPattern('bad \\U escape');
        const cp = parseInt(h[0], 16);
        if (cp > 0x10ffff) throw new InvalidPattern(`bad escape \\U${h[0]}`);
        return char(cp, 10);
      }
      case 'N':
        throw new Untranslatable('named characters (\\N{...}) are not supported');
    }
    if (e === '0' || (inClass && /[0-7]/.test(e))) {
      const o = /^[0-7]{1,3}/.exec(s.slice(at + 1))!;
      return char(parseInt(o[0], 8), 1 + o[0].length);
    }
    if (/[1-9]/.test(e)) {
      const o = /^[1-7][0-7]{2}/.exec(s.slice(at + 1));
      if (o) return char(parseInt(o[0], 8), 4);
      // Stryker disable next-line Regex: JavaScript reads the digits that follow as the same back-reference
      const d = /^\d{1,2}/.exec(s.slice(at + 1))!;
      return { text: '\\' + d[0], length: 1 + d[0].length };
    }
    if (/[A-Za-z]/.test(e)) throw new InvalidPattern(`bad escape \\${e}`);
    // Python lets any other character be escaped; JS `u` mode only syntax characters.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: \u{...} is as literal as the escaped character, so this only keeps the pattern readable
    const cp = s.codePointAt(at + 1)!;
    const length = 1 + String.fromCodePoint(cp).length;
    if (JS_SYNTAX.has(e) || (inClass && e === '-')) return char(cp, length, '\\' + e);
    return char(cp, length);
  }

  private charClass(s: string, at: number): { text: string; length: number } {
    let k = at + 1;
    let negated = false;
    if (s[k] === '^') {
      negated = true;
      k++;
    }
    let body = '';
    // Negated shorthands (\W, \S) cannot sit inside a JS `u` class: they become alternatives.
    const outside: string[] = [];
    let first = true;
    for (;;) {
      // Stryker disable next-line EqualityOperator: one step past the end the same error is raised
      if (k >= s.length) throw new InvalidPattern('unterminated character class');
      const ch = s[k]!;
      if (ch === ']' && !first) break;
      first = false;
      if (ch === '\\') {
        if (s[k + 1] === 'W' || s[k + 1] === 'S') {
          outside.push(s[k + 1] === 'W' ? `[^${this.word}]` : `[^${this.space}]`);
          k += 2;
          if (startsRange(s, k)) throw new InvalidPattern(`bad character range ${s.slice(k - 2, k + 2)}`);
          continue;
        }
      }
      const lo = this.classItem(s, k);
      k += lo.length;
      if (startsRange(s, k)) {
        if (lo.cp === undefined) throw new InvalidPattern(`bad character range ${s.slice(k - lo.length, k + 2)}`);
        const hi = this.classItem(s, k + 1);
        if (hi.cp === undefined || hi.cp < lo.cp) throw new InvalidPattern(`bad character range ${s.slice(k - lo.length, k + 1 + hi.length)}`);
        body += `${lo.text}-${hi.text}${this.ignoreCase ? this.foldedRange(lo.cp, hi.cp) : ''}`;
        k += 1 + hi.length;
        continue;
      }
      body += lo.text + (this.ignoreCase && lo.cp !== undefined ? this.foldedRange(lo.cp, lo.cp) : '');
    }
    const length = k + 1 - at;
    // Stryker disable next-line ConditionalExpression: a class with no negated shorthand means the same as the alternative form
    if (outside.length === 0) return { text: `[${negated ? '^' : ''}${body}]`, length };
    const any = [`[${body}]`, ...outside].join('|');
    return { text: negated ? `(?:(?!${any})[\\s\\S])` : `(?:${any})`, length };
  }

  /** One member of a class at `k`: an escape, or a character by code point (so an astral one is whole). */
  private classItem(s: string, k: number): Escaped {
    if (s[k] === '\\') return this.escape(s, k, true);
    const cp = s.codePointAt(k)!;
    const ch = String.fromCodePoint(cp);
    // A `u` class reads a bare - after a class escape (\w-a) as an error, Python as a literal.
    // Stryker disable next-line ConditionalExpression,StringLiteral: a `u` class reads a bare [ as a literal too
    return { text: ch === '[' || ch === ']' || ch === '-' ? '\\' + ch : ch, length: ch.length, cp };
  }

  /** A literal outside a class, with the folds JavaScript's `iu` gets wrong for Python. */
  private foldedLiteral(cp: number, text: string): string {
    const c = String.fromCodePoint(cp);
    if (this.ascii) return /[A-Za-z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : text;
    refuseNewerCase(cp, cp);
    return DOTTED_I.includes(c) ? `[${DOTTED_I}]` : text;
  }

  /** What a class range lo-hi must add to match as Python's IGNORECASE does. */
  private foldedRange(a: number, b: number): string {
    if (!this.ascii) refuseNewerCase(a, b);
    if (!this.ascii) return [...DOTTED_I].some((ch) => a <= ch.codePointAt(0)! && ch.codePointAt(0)! <= b) ? DOTTED_I : '';
    let extra = '';
    const overlap = (from: number, to: number, shift: number): void => {
      const x = Math.max(a, from);
      const y = Math.min(b, to);
      if (x <= y) extra += `${String.fromCharCode(x + shift)}-${String.fromCharCode(y + shift)}`;
    };
    overlap(97, 122, -32);
    overlap(65, 90, 32);
    return extra;
  }
}

/** Whether a `-` at `k` in a class makes a range (it is literal before the closing `]`). */
const startsRange = (s: string, k: number): boolean => s[k] === '-' && s[k + 1] !== undefined && s[k + 1] !== ']';

function stripVerbose(src: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += c + (src[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) continue;
    out += c;
  }
  return out;
}
