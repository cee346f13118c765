// `fire --fail-closed` on a malformed tool call: a guard that matches on the
// tool's arguments sees none when tool_input is not an object, and would let
// the call through unexamined. On a guarded event that is a block.

import { FAIL_CLOSED_EVENTS, blockFailClosed } from './fail-closed.js';
import type { Decision } from './decide.js';
import { type Json, type JsonObject, isJsonObject } from './json.js';
import { AGENT_PROTOCOL_KEY } from './protocols/inbound.js';

/** Why the call's arguments cannot be read, if they cannot. */
export function toolInputProblem(envelope: JsonObject): string | undefined {
  if (envelope[AGENT_PROTOCOL_KEY] !== undefined) {
    if (typeof envelope.tool_name !== 'string' || isJsonObject(envelope.tool_input)) return undefined;
    return `tool_input is ${describe(envelope.tool_input)}, not an object, so no guard could see the tool's arguments`;
  }
  const tool = envelope.tool;
  if (!isJsonObject(tool) || tool.args === undefined || isJsonObject(tool.args)) return undefined;
  return `tool.args is ${describe(tool.args)}, not an object, so no guard could see the tool's arguments`;
}

/** The decision, blocked when the event is guarded and its tool input is malformed. */
export function failClosedOnInput(decision: Decision, envelope: JsonObject): Decision {
  if (decision.blocked || !FAIL_CLOSED_EVENTS.includes(decision.event)) return decision;
  const problem = toolInputProblem(envelope);
  return problem ? blockFailClosed(decision, problem, 'global') : decision;
}

const describe = (v: Json | undefined): string =>
  v === undefined ? 'missing' : Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'string' ? 'a string' : typeof v === 'boolean' ? 'a boolean' : 'a number';
