// Run history: one JSON line per hook run, appended to a file per hook, so
// `list` can show the last run. O_APPEND writes of one short line need no
// lock on `fire`'s hot path; the file is cut back to the last 200 runs once
// it passes 400. The cut takes no lock either: a line another process
// appends between its read and its rename is lost, which best effort allows.

import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Hook } from '../core/config.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { keyedName } from '../base/keyed-name.js';

export const HISTORY_KEEP = 200;
const TRIM_AT_BYTES = 400 * 160; // ~400 lines of ~160 bytes

export interface RunEntry {
  status: string;
  at: string;
  session_id: string;
  exit_code?: number | null;
  duration_ms?: number | null;
}

const historyDir = (configDir: string): string => join(runtimeDir(configDir, 'state'), 'history');
export const historyPath = (configDir: string, hook: Pick<Hook, 'source' | 'file' | 'id'>): string =>
  join(historyDir(configDir), `${keyedName(hook.source, hook.file, hook.id)}.jsonl`);

/** Appends a run, stamped now; never throws (history must not fail a firing). */
export function recordRun(configDir: string, hook: Hook, entry: Omit<RunEntry, 'at'>, at = new Date()): void {
  try {
    ensureDir(historyDir(configDir));
    const path = historyPath(configDir, hook);
    appendLine(path, JSON.stringify({ hook_id: hook.id, ...entry, at: at.toISOString() }) + '\n');
    if (statSync(path).size > TRIM_AT_BYTES) trim(path);
  } catch {
    // history is best effort
  }
}

/** O_APPEND, never through a symlink (the path is predictable), owner-only. */
function appendLine(path: string, line: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function trim(path: string): void {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  if (lines.length <= HISTORY_KEEP * 2) return;
  // No fsync: history is a best-effort record; a power cut may cost its latest lines.
  writeFileAtomic(path, lines.slice(-HISTORY_KEEP).join('\n') + '\n', { durable: false });
}

export function readRuns(configDir: string, hook: Pick<Hook, 'source' | 'file' | 'id'>): RunEntry[] {
  try {
    return readFileSync(historyPath(configDir, hook), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as RunEntry];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
}

export const lastRun = (configDir: string, hook: Pick<Hook, 'source' | 'file' | 'id'>): RunEntry | undefined => readRuns(configDir, hook).at(-1);

/** A firing's or a drain's runs, per hook: the history directory checked once, one write per hook; never throws. */
export function recordRunsOfHooks(configDir: string, runs: Iterable<readonly [Hook, readonly (Omit<RunEntry, 'at'> & { at: Date })[]]>): void {
  let dirReady = false;
  for (const [hook, entries] of runs) {
    if (entries.length === 0) continue;
    try {
      if (!dirReady) ensureDir(historyDir(configDir));
      dirReady = true;
      const path = historyPath(configDir, hook);
      appendLine(path, entries.map(({ at, ...e }) => JSON.stringify({ hook_id: hook.id, ...e, at: at.toISOString() }) + '\n').join(''));
      if (statSync(path).size > TRIM_AT_BYTES) trim(path);
    } catch {
      // history is best effort
    }
  }
}
