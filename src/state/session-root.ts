// The cwd an agent session started in, for agents that export no project
// root to their hooks (Codex): written by the first session_start of the
// session that fires with hooks present, read by every later firing of it.
// First write wins: the root is fixed for the session, even if a later
// start (a resume, a /clear) reports a subdirectory.

import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ensureDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { sessionDir } from './sessions.js';

// No extension: sessions.ts reads every *.json file of the directory as a run.
const rootPath = (configDir: string, sessionId: string): string => join(sessionDir(configDir, sessionId), 'project-root');

export function readSessionRoot(configDir: string, sessionId: string): string | undefined {
  try {
    const text = readFileSync(rootPath(configDir, sessionId), 'utf8');
    return isAbsolute(text) ? text : undefined;
  } catch {
    return undefined; // never recorded (or unreadable): the input cwd stands
  }
}

/** Records `cwd` unless the session has a root already; a failed write only costs the record. */
export function recordSessionRoot(configDir: string, sessionId: string, cwd: string): void {
  if (!isAbsolute(cwd) || readSessionRoot(configDir, sessionId) !== undefined) return;
  try {
    ensureDir(sessionDir(configDir, sessionId));
    // Not fsync'd: after a power cut the session is gone too.
    writeFileAtomic(rootPath(configDir, sessionId), cwd, { durable: false });
  } catch {
    // The state dir is unwritable: later firings fall back to their input cwd, and the
    // enclosing-workspace check (config/enclosing-workspace.ts) says so if a guard is lost.
  }
}
