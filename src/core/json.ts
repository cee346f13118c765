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

/** Parses strict JSON (RFC 8259); throws JsonSyntaxError with an offset. */
export function parseJson(text: string, positions?: JsonPositions): Json {
  const parser = new JsonParser(text, positions);
  const value = parser.value();
  parser.end();
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * One pass over the text: `i` is where it is; each method reads one JSON
 * production there. Containers are kept on an explicit stack, not the call
 * stack: an agent's tool arguments may nest thousands deep, and a refusal
 * there would let the call through unguarded.
 */
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

  value(): Json {
    // The open containers, innermost last; `keys` holds each open object's current key (arrays: undefined).
    const open: (Json[] | JsonObject)[] = [];
    const keys: (string | undefined)[] = [];
    const paths: (string | number)[][] = [];
    let keyAt: number | undefined;
    for (;;) {
      this.ws();
      const path = this.positions ? this.childPath(open, keys, paths) : [];
      this.positions?.set(path, this.i, keyAt);
      let done: Json;
      const c = this.text[this.i];
      if (c === '{' || c === '[') {
        this.i++;
        this.ws();
        const close = c === '{' ? '}' : ']';
        if (this.text[this.i] === close) {
          this.i++;
          done = c === '{' ? {} : [];
        } else {
          open.push(c === '{' ? {} : []);
          paths.push(path);
          keys.push(undefined);
          if (c === '{') keyAt = this.key(keys);
          else keyAt = undefined;
          continue;
        }
      } else {
        done = this.scalar();
      }
      // Hand the finished value to its container; close every container that ends here.
      for (;;) {
        const top = open.at(-1);
        if (top === undefined) return done;
        if (Array.isArray(top)) {
          top.push(done);
          if (!this.closes(']')) break;
        } else {
          defineData(top, keys.at(-1)!, done);
          if (!this.closes('}')) {
            keyAt = this.key(keys);
            break;
          }
        }
        done = top;
        open.pop();
        keys.pop();
        paths.pop();
      }
      if (Array.isArray(open.at(-1))) keyAt = undefined;
    }
  }

  /** The path of the value about to be read (positions only). */
  private childPath(open: readonly (Json[] | JsonObject)[], keys: readonly (string | undefined)[], paths: readonly (string | number)[][]): (string | number)[] {
    const top = open.at(-1);
    if (top === undefined) return [];
    return [...paths.at(-1)!, Array.isArray(top) ? top.length : keys.at(-1)!];
  }

  /** An object member's key and its colon; the key becomes the innermost object's current key. Returns where the key starts. */
  private key(keys: (string | undefined)[]): number {
    this.ws();
    if (this.text[this.i] !== '"') this.fail(`expected a string key, found ${this.describe(this.i)}`);
    const at = this.i;
    keys[keys.length - 1] = this.string();
    this.ws();
    if (this.text[this.i] !== ':') this.fail(`expected ':' after key, found ${this.describe(this.i)}`);
    this.i++;
    return at;
  }

  private scalar(): Json {
    const { text } = this;
    if (text[this.i] === '"') return this.string();
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

// Past this many levels an indented value is printed on one line: each level
// adds its indent to every line below it, so a deep value would grow
// quadratically (100,000 levels: gigabytes).
const MAX_INDENT_LEVEL = 64;

/** Serialises with numbers in their original spelling; iterative, so any depth is safe. */
export function stringifyJson(value: Json | undefined, indent = 0): string {
  const out: string[] = [];
  const pad = (level: number): string => (indent && level <= MAX_INDENT_LEVEL ? '\n' + ' '.repeat(indent * level) : '');
  const sep = indent ? ': ' : ':';
  // Work items, last first: a value to print at a level, or text printed as is.
  const work: ({ v: Json | undefined; level: number } | string)[] = [{ v: value, level: 0 }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { v, level } = item;
    if (v === null || v === undefined) out.push('null');
    else if (v instanceof JsonNumber) out.push(v.raw);
    else if (typeof v === 'string' || typeof v === 'boolean') out.push(JSON.stringify(v));
    else if (typeof v === 'number') out.push(Number.isFinite(v) ? String(v) : 'null');
    else if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        continue;
      }
      out.push('[');
      work.push(pad(level) + ']');
      for (let k = v.length - 1; k >= 0; k--) {
        work.push({ v: v[k], level: level + 1 });
        work.push((k > 0 ? ',' : '') + pad(level + 1));
      }
    } else {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      if (keys.length === 0) {
        out.push('{}');
        continue;
      }
      out.push('{');
      work.push(pad(level) + '}');
      for (let k = keys.length - 1; k >= 0; k--) {
        work.push({ v: v[keys[k]!], level: level + 1 });
        work.push((k > 0 ? ',' : '') + pad(level + 1) + JSON.stringify(keys[k]) + sep);
      }
    }
  }
  return out.join('');
}

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

