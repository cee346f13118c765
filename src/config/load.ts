// Loads the global and (when trusted) the project hooks file into one ordered
// hook list with merged settings, and every diagnostic found on the way.
// An invalid file disables itself only; a missing file is silent.

import { type Hook, type Layer, type Settings, mergeSettings } from '../core/config.js';
import { normaliseHooksFile } from '../core/normalise.js';
import type { Diagnostic, Warning } from '../core/diagnostics.js';
import { HOOK_LEVEL_ERRORS, toWarning } from '../core/diagnostics.js';
import {
  SETTINGS_FILE_NAMES,
  configDirProblem,
  findFirst,
  globalHooksDir,
  projectHooksDir,
  samePhysicalFile,
  shadowedMessage,
  shadowing,
  workspaceProblem,
} from './locations.js';
import type { ProjectTrust } from '../core/trust.js';
import { NOT_TRUSTED, decideProjectTrust, switchTrust } from './project-trust.js';
import type { JsonPath } from '../core/json.js';
import type { RawHooksFile } from '../core/schema.js';
import { type CachedFile, cacheDir, contentHash, readCache, writeCache } from './cache.js';
import { type CachedTrust, isCachedFile, isCachedTrust } from './cache-shape.js';
import { type Position, UnreadableFile, parseConfigText, readText } from './read.js';
import { type DiscoverOptions, discover } from './discover.js';
import { fastYamlData } from './fast-yaml.js';

export type { DiscoverOptions };

export type SourceState = 'loaded' | 'dormant' | 'invalid' | 'missing' | 'same-file';

export interface Source {
  layer: Layer;
  path: string;
  state: SourceState;
}

export interface LoadedConfig {
  configDir: string;
  workspace: string;
  projectHooksEnabled: boolean;
  /** Which rule loaded (or did not load) the project layer. */
  projectTrust: ProjectTrust;
  sources: Source[];
  /** Project hooks in file order, then global hooks in file order. */
  hooks: Hook[];
  /** Hooks left out for a bad regex, in the same order: `list` and `resolve` show them skipped. */
  skippedHooks: Hook[];
  settings: ReturnType<typeof mergeSettings>;
  /** Every finding in both files (for validate and list). */
  diagnostics: Diagnostic[];
  /** Load warnings: dormant or invalid sources, duplicate ids, skipped hooks... */
  warnings: Warning[];
}

export interface FileLoad {
  path: string;
  /** The hooks to run: empty when the file is invalid. */
  hooks: Hook[];
  /** Every hook that passed the schema, valid file or not (for lint checks). */
  lintHooks: Hook[];
  /** Hooks left out for a bad regex (none when the file is invalid). */
  skipped: Hook[];
  settings: Partial<Settings>;
  diagnostics: Diagnostic[];
  valid: boolean;
  /** Line and column of a data path in the file, for checks made after loading (read again with positions if need be). */
  locator: () => Promise<Locate>;
}

type Locate = (path: JsonPath, at: 'key' | 'value') => Position;
const fileStart: Locate = () => ({ line: 1, column: 1 });

/**
 * Reads, parses, schema-checks and normalises one hooks file. With `cache`
 * (a cache dir), an unchanged file skips reading, parsing and the schema.
 */
