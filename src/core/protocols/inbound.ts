// An agent's hook input (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI) mapped onto the Chrys
// envelope (CONTRACT §4). Every original field is kept at the top level, so
// Chrys hooks see it and a foreign hook of the same family receives exactly
// what the agent sent (see foreign-input.ts).

import type { Warning } from '../diagnostics.js';
import type { EventName } from '../events.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject, parseJson, stringifyJson } from '../json.js';
import { type AgentProtocol, chrysEventOf, toolKindOf } from './names.js';
import { putToolArgs } from './tool-args.js';

export type Inbound =
  | { ok: true; envelope: JsonObject; event: EventName; agentEvent: string; warnings: Warning[] }
  | { ok: false; agentEvent: string; warnings: Warning[] };

/** Marks an envelope built from an agent's input; its value is the protocol. */
export const AGENT_PROTOCOL_KEY = 'agent_protocol';

/** Where the envelope keeps the agent's own input `cwd` when `cwd` holds the session's project root. */
export const AGENT_CWD_KEY = 'agent_cwd';

/** Marks a session_id the envelope took from another field of the input (Cursor conversation_id, Copilot sessionId). */
export const SESSION_FROM_KEY = 'agent_session_from';

/** Where the envelope keeps an agent's numeric `timestamp` (Copilot CLI) when `timestamp` holds it as ISO text. */
export const AGENT_TIMESTAMP_KEY = 'agent_timestamp';

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
  if (protocol === 'cursor' || protocol === 'copilot') {
    const native = protocol === 'cursor' ? cursorTool(input, agentEvent, warnings) : copilotTool(input, warnings);
    if (native.tool) envelope.tool = native.tool;
    if (native.result) envelope.result = native.result;
    // The session: Cursor's conversation_id, Copilot's sessionId; marked so a same-protocol hook does not get a session_id the agent never sent.
    const from = protocol === 'cursor' ? 'conversation_id' : 'sessionId';
    if (input.session_id === undefined && typeof input[from] === 'string') {
      envelope.session_id = input[from];
      envelope[SESSION_FROM_KEY] = from;
    }
    // Copilot's timestamp is Unix milliseconds; the envelope's is ISO text. The original travels beside it.
    if (input.timestamp instanceof JsonNumber) {
      const ms = input.timestamp.toNumber();
      envelope[AGENT_TIMESTAMP_KEY] = input.timestamp;
      if (Number.isFinite(ms)) envelope.timestamp = new Date(ms).toISOString();
      else delete envelope.timestamp;
    }
    if (typeof input.prompt === 'string') envelope.text = input.prompt;
    return { ok: true, envelope, event, agentEvent, warnings };
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
  // The common arguments under portable names (tool-args.ts); the agent's own args stay as sent.
  if (isJsonObject(args)) putToolArgs(tool, args);
  else if (args !== undefined) {
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

interface Native {
  tool?: JsonObject;
  result?: JsonObject;
}

/** Cursor sends some arguments (MCP tool_input, postToolUse tool_output) as JSON text: read as the object they spell. */
function objectOf(v: Json | undefined, what: string, warnings: Warning[]): JsonObject | undefined {
  if (v === undefined) return undefined;
  if (isJsonObject(v)) return v;
  if (typeof v === 'string') {
    try {
      const parsed = parseJson(v);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // reported below
    }
  }
  warnings.push({ code: 'agent_input_invalid', message: `${what} must be an object (or JSON text of one), not ${describe(v)}; argument matchers see no arguments` });
  return undefined;
}

const named = (name: string, args: JsonObject | undefined, callId?: Json): JsonObject => {
  const tool: JsonObject = { name };
  const kind = toolKindOf(name);
  if (kind) tool.kind = kind;
  if (typeof callId === 'string') tool.call_id = callId;
  if (args) putToolArgs(tool, args);
  return tool;
};

/**
 * Cursor: preToolUse/postToolUse name the tool (Shell, Read, Write, MCP:x);
 * the dedicated gates are one tool each, named as preToolUse names it, so one
 * `match.tool_name: Shell` covers both.
 */
function cursorTool(input: JsonObject, agentEvent: string, warnings: Warning[]): Native {
  const pick = (...keys: string[]): JsonObject => Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]!]));
  switch (agentEvent) {
    case 'beforeShellExecution':
      return { tool: named('Shell', pick('command', 'cwd')) };
    case 'afterShellExecution':
      return { tool: named('Shell', pick('command', 'cwd')), result: { text: typeof input.output === 'string' ? input.output : '', failed: false, ...(input.duration !== undefined ? { duration_ms: input.duration } : {}) } };
    case 'beforeMCPExecution':
    case 'afterMCPExecution': {
      const tool = named(typeof input.tool_name === 'string' ? `MCP:${input.tool_name}` : 'MCP', objectOf(input.tool_input, 'tool_input', warnings));
      if (agentEvent === 'beforeMCPExecution') return { tool };
      return { tool, result: { text: typeof input.result_json === 'string' ? input.result_json : input.result_json === undefined ? '' : stringifyJson(input.result_json), failed: false } };
    }
    case 'beforeReadFile':
      return { tool: named('Read', pick('file_path')) };
    case 'afterFileEdit':
      return { tool: named('Write', pick('file_path', 'edits')), result: { text: input.edits === undefined ? '' : stringifyJson(input.edits), failed: false } };
    default: {
      if (typeof input.tool_name !== 'string') return {};
      const tool = named(input.tool_name, objectOf(input.tool_input, 'tool_input', warnings), input.tool_use_id);
      if (agentEvent === 'postToolUseFailure') {
        const error = typeof input.error_message === 'string' ? input.error_message : typeof input.error === 'string' ? input.error : 'the tool failed';
        return { tool, result: { text: error, error, failed: true } };
      }
      if (input.tool_output === undefined) return { tool };
      return { tool, result: { text: asText(input.tool_output), failed: false, ...(input.duration !== undefined ? { duration_ms: input.duration } : {}) } };
    }
  }
}

/** Copilot CLI: toolName and toolArgs (JSON text on the CLI's stdin), toolResult after the call. */
function copilotTool(input: JsonObject, warnings: Warning[]): Native {
  if (typeof input.toolName !== 'string') return {};
  const tool = named(input.toolName, objectOf(input.toolArgs, 'toolArgs', warnings));
  const result = input.toolResult;
  if (result === undefined) return { tool };
  if (!isJsonObject(result)) return { tool, result: { text: asText(result), failed: false } };
  const text = asText(result.textResultForLlm ?? '');
  const failed = result.resultType === 'failure' || result.resultType === 'denied';
  return { tool, result: { text, failed, ...(failed ? { error: text } : {}) } };
}
