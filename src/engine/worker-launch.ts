// Starting the detached worker: all `fire` needs of the worker. Kept apart
// from worker.ts, whose run-side imports (the outbox, its lock library and
// graceful-fs) would otherwise load on every firing that has hooks.

import { spawn } from 'node:child_process';
import type { TempFiles } from '../run/runtime.js';
import { cliEntry } from './cli-entry.js';
import type { WorkerSpec } from './worker.js';

/** Writes the spec (0600) and starts a worker that outlives this process; returns why not when it cannot. */
export function startWorker(spec: WorkerSpec, temp: TempFiles): string | undefined {
  let specPath: string;
  try {
    specPath = temp.createLasting('worker', JSON.stringify(spec));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message; // a full disk: durable jobs stay pending for drain-outbox
  }
  const child = spawn(process.execPath, [cliEntry(), '__worker', specPath], { detached: true, stdio: 'ignore', windowsHide: true });
  child.on('error', () => {}); // durable jobs stay pending for drain-outbox
  child.unref();
  return undefined;
}
