// A cache of what `fire` derives from config files, since it runs on every
// tool call: the schema-checked data of a hooks file (a hit skips reading,
// the YAML parser and zod, ~50 ms of start-up) and the trust setting of the
// user settings file. An entry is valid while the file's identity (device,
// inode, size, mtime, ctime) and the chrys-hooks version are unchanged;
// anything else is a miss.

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Layer } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { RawHooksFile } from '../core/schema.js';
import { ensureDir, runtimeDir } from '../run/runtime.js';
import { VERSION } from '../version.js';

export interface CachedFile {
  /** The schema-checked data, or null when the file did not get that far. */
  raw: RawHooksFile | null;
  diagnostics: Diagnostic[];
}

interface Entry<T> {
  version: string;
  identity: string;
  value: T;
}

/** What is cached about which file: a hooks file per layer, the user settings, or a trusted file's hash. */
export type CacheKind = Layer | 'settings' | 'sha256';

export const cacheDir = (configDir: string): string => join(runtimeDir(configDir, 'state'), 'cache');
const entryPath = (dir: string, path: string, kind: CacheKind): string =>
  join(dir, `${createHash('sha256').update(`${kind}\0${path}`).digest('hex').slice(0, 32)}.json`);

/** The file's identity now, or undefined if it cannot be stat'ed. */
export function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

export function readCache<T>(dir: string, path: string, kind: CacheKind, identity: string): T | undefined {
  try {
    const entry = JSON.parse(readFileSync(entryPath(dir, path, kind), 'utf8')) as Entry<T>;
    return entry.version === VERSION && entry.identity === identity ? entry.value : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a cache that cannot be written only costs the next firing its parse. */
export function writeCache<T>(dir: string, path: string, kind: CacheKind, identity: string, value: T): void {
  try {
    ensureDir(dir);
    const target = entryPath(dir, path, kind);
    const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: VERSION, identity, value } satisfies Entry<T>), { mode: 0o600 });
    renameSync(tmp, target);
  } catch {
    // ignore
  }
}
