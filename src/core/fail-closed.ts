// `fire --fail-closed`: a guard must not fail open because chrys-hooks or a
// hooks file is broken. Only the guarded events are blocked; observers, and
// stops (a blocked stop would keep the agent looping), are left alone.

import type { Hook } from './config.js';
import { type Decision, type HookReport, type Outcome, emptyDecision } from './decide.js';
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

/** --fail-closed, or CHRYS_HOOKS_FAIL_CLOSED=1 in `env`: the CLI, `serve` and the API read it alike. */
export const failClosedFrom = (flag: unknown, env: Readonly<Record<string, string | undefined>>): boolean => flag === true || env.CHRYS_HOOKS_FAIL_CLOSED === '1';

/**
 * The hook as a fail-closed firing runs it: a blocking hook of a guarded
 * event that fails, times out or cannot launch blocks, whatever on_error
 * defaulted to; only an on_error: ignore written in the file lets it through.
 */
export function failClosedHook(hook: Hook, event: EventName): Hook {
  const { execution } = hook;
  if (execution.mode !== 'blocking' || !FAIL_CLOSED_EVENTS.includes(event) || execution.on_error === 'block') return hook;
  if (execution.on_error === 'ignore' && execution.on_error_explicit) return hook;
  return { ...hook, execution: { ...execution, on_error: 'block' } };
}

const FAILED: ReadonlySet<string> = new Set(['failed', 'timeout', 'launch_error']);

/** After a hook run through failClosedHook: says when the block came from --fail-closed, not the hook's own on_error. */
export function noteFailClosedBlock(decision: Decision, hook: Hook, ran: Hook, report: HookReport): void {
  if (ran === hook || !FAILED.has(report.status) || decision.blocked_by?.id !== hook.id) return;
  decision.warnings.push({
    code: 'fail_closed',
    hook: hook.id,
    message: `blocked because --fail-closed is on: hook "${hook.id}" ${report.reason ?? report.status}; a guard that fails blocks (write on_error: ignore on the hook to let its failures through)`,
  });
}

/**
 * A guard run under --fail-closed (`ran` from failClosedHook, on_error block)
 * whose answer could not be read gave no answer at all: it blocks, as a
 * failing guard does, where a plain firing takes it as no opinion. Unreadable
 * is a result file that is not JSON, not an object, too large, deleted or not
 * a regular file, or a gating key of the wrong type or value (`action:
 * "deny"`, `permission: "denied"`); a wrong `context` or `reason` is only
 * skipped. `noted` holds the warnings its outcome added.
 */
// decide.ts words a skipped key `hook "<id>": <key> must be ...; ignored`.
const GATING_KEY_INVALID = /^hook "[^"]*": (?:action|permission) must be /;

export function blockOnUnreadableResult(decision: Decision, ran: Hook, outcome: Outcome, noted: readonly Warning[]): void {
  if (decision.blocked || outcome.status !== 'ok') return;
  if (ran.execution.on_error !== 'block' || ran.execution.mode !== 'blocking' || !FAIL_CLOSED_EVENTS.includes(decision.event)) return;
  const lost = noted.find((w) => w.code === 'result_invalid' && w.hook === ran.id && (outcome.result.kind === 'invalid' || GATING_KEY_INVALID.test(w.message)));
  if (!lost) return;
  const why = outcome.result.kind === 'invalid' ? outcome.result.reason : lost.message.replace(/; ignored$/, '').replace(`hook "${ran.id}": `, '');
  lost.message = `hook "${ran.id}": ${why}; a guard with no readable answer`;
  blockFailClosed(decision, `[result_invalid] hook "${ran.id}": ${why}`, ran.source);
}
