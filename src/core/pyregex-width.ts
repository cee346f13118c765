// Python accepts a look-behind only when its pattern has one fixed width;
// JavaScript accepts any. To reject what Python rejects, this measures the
// width of a Python (sub)pattern: a number, or undefined when it varies.

const ESCAPE = /^\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|0[0-7]{0,2}|[1-7][0-7]{2}|[\s\S])/u;

/** The width of src[from..] up to the `)` that closes it (or the end), and where that is. */
export function patternWidth(src: string, from: number): { width: number | undefined; end: number } {
  const branches: (number | undefined)[] = [];
  let width: number | undefined = 0;
  let last: number | undefined = 0; // the width of the atom a quantifier would apply to
  let i = from;
  const add = (w: number | undefined): void => {
    last = w;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a width of NaN compares unequal to every branch, as undefined does
    width = width === undefined || w === undefined ? undefined : width + w;
  };
  while (i < src.length && src[i] !== ')') {
    const c = src[i]!;
    if (c === '\\') {
      const e = ESCAPE.exec(src.slice(i))![0];
      add(/^\\[bBAZ]$/.test(e) ? 0 : /^\\[1-9]/.test(e) && e.length < 4 ? undefined : 1);
      i += e.length;
    } else if (c === '[') {
      i = classEnd(src, i);
      add(1);
    } else if (src.startsWith('(?#', i)) {
      const close = src.indexOf(')', i); // a comment has no width
      i = close < 0 ? src.length : close + 1;
    } else if (c === '(') {
      const lookaround = /^\(\?(?:=|!|<=|<!)/.exec(src.slice(i));
      const inner = patternWidth(src, i + (lookaround ? lookaround[0].length : src.startsWith('(?', i) ? groupPrefix(src, i) : 1));
      add(lookaround ? 0 : src.startsWith('(?P=', i) ? undefined : inner.width);
      i = inner.end + 1;
    } else if (c === '|') {
      branches.push(width);
      width = 0;
      last = 0;
      i++;
    } else if (c === '*' || c === '+' || c === '?') {
      width = undefined;
      i++;
    } else if (c === '{' && /^\{\d*,?\d*\}/.test(src.slice(i))) {
      const [, lo, comma, hi] = /^\{(\d*)(,?)(\d*)\}/.exec(src.slice(i))!;
      const n = Number(lo || 0);
      const fixed = comma === '' || (hi !== '' && Number(hi) === n);
      width = !fixed || width === undefined || last === undefined ? undefined : width + last * (n - 1);
      i += `{${lo}${comma}${hi}}`.length;
    } else {
      add(c === '^' || c === '$' ? 0 : 1);
      i += String.fromCodePoint(src.codePointAt(i)!).length;
    }
  }
  branches.push(width);
  // Stryker disable next-line ConditionalExpression: when every branch is undefined, the width is undefined either way
  const same = branches.every((b) => b !== undefined && b === branches[0]);
  return { width: same ? branches[0] : undefined, end: i };
}

function classEnd(src: string, at: number): number {
  let k = at + 1;
  if (src[k] === '^') k++;
  if (src[k] === ']') k++;
  while (k < src.length && src[k] !== ']') k += src[k] === '\\' ? 2 : 1;
  return k + 1;
}

/** Length of a `(?...` group opener up to its body: `(?:`, `(?P<name>`, `(?i:`. */
function groupPrefix(src: string, at: number): number {
  const m = /^\(\?(?:P<\w+>|[aiLmsux-]*:)/.exec(src.slice(at));
  return m ? m[0].length : 2;
}
