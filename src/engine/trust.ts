// `trust`, `untrust` and `trust --list`: what trusting a workspace would
// cover, recording it, and the record's entries with their state now.
// Returns data; the CLI prints and asks.

import { existsSync } from 'node:fs';
import { ChrysError } from '../core/errors.js';
import { type TrustDiff, type TrustEntry, type TrustedFile, diffManifests } from '../core/trust.js';
import { discover } from '../config/discover.js';
import { loadHooksFile } from '../config/load.js';
import { type GlobalOptions, configDirOf, projectHooksDir, samePhysicalFile, workspaceOf } from '../config/locations.js';
import { decideProjectLayer, recordInsideWorkspace } from '../config/project-trust.js';
import { UnhashableFile, coveredPaths, fingerprint, readNow, realPathOr, refuseSharedWrite, workspaceKey } from '../config/trust-files.js';
import type { Hook } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { templatedProgramField } from '../core/trust-templates.js';
import { readTrustRecord, recordDirProblem, trustRecordPath, writeTrustRecord } from '../config/trust-record.js';
import { sha256Hex } from '../base/lazy-crypto.js';

export interface TrustPlan {
  configDir: string;
  /** The workspace's real path, the record's key. */
  workspace: string;
  projectPath: string;
  files: TrustedFile[];
  /** What differs from the entry recorded before, if there was one. */
  since?: { trusted_at: string; diff: TrustDiff };
  /** Why the existing record cannot be read (it is replaced on recording). */
  recordProblem?: string;
  /** Shell hooks whose command reaches files trust cannot see, one sentence each. */
  blindSpots: string[];
}

function refuseTemplatedPrograms(hooks: readonly Hook[], hooksFile: string): void {
  for (const hook of hooks) {
    const templated = templatedProgramField(hook);
    if (!templated) continue;
    throw new ChrysError(
      'refused',
      `hook "${hook.id}" in ${hooksFile}: ${templated.field} ${JSON.stringify(templated.value)} holds a \${...} template, so trust cannot record which file it runs; nothing was trusted`,
      `write ${templated.field} as a literal path (relative to the hooks file or the workspace)`,
    );
  }
}

function refuseUnhashable<T>(what: () => T): T {
  try {
    return what();
  } catch (e) {
    if (!(e instanceof UnhashableFile)) throw e;
    if (e.fix) throw new ChrysError('refused', `cannot trust ${e.path}: ${e.problem}; nothing was trusted`, e.fix);
    throw new ChrysError('refused', `cannot trust ${e.path}: ${e.problem}; trust covers only regular files up to 16 MiB; nothing was trusted`, 'replace it with a regular file, or change the hook that names it');
  }
}

export async function planTrust(opts: GlobalOptions): Promise<TrustPlan> {
  const configDir = configDirOf(opts);
  const workspace = workspaceKey(workspaceOf(opts));
  const found = discover({ ...opts, workspace });
  if (!found.projectPath) throw new ChrysError('not_found', `no project hooks file in ${projectHooksDir(workspace)} (hooks.yaml, hooks.yml or hooks.json)`, 'run `chrys-hooks init` to write one, or pass --cwd DIR');
  if (found.globalPath && samePhysicalFile(found.globalPath, found.projectPath)) {
    throw new ChrysError('refused', `${found.projectPath} is the global hooks file itself; it loads as global and needs no trust`);
  }
  const dirProblem = recordDirProblem(configDir, workspace);
  if (dirProblem) throw new ChrysError('refused', `the trust record ${trustRecordPath(configDir)} cannot be used: ${dirProblem}`, 'use a config dir outside the workspace whose hooks/ and hooks/state/ are real directories');
  if (recordInsideWorkspace(configDir, workspace)) {
    throw new ChrysError('refused', `the trust record ${trustRecordPath(configDir)} would lie inside the workspace ${workspace}, where the workspace could change it`, 'use a config dir outside the workspace (--config-dir or CHRYS_HOME)');
  }
  // One read: the bytes parsed here are the bytes whose hash is recorded.
  const projectPath = realPathOr(found.projectPath);
  const hooksRead = readNow(projectPath);
  if (!hooksRead.data) throw new ChrysError('refused', `cannot trust ${projectPath}: ${hooksRead.now?.problem ?? 'it is gone'}; nothing was trusted`, 'make it a regular file and run trust again');
  const file = await loadHooksFile(found.projectPath, 'project', { data: hooksRead.data });
  // Every error `validate` reports, hook-level ones included: trust records a file that validates.
  const errors = file.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const n = errors.length;
    throw new ChrysError('refused', `the project hooks file ${found.projectPath} has ${n} error${n === 1 ? '' : 's'} (first: ${first.code} at ${first.line}:${first.column}); nothing was trusted`, `run \`chrys-hooks validate ${found.projectPath}\` and fix it first`);
  }
  refuseTemplatedPrograms(file.hooks, found.projectPath);
  const { paths, blindSpots } = refuseUnhashable(() => coveredPaths(projectPath, file.hooks, { configDir, workspace }));
  refuseUnhashable(() => refuseSharedWrite(paths));
  const [, ...rest] = refuseUnhashable(() => fingerprint(paths, workspace));
  const files: TrustedFile[] = [{ path: projectPath, sha256: sha256Hex(hooksRead.data), real: projectPath, outside: false }, ...rest];
  const plan: TrustPlan = { configDir, workspace, projectPath, files, blindSpots };
  const read = readTrustRecord(configDir);
  if (!read.ok) plan.recordProblem = read.problem;
  const previous = read.ok ? read.record.workspaces[workspace] : undefined;
  if (previous) plan.since = { trusted_at: previous.trusted_at, diff: diffManifests(previous.files, files) };
  return plan;
}

