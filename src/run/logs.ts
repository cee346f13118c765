// Owner-only run logs under <config_dir>/hooks/logs/: one file per run of a
// non-blocking hook or durable job, kept for seven days. Each process that
// writes them prunes the old ones, and only files of this naming.

import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hook } from '../core/config.js';
import { ignoredResult } from '../core/decide.js';
import type { Warning } from '../core/diagnostics.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { randomHex } from '../base/lazy-crypto.js';
import type { RunRecord } from './spawn.js';

export const LOG_RETENTION_MS = 7 * 86_400_000;
// Only files chrys-hooks itself writes: run logs and detached hooks' payloads and prompts.
const OWN_FILE = /^[0-9a-z]+-[0-9a-f]{8}(-.*\.log|\.payload\.json|\.prompt\.md|\.script)$/;

export const logsDir = (configDir: string): string => runtimeDir(configDir, 'logs');

/** A fresh run id: base-36 time, then 8 hex digits (the prefix of every log name). */
export const newRunId = (now = new Date()): string => `${now.getTime().toString(36)}-${randomHex(4)}`;

export const logName = (runId: string, hookId: string): string => `${runId}-${hookId.replace(/[^\w.-]+/g, '_').slice(0, 80)}.log`;

/** The run id a log's name starts with (logName), or undefined for a name it did not make. */
export const runIdOfLog = (path: string): string | undefined => /(?:^|\/)([0-9a-z]+-[0-9a-f]{8})-[^/]*\.log$/.exec(path)?.[1];

/** When the run began (ms since the epoch), from its id (newRunId), or undefined for an id it did not make. */
export function runStartOf(runId: string): number | undefined {
  const time = /^([0-9a-z]{1,11})-[0-9a-f]{8}$/.exec(runId)?.[1];
  return time === undefined ? undefined : parseInt(time, 36);
}

/** Deletes our own log and payload files older than `before` (ms since the epoch). */
export function pruneLogs(configDir: string, before = Date.now() - LOG_RETENTION_MS): void {
  const dir = logsDir(configDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!OWN_FILE.test(name)) continue;
    try {
      // A detached run's verified script copy is a directory (`<run>.script`); anything else named like a log is a file.
      if (statSync(join(dir, name)).mtimeMs < before) rmSync(join(dir, name), { recursive: name.endsWith('.script'), force: true });
    } catch {
      // gone already
    }
  }
}

/** The log text of one run: a header line, any ignored decision keys and notes, an error after the start, stdout and stderr. */
export function formatLog(hook: Hook, record: RunRecord, notes: readonly Warning[] = []): string {
  const ignored = record.result.kind === 'json' ? ignoredResult(hook, record.result.value) : [];
  const head = `# hook ${hook.id} (${hook.source}, ${hook.event}) ${record.status}` +
    ` exit=${record.exitCode ?? '-'} signal=${record.signal ?? '-'} ${record.durationMs} ms${record.error ? `: ${record.error}` : ''}\n` +
    [...ignored, ...notes].map((w) => `# ${w.code}: ${w.message}\n`).join('') +
    (record.outcome.errorAfterSpawn !== undefined ? `# after it started: ${record.outcome.errorAfterSpawn}\n` : '');
  return `${head}## stdout\n${record.stdout}\n## stderr\n${record.stderr}\n`;
}

/** How much of a run's log a PostgreSQL drain files with the job, for `outbox logs` on another machine. */
export const LOG_COPY_CHARS = 64 * 1024;
const LOG_COPY_HEAD = 4 * 1024;

/**
 * A log cut to `max` characters: its head (the status lines) and its tail,
 * with a line saying how much was cut between; never through a surrogate pair
 * (PostgreSQL's json refuses a lone one).
 */
export function logCopy(text: string, max = LOG_COPY_CHARS): string {
  if (text.length <= max) return text;
  const marker = (cut: number): string => `\n[... ${cut} characters cut ...]\n`;
  const head = pairSafe(text, Math.min(LOG_COPY_HEAD, Math.floor(max / 4)), -1);
  const tailStart = pairSafe(text, text.length - (max - head - marker(text.length).length), +1);
  return `${text.slice(0, head)}${marker(tailStart - head)}${text.slice(tailStart)}`;
}

/** `at`, moved one `way` (so the part it bounds gets shorter) when it falls between the halves of a surrogate pair. */
function pairSafe(text: string, at: number, way: -1 | 1): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + way : at;
}

/** Writes a log file (0600); best effort: returns its path, or undefined when it could not be written. */
export function writeLog(configDir: string, name: string, text: string): string | undefined {
  try {
    ensureDir(logsDir(configDir));
    const path = join(logsDir(configDir), name);
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
    return path;
  } catch {
    return undefined;
  }
}
