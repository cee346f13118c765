// `fire` with plain options, without commander: the entry of dist/fire-path.cjs,
// the one CommonJS bundle bin/chrys-hooks compiles with a V8 code cache
// (scripts/build.mjs, docs/performance.md), and of the ESM CLI's fast path.
// Returns undefined when the arguments need the full program.

import { parseFastFire } from './fast-args.js';
import { globalsFrom } from './globals.js';
import { emit, reportError } from './output.js';

export async function runFastFire(argv: readonly string[]): Promise<number | undefined> {
  const fast = parseFastFire(argv);
  if (!fast) return undefined;
  try {
    const { runFire } = await import('./fire.js');
    return emit(await runFire([], fast, globalsFrom(fast)), { sync: true });
  } catch (e) {
    return reportError(e, 'fire', { sync: true });
  }
}
