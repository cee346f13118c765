// Lossless JSON: envelopes must reach hooks with numbers spelled exactly as the
// agent sent them (`1.0` stays `1.0`, 20-digit integers are not rounded), which
// JSON.parse cannot do. The parser also records where each key and value starts
// so hooks.json diagnostics can name a line and column.

/** A JSON number kept as its source text. */
export class JsonNumber {
  constructor(readonly raw: string) {}
  toNumber(): number {
    return Number(this.raw);
  }
  isInteger(): boolean {
    return !/[.eE]/.test(this.raw);
  }
}

export type Json = null | boolean | string | JsonNumber | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export type JsonPath = ReadonlyArray<string | number>;

/** Offsets of a value (and, for object members, of its key) by path. */
export class JsonPositions {
  private readonly map = new Map<string, { key?: number; value: number }>();
  set(path: JsonPath, value: number, key?: number): void {
    this.map.set(pathKey(path), key === undefined ? { value } : { key, value });
  }
  get(path: JsonPath): { key?: number; value: number } | undefined {
    return this.map.get(pathKey(path));
  }
}

const pathKey = (path: JsonPath): string => path.join('\u0000');

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 512;

/** Parses strict JSON (RFC 8259); throws JsonSyntaxError with an offset. */
export function parseJson(text: string, positions?: JsonPositions): Json {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };
  const describe = (at: number): string =>
    at >= text.length ? 'end of input' : `'${text[at]}'`;

  const parseString = (): string => {
    const start = i;
    i++; // opening quote
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(chunk, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('control character in string');
      if (c === 92) {
        out += text.slice(chunk, i);
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          fail('bad escape in string');
        }
        chunk = i;
        continue;
      }
      i++;
    }
  };

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const parseValue = (path: (string | number)[], depth: number, keyAt?: number): Json => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    ws();
    const at = i;
    positions?.set(path, at, keyAt);
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: JsonObject = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a string key, found ${describe(i)}`);
        const kAt = i;
        const key = parseString();
        ws();
        if (text[i] !== ':') fail(`expected ':' after key, found ${describe(i)}`);
        i++;
        const value = parseValue(positions ? [...path, key] : path, depth + 1, kAt);
        // defineProperty keeps a "__proto__" key as data instead of a prototype swap.
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('trailing comma before }');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail(`expected ',' or '}', found ${describe(i)}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: Json[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(positions ? [...path, arr.length] : path, depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('trailing comma before ]');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail(`expected ',' or ']', found ${describe(i)}`);
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return new JsonNumber(m[0]);
    }
    return fail(`unexpected ${describe(i)}`);
  };

  // A leading byte-order mark is tolerated, as most editors write one on Windows.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const value = parseValue([], 0);
  ws();
  if (i < text.length) fail(`unexpected ${describe(i)} after the JSON value`);
  return value;
}

/** Serialises with numbers in their original spelling. */
export function stringifyJson(value: Json | undefined, indent = 0): string {
  const pad = (level: number): string => (indent ? '\n' + ' '.repeat(indent * level) : '');
  const sep = indent ? ': ' : ':';
  const walk = (v: Json | undefined, level: number): string => {
    if (v === null || v === undefined) return 'null';
    if (v instanceof JsonNumber) return v.raw;
    if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[${v.map((x) => pad(level + 1) + walk(x, level + 1)).join(',')}${pad(level)}]`;
    }
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{${keys.map((k) => pad(level + 1) + JSON.stringify(k) + sep + walk(v[k], level + 1)).join(',')}${pad(level)}}`;
  };
  return walk(value, 0);
}

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** Converts lossless numbers to plain JS numbers (for config, where precision is moot). */
export function toPlain(v: Json): unknown {
  if (v instanceof JsonNumber) return v.toNumber();
  if (Array.isArray(v)) return v.map(toPlain);
  if (isJsonObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      Object.defineProperty(out, k, { value: toPlain(v[k]!), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v;
}

/** Line and column (1-based) of an offset. */
export function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
