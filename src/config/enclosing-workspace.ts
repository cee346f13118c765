// A guard lost to the workspace rule: the workspace is fixed for the session
// (CONTRACT §1, no walk up), so when the directory an agent works in lies
// inside another workspace whose project hooks are trusted, those hooks do
// not run. That happens when an agent names no project root and the session
// started in a subdirectory, or when --cwd or the envelope names the wrong
// one. It is found here so `fire` can say so (and, with --fail-closed, block).

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HOOKS_FILE_NAMES, type GlobalOptions, findFirstEntry, globalHooksDir, projectHooksDir, samePhysicalFile } from './locations.js';
import { switchTrust } from './project-trust.js';
import { readTrustRecord } from './trust-record.js';
import { workspaceKey } from './trust-files.js';

export interface EnclosingWorkspace {
  /** The trusted workspace that encloses `cwd` but is not the firing's workspace. */
  workspace: string;
  projectPath: string;
  /** Why it counts as trusted: the trust record, the settings, CHRYS_PROJECT_HOOKS, --project-hooks. */
  trustedBy: string;
}

/**
 * The nearest directory at or above `cwd`, other than `workspace`, whose
 * project hooks would load if it were the workspace. Stats one directory
 * per level; reads the trust (and the settings) only where a project hooks
 * file is found.
 */
export async function enclosingTrustedWorkspace(
  opts: GlobalOptions,
  ctx: { configDir: string; workspace: string; cwd: string; settingsEnabled: () => Promise<boolean> },
): Promise<EnclosingWorkspace | undefined> {
  const switched = switchTrust(opts);
  if (switched && !switched.trusted) return undefined; // project hooks are off: no guard of any workspace is lost
  const workspace = resolve(ctx.workspace);
  const globalDir = globalHooksDir(ctx.configDir);
  for (let dir = resolve(ctx.cwd); ; dir = dirname(dir)) {
    if (dir !== workspace) {
      // One stat per level on fire's path; the three file names only where the directory is.
      const projectPath = existsSync(projectHooksDir(dir)) ? findFirstEntry(projectHooksDir(dir), HOOKS_FILE_NAMES) : undefined;
      // ~/.chrys/hooks is the global layer, which loads in every workspace.
      if (projectPath && !samePhysicalFile(projectHooksDir(dir), globalDir)) {
        const trustedBy = switched?.detail ?? (await trustedByOf(dir, ctx));
        if (trustedBy) return { workspace: dir, projectPath, trustedBy };
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

async function trustedByOf(dir: string, ctx: { configDir: string; settingsEnabled: () => Promise<boolean> }): Promise<string | undefined> {
  if (await ctx.settingsEnabled()) return 'project.hooks_enabled in the user settings';
  const read = readTrustRecord(ctx.configDir);
  // Trusted once, even if changed since: its guards are still the ones the user chose.
  return read.ok && read.record.workspaces[workspaceKey(dir)] ? '`chrys-hooks trust`' : undefined;
}

export function enclosingWarningMessage(found: EnclosingWorkspace, cwd: string, workspace: string): string {
  return (
    `the agent works in ${cwd}, inside the trusted workspace ${found.workspace} (trusted by ${found.trustedBy}), ` +
    `but this firing's workspace is ${workspace}, so the project hooks of ${found.workspace} did not run; ` +
    `let the agent name its project root (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR) or start the session in ${found.workspace}, or pass --cwd ${found.workspace}`
  );
}
