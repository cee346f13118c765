// JSON with comments read as a tree of positioned nodes, so that an agent's
// settings file can be edited by text: `install` inserts and removes single
// entries and leaves every other byte (comments, key order, spacing) alone.
// Trailing commas are accepted, as VS Code's JSONC accepts them.

export type JsoncNode =
  | { kind: 'object'; start: number; end: number; members: JsoncMember[] }
  | { kind: 'array'; start: number; end: number; items: JsoncNode[] }
  | { kind: 'value'; start: number; end: number; value: string | number | boolean | null };

export interface JsoncMember {
  key: string;
  /** The offset of the key's opening quote; the member ends where its value ends. */
  start: number;
  value: JsoncNode;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 256;

/** Past spaces, line breaks and comments, from `pos`. */
export function skipTrivia(text: string, pos: number): number {
  for (;;) {
    const c = text[pos];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') pos++;
    else if (c === '/' && text[pos + 1] === '/') {
      while (pos < text.length && text[pos] !== '\n') pos++;
    } else if (c === '/' && text[pos + 1] === '*') {
      const close = text.indexOf('*/', pos + 2);
      if (close < 0) throw new JsoncError('unterminated comment', pos);
      pos = close + 2;
    } else return pos;
  }
}

/** The whole text as one value; a JsoncError with the offset of the first problem. */
export function parseJsonc(text: string): JsoncNode {
  const node = parseValue(text, skipTrivia(text, 0), 0);
  const after = skipTrivia(text, node.end);
  if (after < text.length) throw new JsoncError(`unexpected ${JSON.stringify(text[after])} after the value`, after);
  return node;
}

function parseValue(text: string, pos: number, depth: number): JsoncNode {
  if (depth > MAX_DEPTH) throw new JsoncError('nested too deeply', pos);
  const c = text[pos];
  if (c === '{') return parseObject(text, pos, depth);
  if (c === '[') return parseArray(text, pos, depth);
  if (c === '"') {
    const end = stringEnd(text, pos);
    return { kind: 'value', start: pos, end, value: JSON.parse(text.slice(pos, end)) as string };
  }
  const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(pos, pos + 400));
  if (!literal) throw new JsoncError(c === undefined ? 'unexpected end of the file' : `unexpected ${JSON.stringify(c)}`, pos);
  const end = pos + literal[0].length;
  return { kind: 'value', start: pos, end, value: JSON.parse(literal[0]) as number | boolean | null };
}

function stringEnd(text: string, pos: number): number {
  let i = pos + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else if (c === '\n') break;
    else i++;
  }
  throw new JsoncError('unterminated string', pos);
}

function parseObject(text: string, start: number, depth: number): JsoncNode {
  const members: JsoncMember[] = [];
  let pos = skipTrivia(text, start + 1);
  while (text[pos] !== '}') {
    if (text[pos] !== '"') throw new JsoncError(pos >= text.length ? 'unexpected end of the file in an object' : 'expected a key in double quotes', pos);
    const keyEnd = stringEnd(text, pos);
    const key = JSON.parse(text.slice(pos, keyEnd)) as string;
    const colon = skipTrivia(text, keyEnd);
    if (text[colon] !== ':') throw new JsoncError('expected ":" after the key', colon);
    const value = parseValue(text, skipTrivia(text, colon + 1), depth + 1);
    members.push({ key, start: pos, value });
    pos = skipTrivia(text, value.end);
    if (text[pos] === ',') pos = skipTrivia(text, pos + 1);
    else if (text[pos] !== '}') throw new JsoncError('expected "," or "}"', pos);
  }
  return { kind: 'object', start, end: pos + 1, members };
}

function parseArray(text: string, start: number, depth: number): JsoncNode {
  const items: JsoncNode[] = [];
  let pos = skipTrivia(text, start + 1);
  while (text[pos] !== ']') {
    if (pos >= text.length) throw new JsoncError('unexpected end of the file in an array', pos);
    const item = parseValue(text, pos, depth + 1);
    items.push(item);
    pos = skipTrivia(text, item.end);
    if (text[pos] === ',') pos = skipTrivia(text, pos + 1);
    else if (text[pos] !== ']') throw new JsoncError('expected "," or "]"', pos);
  }
  return { kind: 'array', start, end: pos + 1, items };
}

/** The plain value of a node (objects keep the last of duplicate keys, as JSON.parse does). */
export function plainOf(node: JsoncNode): unknown {
  if (node.kind === 'value') return node.value;
  if (node.kind === 'array') return node.items.map(plainOf);
  const out: Record<string, unknown> = {};
  for (const m of node.members) Object.defineProperty(out, m.key, { value: plainOf(m.value), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The member named `key` (the last, as agents read it), if any. */
export const memberOf = (node: JsoncNode | undefined, key: string): JsoncMember | undefined =>
  node?.kind === 'object' ? [...node.members].reverse().find((m) => m.key === key) : undefined;

/** 1-based line and column of an offset. */
export function lineColOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
