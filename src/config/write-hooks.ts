// Writes a hooks file for `import --write`: never over an existing file
// without `force`, never through a symlink (neither the file nor a directory
// between `base` and it), atomically (temp file + rename).

import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../base/atomic-write.js';
import { HOOKS_FILE_NAMES, findFirst } from './locations.js';

export type WriteRefusal = { code: 'exists'; path: string } | { code: 'symlink'; path: string };

/** The file `import --write` writes in `dir`: an existing hooks.yaml / hooks.yml, else hooks.yaml. */
export function hooksFileTarget(dir: string): { path: string; existing: string | undefined } {
  const existing = findFirst(dir, HOOKS_FILE_NAMES);
  return { path: existing && !existing.endsWith('.json') ? existing : join(dir, 'hooks.yaml'), existing };
}

/** Writes `text` to `path` under `base`; returns why it refused, if it did. */
export function writeHooksFile(base: string, path: string, text: string, force: boolean): WriteRefusal | undefined {
  const link = symlinkOnTheWay(base, path);
  if (link) return { code: 'symlink', path: link };
  const existing = findFirst(dirname(path), HOOKS_FILE_NAMES);
  if (existing && !force) return { code: 'exists', path: existing };
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  // No fsync: the user runs import again if a power cut tore the file (the old one stays until the rename).
  writeFileAtomic(path, text, { mode: 0o644, durable: false });
  return undefined;
}

/** The first symbolic link among the existing components from `base` (exclusive) down to `path`. */
export function symlinkOnTheWay(base: string, path: string): string | undefined {
  const parts = relative(base, path).split(sep).filter(Boolean);
  let cur = base;
  for (const part of parts) {
    cur = join(cur, part);
    try {
      if (lstatSync(cur).isSymbolicLink()) return cur;
    } catch {
      return undefined; // does not exist yet: nothing below it can be a link
    }
  }
  return undefined;
}
