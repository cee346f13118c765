// One `serve --stdio` request: a line of JSON in, the response line out.
// The envelope goes through fireEnvelope, the path of `fire`, and the decision
// through the same serialiser, so it is byte-for-byte what `fire` prints,
// on one line instead of indented. An agent's answer, which the CLI may give
// as an exit status and stderr alone, is always one object here, with
// `exit_code` and `stderr` (replyObject). Returns data; the CLI does the I/O.

import { ChrysError, errorObject } from '../core/errors.js';
import { checkEnvelope } from '../core/envelope.js';
import { type Json, type JsonObject, JsonSyntaxError, isJsonObject, parseJson, stringifyJson } from '../core/json.js';
import { AGENT_PROTOCOLS } from '../core/protocols/names.js';
import { replyObject } from '../core/protocols/reply.js';
import { answerAgentInput, fireGuarded, isAgentProtocol } from './agent-fire.js';
import type { FireOptions } from './fire-options.js';

/** The protocols a request may name; `chrys` is the default. */
export const SERVE_PROTOCOLS: readonly string[] = ['chrys', ...AGENT_PROTOCOLS];

const REQUEST_KEYS = new Set(['id', 'protocol', 'event', 'envelope']);
const REQUEST_SHAPE = 'a request is one JSON object per line: {"id": 1, "envelope": {"event": "before_tool_call", ...}}';

interface Request {
  id?: Json;
  protocol?: string;
  event?: string;
  envelope: Json;
}

/** The answer to one request line (without its newline): a decision or an error object, with the request's `id` first. */
export async function answerRequest(line: string, opts: FireOptions): Promise<string> {
  let id: Json | undefined;
  try {
    const value = parseRequestJson(line);
    if (isJsonObject(value)) id = value.id;
    const request = checkRequest(value);
    if (isAgentProtocol(request.protocol)) {
      // As `fire --protocol` answers it: the agent's hook input in, its answer out.
      const { reply } = await answerAgentInput(request.protocol, () => checkEnvelope(request.envelope, request.event ?? 'other').envelope, request.event, opts);
      return withId(id, stringifyJson(replyObject(reply)));
    }
    const { envelope, event } = checkEnvelope(request.envelope, request.event);
    const decision = await fireGuarded(envelope, event, opts);
    return withId(id, stringifyJson(decision as unknown as Json));
  } catch (e) {
    return withId(id, stringifyJson(errorObject(e) as unknown as Json));
  }
}

/** The error answer to a line over the size limit, which is never parsed. */
export function tooLargeAnswer(bytes: number, limit: number): string {
  const e = new ChrysError('input_too_large', `the request is ${bytes} bytes, over the ${limit / 1024 / 1024} MiB limit`, 'send large tool results by reference (a file path) instead');
  return stringifyJson(errorObject(e) as unknown as Json);
}

function parseRequestJson(line: string): Json {
  if (line.trim() === '') throw new ChrysError('invalid_request', 'empty request line', REQUEST_SHAPE);
  try {
    return parseJson(line);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new ChrysError('invalid_json', `the request is not valid JSON: ${e.message} at offset ${e.offset}`, REQUEST_SHAPE);
    throw e;
  }
}

function checkRequest(value: Json): Request {
  if (!isJsonObject(value)) throw new ChrysError('invalid_request', `a request must be a JSON object, not ${Array.isArray(value) ? 'an array' : 'a scalar'}`, REQUEST_SHAPE);
  const unknown = Object.keys(value).filter((k) => !REQUEST_KEYS.has(k));
  if (unknown.length > 0) {
    throw new ChrysError('invalid_request', `unknown request key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (a request has id, protocol, event and envelope)`, 'put the event envelope under "envelope"');
  }
  checkProtocol(value.protocol);
  if (value.event !== undefined && typeof value.event !== 'string') throw new ChrysError('invalid_request', '"event" must be a string (an event name or alias)', REQUEST_SHAPE);
  if (value.envelope === undefined && value.event === undefined) throw new ChrysError('invalid_request', 'the request has no "envelope" (and no "event")', REQUEST_SHAPE);
  const request: Request = { envelope: value.envelope ?? ({} as JsonObject) };
  if (value.id !== undefined) request.id = value.id;
  if (typeof value.protocol === 'string') request.protocol = value.protocol;
  if (typeof value.event === 'string') request.event = value.event;
  return request;
}

/** Throws unless `protocol` is absent or one serve speaks. */
export function checkProtocol(protocol: Json | undefined): void {
  if (protocol === undefined || (typeof protocol === 'string' && SERVE_PROTOCOLS.includes(protocol))) return;
  const shown = typeof protocol === 'string' ? `"${protocol}"` : stringifyJson(protocol);
  throw new ChrysError('unknown_protocol', `unknown protocol ${shown}`, `use one of: ${SERVE_PROTOCOLS.join(', ')}`);
}

function withId(id: Json | undefined, answer: string): string {
  if (id === undefined) return answer;
  return answer === '{}' ? `{"id":${stringifyJson(id)}}` : `{"id":${stringifyJson(id)},${answer.slice(1)}`;
}
