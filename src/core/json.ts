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
  const parser = new JsonParser(text, positions);
  const value = parser.value([], 0);
  parser.end();
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** One pass over the text: `i` is where it is; each method reads one JSON production there. */
class JsonParser {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly positions: JsonPositions | undefined,
  ) {
    // A leading byte-order mark is tolerated, as most editors write one on Windows.
    if (text.charCodeAt(0) === 0xfeff) this.i = 1;
  }

  /** Only whitespace may follow the value. */
  end(): void {
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected ${this.describe(this.i)} after the JSON value`);
  }

  value(path: (string | number)[], depth: number, keyAt?: number): Json {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.ws();
    const { text } = this;
    this.positions?.set(path, this.i, keyAt);
    const c = text[this.i];
    if (c === '{') return this.object(path, depth);
    if (c === '[') return this.array(path, depth);
    if (c === '"') return this.string();
    if (text.startsWith('true', this.i)) return (this.i += 4), true;
    if (text.startsWith('false', this.i)) return (this.i += 5), false;
    if (text.startsWith('null', this.i)) return (this.i += 4), null;
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(text);
    if (m) {
      this.i += m[0].length;
      return new JsonNumber(m[0]);
    }
    return this.fail(`unexpected ${this.describe(this.i)}`);
  }

  private object(path: (string | number)[], depth: number): JsonObject {
    const { text } = this;
    this.i++;
    const obj: JsonObject = {};
    this.ws();
    if (text[this.i] === '}') {
      this.i++;
      return obj;
    }
    for (;;) {
      this.ws();
      if (text[this.i] !== '"') this.fail(`expected a string key, found ${this.describe(this.i)}`);
      const keyAt = this.i;
      const key = this.string();
      this.ws();
      if (text[this.i] !== ':') this.fail(`expected ':' after key, found ${this.describe(this.i)}`);
      this.i++;
      // Stryker disable next-line ConditionalExpression: without positions the path is never read, so extending it anyway changes nothing
      const value = this.value(this.positions ? [...path, key] : path, depth + 1, keyAt);
      // defineProperty keeps a "__proto__" key as data instead of a prototype swap.
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.closes('}')) return obj;
    }
  }

  private array(path: (string | number)[], depth: number): Json[] {
    this.i++;
    const arr: Json[] = [];
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return arr;
    }
    for (;;) {
      // Stryker disable next-line ConditionalExpression: without positions the path is never read, so extending it anyway changes nothing
      arr.push(this.value(this.positions ? [...path, arr.length] : path, depth + 1));
      if (this.closes(']')) return arr;
    }
  }

  /** After a member: true at the closing bracket (consumed), false after a comma (another member follows). */
  private closes(close: '}' | ']'): boolean {
    this.ws();
    const c = this.text[this.i];
    if (c === ',') {
      this.i++;
      this.ws();
      if (this.text[this.i] === close) this.fail(`trailing comma before ${close}`);
      return false;
    }
    if (c === close) {
      this.i++;
      return true;
    }
    return this.fail(`expected ',' or '${close}', found ${this.describe(this.i)}`);
  }

  private string(): string {
    const { text } = this;
    const start = this.i;
    this.i++; // opening quote
    let out = '';
    let chunk = this.i;
    for (;;) {
      // Stryker disable next-line EqualityOperator: one step past the end the same error is raised, from the same start
      if (this.i >= text.length) this.fail('unterminated string', start);
      const c = text.charCodeAt(this.i);
      if (c === 34) {
        out += text.slice(chunk, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail('control character in string');
      if (c === 92) {
        out += text.slice(chunk, this.i) + this.escape();
        chunk = this.i;
        continue;
      }
      this.i++;
    }
  }

  /** The character a backslash escape at `i` stands for; moves past it. */
  private escape(): string {
    const e = this.text[this.i + 1];
    // Stryker disable next-line ConditionalExpression: the undefined check is for the type checker; `'undefined' in SIMPLE_ESCAPES` is false anyway
    if (e !== undefined && e in SIMPLE_ESCAPES) {
      this.i += 2;
      return SIMPLE_ESCAPES[e]!;
    }
    if (e !== 'u') return this.fail('bad escape in string');
    const hex = this.text.slice(this.i + 2, this.i + 6);
    // Stryker disable next-line Regex: hex is at most four characters, so either anchor alone is enough
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
    this.i += 6;
    return String.fromCharCode(parseInt(hex, 16));
  }

  private ws(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else return;
    }
  }

  private describe(at: number): string {
    return at >= this.text.length ? 'end of input' : `'${this.text[at]}'`;
  }

  private fail(message: string, at = this.i): never {
    throw new JsonSyntaxError(message, at);
  }
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
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN, never a newline, so the length bound only saves time
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
