// Finding a job's hook again, by hook_source + hook_source_path + hook_id, in
// the current configuration. Discovery, the same-file check and trust are the
// loader's own decisions (decideProjectLayer), asked once per workspace a
// pass; the files a pass needs are loaded once, up front, so the lookups
// themselves are plain and synchronous.

import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Hook } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { discover } from '../config/discover.js';
import { type FileLoad, loadHooksFile, settingsTrust } from '../config/load.js';
import { type GlobalOptions, configDirOf, samePhysicalFile } from '../config/locations.js';
import { type ProjectLayer, type Verified, decideProjectLayer, withVerifiedScripts } from '../config/project-trust.js';
import type { Job } from './job.js';
import type { Lookup } from './select.js';

/** Loaded files by path, kept across a watcher's passes while their identity (inode, size, times) holds. */
export type LoadMemo = Map<string, { identity: string; load: FileLoad }>;

/** The workspace of a project hooks file (<workspace>/.chrys/hooks/<file>). */
export const projectWorkspace = (projectPath: string): string => dirname(dirname(dirname(projectPath)));

/** The workspace whose project layer decides a job: its recorded file's, or (a legacy job) its payload's cwd. */
function workspaceOfJob(job: Job): string | undefined {
  if (job.hook_source === 'project') return typeof job.hook_source_path === 'string' ? projectWorkspace(job.hook_source_path) : undefined;
  if (job.hook_source === 'global') return undefined;
  return typeof job.payload.cwd === 'string' ? job.payload.cwd : undefined;
}

export class HookFinder {
  private readonly configDir: string;
  private readonly globalPath: string | undefined;
  private readonly files = new Map<string, FileLoad | undefined>();
  private readonly layers = new Map<string, ProjectLayer>();
  private readonly globalNames = new Map<string, boolean>();
  private globalFile: FileLoad | undefined;
  private settingsEnabled: Promise<boolean> | undefined;

  constructor(
    private readonly opts: GlobalOptions,
    /** Where this pass's trust and settings warnings go. */
    private readonly warnings: Warning[],
    private readonly memo: LoadMemo = new Map(),
  ) {
    this.configDir = configDirOf(opts);
    this.globalPath = discover({ ...opts, workspace: this.configDir }).globalPath;
  }

  private key = (path: string, layer: 'global' | 'project'): string => `${layer}\0${path}`;

  private async load(path: string, layer: 'global' | 'project', verified?: Verified): Promise<void> {
    const key = this.key(path, layer);
    if (this.files.has(key)) return;
    if (verified) {
      // Trusted by record: parsed from the bytes just checked against it, not from a memo or a second read.
      const load = await loadHooksFile(path, layer, { data: verified.data });
      load.hooks = withVerifiedScripts(load.hooks, verified);
      return void this.files.set(key, load);
    }
    const identity = fileIdentity(path);
    if (identity === undefined) return void this.files.set(key, undefined);
    const kept = this.memo.get(key);
    if (kept !== undefined && kept.identity === identity) return void this.files.set(key, kept.load);
    const load = await loadHooksFile(path, layer);
    this.memo.set(key, { identity, load });
    this.files.set(key, load);
  }

  /** Loads the global file; its settings drive the drain. */
  async global(): Promise<FileLoad | undefined> {
    if (this.globalPath && !this.globalFile) {
      await this.load(this.globalPath, 'global');
      this.globalFile = this.files.get(this.key(this.globalPath, 'global'));
    }
    return this.globalFile;
  }

  /** Decides the project layer of every workspace these jobs name, as the loader would, and loads the trusted files; a workspace once a finder. */
  async preload(jobs: readonly Job[]): Promise<void> {
    await this.global();
    for (const workspace of new Set(jobs.map(workspaceOfJob).filter((w): w is string => w !== undefined))) {
      if (this.layers.has(workspace)) continue;
      const layer = await this.decideLayer(workspace);
      this.layers.set(workspace, layer);
      if (layer.projectPath && !layer.sameFile && layer.trust.trusted) await this.load(layer.projectPath, 'project', layer.verified);
    }
  }

  private decideLayer(workspace: string): Promise<ProjectLayer> {
    const { projectPath } = discover({ ...this.opts, workspace });
    // project.hooks_enabled is read once a pass, and only if a switch did not decide.
    const settingsEnabled = (): Promise<boolean> => (this.settingsEnabled ??= settingsTrust(this.configDir, this.warnings));
    return decideProjectLayer(this.opts, { configDir: this.configDir, workspace, globalPath: this.globalPath, projectPath, settingsEnabled }, this.warnings);
  }

  /** Whether `path` names the loaded global file; asked once per path a pass (jobs of one hook all name the same file). */
  private isGlobalFile(path: string, loadedPath: string): boolean {
    let same = this.globalNames.get(path);
    if (same === undefined) this.globalNames.set(path, (same = samePhysicalFile(path, loadedPath)));
    return same;
  }

  private loaded = (path: string, layer: 'global' | 'project'): FileLoad | undefined => this.files.get(this.key(path, layer));

  /** The job's hook in the preloaded files, or why it cannot run. */
  find(job: Job): Lookup {
    if (job.hook_source === 'project') return this.findProject(job);
    if (job.hook_source === 'global') return this.findGlobal(job);
    return this.findLegacy(job);
  }

  private findProject(job: Job): Lookup {
    const path = job.hook_source_path;
    if (typeof path !== 'string') return stale('the job names no hook_source_path');
    const layer = this.layers.get(projectWorkspace(path));
    if (!layer?.trust.trusted) return { error: 'untrusted', message: 'project hooks are not enabled for this drain' };
    // Only the file the loader would load in that workspace can hold the job's hook.
    if (!layer.projectPath || layer.sameFile || !samePhysicalFile(layer.projectPath, path)) return stale(`project hooks file ${path} is gone, or is no longer the project file of its workspace`);
    const file = this.loaded(layer.projectPath, 'project');
    if (!file?.valid) return stale(`project hooks file ${path} is ${file ? 'invalid' : 'gone'}`);
    return pick(job, file) ?? stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
  }

  private findGlobal(job: Job): Lookup {
    const path = job.hook_source_path;
    const file = this.globalFile;
    if (!file?.valid || typeof path !== 'string' || !this.isGlobalFile(path, file.path)) return stale(`global hooks file ${path} is not the loaded global file, or is invalid`);
    return pick(job, file) ?? stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
  }

  /** A legacy job without hook_source: the id must name exactly one hook. */
  private findLegacy(job: Job): Lookup {
    const cwd = workspaceOfJob(job);
    const layer = cwd === undefined ? undefined : this.layers.get(cwd);
    const projectPath = layer && !layer.sameFile && layer.trust.trusted ? layer.projectPath : undefined;
    const candidates = [pick(job, this.globalFile), projectPath ? pick(job, this.loaded(projectPath, 'project')) : undefined].filter((c) => c !== undefined);
    if (candidates.length > 1) return { error: 'ambiguous_hook', message: `hook id "${job.hook_id}" exists in both layers and the job does not say which` };
    return candidates[0] ?? stale(`no hook "${job.hook_id}" in the current configuration`);
  }
}

const stale = (message: string): Lookup => ({ error: 'stale_source', message });

const pick = (job: Job, file: FileLoad | undefined): { hook: Hook } | undefined => {
  const hook = file?.hooks.find((h) => h.id === job.hook_id && h.enabled);
  return hook ? { hook } : undefined;
};

/** The file as it is now: same identity, same content (an edit changes the size or times). */
function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
