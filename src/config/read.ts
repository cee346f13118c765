// Reads one hooks or settings file into plain data plus a locator that maps a
// data path to a line and column. The YAML parser is imported only when a
// YAML file is read; JSON goes through our lossless parser, which records
// positions as it goes.

import { type JsonPath, JsonPositions, JsonSyntaxError, lineCol, parseJson, toPlain } from '../core/json.js';
import { readRegularFile } from '../base/regular-file.js';
import { rootCauses } from './yaml-errors.js';

export interface Position {
  line: number;
  column: number;
}

export interface ReadFile {
  data: unknown;
  /** Where the value (or key) at `path` sits; the nearest existing ancestor otherwise. */
  locate(path: JsonPath, at: 'key' | 'value'): Position;
  syntaxErrors: { message: string; position: Position; hint?: string }[];
}

export class UnreadableFile extends Error {}

export function readText(path: string): string {
  const read = readRegularFile(path);
  if (!read.ok) throw new UnreadableFile(read.problem);
  return bufferText(read.data);
}

/** A file's bytes as text; throws UnreadableFile for binary data. */
export function bufferText(data: Buffer): string {
  if (data.includes(0)) throw new UnreadableFile('the file holds binary data (a NUL byte), not text');
  return data.toString('utf8');
}

export async function parseConfigText(path: string, text: string): Promise<ReadFile> {
  return path.endsWith('.json') ? parseJsonFile(text) : parseYamlFile(text);
}

function parseJsonFile(text: string): ReadFile {
  const positions = new JsonPositions();
  const at = (offset: number): Position => lineCol(text, offset);
  const locate = (path: JsonPath, which: 'key' | 'value'): Position => {
    for (let n = path.length; n >= 0; n--) {
      const p = positions.get(path.slice(0, n));
      if (p) return at(which === 'key' && n === path.length && p.key !== undefined ? p.key : p.value);
    }
    return { line: 1, column: 1 };
  };
  if (text.trim() === '') return { data: null, locate, syntaxErrors: [] };
  try {
    return { data: toPlain(parseJson(text, positions)), locate, syntaxErrors: [] };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { data: undefined, locate, syntaxErrors: [{ message: e.message, position: at(e.offset) }] };
  }
}

async function parseYamlFile(text: string): Promise<ReadFile> {
  const imported = await import('yaml');
  // yaml is CommonJS under Node: the bundle exposes it as the default export.
  const { parseDocument, LineCounter, Parser, isMap, isSeq, isScalar } = ((imported as unknown as { default?: typeof imported }).default ?? imported) as typeof imported;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const locate = (path: JsonPath, which: 'key' | 'value'): Position => {
    let node: unknown = doc.contents;
    let best = (doc.contents as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        if (!pair) break;
        const keyStart = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
        if (last && which === 'key' && keyStart !== undefined) return pos(keyStart);
        node = pair.value;
        const valueStart = (pair.value as { range?: [number, number, number] } | null)?.range?.[0];
        best = valueStart ?? keyStart ?? best;
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg];
        const start = (node as { range?: [number, number, number] } | null)?.range?.[0];
        if (start === undefined) break;
        best = start;
      } else break;
    }
    return pos(best);
  };
  const tokens = doc.errors.length > 0 ? [...new Parser().parse(text)] : [];
  const syntaxErrors: ReadFile['syntaxErrors'] = rootCauses(text, doc.errors, tokens).map((e) => ({ message: e.message, position: pos(e.offset), ...(e.hint ? { hint: e.hint } : {}) }));
  let data: unknown = undefined;
  // A document with syntax errors is not schema-checked: its data is the parser's guess.
  if (syntaxErrors.length > 0) return { data, locate, syntaxErrors };
  try {
    data = doc.toJS({ maxAliasCount: 10_000 });
  } catch (e) {
    syntaxErrors.push({ message: (e as Error).message, position: { line: 1, column: 1 } });
  }
  return { data, locate, syntaxErrors };
}
