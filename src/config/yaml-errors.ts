// Turns the YAML parser's errors into the few a user needs: the root cause
// first, one error per mistake. After a structural error the parser reports
// a cascade of follow-on errors further down (a tab in one line gives six to
// eight); those are dropped, and an unclosed quote or bracket is reported
// where it was opened, not at the end of the file where it was noticed.

export interface YamlSyntaxError {
  message: string;
  offset: number;
  hint?: string;
}

interface ParserError {
  code: string;
  message: string;
  pos: [number, number];
}

const TAB_HINT = 'YAML indents with spaces, never tabs';
/** Errors about one spot that do not derail the rest of the parse. */
const INDEPENDENT = new Set(['DUPLICATE_KEY', 'BAD_ALIAS', 'DUPLICATE_ANCHOR']);

/** CST tokens with an offset, as yaml's Parser yields them (only the fields read here). */
interface CstToken {
  type?: string;
  offset?: number;
  source?: string;
  start?: { offset: number; source: string };
  end?: { source: string }[];
}

/** The root-cause errors of a YAML text the parser rejected. */
export function rootCauses(text: string, errors: readonly ParserError[], tokens: Iterable<unknown>): YamlSyntaxError[] {
  if (errors.length === 0) return [];
  const firstLine = lineOf(text, Math.min(...errors.map((e) => e.pos[0])));
  const tabs = tabIndents(text).filter((t) => lineOf(text, t) <= firstLine);
  if (tabs.length > 0) {
    return tabIndents(text).map((offset) => ({ message: 'a tab in the indentation', offset, hint: TAB_HINT }));
  }
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const first = sorted[0]!;
  const out: YamlSyntaxError[] = [{ message: firstLine1(first.message), offset: openingOf(first, tokens) ?? first.pos[0] }];
  for (const e of sorted.slice(1)) if (INDEPENDENT.has(e.code)) out.push({ message: firstLine1(e.message), offset: e.pos[0] });
  return out;
}

const firstLine1 = (message: string): string => message.split('\n')[0]!;

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** Offsets of the first tab in each line's leading whitespace. */
function tabIndents(text: string): number[] {
  const out: number[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const indent = /^[ \t]*/.exec(line)![0];
    const tab = indent.indexOf('\t');
    if (tab >= 0 && indent.length < line.length) out.push(offset + tab);
    offset += line.length + 1;
  }
  return out;
}

/** Where an unclosed quoted scalar or flow collection starts, for errors noticed at its end. */
function openingOf(error: ParserError, tokens: Iterable<unknown>): number | undefined {
  const quote = /^Missing closing (["'])quote/.exec(error.message);
  const flow = /^Flow (map|sequence) in block collection must be sufficiently indented and end with a ([}\]])/.exec(error.message);
  if (!quote && !flow) return undefined;
  let found: number | undefined;
  walk(tokens, (t) => {
    if (quote && (t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && t.source?.startsWith(quote[1]!) && !closed(t.source, quote[1]!)) found ??= t.offset;
    if (flow && t.type === 'flow-collection' && t.start && !(t.end ?? []).some((e) => e.source === flow[2])) found ??= t.start.offset;
  });
  return found;
}

function closed(source: string, quote: string): boolean {
  if (source.length < 2 || !source.endsWith(quote)) return false;
  if (quote === "'") return true;
  let backslashes = 0;
  for (let i = source.length - 2; i >= 0 && source[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

function walk(value: unknown, visit: (t: CstToken) => void, depth = 0): void {
  if (depth > 200 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value) || Symbol.iterator in value) {
    for (const v of value as Iterable<unknown>) walk(v, visit, depth + 1);
    return;
  }
  visit(value as CstToken);
  for (const v of Object.values(value)) walk(v, visit, depth + 1);
}
