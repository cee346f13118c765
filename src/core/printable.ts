// Untrusted text (file names, event keys, ids, messages) made safe to show on
// one line: a terminal runs escape sequences and a YAML comment ends at a line
// break (CR, LF, and in YAML 1.1 also NEL, LS and PS), so every C0/C1 control,
// DEL, LS and PS is written as a visible escape instead.

// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex
const HAS_UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

const escape = (c: string): string => {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
};

/** `s` with every control character (line breaks included) written as `\n`, `\e`, `\x85`, `\u2028`... */
export const printable = (s: string): string => (HAS_UNPRINTABLE.test(s) ? s.replace(UNPRINTABLE, escape) : s);

/** Untrusted text of many lines (another machine's hook output): each line printable(), the line breaks kept. */
export const printableLines = (s: string): string => s.split('\n').map(printable).join('\n');
