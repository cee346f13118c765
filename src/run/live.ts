// What this process has running right now: hook process groups and their
// temp files. When `fire` or `drain-outbox` is told to stop (SIGTERM,
// SIGINT), the CLI calls stopEverything() before it exits, so no hook
// outlives the process that would have waited for it (and a drain never
// lets go of a claim while its job's hook still runs).

import { rmSync } from 'node:fs';

const groups = new Set<number>();
const files = new Set<string>();

export const trackGroup = (pgid: number): void => void groups.add(pgid);
export const untrackGroup = (pgid: number): void => void groups.delete(pgid);
export const trackFile = (path: string): void => void files.add(path);
export const untrackFile = (path: string): void => void files.delete(path);

/** Kills a process group (the process itself on Windows); false when it is already gone. */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs every tracked group and deletes every tracked temp file; synchronous, for a signal handler. */
export function stopEverything(): void {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
  for (const path of files) rmSync(path, { force: true });
  files.clear();
}
