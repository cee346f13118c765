// SIGTERM and SIGINT to `fire` or `drain-outbox`: kill the hooks this process
// runs (their whole process groups), delete their temp files, and exit
// 128 + the signal number without printing a partial decision. Durable jobs
// stay in pending/ for the next drain; the job locks are released by the
// lock library's exit handler, after the hooks are dead, so no other drain
// can start a job while its previous run is still alive.

import { EXIT } from '../core/errors.js';
import { stopEverything } from '../run/live.js';
import { isWritingResult } from './output.js';

// 128 + the signal number, as a shell reports a process killed by it.
const SIGNALS = { SIGTERM: EXIT.terminated, SIGINT: EXIT.interrupted } as const;
let installed = false;

export function stopOnTermination(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of Object.entries(SIGNALS)) {
    process.on(signal, () => {
      stopEverything();
      // Mid-way through the one write of the result: let it finish whole, then exit.
      if (isWritingResult()) process.exitCode = code;
      else process.exit(code);
    });
  }
}
