// Process entry of the detached worker (dist/worker.js), which `fire` starts
// as `node worker.js <spec>` (engine/worker-launch.ts) for a firing's non-blocking
// hooks. Its own entry, so the CLI entry knows nothing of workers.

import { runWorker } from '../engine/worker.js';

const specPath = process.argv[2];
if (specPath) {
  await runWorker(specPath);
} else {
  process.stderr.write('chrys-hooks worker: no spec file given (it is started by `chrys-hooks fire`, not by hand)\n');
  process.exitCode = 2;
}
