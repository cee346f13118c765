// Finding the two hooks files by stat alone: the whole of `fire`'s work when
// there are none.

import { type GlobalOptions, HOOKS_FILE_NAMES, configDirOf, findFirstEntry, globalHooksDir, projectHooksDir } from './locations.js';

export interface DiscoverOptions extends GlobalOptions {
  workspace: string;
}

/** Stats both locations; the config dir and whichever hooks files exist. */
export function discover(opts: DiscoverOptions): { configDir: string; globalPath?: string; projectPath?: string } {
  const configDir = configDirOf(opts);
  const globalPath = findFirstEntry(globalHooksDir(configDir), HOOKS_FILE_NAMES);
  const projectPath = findFirstEntry(projectHooksDir(opts.workspace), HOOKS_FILE_NAMES);
  return { configDir, ...(globalPath ? { globalPath } : {}), ...(projectPath ? { projectPath } : {}) };
}

