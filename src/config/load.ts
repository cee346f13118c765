// Loads the global and (when trusted) the project hooks file into one ordered
// hook list with merged settings, and every diagnostic found on the way.
// An invalid file disables itself only; a missing file is silent.

import { type Hook, type Layer, mergeSettings } from '../core/config.js';
import type { Diagnostic, Warning } from '../core/diagnostics.js';
import { HOOK_LEVEL_ERRORS, diagnosticText, fromWarning, loadWarnings } from '../core/diagnostics.js';
import type { ProjectTrust } from '../core/trust.js';
import {
  SETTINGS_FILE_NAMES,
  configDirProblem,
  findFirst,
  globalHooksDir,
  projectHooksDir,
  shadowedMessage,
  shadowing,
  workspaceProblem,
} from './locations.js';
import { type ProjectLayer, decideProjectLayer, sameHooksFile, withVerifiedScripts } from './project-trust.js';
import { cacheDir, readCache, writeCache } from './cache.js';
import { type CachedTrust, isCachedTrust } from './cache-shape.js';
import { UnreadableFile, parseConfigText, readText } from './read.js';
import { type DiscoverOptions, discover } from './discover.js';
import { type FileLoad, loadHooksFile } from './hooks-file.js';

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
  skipped: SkippedHook[];
  settings: ReturnType<typeof mergeSettings>;
  /**
   * Every finding of the load, in order: where the config dir and workspace
   * are, the trust decision, each hooks file read, the ids in both layers.
   * Each names the hook it concerns (`hook`, `event`, `source`).
   */
  diagnostics: Diagnostic[];
  /** The same list as `fire`, `list` and `resolve` report it (loadWarnings in core/diagnostics.ts). */
  warnings: Warning[];
}

export interface SkippedHook {
  hook: Hook;
  /** The finding that left it out, as one line. */
  reason: string;
}

