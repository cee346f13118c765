// What a foreign hook script (`run.protocol: claude | codex | gemini`) reads
// on stdin: the input that agent would send, built from the envelope. When
// the envelope itself came from that agent family, it is what the agent sent,
// with tool_input as modified so far.

import type { EventName } from '../events.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject, stringifyJson } from '../json.js';
import { AGENT_CWD_KEY, AGENT_PROTOCOL_KEY, AGENT_TIMESTAMP_KEY, SESSION_FROM_KEY } from './inbound.js';
import { type AgentProtocolDescriptor, protocolOf } from './agents/index.js';
import { type AgentProtocol, agentEventOf, shellCommandOf } from './names.js';

// Keys the envelope adds on top of an agent's input.
const CHRYS_KEYS = new Set(['event', 'schema', 'profile', 'session_kind', 'tool', 'result', 'text', AGENT_PROTOCOL_KEY, AGENT_CWD_KEY, AGENT_TIMESTAMP_KEY, SESSION_FROM_KEY]);

const sameFamily = (a: Json | undefined, b: AgentProtocol): boolean =>
  typeof a === 'string' && (a === b || (a !== 'gemini' && b !== 'gemini' && (a === 'claude' || a === 'codex')));

/** The agent's hook input for this envelope, as a JSON object. */
export function envelopeToAgentInput(protocol: AgentProtocol, envelope: JsonObject, event: EventName): JsonObject {
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  if (sameFamily(envelope[AGENT_PROTOCOL_KEY], protocol)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(envelope)) {
      // Claude and Codex send no timestamp (the envelope default); Gemini does.
      // An input's own `text` (Cursor afterAgentResponse) is kept; the envelope's text from `prompt` is not.
      const ownText = k === 'text' && typeof envelope.prompt !== 'string' && protocol === 'cursor';
      if ((CHRYS_KEYS.has(k) && !ownText) || (k === 'session_id' && (envelope[SESSION_FROM_KEY] !== undefined || ((protocol === 'cursor' || protocol === 'copilot') && v === ''))) || (k === 'hook_event_name' && protocol === 'copilot') || (k === 'timestamp' && protocol !== 'gemini' && protocol !== 'copilot')) continue;
      out[k] = v;
    }
    if (tool && tool.args !== undefined) {
      if (protocol === 'copilot') out.toolArgs = typeof envelope.toolArgs === 'string' ? stringifyJson(tool.args) : tool.args;
      else if (protocol === 'cursor') Object.assign(out, cursorArgs(str(envelope.hook_event_name), tool.args, envelope.tool_input));
      else out.tool_input = tool.args;
    }
    // The agent's own cwd, where the envelope's cwd became the project root.
    if (typeof envelope[AGENT_CWD_KEY] === 'string') out.cwd = envelope[AGENT_CWD_KEY];
    if (envelope[AGENT_TIMESTAMP_KEY] !== undefined) out.timestamp = envelope[AGENT_TIMESTAMP_KEY];
    return out;
  }
  if (protocol === 'cursor') return cursorInput(envelope, event, tool);
  if (protocol === 'copilot') return copilotInput(envelope, event, tool);
  return protocol === 'gemini' ? geminiInput(envelope, event, tool) : claudeInput(protocol, envelope, event, tool);
}

