// What this process has running right now: hook process groups and their
// temp files, and the spawn helper, which knows groups we have not been told of yet. When `fire` or `drain-outbox` is told to stop (SIGTERM,
// SIGINT), the CLI calls stopEverything() before it exits, so no hook
// outlives the process that would have waited for it (and a drain never
// lets go of a claim while its job's hook still runs).

import { rmSync } from 'node:fs';
import { killGroup } from './process-group.js';

const groups = new Set<number>();
const files = new Set<string>();
const stoppers = new Set<() => void>();

export const trackGroup = (pgid: number): void => void groups.add(pgid);
export const untrackGroup = (pgid: number): void => void groups.delete(pgid);
export const trackFile = (path: string): void => void files.add(path);
export const untrackFile = (path: string): void => void files.delete(path);
/** Something else that runs hooks for this process (the spawn helper), told synchronously to stop them. */
export const trackStopper = (stop: () => void): void => void stoppers.add(stop);

/** SIGKILLs every tracked group and deletes every tracked temp file; synchronous, for a signal handler. */
export function stopEverything(): void {
  for (const stop of stoppers) stop();
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
  // A firing's temp dir (runtime.ts) or a verified script's dir as well as a file.
  for (const path of files) rmSync(path, { recursive: true, force: true });
  files.clear();
}
