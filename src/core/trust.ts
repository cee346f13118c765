// Trust by content (pure): what a trust record holds for one workspace, the
// verdict on the project layer, and the comparison of the recorded files
// with their state now. Reading and hashing the files is src/config's job.

/** One file a trusted hooks file depends on, as it was when `trust` ran. */
export interface TrustedFile {
  path: string;
  /** SHA-256 of the content; null when the file did not exist then. */
  sha256: string | null;
  /** Where the path led (symlinks resolved); null when missing. */
  real: string | null;
  /** The file (or what a symlink points to) lies outside the workspace. */
  outside: boolean;
}

export interface TrustEntry {
  /** The workspace's real path: the record's key. */
  workspace: string;
  hooks_file: string;
  trusted_at: string;
  files: TrustedFile[];
}

export interface TrustRecord {
  version: 1;
  workspaces: Record<string, TrustEntry>;
  /** Workspaces `untrust --ignore` silenced: their dormant layer is not reported by `fire`. `trust` lifts it. */
  ignored?: Record<string, { ignored_at: string }>;
}

/** Which rule decided whether the project layer loads (highest precedence first). */
export type TrustRule = 'cli_flag' | 'env' | 'settings' | 'trust_record' | 'none';

export interface ProjectTrust {
  trusted: boolean;
  rule: TrustRule;
  /** A human sentence: which switch, or when `trust` ran, or what changed. */
  detail: string;
  /** When `untrust --ignore` silenced this never-trusted workspace: its dormant layer goes unreported by `fire`. */
  ignored_at?: string;
}

/**
 * A file as it is now: its real path and hash, or null when it is gone. A
 * file that cannot be hashed (not a regular file, too large, unreadable) has
 * a `problem` and counts as changed.
 */
export type FileNow = { real: string; sha256: string | null; problem?: string } | null;

export interface TrustDiff {
  changed: string[];
  added: string[];
  removed: string[];
}

/** Compares the recorded files with their state now; `now(path)` is asked once per file. */
export function diffTrusted(files: readonly TrustedFile[], now: (file: TrustedFile) => FileNow): TrustDiff {
  const diff: TrustDiff = { changed: [], added: [], removed: [] };
  for (const f of files) {
    const state = now(f);
    if (state?.problem) diff.changed.push(`${f.path} (${state.problem})`);
    else if (f.sha256 === null) {
      if (state) diff.added.push(f.path);
    } else if (!state) diff.removed.push(f.path);
    else if (state.sha256 !== f.sha256 || state.real !== f.real) diff.changed.push(f.path);
  }
  return diff;
}

/** Compares two manifests of the same workspace (what `trust` shows before recording). */
export function diffManifests(before: readonly TrustedFile[], after: readonly TrustedFile[]): TrustDiff {
  const old = new Map(before.map((f) => [f.path, f]));
  const diff: TrustDiff = { changed: [], added: [], removed: [] };
  for (const f of after) {
    const was = old.get(f.path);
    if (!was || (was.sha256 === null && f.sha256 !== null)) diff.added.push(f.path);
    else if (was.sha256 !== null && f.sha256 === null) diff.removed.push(f.path);
    else if (was.sha256 !== f.sha256 || was.real !== f.real) diff.changed.push(f.path);
    old.delete(f.path);
  }
  for (const f of old.values()) if (f.sha256 !== null) diff.removed.push(f.path);
  return diff;
}

export const isEmptyDiff = (d: TrustDiff): boolean => d.changed.length + d.added.length + d.removed.length === 0;

/** "changed: a; added: b; removed: c", each path shown through `show`. */
export function describeDiff(d: TrustDiff, show: (path: string) => string = (p) => p): string {
  const parts: string[] = [];
  if (d.changed.length) parts.push(`changed: ${d.changed.map(show).join(', ')}`);
  if (d.added.length) parts.push(`added: ${d.added.map(show).join(', ')}`);
  if (d.removed.length) parts.push(`removed: ${d.removed.map(show).join(', ')}`);
  return parts.join('; ');
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFile = (f: unknown): boolean => isMapping(f) && typeof f.path === 'string' && (typeof f.sha256 === 'string' || f.sha256 === null);
const isEntry = (e: unknown): boolean =>
  isMapping(e) && typeof e.hooks_file === 'string' && typeof e.trusted_at === 'string' && Array.isArray(e.files) && e.files.every(isFile);

/** The record's shape, checked: anything else is a corrupt record. */
export function parseTrustRecord(value: unknown): TrustRecord | undefined {
  if (!isMapping(value) || value.version !== 1 || !isMapping(value.workspaces) || !Object.values(value.workspaces).every(isEntry)) return undefined;
  if (value.ignored !== undefined && !(isMapping(value.ignored) && Object.values(value.ignored).every((i) => isMapping(i) && typeof i.ignored_at === 'string'))) return undefined;
  return value as unknown as TrustRecord;
}
