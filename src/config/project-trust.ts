// Whether the project layer loads, decided in this one place. Precedence:
// --project-hooks / --no-project-hooks, then CHRYS_PROJECT_HOOKS=1|0, then
// project.hooks_enabled: true in the user settings (CONTRACT §1), then the
// trust record `chrys-hooks trust` wrote for this workspace's real path,
// valid while none of the recorded files changed.

import { relative } from 'node:path';
import type { Hook } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { type ProjectTrust, type TrustDiff, type TrustedFile, describeDiff, diffTrusted, isEmptyDiff } from '../core/trust.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import { type GlobalOptions, projectHooksDir, samePhysicalFile, trustOverride } from './locations.js';
import { inside, readNow, realPathOr, untrackedTreeFiles, workspaceKey } from './trust-files.js';
import { readTrustRecord, recordDirProblem, trustRecordPath } from './trust-record.js';

export const NOT_TRUSTED: ProjectTrust = { trusted: false, rule: 'none', detail: 'this workspace is not trusted' };

/** The command-line or environment switch, if either says something. */
export function switchTrust(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): ProjectTrust | undefined {
  if (opts.projectHooks !== undefined) return { trusted: opts.projectHooks, rule: 'cli_flag', detail: opts.projectHooks ? '--project-hooks' : '--no-project-hooks' };
  const fromEnv = trustOverride({}, env);
  if (fromEnv !== undefined) return { trusted: fromEnv, rule: 'env', detail: `CHRYS_PROJECT_HOOKS=${env.CHRYS_PROJECT_HOOKS?.trim()}` };
  return undefined;
}

export interface TrustInputs {
  configDir: string;
  workspace: string;
  projectPath: string;
  /** project.hooks_enabled from the user settings, read only when no switch decided. */
  settingsEnabled: () => Promise<boolean>;
  /** Where CHRYS_PROJECT_HOOKS is read (`trust --list` passes none: it shows the record's verdict). */
  env?: NodeJS.ProcessEnv;
}

/**
 * What a trust record verified: the hooks file's bytes, read once and hashed
 * (the loader parses these, never the file again), and the recorded files,
 * whose hashes the runner checks a script's bytes against before it runs them.
 */
export interface Verified {
  data: Buffer;
  files: readonly TrustedFile[];
  /** The workspace's .chrys/hooks/ directory, real path: the tree the record covers whole. */
  treeRoot: string;
}

export interface TrustVerdict {
  trust: ProjectTrust;
  verified?: Verified;
  /** What changed since the record was written, when that is why the layer is dormant. */
  changes?: TrustDiff;
}

export async function decideProjectTrust(opts: GlobalOptions, inputs: TrustInputs, warnings: Warning[]): Promise<TrustVerdict> {
  const switched = switchTrust(opts, inputs.env);
  if (switched) return { trust: switched };
  if (await inputs.settingsEnabled()) return { trust: { trusted: true, rule: 'settings', detail: `project.hooks_enabled: true in the user settings of ${inputs.configDir}` } };
  return recordTrust(inputs, warnings);
}

/** The verdict of the trust record alone, with what it verified when it trusts. */
export function recordTrust(inputs: Omit<TrustInputs, 'settingsEnabled'>, warnings: Warning[]): TrustVerdict {
  const key = workspaceKey(inputs.workspace);
  const path = trustRecordPath(inputs.configDir);
  // A record the workspace itself could ship would let it trust itself.
  const dirProblem = recordInsideWorkspace(inputs.configDir, key) ? `it lies inside the workspace ${key}` : recordDirProblem(inputs.configDir, key);
  const read = dirProblem ? { ok: false as const, problem: dirProblem } : readTrustRecord(inputs.configDir);
  if (!read.ok) {
    warnings.push({ code: 'trust_record_invalid', path, message: `trust record ${path} ignored (${read.problem}): no workspace is trusted by content until it is fixed; delete it and run \`chrys-hooks trust\`` });
    return { trust: NOT_TRUSTED };
  }
  const entry = read.record.workspaces[key];
  const ignored = read.record.ignored?.[key];
  if (!entry) return { trust: ignored ? { ...NOT_TRUSTED, ignored_at: ignored.ignored_at } : NOT_TRUSTED };
  let hooksData: Buffer | undefined;
  const diff = diffTrusted(entry.files, (f) => {
    const { now, data } = readNow(f.path);
    if (f.path === entry.hooks_file) hooksData = data;
    return now;
  });
  const projectReal = realPathOr(inputs.projectPath);
  if (entry.hooks_file !== projectReal && !diff.added.includes(projectReal)) diff.added.unshift(projectReal);
  diff.added.push(...untrackedTreeFiles(entry.files, key));
  if (isEmptyDiff(diff) && hooksData) {
    return { trust: { trusted: true, rule: 'trust_record', detail: `trusted by \`chrys-hooks trust\` on ${entry.trusted_at}` }, verified: { data: hooksData, files: entry.files, treeRoot: projectHooksDir(key) } };
  }
  if (isEmptyDiff(diff)) diff.changed.push(entry.hooks_file); // a record that lists no hash of its own hooks file
  const what = describeFor(diff, key);
  warnings.push({
    code: 'project_hooks_changed',
    path: inputs.projectPath,
    message: `project hooks of ${key} changed since they were trusted on ${entry.trusted_at} (${what}); they are dormant until you review them with \`chrys-hooks trust\``,
  });
  return { trust: { trusted: false, rule: 'trust_record', detail: `changed since trusted on ${entry.trusted_at}: ${what}` }, changes: diff };
}

