// Starting the detached worker: all `fire` needs of the worker. Kept apart
// from worker.ts, whose run-side imports (the outbox, its lock library and
// graceful-fs) would otherwise load on every firing that has hooks.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TempFiles } from '../run/runtime.js';
import type { WorkerSpec } from './worker.js';

let found: string | undefined;

/**
 * The worker's entry script (cli/worker-main.ts bundled as dist/worker.js): next
 * to or one level above this chunk in the bundle; from source (tests), the
 * built one. Not process.argv[1]: under the in-process API that is the agent's own script.
 */
export function workerEntry(): string {
  if (found) return found;
  for (const candidate of ['./worker.js', '../worker.js']) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return (found = path);
  }
  return (found = fileURLToPath(new URL('../../dist/worker.js', import.meta.url)));
}

/** Writes the spec (0600) and starts a worker that outlives this process; returns why not when it cannot. */
export function startWorker(spec: WorkerSpec, temp: TempFiles): string | undefined {
  let specPath: string;
  try {
    specPath = temp.createLasting('worker', JSON.stringify(spec));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message; // a full disk: durable jobs stay pending for drain-outbox
  }
  const child = spawn(process.execPath, [workerEntry(), specPath], { detached: true, stdio: 'ignore', windowsHide: true });
  child.on('error', () => {}); // durable jobs stay pending for drain-outbox
  child.unref();
  return undefined;
}
