// Foreign hook scripts (`run.protocol: claude | codex | gemini | cursor | copilot`): the agent's
// input JSON on stdin instead of the envelope, no payload or result file, and
// the exit code and stdout read by that agent's rules.

import type { Hook } from '../core/config.js';
import { isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { envelopeToAgentInput } from '../core/protocols/foreign-input.js';
import { AGENT_PROTOCOL_KEY } from '../core/protocols/inbound.js';
import { agentEventOf } from '../core/protocols/names.js';
import { type AgentRun, readAgentOutcome } from '../core/protocols/foreign-output.js';

export interface ForeignInput {
  stdin: string;
  agentEvent: string;
}

/** The stdin of a foreign hook, from the envelope text `fire` would send a Chrys hook. */
export function foreignInput(hook: Hook, payload: string): ForeignInput | undefined {
  const protocol = hook.run.protocol;
  if (!protocol) return undefined;
  const envelope = parseJson(payload);
  const object = isJsonObject(envelope) ? envelope : {};
  const input = envelopeToAgentInput(protocol, object, hook.event);
  // Copilot's input names no event; the envelope (from Copilot) or the event table does.
  const named = typeof input.hook_event_name === 'string' ? input.hook_event_name : object[AGENT_PROTOCOL_KEY] === protocol && typeof object.hook_event_name === 'string' ? object.hook_event_name : protocol === 'copilot' ? agentEventOf(protocol, hook.event) : undefined;
  return { stdin: stringifyJson(input), agentEvent: named ?? hook.event };
}

/**
 * The run re-read by the agent's rules. An exit status other than 0 and 2 is
 * a failure: under on_error: block it stays one (and blocks a gated event)
 * whatever stdout says; otherwise a JSON object on stdout still decides, as
 * Claude Code does, and the failure is kept for a hook_failed warning.
 */
export function foreignOutcome<T extends AgentRun>(hook: Hook, input: ForeignInput, run: T): T {
  if (!hook.run.protocol) return run;
  const failedExit = run.status === 'failed' && run.exitCode !== null && run.exitCode !== 2;
  if (failedExit && hook.execution.on_error === 'block') return run;
  const reread = readAgentOutcome(hook.run.protocol, input.agentEvent, run);
  return failedExit && reread.status === 'ok' ? { ...reread, failure: run.error ?? `exited with status ${run.exitCode}` } : reread;
}
