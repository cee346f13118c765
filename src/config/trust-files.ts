// Trust's file rules, all of them: which files trusting a workspace covers,
// how each is hashed, and which of them `trust` refuses to record.
//
// Covered: the project hooks file; every file of the workspace's
// .chrys/hooks/ tree (what a script there could load beside itself); each
// run.path script and prompt_file; a path-like run.argv[0]; and, in a
// run.shell line or a run.argv, each word that runs: a path-like program and
// the script a known interpreter is given (core/shell-words.ts). Never data:
// a redirection target or a file an argument merely names is not code, and
// covering it would turn the layer off when the hook writes its own log.
//
// Each check hashes the files afresh: a hash cached by timestamps would miss
// a same-size edit within one second on a coarse-timestamp filesystem (a
// revoked trust kept), and hashing a few small scripts costs well under a
// millisecond.

import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Hook } from '../core/config.js';
import { type ShellReading, readArgv, readShellLine } from '../core/shell-words.js';
import type { FileNow, TrustedFile } from '../core/trust.js';
import { resolveFromHookFile } from '../core/hook-paths.js';
import { expandTemplate } from '../core/hook-template.js';
import { projectHooksDir } from './locations.js';
import { readRegularFile } from '../base/regular-file.js';
import { sha256Hex } from '../base/lazy-crypto.js';

/** The path with symlinks resolved, or as given (absolute) when it does not exist. */
export function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The workspace as the record keys it: its real path (a copy elsewhere is another key). @alias */
export const workspaceKey = realPathOr;

export const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The most files the .chrys/hooks/ tree may hold: each is hashed on every firing. */
export const MAX_TREE_FILES = 500;

/** A referenced file trust cannot record: not a regular file, too large, unreadable, or open to other users. */
export class UnhashableFile extends Error {
  constructor(readonly path: string, readonly problem: string, readonly fix?: string) {
    super(`${path}: ${problem}`);
  }
}

export interface Coverage {
  /** Every covered path, absolute, sorted, the hooks file first. */
  paths: string[];
  /** Hooks whose command runs something trust cannot see, one sentence each. */
  blindSpots: string[];
}

/** What trusting this hooks file covers (see the header), with what it cannot see. */
export function coveredPaths(hooksFile: string, hooks: readonly Hook[], ctx: { configDir: string; workspace: string }): Coverage {
  const paths = new Set<string>(hooksTree(ctx.workspace));
  const blindSpots: string[] = [];
  const template = { ...ctx, sessionId: '', profile: '' };
  for (const hook of hooks) {
    const run = hook.run;
    if (run.type === 'script') paths.add(resolveFromHookFile(hook, expandTemplate(run.path, template)));
    if (run.prompt_file !== undefined) paths.add(resolveFromHookFile(hook, run.prompt_file));
    if (run.type === 'script') continue;
    const cwd = resolve(ctx.workspace, expandTemplate(run.cwd, template));
    const program = run.type === 'command' ? expandTemplate(run.argv[0]!, template) : '';
    // argv[0] is what runs, inside the workspace or not.
    if (program.includes('/')) paths.add(resolve(cwd, program));
    const reading = hookReading(hook, ctx.workspace);
    for (const path of runPaths(reading, cwd)) if (inside(path, ctx.workspace) && fileOrNothing(path)) paths.add(path);
    if (reading.blind.length > 0) blindSpots.push(`hook "${hook.id}" (run.${run.type === 'shell' ? 'shell' : 'argv'}): ${reading.blind.join('; ')}; trust covers only the files its command names literally, not what it reaches otherwise`);
  }
  paths.delete(hooksFile);
  return { paths: [hooksFile, ...[...paths].sort()], blindSpots };
}

/** A command or shell hook's words with their roles; a shell line reads $CLAUDE_PROJECT_DIR and its kin as the workspace. */
export function hookReading(hook: Hook, workspace: string): ShellReading {
  const run = hook.run;
  if (run.type === 'shell') return readShellLine(run.shell, { CLAUDE_PROJECT_DIR: workspace, CHRYS_WORKSPACE: workspace, GEMINI_PROJECT_DIR: workspace });
  if (run.type === 'command') return readArgv([...run.argv, ...run.args]);
  return { words: [], blind: [] };
}

/** The files a reading runs: its path-like programs and its scripts, resolved from `cwd` through the `cd`s before them. */
export function runPaths(reading: ShellReading, cwd: string): string[] {
  return reading.words
    .filter((w) => !w.opaque && !w.text.includes('://') && w.text !== '' && (w.role === 'script' || (w.role === 'program' && w.text.includes('/'))))
    .map((w) => resolve(cwd, ...w.dirs, w.text));
}

