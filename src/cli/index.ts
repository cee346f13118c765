// Process entry of the bundled CLI. `fire` with plain options skips commander
// (see fast-args.ts); everything else goes through the full program. Sets
// process.exitCode rather than calling process.exit(), so piped output is
// never cut short.

import { runFastFire } from './fire-path.js';

const argv = process.argv.slice(2);
const fired = await runFastFire(argv);
if (fired !== undefined) process.exitCode = fired;
else {
  const { main } = await import('./main.js');
  process.exitCode = await main(argv);
}
