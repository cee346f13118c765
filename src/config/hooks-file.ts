// Reads one hooks file: parsed, schema-checked and normalised into its hooks,
// settings and diagnostics, from the runtime cache when it is unchanged.
// An invalid file yields no hooks; the layers are put together in load.ts.

import type { Hook, Layer, Settings } from '../core/config.js';
import { normaliseHooksFile } from '../core/normalise.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { HOOK_LEVEL_ERRORS } from '../core/diagnostics.js';
import type { JsonPath } from '../core/json.js';
import type { RawHooksFile } from '../core/schema.js';
import { type CachedFile, readCache, writeCache } from './cache.js';
import { isCachedFile } from './cache-shape.js';
import { type Position, UnreadableFile, bufferText, parseConfigText, readText } from './read.js';
import { fastYamlData } from './fast-yaml.js';

export interface FileLoad {
  path: string;
  /** The hooks to run: empty when the file is invalid. */
  hooks: Hook[];
  /** Every hook that passed the schema, valid file or not (for lint checks). */
  lintHooks: Hook[];
  /** Hooks that failed the schema, read with their bad keys left out: only their script and file checks are made. */
  salvaged: Hook[];
  /** Hooks left out for a bad regex (none when the file is invalid). */
  skipped: Hook[];
  settings: Partial<Settings>;
  diagnostics: Diagnostic[];
  valid: boolean;
  /** Line and column of a data path in the file, for checks made after loading (read again with positions if need be). */
  locator: () => Promise<Locate>;
}

export type Locate = (path: JsonPath, at: 'key' | 'value') => Position;
export const fileStart: Locate = () => ({ line: 1, column: 1 });

/**
 * Reads, parses, schema-checks and normalises one hooks file. With `cache`
 * (a cache dir), an unchanged file skips parsing and the schema. With `data`,
 * those bytes are the file (read and hashed by the trust check): it is not
 * read again, so what is parsed is what was compared with the trust record.
 */
export async function loadHooksFile(path: string, layer: Layer, opts: { cache?: string; positioned?: boolean; data?: Buffer } = {}): Promise<FileLoad> {
  const diagnostics: Diagnostic[] = [];
  const fail = (code: Diagnostic['code'], message: string): FileLoad => {
    diagnostics.push({ path, line: 1, column: 1, severity: 'error', code, message });
    return { path, hooks: [], lintHooks: [], salvaged: [], skipped: [], settings: {}, diagnostics, valid: false, locator: async () => fileStart };
  };
  let text: string;
  try {
    text = opts.data ? bufferText(opts.data) : readText(path);
  } catch (e) {
    if (e instanceof UnreadableFile) return fail('unreadable_file', `cannot read the file: ${e.message}`);
    throw e;
  }
  if (opts.cache) {
    const hit = readCache(opts.cache, path, layer, text, isCachedFile);
    if (hit) return fromChecked(path, layer, hit.raw, hit.diagnostics, async () => fileStart, hit.raw ? normaliseOnce(hit.raw, layer, path) : undefined);
  }
  const quick = opts.positioned || path.endsWith('.json') ? undefined : await quickCheck(path, layer, text);
  if (quick) {
    if (opts.cache) writeCache<CachedFile>(opts.cache, path, layer, text, { raw: quick.raw, diagnostics: [] });
    return fromChecked(path, layer, quick.raw, [], async () => (await parseConfigText(path, text)).locate, quick.normalised);
  }
  const file = await parseConfigText(path, text);
  for (const s of file.syntaxErrors) {
    diagnostics.push({ path, ...s.position, severity: 'error', code: 'syntax_error', message: s.message, ...(s.hint ? { hint: s.hint } : path.endsWith('.json') ? { hint: 'fix the JSON syntax' } : {}) });
  }
  let raw: RawHooksFile | null = null;
  let normalised: ReturnType<typeof normaliseHooksFile> | undefined;
  let salvagedHooks: Hook[] = [];
  const findings: Diagnostic[] = [];
  if (file.data !== undefined) {
    if (file.data !== null && (typeof file.data !== 'object' || Array.isArray(file.data))) {
      diagnostics.push({ path, line: 1, column: 1, severity: 'error', code: 'invalid_type', message: 'a hooks file must be a mapping with a `hooks:` list' });
    } else {
      const { checkHooksFile } = await import('../core/schema.js');
      const data = dropNullSections(file.data as Record<string, unknown> | null);
      const checked = checkHooksFile(data);
      for (const f of checked.findings) {
        diagnostics.push({ path, ...file.locate(f.path, f.at), severity: 'error', code: f.code, message: f.message, ...(f.hint ? { hint: f.hint } : {}) });
      }
      raw = checked.value;
      normalised = normaliseHooksFile(raw, layer, path);
      // The hooks that failed the schema are linted too, with their bad keys left out (never run).
      const rescued = raw.salvaged ? normaliseHooksFile({ hooks: raw.salvaged }, layer, path) : undefined;
      for (const f of [...normalised.findings, ...(rescued?.findings.filter((r) => SALVAGED_CHECKS.has(r.code)) ?? [])]) {
        findings.push({ path, ...file.locate(f.path, f.at), severity: f.severity, code: f.code, message: f.message, ...(f.hint ? { hint: f.hint } : {}), ...(f.hook ? { hook: f.hook } : {}), ...(f.event ? { event: f.event } : {}) });
      }
      if (rescued) salvagedHooks = [...rescued.hooks, ...rescued.skipped];
    }
  }
  const all = [...diagnostics, ...findings].sort((a, b) => a.line - b.line || a.column - b.column);
  if (opts.cache) writeCache<CachedFile>(opts.cache, path, layer, text, { raw, diagnostics: all });
  return fromChecked(path, layer, raw, all, async () => file.locate, normalised, salvagedHooks);
}

