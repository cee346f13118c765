// A hook whose matching itself failed (a regex ran out of its time budget)
// is a failed hook, never a silent "no match": its on_error applies, with
// `block` acting as `warn` for non-blocking hooks as everywhere else.

import type { Hook } from '../core/config.js';
import { type Chain, type HookReport, applyOutcome } from '../core/decide.js';
import { launchFailure } from '../run/spawn.js';

export function matchFailed(chain: Chain, hook: Hook, reason: string): HookReport {
  const outcome = { ...launchFailure(reason), status: 'failed' as const, durationMs: 0 };
  if (hook.execution.mode === 'blocking' || hook.execution.on_error !== 'block') return applyOutcome(chain, hook, outcome);
  return applyOutcome(chain, { ...hook, execution: { ...hook.execution, on_error: 'warn' } }, outcome);
}
