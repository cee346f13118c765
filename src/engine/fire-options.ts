// What one `fire` is asked to do beyond its envelope: its own module, so that
// fire.ts, fire-plan.ts and fire-chain.ts share it without importing each other.

import type { GlobalOptions } from '../config/locations.js';
import type { KillSwitches } from '../core/kill-switch.js';
import type { Trace } from './trace.js';

export interface FireOptions extends GlobalOptions {
  event?: string;
  /** Collects the --explain trace when given. */
  trace?: Trace;
  /** CHRYS_HOOKS / CHRYS_HOOKS_SKIP; read from the environment when absent. */
  switches?: KillSwitches;
  /** The agent's environment (its project-root variables); process.env when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  /** --fail-closed: a blocking hook of a guarded event that fails blocks (failClosedHook). */
  failClosed?: boolean;
}
