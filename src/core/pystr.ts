// Chrys compares tool arguments as Python's str() prints them, because its
// matcher ran in Python. Existing hook files depend on that spelling
// (`True`, `1.0`, `['a', 'b']`), so we reproduce it exactly.

import { type Json, JsonNumber, isJsonObject } from './json.js';

/** Python's str() of a value decoded by json.loads; undefined for null (missing). */
export function pyStr(value: Json | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  return pyRepr(value);
}

/** Python's repr(); iterative, so a list nested 100,000 deep prints instead of overflowing the stack. */
export function pyRepr(value: Json): string {
  const out: string[] = [];
  // Work items, last first: a value to print, or text printed as is.
  const work: (Json | Text)[] = [value];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (item instanceof Text) out.push(item.text);
    else if (item === null) out.push('None');
    else if (item === true) out.push('True');
    else if (item === false) out.push('False');
    else if (typeof item === 'string') out.push(reprString(item));
    else if (item instanceof JsonNumber) out.push(reprNumber(item));
    else if (Array.isArray(item)) {
      out.push('[');
      work.push(new Text(']'));
      for (let k = item.length - 1; k >= 0; k--) {
        work.push(item[k]!);
        if (k > 0) work.push(new Text(', '));
      }
    } else if (isJsonObject(item)) {
      const keys = Object.keys(item);
      out.push('{');
      work.push(new Text('}'));
      for (let k = keys.length - 1; k >= 0; k--) {
        work.push(item[keys[k]!]!);
        work.push(new Text(`${k > 0 ? ', ' : ''}${reprString(keys[k]!)}: `));
      }
    } else out.push(String(item));
  }
  return out.join('');
}

class Text {
  constructor(readonly text: string) {}
}

function reprNumber(n: JsonNumber): string {
  if (n.isInteger()) {
    // json.loads makes an int of any size: print it exactly, minus a "-0" sign.
    const raw = n.raw.replace(/^(-?)0+(?=\d)/, '$1');
    return raw === '-0' ? '0' : raw;
  }
  return reprFloat(n.toNumber());
}

/** Python float repr: shortest round-trip digits, fixed for 1e-4 <= |x| < 1e16. */
export function reprFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  // Stryker disable next-line EqualityOperator: x is an infinity here, never 0
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expPart] = x.toExponential().split('e') as [string, string];
  const exp = Number(expPart);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    // Stryker disable next-line EqualityOperator: exp is never 0 in this branch
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || '0'}`;
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    // Stryker disable next-line ConditionalExpression,LogicalOperator: these are Cc, which escapeNonPrintable spells the same way
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (!isPrintable(cp)) out += escapeNonPrintable(cp);
    else out += ch;
  }
  return out + quote;
}

// Python's str.isprintable(): not in categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except space).
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const isPrintable = (cp: number): boolean => cp === 0x20 || !NON_PRINTABLE.test(String.fromCodePoint(cp));

function escapeNonPrintable(cp: number): string {
  // Stryker disable next-line EqualityOperator,StringLiteral: U+00FF is printable, and what is left below it has two hex digits
  if (cp <= 0xff) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}
