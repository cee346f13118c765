// Finding a job's hook again, by hook_source + hook_source_path + hook_id, in
// the current configuration. The files a pass needs are loaded once, up
// front; the lookups themselves are then plain and synchronous.

import type { Hook } from '../core/config.js';
import { statSync } from 'node:fs';
import { type FileLoad, loadHooksFile } from '../config/load.js';
import { HOOKS_FILE_NAMES, findFirstEntry, projectHooksDir, samePhysicalFile } from '../config/locations.js';
import type { Job } from './job.js';
import type { Lookup } from './select.js';

/** Loaded files by path, kept across a watcher's passes while their identity (inode, size, times) holds. */
export type LoadMemo = Map<string, { identity: string; load: FileLoad }>;

export class HookFinder {
  private readonly files = new Map<string, FileLoad | undefined>();
  private globalFile: FileLoad | undefined;
  constructor(
    private readonly globalPath: string | undefined,
    /** Whether the project file at this path may load (undefined: the job names none). */
    private readonly trusted: (projectPath: string | undefined) => boolean,
    private readonly memo: LoadMemo = new Map(),
  ) {}

  private key = (path: string, layer: 'global' | 'project'): string => `${layer}\0${path}`;

  private async load(path: string, layer: 'global' | 'project'): Promise<void> {
    const key = this.key(path, layer);
    if (this.files.has(key)) return;
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

  /** Loads every project file these jobs may name, of those that are trusted. */
  async preload(jobs: readonly Job[]): Promise<void> {
    await this.global();
    for (const path of new Set(jobs.map((j) => this.projectPathOf(j)).filter((p): p is string => p !== undefined))) {
      if (this.trusted(path)) await this.load(path, 'project');
    }
  }

  private projectPathOf(job: Job): string | undefined {
    if (job.hook_source === 'project') return typeof job.hook_source_path === 'string' ? job.hook_source_path : undefined;
    if (job.hook_source === 'global') return undefined;
    const cwd = typeof job.payload.cwd === 'string' ? job.payload.cwd : undefined;
    const path = cwd ? findFirstEntry(projectHooksDir(cwd), HOOKS_FILE_NAMES) : undefined;
    return path && !(this.globalPath && samePhysicalFile(path, this.globalPath)) ? path : undefined;
  }

  private readonly globalNames = new Map<string, boolean>();

  /** Whether `path` names the loaded global file; asked once per path a pass (jobs of one hook all name the same file). */
  private isGlobalFile(path: string, loadedPath: string): boolean {
    let same = this.globalNames.get(path);
    if (same === undefined) this.globalNames.set(path, (same = samePhysicalFile(path, loadedPath)));
    return same;
  }

  private loaded = (path: string, layer: 'global' | 'project'): FileLoad | undefined => this.files.get(this.key(path, layer));

  /** The job's hook in the preloaded files, or why it cannot run. */
  find(job: Job): Lookup {
    const stale = (message: string): Lookup => ({ error: 'stale_source', message });
    const pick = (file: FileLoad | undefined): Hook | undefined => file?.hooks.find((h) => h.id === job.hook_id && h.enabled);
    if (job.hook_source === 'project') {
      const path = job.hook_source_path;
      if (!this.trusted(typeof path === 'string' ? path : undefined)) return { error: 'untrusted', message: 'project hooks are not enabled for this drain' };
      if (typeof path !== 'string') return stale('the job names no hook_source_path');
      const file = this.loaded(path, 'project');
      if (!file?.valid) return stale(`project hooks file ${path} is ${file ? 'invalid' : 'gone'}`);
      const hook = pick(file);
      return hook ? { hook } : stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
    }
    if (job.hook_source === 'global') {
      const path = job.hook_source_path;
      const file = this.globalFile;
      if (!file?.valid || typeof path !== 'string' || !this.isGlobalFile(path, file.path)) return stale(`global hooks file ${path} is not the loaded global file, or is invalid`);
      const hook = pick(file);
      return hook ? { hook } : stale(`hook "${job.hook_id}" is no longer in ${path} (or is disabled)`);
    }
    // A legacy job without hook_source: the id must name exactly one hook.
    const candidates: Hook[] = [];
    const globalHook = pick(this.globalFile);
    if (globalHook) candidates.push(globalHook);
    const found = this.projectPathOf(job);
    const projectPath = found !== undefined && this.trusted(found) ? found : undefined;
    const projectHook = projectPath ? pick(this.loaded(projectPath, 'project')) : undefined;
    if (projectHook) candidates.push(projectHook);
    if (candidates.length > 1) return { error: 'ambiguous_hook', message: `hook id "${job.hook_id}" exists in both layers and the job does not say which` };
    return candidates[0] ? { hook: candidates[0] } : stale(`no hook "${job.hook_id}" in the current configuration`);
  }
}

/** The file as it is now: same identity, same content (an edit changes the size or times). */
function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
