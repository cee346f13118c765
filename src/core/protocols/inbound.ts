// An agent's hook input (Claude Code, Codex, Gemini CLI) mapped onto the Chrys
// envelope (CONTRACT §4). Every original field is kept at the top level, so
// Chrys hooks see it and a foreign hook of the same family receives exactly
// what the agent sent (see foreign-input.ts).

import type { Warning } from '../diagnostics.js';
import type { EventName } from '../events.js';
import { type Json, type JsonObject, isJsonObject, stringifyJson } from '../json.js';
import { type AgentProtocol, chrysEventOf, toolKindOf } from './names.js';
import { canonicalArgsOf } from './tool-args.js';

export type Inbound =
  | { ok: true; envelope: JsonObject; event: EventName; agentEvent: string; warnings: Warning[] }
  | { ok: false; agentEvent: string; warnings: Warning[] };

/** Marks an envelope built from an agent's input; its value is the protocol. */
export const AGENT_PROTOCOL_KEY = 'agent_protocol';

/** Where the envelope keeps the agent's own input `cwd` when `cwd` holds the session's project root. */
export const AGENT_CWD_KEY = 'agent_cwd';

/**
 * Maps one agent input; `agentEvent` is hook_event_name (or the --event flag).
 * `projectRoot`, when given, is the envelope's `cwd` (the workspace); the
 * input's own `cwd` is kept as `agent_cwd`.
 */
export function agentToEnvelope(protocol: AgentProtocol, input: JsonObject, agentEvent: string, projectRoot?: string): Inbound {
  const warnings: Warning[] = [];
  let event = chrysEventOf(protocol, agentEvent);
  if (event === undefined) {
    warnings.push({ code: 'agent_event_unknown', message: `${protocol} event "${agentEvent}" is not one chrys-hooks knows; no hooks ran` });
    return { ok: false, agentEvent, warnings };
  }
  // --event may name the event instead of hook_event_name; a foreign hook reads it there.
  const envelope: JsonObject = { ...input, hook_event_name: agentEvent, [AGENT_PROTOCOL_KEY]: protocol };
  if (projectRoot !== undefined) {
    if (typeof input.cwd === 'string') envelope[AGENT_CWD_KEY] = input.cwd;
    envelope.cwd = projectRoot;
  }
  const tool = toolOf(input, warnings);
  if (tool) envelope.tool = tool;
  const result = protocol === 'gemini' ? geminiResult(input) : claudeResult(input, event);
  if (result) envelope.result = result;
  if (protocol === 'gemini' && event === 'after_tool_call' && result && isFailure(result)) event = 'tool_error';
  if (typeof input.prompt === 'string') envelope.text = input.prompt;
  return { ok: true, envelope, event, agentEvent, warnings };
}

function toolOf(input: JsonObject, warnings: Warning[]): JsonObject | undefined {
  if (typeof input.tool_name !== 'string') return undefined;
  const tool: JsonObject = { name: input.tool_name };
  const kind = toolKindOf(input.tool_name);
  if (kind) tool.kind = kind;
  if (typeof input.tool_use_id === 'string') tool.call_id = input.tool_use_id;
  const args = input.tool_input;
  if (isJsonObject(args)) {
    tool.args = args;
    // The common arguments under portable names (tool-args.ts); the agent's own args stay as sent.
    const canonical = canonicalArgsOf(input.tool_name, args);
    if (canonical) tool.canonical_args = canonical;
  } else if (args !== undefined) {
    warnings.push({ code: 'agent_input_invalid', message: `tool_input must be an object, not ${describe(args)}; argument matchers see no arguments` });
  }
  return tool;
}

/** Claude / Codex: tool_response (PostToolUse) or error (PostToolUseFailure). */
function claudeResult(input: JsonObject, event: EventName): JsonObject | undefined {
  const result: JsonObject = {};
  if (event === 'tool_error') {
    const error = typeof input.error === 'string' ? input.error : input.error === undefined ? 'the tool failed' : stringifyJson(input.error);
    Object.assign(result, { text: error, error, failed: true });
  } else if (input.tool_response !== undefined) {
    result.text = asText(input.tool_response);
    result.failed = false;
  } else return undefined;
  if (input.duration_ms !== undefined) result.duration_ms = input.duration_ms;
  return result;
}

/** Gemini: tool_response {llmContent, returnDisplay, error}. */
function geminiResult(input: JsonObject): JsonObject | undefined {
  const response = input.tool_response;
  if (response === undefined) return undefined;
  if (!isJsonObject(response)) return { text: asText(response), failed: false };
  const error = response.error;
  const failed = error !== undefined && error !== null && error !== '';
  const result: JsonObject = { text: asText(response.llmContent ?? response.returnDisplay ?? ''), failed };
  if (failed) result.error = typeof error === 'string' ? error : stringifyJson(error);
  return result;
}

const isFailure = (result: JsonObject): boolean => result.failed === true;

const asText = (v: Json): string => (typeof v === 'string' ? v : stringifyJson(v));

const describe = (v: Json): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'string' ? 'a string' : typeof v === 'boolean' ? 'a boolean' : 'a number');
