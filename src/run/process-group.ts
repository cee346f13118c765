// Signalling a hook's process group (each hook leads its own, so a kill
// reaches everything it forked) and asking whether a process or group is
// still there. ESRCH means gone; EPERM means it exists but belongs to someone
// else, which is never reported as gone.

import { readFileSync } from 'node:fs';

export type KillResult = 'sent' | 'gone' | 'not_permitted';

// Windows has no process groups: the leader alone is signalled.
const target = (pgid: number): number => (process.platform === 'win32' ? pgid : -pgid);
// kill(0) is this process's own group and kill(-1) every process we may signal:
// a pid read from a corrupt record must never become either. 1 (init) is a
// process, but never the leader of a hook's group (-1 again).
const isProcessId = (pid: number): boolean => Number.isInteger(pid) && pid > 0;
const isGroupId = (pgid: number): boolean => Number.isInteger(pgid) && pgid > 1;

/** Sends `signal` to the whole group led by `pgid`. */
export function killGroup(pgid: number, signal: NodeJS.Signals): KillResult {
  if (!isGroupId(pgid)) return 'gone';
  try {
    process.kill(target(pgid), signal);
    return 'sent';
  } catch (e) {
    return errnoOf(e) === 'EPERM' ? 'not_permitted' : 'gone';
  }
}

/** Whether any process of the group is alive (a zombie leader alone does not count). */
export function groupAlive(pgid: number): boolean {
  if (!isGroupId(pgid) || !signalReaches(target(pgid))) return false;
  // No fields: no /proc, or the leader is gone while others of its group run on.
  const fields = procStatFields(pgid);
  return fields === undefined || fields[0] !== 'Z';
}

/** Whether the process is stopped by a signal or a tracer (state T or t). */
export function processStopped(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state === 'T' || state === 't';
}

/**
 * The fields of /proc/PID/stat after the command name, which may hold spaces
 * and parentheses itself: the state first, then ppid, pgrp, ...; undefined
 * when it cannot be read.
 */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether the process `pid` exists (ours or someone else's). */
export const processAlive = (pid: number): boolean => isProcessId(pid) && signalReaches(pid);

function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoOf(e) === 'EPERM';
  }
}

const errnoOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;
