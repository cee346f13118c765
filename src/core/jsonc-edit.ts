// Text edits of a JSONC document that touch only the entry they add or
// remove: appending an entry writes a comma after the last one and the new
// entry on its own line (or inline, in an inline container); removing one
// undoes exactly that. Comments, spacing and key order elsewhere stay as
// they were, byte for byte.

import { type JsoncNode, skipTrivia } from './jsonc.js';

type Container = Extract<JsoncNode, { kind: 'object' | 'array' }>;

interface Span {
  start: number;
  end: number;
}

const spansOf = (c: Container): Span[] => (c.kind === 'object' ? c.members.map((m) => ({ start: m.start, end: m.value.end })) : c.items.map((i) => ({ start: i.start, end: i.end })));

const lineStart = (text: string, pos: number): number => text.lastIndexOf('\n', pos - 1) + 1;

/** Whether only spaces stand between the start of its line and `pos`. */
const startsLine = (text: string, pos: number): boolean => /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));

/** The spaces that start the line holding `pos`. */
export const indentAt = (text: string, pos: number): string => /^[ \t]*/.exec(text.slice(lineStart(text, pos)))![0];

/** Where the line break before `pos`'s line begins (its CR, when CRLF), for deleting that line from the one above. */
function breakBefore(text: string, pos: number): number {
  const nl = lineStart(text, pos) - 1;
  return nl > 0 && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** The end of what follows `pos` on its line: spaces and comments that close on the line, up to the line break. */
function lineTail(text: string, pos: number): number {
  for (;;) {
    while (text[pos] === ' ' || text[pos] === '\t') pos++;
    if (text.startsWith('//', pos)) {
      const nl = text.indexOf('\n', pos);
      const end = nl < 0 ? text.length : nl;
      return text[end - 1] === '\r' ? end - 1 : end;
    }
    if (text.startsWith('/*', pos)) {
      const close = text.indexOf('*/', pos + 2);
      if (close < 0 || text.slice(pos, close).includes('\n')) return pos;
      pos = close + 2;
      continue;
    }
    return pos;
  }
}

/** The indentation one level deeper than the document's: its first indented line's, else two spaces. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : '  ';
}

const newline = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

function apply(text: string, edits: Edit[]): string {
  let out = text;
  // From the end; of two edits at one offset the later-listed goes first, so its text ends up after the other's.
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.at - a.e.at || b.i - a.i);
  for (const { e } of order) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
  return out;
}

/**
 * `entry` (a member `"key": value` or an item, as text on one line) added
 * after the container's last entry.
 */
export function appendEntry(text: string, container: Container, entry: string): string {
  const spans = spansOf(container);
  const nl = newline(text);
  const last = spans[spans.length - 1];
  if (!last) {
    const inner = text.slice(container.start + 1, container.end - 1);
    const outer = indentAt(text, container.start);
    const body = `${nl}${outer}${indentUnit(text)}${entry}`;
    if (/^\s*$/.test(inner)) return apply(text, [{ at: container.start + 1, remove: inner.length, insert: `${body}${nl}${outer}` }]);
    return apply(text, [{ at: container.start + 1, remove: 0, insert: body }]);
  }
  const after = skipTrivia(text, last.end);
  const trailingComma = text[after] === ',';
  if (startsLine(text, last.start)) {
    const line = `${nl}${indentAt(text, last.start)}${entry}`;
    if (trailingComma) return apply(text, [{ at: lineTail(text, after + 1), remove: 0, insert: line }]);
    return apply(text, [
      { at: last.end, remove: 0, insert: ',' },
      { at: lineTail(text, last.end), remove: 0, insert: line },
    ]);
  }
  if (trailingComma) return apply(text, [{ at: after + 1, remove: 0, insert: ` ${entry}` }]);
  return apply(text, [{ at: last.end, remove: 0, insert: `, ${entry}` }]);
}

/** The container's entry `index` removed with its separator, the inverse of appendEntry. */
export function removeEntry(text: string, container: Container, index: number): string {
  const spans = spansOf(container);
  const e = spans[index];
  if (!e) throw new RangeError(`no entry ${index}`);
  const after = skipTrivia(text, e.end);
  const ownComma = text[after] === ',';
  if (spans.length === 1) {
    const end = ownComma ? after + 1 : e.end;
    const rest = text.slice(container.start + 1, e.start) + text.slice(end, container.end - 1);
    // Left empty: `{}` / `[]` again, as a file install created.
    if (/^\s*$/.test(rest)) return apply(text, [{ at: container.start + 1, remove: container.end - 1 - (container.start + 1), insert: '' }]);
    const start = startsLine(text, e.start) ? breakBefore(text, e.start) : e.start;
    return apply(text, [{ at: start, remove: end - start, insert: '' }]);
  }
  const isLast = index === spans.length - 1;
  if (isLast && !ownComma) {
    const prev = spans[index - 1]!;
    const comma = skipTrivia(text, prev.end);
    if (!startsLine(text, e.start)) return apply(text, [{ at: prev.end, remove: e.end - prev.end, insert: '' }]);
    const start = breakBefore(text, e.start);
    return apply(text, [
      { at: comma, remove: 1, insert: '' },
      { at: start, remove: e.end - start, insert: '' },
    ]);
  }
  if (startsLine(text, e.start)) {
    const start = breakBefore(text, e.start);
    return apply(text, [{ at: start, remove: after + 1 - start, insert: '' }]);
  }
  let end = after + 1;
  while (text[end] === ' ' || text[end] === '\t') end++;
  return apply(text, [{ at: e.start, remove: end - e.start, insert: '' }]);
}

/** A value node's text replaced (a command string rewritten in place). */
export const replaceNode = (text: string, node: JsoncNode, replacement: string): string => text.slice(0, node.start) + replacement + text.slice(node.end);

/** One-line JSON in the spacing the agents' docs use: `{ "a": 1, "b": [{ "c": 2 }] }`. */
export function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}
