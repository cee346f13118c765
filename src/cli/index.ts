// Process entry of the bundled CLI. `fire` with plain options skips commander
// (see fast-args.ts); everything else goes through the full program. Sets
// process.exitCode rather than calling process.exit(), so piped output is
// never cut short.

import { parseFastFire } from './fast-args.js';
import { globalsFrom } from './globals.js';
import { emit, reportError } from './output.js';

const argv = process.argv.slice(2);
const fast = parseFastFire(argv);
if (fast) {
  try {
    const { runFire } = await import('./fire.js');
    process.exitCode = emit(await runFire([], fast, globalsFrom(fast)));
  } catch (e) {
    process.exitCode = reportError(e, 'fire');
  }
} else {
  const { main } = await import('./main.js');
  process.exitCode = await main(argv);
}
