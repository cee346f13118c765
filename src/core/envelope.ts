// The event envelope (CONTRACT §4): parse losslessly, resolve the event,
// fill the defaults. Pure: the clock and the workspace are passed in.

import { ChrysError } from './errors.js';
import { type EventName, lookupEvent } from './events.js';
import { type Json, type JsonObject, JsonNumber, JsonSyntaxError, isJsonObject, parseJson } from './json.js';

export const MAX_ENVELOPE_BYTES = 64 * 1024 * 1024;

/** Parses stdin text; `flagEvent` (from --event) wins over the envelope's `event`. */
export function parseEnvelope(text: string, flagEvent: string | undefined): { envelope: JsonObject; event: EventName } {
  let value: Json;
  if (text.trim() === '') {
    if (flagEvent === undefined) throw new ChrysError('missing_event', 'no envelope on stdin and no --event', 'pipe a JSON object such as {"event":"before_tool_call"} or pass --event');
    value = {};
  } else {
    try {
      value = parseJson(text);
    } catch (e) {
      // Stryker disable next-line ConditionalExpression: parseJson throws nothing but JsonSyntaxError
      if (e instanceof JsonSyntaxError) throw new ChrysError('invalid_json', `the envelope is not valid JSON: ${e.message} at offset ${e.offset}`, 'send one JSON object on stdin');
      throw e;
    }
  }
  return checkEnvelope(value, flagEvent);
}

/** An already parsed envelope (a serve request's, an API caller's): an object whose event is known. */
export function checkEnvelope(value: Json, flagEvent: string | undefined): { envelope: JsonObject; event: EventName } {
  if (!isJsonObject(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'string' ? 'a string' : value instanceof JsonNumber ? 'a number' : 'a boolean';
    throw new ChrysError('not_an_object', `the envelope must be a JSON object, not ${kind}`, 'send one JSON object such as {"event":"before_tool_call", ...}');
  }
  const name = flagEvent ?? value.event;
  if (name === undefined || name === null) throw new ChrysError('missing_event', 'the envelope has no "event" and no --event was given', missingEventHint(value));
  if (typeof name !== 'string') throw new ChrysError('unknown_event', `"event" must be a string, not ${JSON.stringify(name instanceof JsonNumber ? name.raw : name)}`);
  const found = lookupEvent(name);
  if (!found.ok) {
    throw new ChrysError('unknown_event', `unknown event "${name}"`, found.suggestion ? `did you mean "${found.suggestion}"?` : 'run chrys-hooks events for the list');
  }
  return { envelope: value, event: found.event };
}

function missingEventHint(value: JsonObject): string {
  const agentEvent = value.hook_event_name;
  if (typeof agentEvent !== 'string') return 'add "event": "<name>" to the envelope or pass --event';
  return `this looks like an agent's hook input ("hook_event_name": ${JSON.stringify(agentEvent)}): pass --protocol claude (or codex, gemini)`;
}

/** Fills the defaults of §4 in place and sets the canonical event name. */
export function completeEnvelope(envelope: JsonObject, event: EventName, workspace: string, now: Date): JsonObject {
  const defaults: JsonObject = {
    schema: new JsonNumber('1'),
    timestamp: now.toISOString(),
    cwd: workspace,
    session_id: '',
    profile: '',
    session_kind: 'interactive',
  };
  const out: JsonObject = { event };
  for (const [k, v] of Object.entries(defaults)) out[k] = envelope[k] === undefined ? v : envelope[k]!;
  for (const [k, v] of Object.entries(envelope)) if (!Object.hasOwn(out, k)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export const stringField = (envelope: JsonObject, key: string): string => {
  const v = envelope[key];
  return typeof v === 'string' ? v : '';
};
