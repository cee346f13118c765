// The workspace files a hook names in its words rather than in a path field:
// `run.shell` words and `argv[1..]`/`args` of a command (`bash check.sh`,
// `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py`). A path-like word inside the
// workspace that is a regular file is covered by trust, and one that does not
// exist yet is recorded as missing (the layer goes dormant if it appears);
// what a shell command reaches through a variable, a substitution or a glob
// is not covered, and `trust` says so.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Hook } from '../core/config.js';
import { expandKnownVariables, isOpaqueWord, isPathLike, shellWords } from '../core/shell-words.js';
import { inside } from './trust-files.js';

export interface WordFiles {
  paths: string[];
  /** Why trust cannot see everything a shell hook runs, if it cannot. */
  blindSpot?: string;
}

/** The files named by the hook's words, resolved from its cwd in `workspace`. */
export function wordFiles(hook: Hook, workspace: string): WordFiles {
  const run = hook.run;
  if (run.type === 'script') return { paths: [] };
  const cwd = resolve(workspace, run.cwd);
  const vars = { CLAUDE_PROJECT_DIR: workspace, CHRYS_WORKSPACE: workspace, GEMINI_PROJECT_DIR: workspace };
  const words = run.type === 'command' ? [...run.argv.slice(1), ...run.args] : shellWords(run.shell).map((w) => expandKnownVariables(w, vars));
  const literal = words.filter((w) => isPathLike(w) && !isOpaqueWord(w) && !w.includes('://'));
  const paths = literal.map((w) => resolve(cwd, w)).filter((p) => inside(p, workspace) && fileOrNothing(p));
  const opaque = run.type === 'shell' ? words.filter(isOpaqueWord) : [];
  if (opaque.length > 0) return { paths, blindSpot: `its command expands ${opaque.map((w) => JSON.stringify(w)).join(', ')} at run time` };
  return { paths };
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