// Read one file at a time by `validate FILE`, `trust` and the drain.
export { type FileLoad, loadHooksFile } from './hooks-file.js';

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
  let trust = cache ? readCache(cache, path, 'settings', text, isCachedTrust) : undefined;
  if (!trust) {
    trust = await readTrust(path, text);
    if (cache) writeCache<CachedTrust>(cache, path, 'settings', text, trust);
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

/** What `loadConfig` reads and checks. */
export interface LoadOptions extends DiscoverOptions {
  /** Reuse the parsed files in the runtime cache (`fire`, `serve`). */
  cache?: boolean;
  /** Also check what the hooks name on disk, and place cross-file findings (`list`, `resolve`): see hook-checks.ts. */
  checkFiles?: boolean;
  /** The caller's own discover() of these options (`fire` has just made it), not made again. */
  discovered?: Discovered;
}

export async function loadConfig(opts: LoadOptions): Promise<LoadedConfig> {
  const found = opts.discovered ?? discover(opts);
  const cache = opts.cache ? cacheDir(found.configDir) : undefined;
  const read: ReadOptions = { ...(cache ? { cache } : {}), ...(opts.checkFiles ? { checks: { workspace: opts.workspace, configDir: found.configDir } } : {}) };
  const diagnostics = locationDiagnostics(opts, found);
  const { sameFile, trust, verified } = await projectLayerOf(opts, found, diagnostics, cache);
  if (found.projectPath && !sameFile && !trust.trusted && !diagnostics.some((d) => d.code === 'project_hooks_changed')) diagnostics.push(dormantDiagnostic(found.projectPath, trust, found.configDir));
  diagnostics.push(...shadowDiagnostics([found.globalPath, found.projectPath]));
  const global = found.globalPath ? await readLayer(found.globalPath, 'global', read) : undefined;
  // Trusted by record: parsed from the bytes the record was checked against, never read again.
  const project = found.projectPath && !sameFile && trust.trusted ? await readLayer(found.projectPath, 'project', { ...read, ...(verified ? { data: verified.data } : {}) }) : undefined;
  if (project && verified) project.file.hooks = withVerifiedScripts(project.file.hooks, verified);
  diagnostics.push(...(global?.diagnostics ?? []), ...(project?.diagnostics ?? []), ...(await duplicateIds(project?.file, global?.file, read.checks !== undefined)));
  return {
    configDir: found.configDir,
    workspace: opts.workspace,
    projectHooksEnabled: trust.trusted,
    projectTrust: trust,
    sources: [globalSource(found, global?.file), projectSource(opts.workspace, found, sameFile, project?.file)],
    hooks: [...(project?.file.hooks ?? []), ...(global?.file.hooks ?? [])],
    skipped: [...skippedOf(project), ...skippedOf(global)],
    settings: mergeSettings(project?.file.settings, global?.file.settings),
    diagnostics,
    warnings: loadWarnings(diagnostics),
  };
}

/**
 * `validate`'s load: the same reading and checks as `loadConfig` with
 * `checkFiles`, of both discovered hooks files whatever the trust (linting
 * runs nothing), so no trust is decided and nothing is dormant.
 */
export async function lintConfig(opts: DiscoverOptions, missing: 'error' | 'warning' = 'error'): Promise<{ configDir: string; files: string[]; diagnostics: Diagnostic[] }> {
  const found = discover(opts);
  const read: ReadOptions = { checks: { workspace: opts.workspace, configDir: found.configDir, missing } };
  const diagnostics = [...locationDiagnostics(opts, found), ...shadowDiagnostics([found.globalPath, found.projectPath])];
  const global = found.globalPath ? await readLayer(found.globalPath, 'global', read) : undefined;
  const project = found.projectPath && !sameHooksFile(found.globalPath, found.projectPath) ? await readLayer(found.projectPath, 'project', read) : undefined;
  diagnostics.push(...(global?.diagnostics ?? []), ...(project?.diagnostics ?? []), ...(await duplicateIds(project?.file, global?.file, true)));
  const files = [global, project].flatMap((layer) => (layer ? [layer.file.path] : []));
  return { configDir: found.configDir, files, diagnostics };
}

interface ReadOptions {
  cache?: string;
  /** The file's bytes, already read (and hashed) by the trust decision. */
  data?: Buffer;
  /** With the checks of hook-checks.ts, in this workspace and config dir; `missing`: the severity of a missing file (validate: error). */
  checks?: { workspace: string; configDir: string; missing?: 'error' | 'warning' };
}

interface LayerLoad {
  file: FileLoad;
  /** The file's findings and its checks, in position order, each with its layer. */
  diagnostics: Diagnostic[];
}

async function readLayer(path: string, layer: Layer, read: ReadOptions): Promise<LayerLoad> {
  const file = await loadHooksFile(path, layer, { ...(read.cache ? { cache: read.cache } : {}), ...(read.data ? { data: read.data } : {}) });
  const checked = read.checks ? await (await import('./hook-checks.js')).hookFileDiagnostics(file, { ...read.checks, layer }) : [];
  const diagnostics = [...file.diagnostics, ...checked].sort(byPosition).map((d) => ({ ...d, source: layer }));
  return { file, diagnostics };
}

/** One hooks file read as `validate FILE` reads it: its findings and the checks of hook-checks.ts. */
export async function lintHooksFile(path: string, layer: Layer, checks: { workspace: string; configDir: string; missing?: 'error' | 'warning' }): Promise<Diagnostic[]> {
  return (await readLayer(path, layer, { checks })).diagnostics;
}

const byPosition = (a: Diagnostic, b: Diagnostic): number => a.line - b.line || a.column - b.column;

type Discovered = ReturnType<typeof discover>;

/** A mistyped --config-dir or --cwd: said, since nothing would load from there. */
function locationDiagnostics(opts: DiscoverOptions, found: Discovered): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const dirProblem = found.globalPath ? undefined : configDirProblem(opts);
  if (dirProblem) problems.push({ path: found.configDir, line: 1, column: 1, wholeFile: true, severity: 'warning', code: 'config_dir_not_found', message: dirProblem });
  const workspaceMissing = workspaceProblem(opts);
  if (workspaceMissing) problems.push({ path: opts.workspace, line: 1, column: 1, wholeFile: true, severity: 'warning', code: 'workspace_not_found', message: workspaceMissing });
  return problems;
}

