// Whether the project layer loads, decided in this one place. Precedence:
// --project-hooks / --no-project-hooks, then CHRYS_PROJECT_HOOKS=1|0, then
// project.hooks_enabled: true in the user settings (CONTRACT §1), then the
// trust record `chrys-hooks trust` wrote for this workspace's real path,
// valid while none of the recorded files changed.

import { relative } from 'node:path';
import type { Warning } from '../core/diagnostics.js';
import { type ProjectTrust, type TrustDiff, describeDiff, diffTrusted, isEmptyDiff } from '../core/trust.js';
import { type GlobalOptions, samePhysicalFile, trustOverride } from './locations.js';
import { fileNow, inside, realPathOr, workspaceKey } from './trust-files.js';
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
}

export async function decideProjectTrust(opts: GlobalOptions, inputs: TrustInputs, warnings: Warning[]): Promise<ProjectTrust> {
  const switched = switchTrust(opts);
  if (switched) return switched;
  if (await inputs.settingsEnabled()) return { trusted: true, rule: 'settings', detail: `project.hooks_enabled: true in the user settings of ${inputs.configDir}` };
  return recordTrust(inputs, warnings);
}

/** The verdict of the trust record alone. */
export function recordTrust(inputs: Omit<TrustInputs, 'settingsEnabled'>, warnings: Warning[]): ProjectTrust {
  const key = workspaceKey(inputs.workspace);
  const path = trustRecordPath(inputs.configDir);
  // A record the workspace itself could ship would let it trust itself.
  const dirProblem = recordInsideWorkspace(inputs.configDir, key) ? `it lies inside the workspace ${key}` : recordDirProblem(inputs.configDir, key);
  const read = dirProblem ? { ok: false as const, problem: dirProblem } : readTrustRecord(inputs.configDir);
  if (!read.ok) {
    warnings.push({ code: 'trust_record_invalid', path, message: `trust record ${path} ignored (${read.problem}): no workspace is trusted by content until it is fixed; delete it and run \`chrys-hooks trust\`` });
    return NOT_TRUSTED;
  }
  const entry = read.record.workspaces[key];
  if (!entry) return NOT_TRUSTED;
  const diff = diffTrusted(entry.files, (f) => fileNow(f));
  const projectReal = realPathOr(inputs.projectPath);
  if (entry.hooks_file !== projectReal && !diff.added.includes(projectReal)) diff.added.unshift(projectReal);
  if (isEmptyDiff(diff)) return { trusted: true, rule: 'trust_record', detail: `trusted by \`chrys-hooks trust\` on ${entry.trusted_at}` };
  const what = describeFor(diff, key);
  warnings.push({
    code: 'project_hooks_changed',
    path: inputs.projectPath,
    message: `project hooks of ${key} changed since they were trusted on ${entry.trusted_at} (${what}); they are dormant until you review them with \`chrys-hooks trust\``,
  });
  return { trusted: false, rule: 'trust_record', detail: `changed since trusted on ${entry.trusted_at}: ${what}` };
}

/** A workspace's project layer as the loader sees it: its file, whether that is the global file itself, and whether it may load. */
export interface ProjectLayer {
  projectPath?: string;
  /** The project file is the global file (a symlink, say): it loads once, as global. */
  sameFile: boolean;
  trust: ProjectTrust;
}

/** Whether both layers name one file (the workspace is the home directory, say): it loads once, as the global file. */
export const sameHooksFile = (globalPath: string | undefined, projectPath: string | undefined): boolean =>
  globalPath !== undefined && projectPath !== undefined && samePhysicalFile(globalPath, projectPath);

/** The one decision on a workspace's project layer, for fire, list, resolve and drain-outbox alike. */
export async function decideProjectLayer(opts: GlobalOptions, inputs: Omit<TrustInputs, 'projectPath'> & { globalPath?: string; projectPath?: string }, warnings: Warning[]): Promise<ProjectLayer> {
  const { globalPath, projectPath } = inputs;
  const sameFile = sameHooksFile(globalPath, projectPath);
  const trust = projectPath && !sameFile ? await decideProjectTrust(opts, { ...inputs, projectPath }, warnings) : (switchTrust(opts) ?? NOT_TRUSTED);
  return { ...(projectPath ? { projectPath } : {}), sameFile, trust };
}

function describeFor(diff: TrustDiff, workspace: string): string {
  return describeDiff(diff, (p) => {
    const rel = relative(workspace, p);
    return rel && !rel.startsWith('..') ? rel : p;
  });
}

/** Whether the trust record would sit inside the workspace (a config dir within it). */
export const recordInsideWorkspace = (configDir: string, workspaceReal: string): boolean => inside(realPathOr(configDir), workspaceReal);