const str = (v: Json | undefined, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const resultOf = (envelope: JsonObject): JsonObject => (isJsonObject(envelope.result) ? envelope.result : {});

function common(envelope: JsonObject, name: string): JsonObject {
  return {
    session_id: str(envelope.session_id),
    transcript_path: str(envelope.transcript_path),
    cwd: str(envelope[AGENT_CWD_KEY], str(envelope.cwd)),
    hook_event_name: name,
  };
}

/** SessionStart's `source` (the agent's name for a resumed session on session_restored) and SessionEnd's `reason`, the agent's defaults where the envelope has none. */
function sessionFields(out: JsonObject, defaults: NonNullable<AgentProtocolDescriptor['session']>, envelope: JsonObject, event: EventName): void {
  if (event === 'session_start') out.source = str(envelope.source, defaults.source);
  if (event === 'session_restored') out.source = defaults.restoredSource;
  if (event === 'session_end') out.reason = str(envelope.reason, defaults.endReason);
}

function claudeInput(protocol: AgentProtocol, envelope: JsonObject, event: EventName, tool: JsonObject | undefined): JsonObject {
  const name = agentEventOf(protocol, event) ?? str(envelope.hook_event_name, event);
  const out = common(envelope, name);
  out.permission_mode = str(envelope.permission_mode, 'default');
  if (tool) {
    out.tool_name = str(tool.name);
    out.tool_input = isJsonObject(tool.args) ? tool.args : {};
    if (typeof tool.call_id === 'string') out.tool_use_id = tool.call_id;
  }
  const result = resultOf(envelope);
  if (event === 'after_tool_call') out.tool_response = result.text ?? '';
  if (event === 'tool_error') out.error = result.error ?? result.text ?? '';
  if (event === 'user_prompt_submit') out.prompt = str(envelope.text, str(envelope.user_text));
  if (event === 'conversation_done' || event === 'sub_agent_end') {
    out.stop_hook_active = envelope.stop_hook_active ?? false;
    if (envelope.last_assistant_message !== undefined) out.last_assistant_message = envelope.last_assistant_message;
  }
  sessionFields(out, protocolOf(protocol).session!, envelope, event);
  if (event === 'pre_compact') out.trigger = str(envelope.trigger, 'auto');
  return out;
}

function geminiInput(envelope: JsonObject, event: EventName, tool: JsonObject | undefined): JsonObject {
  const name = agentEventOf('gemini', event) ?? str(envelope.hook_event_name, event);
  const out = common(envelope, name);
  out.timestamp = str(envelope.timestamp);
  if (tool) {
    out.tool_name = str(tool.name);
    out.tool_input = isJsonObject(tool.args) ? tool.args : {};
  }
  const result = resultOf(envelope);
  if (event === 'after_tool_call' || event === 'tool_error') {
    out.tool_response = { llmContent: result.text ?? '', returnDisplay: result.text ?? '', error: event === 'tool_error' ? (result.error ?? result.text ?? 'the tool failed') : null };
  }
  if (event === 'user_prompt_submit' || event === 'conversation_done') out.prompt = str(envelope.text, str(envelope.user_text));
  if (event === 'conversation_done') out.stop_hook_active = envelope.stop_hook_active ?? false;
  sessionFields(out, protocolOf('gemini').session!, envelope, event);
  if (event === 'pre_compact') out.trigger = str(envelope.trigger, 'auto');
  return out;
}

/** The tool arguments where Cursor puts them for its event (inbound.ts reads them back). */
function cursorArgs(agentEvent: string, args: Json, original: Json | undefined): JsonObject {
  if (!isJsonObject(args)) return {};
  if (agentEvent === 'beforeShellExecution' || agentEvent === 'afterShellExecution' || agentEvent === 'beforeReadFile' || agentEvent === 'afterFileEdit') return args;
  // beforeMCPExecution sends tool_input as JSON text; keep the form it came in.
  return { tool_input: typeof original === 'string' ? stringifyJson(args) : args };
}

/** Cursor's input for a Chrys event: its preToolUse-style tool events, with the common fields it sends. */
function cursorInput(envelope: JsonObject, event: EventName, tool: JsonObject | undefined): JsonObject {
  const name = agentEventOf('cursor', event) ?? str(envelope.hook_event_name, event);
  const cwd = str(envelope[AGENT_CWD_KEY], str(envelope.cwd));
  const out: JsonObject = {
    conversation_id: str(envelope.conversation_id, str(envelope.session_id)),
    generation_id: str(envelope.generation_id),
    hook_event_name: name,
    workspace_roots: Array.isArray(envelope.workspace_roots) ? envelope.workspace_roots : [str(envelope.cwd)],
    transcript_path: envelope.transcript_path === undefined ? null : envelope.transcript_path,
  };
  if (tool) {
    out.tool_name = str(tool.name);
    out.tool_input = isJsonObject(tool.args) ? tool.args : {};
    if (typeof tool.call_id === 'string') out.tool_use_id = tool.call_id;
    out.cwd = cwd;
    // One input for both Cursor script styles: preToolUse's tool_input, and the shell / read gates' own fields.
    const command = shellCommandOf(str(tool.name), isJsonObject(tool.args) ? tool.args : undefined);
    if (command !== 'not_shell' && command !== 'missing') out.command = command;
    const path = isJsonObject(tool.args) ? (tool.args.file_path ?? tool.args.path) : undefined;
    if (typeof path === 'string') out.file_path = path;
  }
  const result = resultOf(envelope);
  if (event === 'after_tool_call') out.tool_output = str(result.text);
  if (event === 'tool_error') out.error_message = str(result.error, str(result.text));
  if (event === 'user_prompt_submit') out.prompt = str(envelope.text, str(envelope.user_text));
  if (event === 'conversation_done' || event === 'sub_agent_end') {
    out.status = str(envelope.status, 'completed');
    out.loop_count = envelope.loop_count ?? new JsonNumber(envelope.stop_hook_active === true ? '1' : '0');
  }
  return out;
}

/** Copilot CLI's camelCase input: toolName, toolArgs as JSON text (as its CLI sends it), no event name. */
function copilotInput(envelope: JsonObject, event: EventName, tool: JsonObject | undefined): JsonObject {
  const out: JsonObject = { timestamp: new JsonNumber(String(Date.parse(str(envelope.timestamp)) || 0)), cwd: str(envelope[AGENT_CWD_KEY], str(envelope.cwd)) };
  if (typeof envelope.session_id === 'string' && envelope.session_id !== '') out.sessionId = envelope.session_id;
  if (tool) {
    out.toolName = str(tool.name);
    out.toolArgs = stringifyJson(isJsonObject(tool.args) ? tool.args : {});
  }
  const result = resultOf(envelope);
  if (event === 'after_tool_call' || event === 'tool_error') out.toolResult = { resultType: event === 'tool_error' ? 'failure' : 'success', textResultForLlm: str(result.text) };
  if (event === 'user_prompt_submit') out.prompt = str(envelope.text, str(envelope.user_text));
  sessionFields(out, protocolOf('copilot').session!, envelope, event);
  if (event === 'error') out.error = { message: str(envelope.error_message, str(envelope.message)), name: 'Error' };
  return out;
}
