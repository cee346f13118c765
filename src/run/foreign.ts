// Foreign hook scripts (`run.protocol: claude | codex | gemini | cursor | copilot`): the agent's
// input JSON on stdin instead of the envelope, and no payload or result file.
// How their exit code and stdout are read by that agent's rules is part of the
// one classification of a run (core/outcome.ts).

import type { Hook } from '../core/config.js';
import { isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { envelopeToAgentInput } from '../core/protocols/foreign-input.js';
import { AGENT_PROTOCOL_KEY } from '../core/protocols/inbound.js';
import { agentEventOf } from '../core/protocols/names.js';

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