export async function loadHooksFile(path: string, layer: Layer, opts: { cache?: string; positioned?: boolean } = {}): Promise<FileLoad> {
  const diagnostics: Diagnostic[] = [];
  const fail = (code: Diagnostic['code'], message: string): FileLoad => {
    diagnostics.push({ path, line: 1, column: 1, severity: 'error', code, message });
    return { path, hooks: [], lintHooks: [], skipped: [], settings: {}, diagnostics, valid: false, locator: async () => fileStart };
  };
  let text: string;
  try {
    text = readText(path);
  } catch (e) {
    if (e instanceof UnreadableFile) return fail('unreadable_file', `cannot read the file: ${e.message}`);
    throw e;
  }
  const content = opts.cache ? contentHash(text) : '';
  if (opts.cache) {
    const hit = readCache(opts.cache, path, layer, content, isCachedFile);
    if (hit) return fromChecked(path, layer, hit.raw, hit.diagnostics, async () => fileStart, hit.raw ? normaliseOnce(hit.raw, layer, path) : undefined);
  }
  const quick = opts.positioned || path.endsWith('.json') ? undefined : await quickCheck(path, layer, text);
  if (quick) {
    if (opts.cache) writeCache<CachedFile>(opts.cache, path, layer, content, { raw: quick.raw, diagnostics: [] });
    return fromChecked(path, layer, quick.raw, [], async () => (await parseConfigText(path, text)).locate, quick.normalised);
  }
  const file = await parseConfigText(path, text);
  for (const s of file.syntaxErrors) {
    diagnostics.push({ path, ...s.position, severity: 'error', code: 'syntax_error', message: s.message, ...(s.hint ? { hint: s.hint } : path.endsWith('.json') ? { hint: 'fix the JSON syntax' } : {}) });
  }
  let raw: RawHooksFile | null = null;
  let normalised: ReturnType<typeof normaliseHooksFile> | undefined;
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
      for (const f of normalised.findings) {
        findings.push({ path, ...file.locate(f.path, f.at), severity: f.severity, code: f.code, message: f.message, ...(f.hint ? { hint: f.hint } : {}), ...(f.hook ? { hook: f.hook } : {}), ...(f.event ? { event: f.event } : {}) });
      }
    }
  }
  const all = [...diagnostics, ...findings].sort((a, b) => a.line - b.line || a.column - b.column);
  if (opts.cache) writeCache<CachedFile>(opts.cache, path, layer, content, { raw, diagnostics: all });
  return fromChecked(path, layer, raw, all, async () => file.locate, normalised);
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
function fromChecked(path: string, layer: Layer, raw: RawHooksFile | null, diagnostics: Diagnostic[], locator: FileLoad['locator'], normalised = raw ? normaliseHooksFile(raw, layer, path) : undefined): FileLoad {
  const { hooks, skipped, settings } = normalised ?? { hooks: [], skipped: [], settings: {} };
  const valid = !diagnostics.some((d) => d.severity === 'error' && !HOOK_LEVEL_ERRORS.has(d.code));
  return valid
    ? { path, hooks, lintHooks: hooks, skipped, settings, diagnostics, valid, locator }
    : { path, hooks: [], lintHooks: hooks, skipped: [], settings: {}, diagnostics, valid, locator };
}

// `hooks:` with nothing after it is null in YAML; read it as "no hooks".
function dropNullSections(data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!data) return data;
  const out = { ...data };
  for (const key of ['hooks', 'settings']) if (out[key] === null) delete out[key];
  return out;
}

/** project.hooks_enabled from the user settings file; false when absent or unreadable. */
export async function settingsTrust(configDir: string, warnings: Warning[], cache?: string): Promise<boolean> {
  const path = findFirst(configDir, SETTINGS_FILE_NAMES);
  if (!path) return false;
  let text: string;
  try {
    text = readText(path);
  } catch (e) {
    if (!(e instanceof UnreadableFile)) throw e;
    warnings.push({ code: 'settings_invalid', path, message: `user settings ${path} ignored (${e.message}); project hooks stay disabled` });
    return false;
  }
  const content = cache ? contentHash(text) : '';
  let trust = cache ? readCache(cache, path, 'settings', content, isCachedTrust) : undefined;
  if (!trust) {
    trust = await readTrust(path, text);
    if (cache) writeCache<CachedTrust>(cache, path, 'settings', content, trust);
  }
  if (trust.problem) warnings.push({ code: 'settings_invalid', path, message: `user settings ${path} ignored (${trust.problem}); project hooks stay disabled` });
  return trust.enabled;
}

async function readTrust(path: string, text: string): Promise<CachedTrust> {
  try {
    const file = await parseConfigText(path, text);
    if (file.syntaxErrors.length > 0) return { enabled: false, problem: file.syntaxErrors[0]!.message };
    const enabled = (file.data as { project?: { hooks_enabled?: unknown } } | null)?.project?.hooks_enabled;
    if (enabled === undefined) return { enabled: false };
    if (typeof enabled !== 'boolean') return { enabled: false, problem: `project.hooks_enabled must be true or false, not ${JSON.stringify(enabled)}` };
    return { enabled };
  } catch (e) {
    return { enabled: false, problem: (e as Error).message };
  }
}

