// The planner shared by `fire` and `resolve`: which hooks of an event are
// candidates, in which phase and order (CONTRACT §6). Matching itself happens
// per hook, against the envelope as modified so far.

import type { Hook } from './config.js';
import type { EventName } from './events.js';

export interface EventPlan {
  /** Enabled blocking hooks: project in file order, then global in file order. */
  blocking: Hook[];
  /** Enabled async and fire_and_forget hooks, in the same order. */
  nonBlocking: Hook[];
  /** Disabled hooks of the event, for `resolve` and `list`. */
  disabled: Hook[];
}

export function planEvent(hooks: readonly Hook[], event: EventName): EventPlan {
  const plan: EventPlan = { blocking: [], nonBlocking: [], disabled: [] };
  for (const hook of hooks) {
    if (hook.event !== event) continue;
    if (!hook.enabled) plan.disabled.push(hook);
    else if (hook.execution.mode === 'blocking') plan.blocking.push(hook);
    else plan.nonBlocking.push(hook);
  }
  return plan;
}
