// Reads a Markdown page the way test/e2e/doc-examples.test.ts needs it: the
// fenced code blocks in order with the doc-test markers right above them,
// the heading anchors GitHub derives, and the links. No Markdown library:
// the pages are ours and use fences, ATX headings and inline links only.

/** One fenced block: its info string's first word, its text, its first line (1-based) and its markers. */
export interface Block {
  lang: string;
  body: string;
  line: number;
  /** The `<!-- output -->` and `<!-- doc-test: ... -->` comments above the fence (blank lines between allowed), innermost last. */
  markers: string[];
}

export interface Link {
  target: string;
  line: number;
}

export interface Page {
  blocks: Block[];
  anchors: Set<string>;
  links: Link[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^\s*<!--\s*(output|doc-test:[^>]*?)\s*-->\s*$/;

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function parsePage(text: string): Page {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: Link[] = [];
  let pending: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = MARKER.exec(line);
    if (marker) {
      pending.push(marker[1]!.replace(/^doc-test:\s*/, 'doc-test:'));
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, mark, lang] = fence;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const close = lines[j]!;
        if (close.trim().startsWith(mark!) && close.trim().replace(/[`~]/g, '') === '') break;
        body.push(close.startsWith(indent!) ? close.slice(indent!.length) : close.trimStart());
      }
      if (j === lines.length) throw new Error(`line ${i + 1}: a code fence that is never closed`);
      blocks.push({ lang: (lang ?? '').toLowerCase(), body: body.join('\n') + '\n', line: i + 1, markers: pending });
      pending = [];
      i = j;
      continue;
    }
    if (line.trim() !== '') pending = [];
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    // Links outside inline code spans.
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1]!, line: i + 1 });
  }
  return { blocks, anchors, links };
}

/** A JSON text holding one or more values one after another (JSON lines, or pretty-printed objects in a row). */
export function parseJsonSequence(text: string): unknown[] {
  const values: unknown[] = [];
  let rest = text.trim();
  while (rest !== '') {
    let end = -1;
    let depth = 0;
    let inString = false;
    for (let k = 0; k < rest.length; k++) {
      const c = rest[k]!;
      if (inString) {
        if (c === '\\') k++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          end = k + 1;
          break;
        }
      } else if (depth === 0 && /\s/.test(c)) {
        end = k;
        break;
      }
    }
    if (end < 0) end = rest.length;
    values.push(JSON.parse(rest.slice(0, end)));
    rest = rest.slice(end).trim();
  }
  return values;
}

/**
 * Keys whose values change from run to run (timings, times, generated ids
 * and paths): an `<!-- output -->` block's value for them only has to have
 * the same JSON type as the real one.
 */
export const VOLATILE_KEY = /^(duration_ms|timestamp|job_id|log_path|session_id|.*_at)$/;

/**
 * Where `expected` (an `<!-- output -->` block) differs from `actual` (what
 * the command printed), as a list of `path: why`; empty when they agree.
 * The rules: values are equal as JSON values, except that a string
 * `"..."` stands for any value, `...` inside a string for any run of
 * characters, a key `"..."` in an object allows keys the block does not
 * show, a last array element `"..."` allows more elements, and a
 * {@link VOLATILE_KEY} only needs the same type.
 */
export function differences(expected: unknown, actual: unknown, path = '$', key = ''): string[] {
  if (expected === '...') return [];
  if (VOLATILE_KEY.test(key) && actual !== undefined) return typeOf(expected) === typeOf(actual) ? [] : [`${path}: a ${typeOf(actual)}, the block shows a ${typeOf(expected)}`];
  if (typeof expected === 'string' && expected.includes('...') && typeof actual === 'string') {
    const re = new RegExp(`^${expected.split('...').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
    return re.test(actual) ? [] : [`${path}: ${JSON.stringify(actual)} does not fit ${JSON.stringify(expected)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: printed ${JSON.stringify(actual)}, the block shows a list`];
    const open = expected.at(-1) === '...';
    const shown = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < shown.length : actual.length !== shown.length) return [`${path}: printed ${actual.length} elements, the block shows ${shown.length}${open ? ' or more' : ''}`];
    return shown.flatMap((e, i) => differences(e, actual[i], `${path}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: printed ${JSON.stringify(actual)}, the block shows an object`];
    const exp = expected as Record<string, unknown>;
    const act = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const [k, v] of Object.entries(exp)) {
      if (k === '...') continue;
      if (!Object.hasOwn(act, k)) out.push(`${path}.${k}: not printed`);
      else out.push(...differences(v, act[k], `${path}.${k}`, k));
    }
    if (!Object.hasOwn(exp, '...')) for (const k of Object.keys(act)) if (!Object.hasOwn(exp, k)) out.push(`${path}.${k}: printed, but not in the block`);
    return out;
  }
  return expected === actual ? [] : [`${path}: printed ${JSON.stringify(actual)}, the block shows ${JSON.stringify(expected)}`];
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v);