/**
 * The fast path (fast-yaml.ts): the checked data of a YAML file that js-yaml
 * reads and that has no finding at all; undefined sends the file to the
 * positioned read, which reports every problem where it is.
 */
async function quickCheck(path: string, layer: Layer, text: string): Promise<{ raw: RawHooksFile; normalised: ReturnType<typeof normaliseHooksFile> } | undefined> {
  const read = await fastYamlData(text);
  if (!read || (read.data !== null && (typeof read.data !== 'object' || Array.isArray(read.data)))) return undefined;
  const { checkHooksFile } = await import('../core/schema.js');
  const checked = checkHooksFile(dropNullSections(read.data as Record<string, unknown> | null));
  if (checked.findings.length > 0 || !checked.value) return undefined;
  const normalised = normaliseHooksFile(checked.value, layer, path);
  return normalised.findings.length > 0 ? undefined : { raw: checked.value, normalised };
}

// A long-lived process (serve, the API) gets the same cached data object on
// every hit while the file is unchanged (cache.ts): normalise it once.
const normalisedByRaw = new WeakMap<RawHooksFile, ReturnType<typeof normaliseHooksFile>>();
function normaliseOnce(raw: RawHooksFile, layer: Layer, path: string): ReturnType<typeof normaliseHooksFile> {
  let result = normalisedByRaw.get(raw);
  if (!result) normalisedByRaw.set(raw, (result = normaliseHooksFile(raw, layer, path)));
  return result;
}

/** The load result from schema-checked data and its diagnostics (fresh or cached). */
function fromChecked(path: string, layer: Layer, raw: RawHooksFile | null, diagnostics: Diagnostic[], locator: FileLoad['locator'], normalised = raw ? normaliseHooksFile(raw, layer, path) : undefined, salvaged: Hook[] = []): FileLoad {
  const { hooks, skipped, settings } = normalised ?? { hooks: [], skipped: [], settings: {} };
  const valid = !diagnostics.some((d) => d.severity === 'error' && !HOOK_LEVEL_ERRORS.has(d.code));
  // A hook left out for its regex still has its script checked.
  const lintHooks = [...hooks, ...skipped].sort((a, b) => a.index - b.index);
  return valid
    ? { path, hooks, lintHooks, salvaged, skipped, settings, diagnostics, valid, locator }
    : { path, hooks: [], lintHooks, salvaged, skipped: [], settings: {}, diagnostics, valid, locator };
}

/**
 * The findings of a salvaged hook worth reporting: its regexes and modes. Not
 * those that leaving its bad keys out caused (a run field now missing, a
 * match now empty).
 */
const SALVAGED_CHECKS: ReadonlySet<Diagnostic['code']> = new Set(['invalid_regex', 'hook_skipped', 'invalid_combination', 'durable_ignored', 'invalid_prompt_file', 'run_type_mismatch', 'locked_in_project']);

// `hooks:` with nothing after it is null in YAML; read it as "no hooks".
function dropNullSections(data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!data) return data;
  const out = { ...data };
  for (const key of ['hooks', 'settings']) if (out[key] === null) delete out[key];
  return out;
}
