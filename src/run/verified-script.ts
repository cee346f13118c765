// Running a trusted project script from the bytes that were verified. The
// trust check hashes the script at load time, but an interpreter opens it by
// path later: a swap in between (a loop, another user writing a shared
// directory) would run code nobody hashed. So the runner reads each file
// once, without following a final symlink, checks those bytes against the
// hash `trust` recorded (Hook.trusted), writes them into a fresh 0700
// directory of its own, and the interpreter runs the copy. A script in the
// .chrys/hooks/ tree gets a copy of the whole checked tree, laid out as in
// the workspace, so what it loads or `source`s beside itself is checked too
// and still found; `$0` and `__file__` name the copy, so a script reaches the
// workspace through CHRYS_WORKSPACE / CLAUDE_PROJECT_DIR.

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Hook } from '../core/config.js';
import { readRegularFile } from '../base/regular-file.js';
import { sha256Hex } from '../base/lazy-crypto.js';
import { resolveFromHookFile } from '../core/hook-paths.js';

/** The bytes of `path` when their hash is `sha256`, else why not (a sentence naming the file). */
function checkedBytes(path: string, sha256: string): Buffer | string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return `${path} is gone since the trust check; the hook was not run`;
  }
  const read = readRegularFile(real, false);
  if (!read.ok) return `cannot read the trusted file ${path}: ${read.problem}; the hook was not run`;
  if (sha256Hex(read.data) !== sha256) {
    return `${path} changed since the trust check (its content is not what \`chrys-hooks trust\` recorded); the hook was not run. Review it with \`chrys-hooks trust\``;
  }
  return read.data;
}

/**
 * The argv to run: `argv` with the script replaced by its verified copy in
 * `dir` (a new directory's path; created here, 0700), or why the hook must
 * not run. A hook without a recorded hash runs as resolved.
 */
export function verifiedArgv(hook: Hook, argv: readonly string[], scriptIndex: number | undefined, dir: () => string): string[] | { error: string } {
  if (!hook.trusted || hook.run.type !== 'script' || scriptIndex === undefined) return [...argv];
  const tree = hook.trusted.tree;
  const copyDir = dir();
  let copy: string;
  if (tree) {
    // Paths come from the record (relative, inside the tree), never from the filesystem now.
    if (!tree.files.some((f) => f.path === tree.script && f.sha256 === hook.trusted!.sha256)) return { error: `the trust record does not hold ${tree.script} in ${tree.root}; run \`chrys-hooks trust\`` };
    mkdirSync(copyDir, { mode: 0o700 });
    for (const file of tree.files) {
      const bytes = checkedBytes(join(tree.root, file.path), file.sha256);
      if (typeof bytes === 'string') return { error: bytes };
      const target = join(copyDir, file.path);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, bytes, { mode: 0o700, flag: 'wx' });
    }
    copy = join(copyDir, tree.script);
  } else {
    const script = resolveFromHookFile(hook, hook.run.path);
    const own = checkedBytes(script, hook.trusted.sha256);
    if (typeof own === 'string') return { error: own };
    mkdirSync(copyDir, { mode: 0o700 });
    copy = join(copyDir, basename(script));
    writeFileSync(copy, own, { mode: 0o700, flag: 'wx' });
  }
  const out = [...argv];
  out[scriptIndex] = copy;
  return out;
}
