// The runtime tree under <config_dir>/hooks/ (CONTRACT §1): tmp/, logs/,
// state/ and outbox/, always under the global config dir, created only when
// first needed, directories 0700.

import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type RuntimeDirName = 'tmp' | 'logs' | 'state' | 'outbox';

export const runtimeDir = (configDir: string, name: RuntimeDirName): string => join(configDir, 'hooks', name);

const RUNTIME_PART = /[\\/]hooks[\\/](?:tmp|logs|state|outbox)(?=[\\/]|$)/g;

/**
 * mkdir -p with 0700. Inside the runtime tree (<config_dir>/hooks/{tmp,logs,
 * state,outbox}/...) every directory is also checked: a symlink is refused
 * (nothing is written through one) and a looser mode is tightened to 0700.
 */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const m = [...dir.matchAll(RUNTIME_PART)].at(-1); // the config dir itself may hold such a path
  if (!m) return;
  let path = dir.slice(0, m.index + 'hooks'.length + 1);
  const parts = dir.slice(path.length + 1).split(/[\\/]/);
  // Stryker disable next-line MethodExpression: an empty part (a trailing or doubled separator) joins to the directory just checked
  for (const part of parts.filter(Boolean)) {
    path = join(path, part);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || !stat.isDirectory()) {
      throw Object.assign(new Error(`${path} is ${stat.isSymbolicLink() ? 'a symlink' : 'not a directory'}; chrys-hooks does not write through it`), { code: 'ESYMLINK' });
    }
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
  }
}