/** Writes the plan into the record (replacing this workspace's entry). */
export function recordTrustPlan(plan: TrustPlan, now = new Date()): TrustEntry {
  const read = readTrustRecord(plan.configDir);
  const record = read.ok ? read.record : { version: 1 as const, workspaces: {} };
  const entry: TrustEntry = { workspace: plan.workspace, hooks_file: plan.projectPath, trusted_at: now.toISOString(), files: plan.files };
  record.workspaces[plan.workspace] = entry;
  if (record.ignored) delete record.ignored[plan.workspace];
  writeRecord(plan.configDir, record);
  return entry;
}

/**
 * Removes the workspace's trust; with `ignore`, also records it as ignored (in
 * the trust record under the config dir, never in the workspace), so `fire`
 * stops reporting its dormant layer until `trust` of it lifts that.
 */
export function untrust(opts: GlobalOptions, dir: string | undefined, ignore = false, now = new Date()): { workspace: string; removed: boolean; ignored_at?: string } {
  const configDir = configDirOf(opts);
  const workspace = workspaceKey(dir ?? workspaceOf(opts));
  const read = readTrustRecord(configDir);
  if (!read.ok) throw new ChrysError('refused', `cannot read the trust record ${trustRecordPath(configDir)}: ${read.problem}`, 'delete it: that untrusts every workspace');
  const removed = Boolean(read.record.workspaces[workspace]);
  if (!removed && !ignore) return { workspace, removed };
  delete read.record.workspaces[workspace];
  const ignoredAt = ignore ? (read.record.ignored?.[workspace]?.ignored_at ?? now.toISOString()) : undefined;
  if (ignoredAt) read.record.ignored = { ...read.record.ignored, [workspace]: { ignored_at: ignoredAt } };
  writeRecord(configDir, read.record);
  return { workspace, removed, ...(ignoredAt ? { ignored_at: ignoredAt } : {}) };
}

export interface TrustedWorkspace {
  workspace: string;
  hooks_file: string;
  trusted_at: string;
  files: number;
  /** trusted: unchanged; changed: dormant until trusted again; gone: the workspace no longer exists. */
  state: 'trusted' | 'changed' | 'gone';
  diff: TrustDiff;
}

/**
 * Each recorded workspace with the verdict the loader would reach from the
 * record: the same decision (decideProjectLayer), with the switches and the
 * settings left out, since the list shows what the record says.
 */
export async function listTrusted(opts: GlobalOptions): Promise<{ record: string; workspaces: TrustedWorkspace[] }> {
  const configDir = configDirOf(opts);
  const read = readTrustRecord(configDir);
  if (!read.ok) throw new ChrysError('refused', `cannot read the trust record ${trustRecordPath(configDir)}: ${read.problem}`, 'delete it and trust your workspaces again');
  const recordOnly: GlobalOptions = { configDir };
  const workspaces: TrustedWorkspace[] = [];
  for (const e of Object.values(read.record.workspaces)) {
    if (!existsSync(e.workspace)) {
      workspaces.push({ workspace: e.workspace, hooks_file: e.hooks_file, trusted_at: e.trusted_at, files: e.files.length, state: 'gone', diff: { changed: [], added: [], removed: [e.workspace] } });
      continue;
    }
    const found = discover({ ...recordOnly, workspace: e.workspace });
    const warnings: Warning[] = [];
    const layer = await decideProjectLayer(recordOnly, { configDir, workspace: e.workspace, ...(found.globalPath ? { globalPath: found.globalPath } : {}), ...(found.projectPath ? { projectPath: found.projectPath } : {}), settingsEnabled: async () => false, env: {} }, warnings);
    const state = layer.trust.trusted ? 'trusted' : 'changed';
    const diff = layer.trust.trusted ? { changed: [], added: [], removed: [] } : (layer.changes ?? { changed: [], added: [], removed: [e.hooks_file] });
    workspaces.push({ workspace: e.workspace, hooks_file: e.hooks_file, trusted_at: e.trusted_at, files: e.files.length, state, diff });
  }
  return { record: trustRecordPath(configDir), workspaces };
}

function writeRecord(configDir: string, record: Parameters<typeof writeTrustRecord>[1]): void {
  try {
    writeTrustRecord(configDir, record);
  } catch (e) {
    throw new ChrysError('refused', `cannot write the trust record: ${(e as Error).message}`);
  }
}