const defineData = (target: object, key: string, value: unknown): void => {
  // defineProperty keeps a "__proto__" key as data instead of a prototype swap.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/** Converts lossless numbers to plain JS numbers (for config, where precision is moot). Iterative: any depth. */
export function toPlain(v: Json): unknown {
  const convert = (x: Json): unknown => (x instanceof JsonNumber ? x.toNumber() : Array.isArray(x) ? [] : isJsonObject(x) ? {} : x);
  const root = convert(v);
  const work: [Json, unknown][] = [[v, root]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [from, to] = item;
    if (Array.isArray(from)) {
      for (const x of from) {
        const c = convert(x);
        (to as unknown[]).push(c);
        if (typeof c === 'object' && c !== null) work.push([x, c]);
      }
    } else if (isJsonObject(from)) {
      for (const k of Object.keys(from)) {
        const c = convert(from[k]!);
        defineData(to as object, k, c);
        if (typeof c === 'object' && c !== null) work.push([from[k]!, c]);
      }
    }
  }
  return root;
}

/**
 * A plain JS value (an API caller's object) as Json, as JSON.stringify then
 * parseJson would give it, without their recursion: toJSON is called,
 * undefined, functions and symbols are dropped from objects (null in lists),
 * non-finite numbers are null. Throws TypeError on a cycle or a BigInt, as
 * JSON.stringify does.
 */
export function fromPlain(value: unknown): Json | undefined {
  const onPath = new Set<object>();
  const scalar = (x: unknown, key: string): { json: Json } | { container: object } | undefined => {
    if (typeof x === 'object' && x !== null && typeof (x as { toJSON?: unknown }).toJSON === 'function') x = (x as { toJSON(k: string): unknown }).toJSON(key);
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return { json: x };
    if (typeof x === 'number') return { json: Number.isFinite(x) ? new JsonNumber(JSON.stringify(x)) : null };
    if (typeof x === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    if (typeof x === 'object') {
      // Boxed primitives serialise as their value.
      if (x instanceof Number || x instanceof String || x instanceof Boolean) return scalar(x.valueOf(), key);
      return { container: x };
    }
    return undefined;
  };
  const first = scalar(value, '');
  if (first === undefined) return undefined;
  if ('json' in first) return first.json;
  // Each item fills `to` from `from`; a `leave` item marks the end of `from`'s subtree (for the cycle check).
  const root: Json = Array.isArray(first.container) ? [] : {};
  const work: ({ from: object; to: Json[] | JsonObject } | { leave: object })[] = [{ from: first.container, to: root }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if ('leave' in item) {
      onPath.delete(item.leave);
      continue;
    }
    const { from, to } = item;
    if (onPath.has(from)) throw new TypeError('Converting circular structure to JSON');
    onPath.add(from);
    work.push({ leave: from });
    const entries: [string, unknown][] = Array.isArray(from) ? from.map((x, k) => [String(k), x]) : Object.keys(from).map((k) => [k, (from as Record<string, unknown>)[k]]);
    for (const [k, x] of entries) {
      const got = scalar(x, k);
      let json: Json;
      if (got === undefined) {
        if (!Array.isArray(to)) continue;
        json = null;
      } else if ('json' in got) json = got.json;
      else {
        json = Array.isArray(got.container) ? [] : {};
        work.push({ from: got.container, to: json });
      }
      if (Array.isArray(to)) to.push(json);
      else defineData(to, k, json);
    }
  }
  return root;
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
