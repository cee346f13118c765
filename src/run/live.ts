// What this process has running right now: hook process groups and their
// temp files. When `fire` or `drain-outbox` is told to stop (SIGTERM,
// SIGINT), the CLI calls stopEverything() before it exits, so no hook
// outlives the process that would have waited for it (and a drain never
// lets go of a claim while its job's hook still runs).

import { rmSync } from 'node:fs';
import { killGroup } from './process-group.js';

const groups = new Set<number>();
const files = new Set<string>();

export const trackGroup = (pgid: number): void => void groups.add(pgid);
export const untrackGroup = (pgid: number): void => void groups.delete(pgid);
export const trackFile = (path: string): void => void files.add(path);
export const untrackFile = (path: string): void => void files.delete(path);

/** SIGKILLs every tracked group and deletes every tracked temp file; synchronous, for a signal handler. */
export function stopEverything(): void {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
  // A firing's temp dir (runtime.ts) or a verified script's dir as well as a file.
  for (const path of files) rmSync(path, { recursive: true, force: true });
  files.clear();
}