/** A regular file, or nothing yet; a directory is not a file a hook runs. */
function fileOrNothing(path: string): boolean {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined || stat.isFile();
  } catch {
    return false; // under a file (ENOTDIR), unreadable: not a file a hook can run
  }
}

/**
 * Every entry of <workspace>/.chrys/hooks/ that is not a directory, recursively,
 * sorted: what a script there could load beside itself. A symlink is listed,
 * not followed. chrys-hooks writes nothing here: its runtime tree is under the
 * config dir, and when that is this directory the file loads as global.
 */
export function hooksTree(workspaceReal: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return; // no tree (or unreadable): the files trust names still say what is missing
    }
    for (const name of names) {
      const path = join(dir, name);
      let directory = false;
      try {
        directory = lstatSync(path).isDirectory();
      } catch {
        continue;
      }
      if (directory) walk(path);
      else found.push(path);
      if (found.length > MAX_TREE_FILES) throw new UnhashableFile(projectHooksDir(workspaceReal), `it holds more than ${MAX_TREE_FILES} files, each hashed on every firing`, 'keep only the hooks and what they load there (a node_modules or a virtualenv belongs elsewhere)');
    }
  };
  walk(projectHooksDir(workspaceReal));
  return found;
}

/** The state of each path now, hashed afresh: what `trust` records; throws UnhashableFile. */
export function fingerprint(paths: readonly string[], workspaceReal: string): TrustedFile[] {
  return paths.map((path) => {
    const { now } = readNow(path);
    if (now?.problem) throw new UnhashableFile(path, now.problem);
    return { path, sha256: now?.sha256 ?? null, real: now?.real ?? null, outside: !inside(now?.real ?? path, workspaceReal) };
  });
}

/**
 * A file as it is now, and the bytes that were hashed: one open (no final
 * symlink followed, so what is hashed is the real path recorded), one read.
 * A caller that uses the bytes (the loader parsing the hooks file) uses
 * exactly what was compared with the record.
 */
export function readNow(path: string): { now: FileNow; data?: Buffer } {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { now: null };
  }
  const read = readRegularFile(real, false);
  if (read.ok) return { now: { real, sha256: sha256Hex(read.data) }, data: read.data };
  return { now: read.missing ? null : { real, sha256: null, problem: read.problem } };
}

/** Tree files present now that the record does not hold: added since `trust`. */
export function untrackedTreeFiles(files: readonly TrustedFile[], workspaceReal: string): string[] {
  const known = new Set(files.map((f) => f.path));
  try {
    return hooksTree(workspaceReal).filter((p) => !known.has(p));
  } catch (e) {
    if (e instanceof UnhashableFile) return [`${e.path} (${e.problem})`];
    throw e;
  }
}

/**
 * Why another local user could change a file `trust` records, if one could:
 * the file, or a directory on its way from /, is writable by its group or by
 * others, or owned by a user other than the caller and root. A world-writable
 * directory with the sticky bit (/tmp) is allowed: others cannot rename or
 * remove what they do not own there. Throws UnhashableFile with the fix.
 */
export function refuseSharedWrite(paths: readonly string[]): void {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
  const me = process.getuid();
  const seen = new Set<string>();
  for (const path of paths) {
    for (let p = realPathOr(path), first = true; ; p = dirname(p), first = false) {
      if (!seen.has(p)) {
        seen.add(p);
        const problem = sharedWrite(p, me, first);
        if (problem) throw new UnhashableFile(p, problem.problem, problem.fix);
      }
      if (dirname(p) === p) break;
    }
  }
}

function sharedWrite(path: string, me: number, leaf: boolean): { problem: string; fix: string } | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return undefined; // a missing file is recorded as missing; its directory is checked
  }
  if (leaf && !stat.isFile() && !stat.isDirectory()) return undefined; // refused later, with its own reason
  const quoted = `'${path.replaceAll("'", "'\\''")}'`;
  if (stat.uid !== me && stat.uid !== 0) {
    return { problem: `it is owned by uid ${stat.uid}, not by you (uid ${me}) or root, so that user can change what runs`, fix: `chown ${userName(me)} ${quoted} (as root), or move the workspace to a directory you own` };
  }
  const sticky = stat.isDirectory() && (stat.mode & 0o1000) !== 0;
  const writable = stat.mode & 0o022;
  if (writable && !sticky) {
    const who = writable === 0o022 ? 'its group and others' : writable & 0o020 ? 'its group' : 'others';
    return { problem: `it is writable by ${who} (mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}), so another user can change what runs`, fix: `chmod go-w ${quoted}` };
  }
  return undefined;
}

function userName(uid: number): string {
  try {
    return userInfo().username;
  } catch {
    return String(uid);
  }
}
