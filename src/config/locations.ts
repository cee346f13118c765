// Where things live (CONTRACT §1): the config dir, the workspace, the two
// hooks files and whether the project file is trusted. Discovery only stats
// files; nothing is parsed here.

import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export const HOOKS_FILE_NAMES = ['hooks.yaml', 'hooks.yml', 'hooks.json'] as const;
export const SETTINGS_FILE_NAMES = ['settings.yaml', 'settings.yml', 'settings.json'] as const;

export interface GlobalOptions {
  configDir?: string;
  cwd?: string;
  /** --project-hooks (true) / --no-project-hooks (false) / neither. */
  projectHooks?: boolean;
}

export function configDirOf(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.configDir) return resolve(opts.configDir);
  if (env.CHRYS_HOME) return resolve(env.CHRYS_HOME);
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'chrys');
  return join(homedir(), '.chrys');
}

/** --cwd > envelope cwd > process cwd. */
export function workspaceOf(opts: GlobalOptions, envelopeCwd?: string): string {
  if (opts.cwd) return resolve(opts.cwd);
  if (envelopeCwd) return resolve(envelopeCwd);
  return process.cwd();
}

/** The first of hooks.yaml, hooks.yml, hooks.json that exists in `dir`. */
export function findFirst(dir: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/**
 * The first hooks file name present in `dir` as any directory entry (lstat):
 * a dangling symlink or a non-file under that name is still the layer's file,
 * reported invalid when read, never skipped in favour of the next name.
 */
export function findFirstEntry(dir: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const path = join(dir, name);
    if (entryExists(path)) return path;
  }
  return undefined;
}

function entryExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR and the like: no entry can be there
  }
}

export const globalHooksDir = (configDir: string): string => join(configDir, 'hooks');
export const projectHooksDir = (workspace: string): string => join(workspace, '.chrys', 'hooks');

export function samePhysicalFile(a: string, b: string): boolean {
  try {
    if (realpathSync(a) === realpathSync(b)) return true;
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** The trust decision from the command line or environment, if either says one. */
export function trustOverride(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  if (opts.projectHooks !== undefined) return opts.projectHooks;
  const v = env.CHRYS_PROJECT_HOOKS?.trim().toLowerCase();
  if (v && TRUE_WORDS.has(v)) return true;
  if (v && FALSE_WORDS.has(v)) return false;
  return undefined;
}

/** Why an explicit --config-dir cannot hold a hooks file, if it cannot; a missing ~/.chrys is normal. */
export function configDirProblem(opts: GlobalOptions): string | undefined {
  if (!opts.configDir) return undefined;
  let isDir: boolean;
  try {
    isDir = statSync(opts.configDir).isDirectory();
  } catch {
    return `--config-dir ${opts.configDir} does not exist, so no global hooks are loaded (create it or fix the path)`;
  }
  return isDir ? undefined : `--config-dir ${opts.configDir} is a file, not a directory, so no global hooks are loaded (name the directory that holds hooks/)`;
}

/** Why `--cwd` names no directory, when it does not: then no project hooks file is found. */
export function workspaceProblem(opts: GlobalOptions): string | undefined {
  if (!opts.cwd) return undefined;
  let isDir: boolean;
  try {
    isDir = statSync(opts.cwd).isDirectory();
  } catch {
    return `--cwd ${opts.cwd} does not exist, so no project hooks are loaded from it (create it or fix the path)`;
  }
  return isDir ? undefined : `--cwd ${opts.cwd} is a file, not a directory, so no project hooks are loaded from it (name the workspace directory)`;
}

/**
 * For a hooks or settings file, which of it and its siblings wins and which
 * are never read (hooks.yml and hooks.json beside a hooks.yaml); undefined
 * when it stands alone.
 */
export function shadowing(path: string): { winner: string; shadowed: string[] } | undefined {
  const name = basename(path);
  const names: readonly string[] | undefined = [HOOKS_FILE_NAMES, SETTINGS_FILE_NAMES].find((list) => (list as readonly string[]).includes(name));
  if (!names) return undefined;
  const dir = dirname(path);
  const present = names.filter((n) => existsSync(join(dir, n)));
  if (present.length < 2) return undefined;
  return { winner: join(dir, present[0]!), shadowed: present.slice(1).map((n) => join(dir, n)) };
}

export const shadowedMessage = (shadowed: string, winner: string): string =>
  `${shadowed} is never read: ${basename(winner)} beside it takes precedence (move its content into ${basename(winner)} and delete it)`;
