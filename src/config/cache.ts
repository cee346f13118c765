// A cache of what `fire` derives from config files, since it runs on every
// tool call: the schema-checked data of a hooks file (a hit skips the YAML
// parser and zod, ~50 ms of start-up) and the trust setting of the user
// settings file. An entry holds the file's whole text and is a hit only for
// that exact text, never by its timestamps: on a filesystem with 1-second (or
// 2-second) timestamps an edit that keeps the size within the same second
// leaves every stat field unchanged. Comparing the text needs no hash, so a
// firing with global hooks only never loads node:crypto (base/lazy-crypto.ts);
// config files are small, and the entry's copy of the text is read with it.
// An entry of another version or of the wrong shape is a miss, and is rebuilt.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Layer } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { RawHooksFile } from '../core/schema.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { keyedName } from '../base/keyed-name.js';
import { VERSION } from '../version.js';

export interface CachedFile {
  /** The schema-checked data, or null when the file did not get that far. */
  raw: RawHooksFile | null;
  diagnostics: Diagnostic[];
}

interface Entry<T> {
  version: string;
  /** The file's text when the entry was made. */
  content: string;
  value: T;
}

/** What is cached about which file: a hooks file per layer, or the user settings. */
export type CacheKind = Layer | 'settings';

export const cacheDir = (configDir: string): string => join(runtimeDir(configDir, 'state'), 'cache');
const entryPath = (dir: string, path: string, kind: CacheKind): string =>
  join(dir, `${keyedName(kind, path)}.json`);

// A long-lived process (serve, the API) also keeps the latest entry of each
// file in memory, checked against the same text: a hit skips the
// disk read, JSON.parse and the shape check of the entry (a remembered value
// was checked when read, or built by this process). Bounded, oldest out.
const MEMORY_ENTRIES = 256;
const memory = new Map<string, { text: string; value: unknown }>();
const memoryKey = (dir: string, path: string, kind: CacheKind): string => `${dir}\0${kind}\0${path}`;

function remember(key: string, text: string, value: unknown): void {
  memory.delete(key);
  memory.set(key, { text, value });
  if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

/** The cached value for the file's `text`, if the entry is ours, current and of the right shape. */
export function readCache<T>(dir: string, path: string, kind: CacheKind, text: string, isValue: (v: unknown) => v is T): T | undefined {
  const key = memoryKey(dir, path, kind);
  const known = memory.get(key);
  if (known?.text === text) return known.value as T;
  try {
    const entry = JSON.parse(readFileSync(entryPath(dir, path, kind), 'utf8')) as Partial<Entry<unknown>> | null;
    if (!entry || entry.version !== VERSION || entry.content !== text) return undefined;
    if (!isValue(entry.value)) return undefined;
    remember(key, text, entry.value);
    return entry.value;
  } catch {
    return undefined;
  }
}

/** Best effort: a cache that cannot be written only costs the next firing its parse. */
export function writeCache<T>(dir: string, path: string, kind: CacheKind, text: string, value: T): void {
  remember(memoryKey(dir, path, kind), text, value);
  const target = entryPath(dir, path, kind);
  try {
    ensureDir(dir);
    // No fsync: a torn entry after a power cut is a miss, and is rebuilt.
    writeFileAtomic(target, JSON.stringify({ version: VERSION, content: text, value } satisfies Entry<T>), { durable: false });
  } catch {
    // nothing more to do
  }
}