export async function loadConfig(opts: DiscoverOptions & { cache?: boolean }): Promise<LoadedConfig> {
  const { configDir, globalPath, projectPath } = discover(opts);
  const fileOpts = opts.cache ? { cache: cacheDir(configDir) } : {};
  const warnings: Warning[] = [];
  const diagnostics: Diagnostic[] = [];
  const sources: Source[] = [];
  const sameFile = globalPath !== undefined && projectPath !== undefined && samePhysicalFile(globalPath, projectPath);
  const dirProblem = globalPath ? undefined : configDirProblem(opts);
  if (dirProblem) warnings.push({ code: 'config_dir_not_found', path: configDir, message: dirProblem });
  const workspaceMissing = workspaceProblem(opts);
  if (workspaceMissing) warnings.push({ code: 'workspace_not_found', path: opts.workspace, message: workspaceMissing });
  const trust = projectPath && !sameFile
    ? await decideProjectTrust(opts, { configDir, workspace: opts.workspace, projectPath, settingsEnabled: () => settingsTrust(configDir, warnings, fileOpts.cache) }, warnings)
    : (switchTrust(opts) ?? NOT_TRUSTED);
  const enabled = trust.trusted;

  let global: FileLoad | undefined;
  if (globalPath) {
    global = await loadHooksFile(globalPath, 'global', fileOpts);
    diagnostics.push(...global.diagnostics);
    sources.push({ layer: 'global', path: globalPath, state: global.valid ? 'loaded' : 'invalid' });
    if (!global.valid) warnings.push(invalidWarning('hooks_config_invalid', 'global', global));
  } else {
    sources.push({ layer: 'global', path: `${globalHooksDir(configDir)}/hooks.yaml`, state: 'missing' });
  }

  let project: FileLoad | undefined;
  if (!projectPath) {
    sources.push({ layer: 'project', path: `${projectHooksDir(opts.workspace)}/hooks.yaml`, state: 'missing' });
  } else if (sameFile) {
    sources.push({ layer: 'project', path: projectPath, state: 'same-file' });
  } else if (!enabled) {
    sources.push({ layer: 'project', path: projectPath, state: 'dormant' });
    if (!warnings.some((w) => w.code === 'project_hooks_changed')) warnings.push(dormantWarning(projectPath, trust, configDir));
  } else {
    project = await loadHooksFile(projectPath, 'project', fileOpts);
    diagnostics.push(...project.diagnostics);
    sources.push({ layer: 'project', path: projectPath, state: project.valid ? 'loaded' : 'invalid' });
    if (!project.valid) warnings.push(invalidWarning('project_hooks_config_invalid', 'project', project));
  }

  for (const path of [globalPath, projectPath]) {
    for (const shadowed of (path && shadowing(path)?.shadowed) || []) warnings.push({ code: 'shadowed_file', path: shadowed, message: shadowedMessage(shadowed, path!) });
  }
  const hooks = [...(project?.hooks ?? []), ...(global?.hooks ?? [])];
  for (const [file, layer] of [[project, 'project'], [global, 'global']] as const) {
    if (file?.valid) warnings.push(...file.diagnostics.filter((d) => d.severity === 'warning' || HOOK_LEVEL_ERRORS.has(d.code)).map((d) => loadWarning(d, layer)));
  }
  if (project && global) {
    const globalIds = new Map(global.hooks.map((h) => [h.id, h]));
    for (const h of project.hooks) {
      const twin = globalIds.get(h.id);
      if (!twin) continue;
      warnings.push({
        code: 'duplicate_hook_id',
        hook: h.id,
        event: h.event,
        path: project.path,
        message: `hook id "${h.id}" is defined in both ${project.path} and ${global.path}; both run, the project one first`,
      });
    }
  }
  return {
    configDir,
    workspace: opts.workspace,
    projectHooksEnabled: enabled,
    projectTrust: trust,
    sources,
    hooks,
    skippedHooks: [...(project?.skipped ?? []), ...(global?.skipped ?? [])],
    settings: mergeSettings(project?.settings, global?.settings),
    diagnostics,
    warnings,
  };
}

/** A hook left out by a hook-level error is, at run time, a skipped hook; its layer goes with it (for --fail-closed). */
function loadWarning(d: Diagnostic, layer: Layer): Warning {
  const w = toWarning(d);
  return HOOK_LEVEL_ERRORS.has(d.code) || d.code === 'hook_skipped' ? { ...w, code: 'hook_skipped', source: layer } : w;
}

function dormantWarning(projectPath: string, trust: ProjectTrust, configDir: string): Warning {
  const why = trust.rule === 'none'
    ? `this workspace is not trusted (run \`chrys-hooks trust\` to review and trust its hooks, or use --project-hooks, CHRYS_PROJECT_HOOKS=1, or project.hooks_enabled: true in ${configDir}/settings.yaml)`
    : `project hooks are turned off by ${trust.detail}`;
  return { code: 'project_hooks_dormant', path: projectPath, message: `project hooks file ${projectPath} is not loaded: ${why}` };
}

function invalidWarning(code: 'hooks_config_invalid' | 'project_hooks_config_invalid', layer: Layer, file: FileLoad): Warning {
  // The headline names an error that turned the file off, not one that leaves out a single hook.
  const errors = file.diagnostics.filter((d) => d.severity === 'error' && !HOOK_LEVEL_ERRORS.has(d.code));
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return {
    code,
    path: file.path,
    line: first.line,
    column: first.column,
    message: `${layer} hooks file ${file.path} is invalid and was not loaded: ${first.line}:${first.column} [${first.code}] ${first.message}${first.hint ? ` (${first.hint})` : ''}${more}; run \`chrys-hooks validate ${file.path}\``,
  };
}
