// `fire --fail-closed`: a guard must not fail open because chrys-hooks or a
// hooks file is broken. Only the guarded events are blocked; observers, and
// stops (a blocked stop would keep the agent looping), are left alone.

import { type Decision, emptyDecision } from './decide.js';
import type { EventName } from './events.js';
import type { Warning } from './diagnostics.js';

export const FAIL_CLOSED_EVENTS: readonly EventName[] = ['before_tool_call', 'user_prompt_submit', 'permission_request'];
// A guard that cannot run: an invalid file, a trusted project layer gone dormant because it
// changed, a hook left out. A layer that was never trusted is not broken, so it does not block.
// A trusted workspace around the agent's cwd whose layer did not load is a guard lost too.
const GUARD_LOST = new Set(['hooks_config_invalid', 'project_hooks_config_invalid', 'project_hooks_changed', 'hook_skipped', 'enclosing_workspace_not_loaded']);
const PROJECT_LOSSES = new Set(['project_hooks_config_invalid', 'project_hooks_changed', 'enclosing_workspace_not_loaded']);

const layerOf = (w: Warning): 'global' | 'project' => (PROJECT_LOSSES.has(w.code) ? 'project' : (w.source ?? 'global'));

export function blockFailClosed(decision: Decision, why: string, source: 'global' | 'project'): Decision {
  decision.blocked = true;
  decision.reason = `chrys-hooks fails closed: ${why}`;
  decision.blocked_by = { id: 'fail-closed', source };
  if (decision.event === 'permission_request') decision.permission = 'deny';
  const warning: Warning = { code: 'fail_closed', message: `blocked because --fail-closed is on: ${why}` };
  decision.warnings.push(warning);
  return decision;
}

/** An invalid hooks file, a changed trusted project layer or a skipped hook blocks a guarded event. */
export function applyFailClosed(decision: Decision): Decision {
  if (decision.blocked || !FAIL_CLOSED_EVENTS.includes(decision.event)) return decision;
  const lost = decision.warnings.find((w) => GUARD_LOST.has(w.code));
  if (!lost) return decision;
  return blockFailClosed(decision, `[${lost.code}] ${lost.message}`, layerOf(lost));
}

/** The decision in place of an internal error, or undefined when the event is not guarded. */
export function failClosedDecision(event: EventName, error: string): Decision | undefined {
  if (!FAIL_CLOSED_EVENTS.includes(event)) return undefined;
  return blockFailClosed(emptyDecision(event), `internal error: ${error}`, 'global');
}