/** The same-file check and the trust decision, made by the one function the drain also uses. */
async function projectLayerOf(opts: DiscoverOptions, found: Discovered, diagnostics: Diagnostic[], cache: string | undefined): Promise<ProjectLayer> {
  const { configDir, globalPath, projectPath } = found;
  const warnings: Warning[] = [];
  const settingsEnabled = (): Promise<boolean> => settingsTrust(configDir, warnings, cache);
  const layer = await decideProjectLayer(opts, { configDir, workspace: opts.workspace, ...(globalPath ? { globalPath } : {}), ...(projectPath ? { projectPath } : {}), settingsEnabled }, warnings);
  diagnostics.push(...warnings.map(fromWarning));
  return layer;
}

/** A `shadowed_file` warning for each hooks file that loses to a sibling of the same layer, once when both layers name one file. */
export function shadowDiagnostics(paths: readonly (string | undefined)[]): Diagnostic[] {
  return [...new Set(paths)].flatMap((path) => {
    const s = path ? shadowing(path) : undefined;
    return (s?.shadowed ?? []).map((p): Diagnostic => ({ path: p, line: 1, column: 1, wholeFile: true, severity: 'warning', code: 'shadowed_file', message: shadowedMessage(p, s!.winner) }));
  });
}

/** Hook ids in both layers: both run, the project one first (CONTRACT §2). */
async function duplicateIds(project: FileLoad | undefined, global: FileLoad | undefined, positioned: boolean): Promise<Diagnostic[]> {
  if (!project || !global) return [];
  const globalIds = new Set(global.hooks.map((h) => h.id));
  const twins = project.hooks.filter((h) => globalIds.has(h.id));
  // Placing them costs a YAML parse of a file read by the fast path: not for `fire`, which shows no position.
  const locate = positioned && twins.length > 0 ? await project.locator() : undefined;
  return twins.map((h) => ({
    path: project.path,
    ...(locate ? locate(['hooks', h.index, 'id'], 'value') : { line: 1, column: 1, wholeFile: true as const }),
    severity: 'warning',
    code: 'duplicate_hook_id',
    message: `hook id "${h.id}" is defined in both ${project.path} and ${global.path}; both run, the project one first`,
    hook: h.id,
    event: h.event,
    source: 'project',
  }));
}

function globalSource(found: Discovered, file: FileLoad | undefined): Source {
  if (!found.globalPath) return { layer: 'global', path: `${globalHooksDir(found.configDir)}/hooks.yaml`, state: 'missing' };
  return { layer: 'global', path: found.globalPath, state: file?.valid ? 'loaded' : 'invalid' };
}

function projectSource(workspace: string, found: Discovered, sameFile: boolean, file: FileLoad | undefined): Source {
  if (!found.projectPath) return { layer: 'project', path: `${projectHooksDir(workspace)}/hooks.yaml`, state: 'missing' };
  const state = sameFile ? 'same-file' : !file ? 'dormant' : file.valid ? 'loaded' : 'invalid';
  return { layer: 'project', path: found.projectPath, state };
}

/** The hooks a hook-level error left out, each with that error's text. */
function skippedOf(layer: LayerLoad | undefined): SkippedHook[] {
  if (!layer) return [];
  return layer.file.skipped.map((hook) => {
    const why = layer.diagnostics.find((d) => d.hook === hook.id && (HOOK_LEVEL_ERRORS.has(d.code) || d.code === 'hook_skipped'));
    return { hook, reason: why ? diagnosticText(why) : `hook "${hook.id}" is left out: a regex of its match does not compile` };
  });
}

function dormantDiagnostic(projectPath: string, trust: ProjectTrust, configDir: string): Diagnostic {
  const why = trust.rule === 'none'
    ? `this workspace is not trusted (run \`chrys-hooks trust\` to review and trust its hooks, or use --project-hooks, CHRYS_PROJECT_HOOKS=1, or project.hooks_enabled: true in ${configDir}/settings.yaml)`
    : `project hooks are turned off by ${trust.detail}`;
  const ignored = trust.ignored_at ? `; ignored since ${trust.ignored_at} (\`chrys-hooks untrust --ignore\`), so fire does not report it` : '';
  return { path: projectPath, line: 1, column: 1, wholeFile: true, severity: 'warning', code: 'project_hooks_dormant', message: `project hooks file ${projectPath} is not loaded: ${why}${ignored}` };
}
