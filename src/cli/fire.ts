// `chrys-hooks fire`: envelope in, one decision object out (CONTRACT §7).
// With --protocol or --fail-closed the agent bridge (fire-agent.ts) is loaded.
// With --explain (or CHRYS_HOOKS_DEBUG=1) a human trace goes to stderr;
// stdout is the same decision either way.

import { EXIT } from '../core/errors.js';
import { failClosedFrom } from '../core/fail-closed.js';
import { type Json, stringifyJson } from '../core/json.js';
import { fire } from '../engine/fire.js';
import { newTrace } from '../engine/trace.js';
import type { CliGlobals } from './globals.js';
import { fireNotices } from './notices.js';
import type { CommandResult } from './output.js';
import { stopOnTermination } from './signals.js';

export async function runFire(_args: string[], opts: Record<string, unknown>, globals: CliGlobals): Promise<CommandResult> {
  stopOnTermination();
  const read = (): string => globals.readInput(typeof opts.input === 'string' ? opts.input : undefined);
  const debug = process.env.CHRYS_HOOKS_DEBUG;
  const trace = opts.explain || (debug !== undefined && debug !== '' && debug !== '0') ? newTrace() : undefined;
  const failClosed = failClosedFrom(opts.failClosed, process.env);
  if (opts.protocol !== undefined || failClosed) {
    const { runAgentFire } = await import('./fire-agent.js');
    // The input is read there: under --fail-closed a refused one (too large) is a deny, not exit 65.
    return runAgentFire(read, opts, { ...globals, ...(trace ? { trace } : {}) }, failClosed);
  }
  const decision = await fire(read(), { ...globals, ...(typeof opts.event === 'string' ? { event: opts.event } : {}), ...(trace ? { trace } : {}) });
  const explained = trace ? [(await import('./explain.js')).renderTrace(trace, decision)] : [];
  return {
    stdout: stringifyJson(decision as unknown as Json, 2),
    stderr: [...explained, ...fireNotices(decision.warnings)],
    exitCode: opts.exitCode && decision.blocked ? EXIT.blocked : EXIT.ok,
  };
}
