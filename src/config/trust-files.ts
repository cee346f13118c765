// The files trust covers and their hashes: the project hooks file and every
// script, prompt_file and path-like command its hooks name. Each check hashes
// the files afresh: a hash cached by timestamps would miss a same-size edit
// within one second on a coarse-timestamp filesystem (a revoked trust kept),
// and hashing a few small scripts costs well under a millisecond.

import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Hook } from '../core/config.js';
import type { FileNow, TrustedFile } from '../core/trust.js';
import { expandTemplate, resolveFromHookFile } from '../run/invocation.js';
import { readRegularFile } from './regular-file.js';

/** The path with symlinks resolved, or as given (absolute) when it does not exist. */
export function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The workspace as the record keys it: its real path (a copy elsewhere is another key). */
export const workspaceKey = realPathOr;

/** Every file the hooks reference, absolute, sorted, the hooks file first. */
export function referencedPaths(hooksFile: string, hooks: readonly Hook[], ctx: { configDir: string; workspace: string }): string[] {
  const paths = new Set<string>();
  const template = { ...ctx, sessionId: '', profile: '' };
  for (const hook of hooks) {
    const run = hook.run;
    if (run.type === 'script') paths.add(resolveFromHookFile(hook, expandTemplate(run.path, template)));
    if (run.prompt_file !== undefined) paths.add(resolveFromHookFile(hook, run.prompt_file));
    const program = run.type === 'command' ? expandTemplate(run.argv[0]!, template) : '';
    if (program.includes('/')) {
      const cwd = expandTemplate(run.cwd, template);
      paths.add(resolve(ctx.workspace, cwd, program));
    }
  }
  paths.delete(hooksFile);
  return [hooksFile, ...[...paths].sort()];
}

export const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** A referenced file trust cannot record: not a regular file, too large, or unreadable. */
export class UnhashableFile extends Error {
  constructor(readonly path: string, readonly problem: string) {
    super(`${path}: ${problem}`);
  }
}

/** The state of each path now, hashed afresh: what `trust` records; throws UnhashableFile. */
export function fingerprint(paths: readonly string[], workspaceReal: string): TrustedFile[] {
  return paths.map((path) => {
    const now = hashNow(path);
    if (now?.problem) throw new UnhashableFile(path, now.problem);
    return { path, sha256: now?.sha256 ?? null, real: now?.real ?? null, outside: !inside(now?.real ?? path, workspaceReal) };
  });
}

function hashNow(path: string): FileNow {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return null;
  }
  // O_NOFOLLOW: the file hashed is the real path recorded, not a link swapped in since.
  const read = readRegularFile(real, false);
  if (read.ok) return { real, sha256: sha256(read.data) };
  return read.missing ? null : { real, sha256: null, problem: read.problem };
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The state of a recorded file now: its real path and the hash of its bytes, null when it is gone, or why it cannot be hashed. */
export const fileNow = (file: TrustedFile): FileNow => hashNow(file.path);