/** A workspace's project layer as the loader sees it: its file, whether that is the global file itself, and whether it may load. */
export interface ProjectLayer {
  projectPath?: string;
  /** The project file is the global file (a symlink, say): it loads once, as global. */
  sameFile: boolean;
  trust: ProjectTrust;
  /** Set when the trust record decided, and trusts: load the project file from these bytes. */
  verified?: Verified;
  /** Set when the trust record decided, and the files changed since. */
  changes?: TrustDiff;
}

/** Whether both layers name one file (the workspace is the home directory, say): it loads once, as the global file. */
export const sameHooksFile = (globalPath: string | undefined, projectPath: string | undefined): boolean =>
  globalPath !== undefined && projectPath !== undefined && samePhysicalFile(globalPath, projectPath);

/** The one decision on a workspace's project layer, for fire, list, resolve and drain-outbox alike. */
export async function decideProjectLayer(opts: GlobalOptions, inputs: Omit<TrustInputs, 'projectPath'> & { globalPath?: string; projectPath?: string }, warnings: Warning[]): Promise<ProjectLayer> {
  const { globalPath, projectPath } = inputs;
  const sameFile = sameHooksFile(globalPath, projectPath);
  const verdict = projectPath && !sameFile ? await decideProjectTrust(opts, { ...inputs, projectPath }, warnings) : { trust: switchTrust(opts, inputs.env) ?? NOT_TRUSTED };
  return { ...(projectPath ? { projectPath } : {}), sameFile, trust: verdict.trust, ...(verdict.verified ? { verified: verdict.verified } : {}), ...(verdict.changes ? { changes: verdict.changes } : {}) };
}

/**
 * The project hooks with the recorded hash of each script they run, so the
 * runner runs a script only from bytes with that hash (run/verified-script.ts).
 * Keyed by real path: the record holds where each path led when trusted, and
 * the check just made found every one still leading there.
 */
export function withVerifiedScripts(hooks: readonly Hook[], verified: Verified | undefined): Hook[] {
  if (!verified) return [...hooks];
  const byReal = new Map(verified.files.flatMap((f) => (f.real && f.sha256 ? [[f.real, f.sha256] as const] : [])));
  const root = verified.treeRoot;
  const tree = {
    root,
    files: verified.files.flatMap((f) => (f.sha256 && inside(f.path, root) && f.path !== root ? [{ path: relative(root, f.path), sha256: f.sha256 }] : [])),
  };
  return hooks.map((hook) => {
    if (hook.run.type !== 'script') return hook;
    const real = realPathOr(resolveFromHookFile(hook, hook.run.path));
    const sha256 = byReal.get(real);
    if (!sha256) return hook;
    return { ...hook, trusted: inside(real, root) ? { sha256, tree: { ...tree, script: relative(root, real) } } : { sha256 } };
  });
}

function describeFor(diff: TrustDiff, workspace: string): string {
  return describeDiff(diff, (p) => {
    const rel = relative(workspace, p);
    return rel && !rel.startsWith('..') ? rel : p;
  });
}

/** Whether the trust record would sit inside the workspace (a config dir within it). */
export const recordInsideWorkspace = (configDir: string, workspaceReal: string): boolean => inside(realPathOr(configDir), workspaceReal);
