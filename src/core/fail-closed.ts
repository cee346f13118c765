// `fire --fail-closed`: a guard must not fail open because chrys-hooks or a
// hooks file is broken. Only the guarded events are blocked; observers, and
// stops (a blocked stop would keep the agent looping), are left alone.

import { type Decision, emptyDecision } from './decide.js';
import type { EventName } from './events.js';
import type { Warning } from './diagnostics.js';

export const FAIL_CLOSED_EVENTS: readonly EventName[] = ['before_tool_call', 'user_prompt_submit', 'permission_request'];
const INVALID_CONFIG = new Set(['hooks_config_invalid', 'project_hooks_config_invalid']);

function blockFailClosed(decision: Decision, why: string, source: 'global' | 'project'): Decision {
  decision.blocked = true;
  decision.reason = `chrys-hooks fails closed: ${why}`;
  decision.blocked_by = { id: 'fail-closed', source };
  if (decision.event === 'permission_request') decision.permission = 'deny';
  const warning: Warning = { code: 'fail_closed', message: `blocked because --fail-closed is on: ${why}` };
  decision.warnings.push(warning);
  return decision;
}

/** An invalid hooks file blocks a guarded event. */
export function applyFailClosed(decision: Decision): Decision {
  if (decision.blocked || !FAIL_CLOSED_EVENTS.includes(decision.event)) return decision;
  const invalid = decision.warnings.find((w) => INVALID_CONFIG.has(w.code));
  if (!invalid) return decision;
  return blockFailClosed(decision, invalid.message, invalid.code === 'project_hooks_config_invalid' ? 'project' : 'global');
}

/** The decision in place of an internal error, or undefined when the event is not guarded. */
export function failClosedDecision(event: EventName, error: string): Decision | undefined {
  if (!FAIL_CLOSED_EVENTS.includes(event)) return undefined;
  return blockFailClosed(emptyDecision(event), `internal error: ${error}`, 'global');
}
