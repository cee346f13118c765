// What a foreign hook script (`run.protocol: claude | codex | gemini`) reads
// on stdin: the input that agent would send, built from the envelope. When
// the envelope itself came from that agent family, it is what the agent sent,
// with tool_input as modified so far.

import type { EventName } from '../events.js';
import { type Json, type JsonObject, isJsonObject } from '../json.js';
import { AGENT_CWD_KEY, AGENT_PROTOCOL_KEY } from './inbound.js';
import { type AgentProtocol, agentEventOf } from './names.js';

// Keys the envelope adds on top of an agent's input.
const CHRYS_KEYS = new Set(['event', 'schema', 'profile', 'session_kind', 'tool', 'result', 'text', AGENT_PROTOCOL_KEY, AGENT_CWD_KEY]);

const sameFamily = (a: Json | undefined, b: AgentProtocol): boolean =>
  typeof a === 'string' && (a === b || (a !== 'gemini' && b !== 'gemini' && (a === 'claude' || a === 'codex')));

/** The agent's hook input for this envelope, as a JSON object. */
export function envelopeToAgentInput(protocol: AgentProtocol, envelope: JsonObject, event: EventName): JsonObject {
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  if (sameFamily(envelope[AGENT_PROTOCOL_KEY], protocol)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(envelope)) {
      // Claude and Codex send no timestamp (the envelope default); Gemini does.
      if (CHRYS_KEYS.has(k) || (k === 'timestamp' && protocol !== 'gemini')) continue;
      out[k] = v;
    }
    if (tool && tool.args !== undefined) out.tool_input = tool.args;
    // The agent's own cwd, where the envelope's cwd became the project root.
    if (typeof envelope[AGENT_CWD_KEY] === 'string') out.cwd = envelope[AGENT_CWD_KEY];
    return out;
  }
  return protocol === 'gemini' ? geminiInput(envelope, event, tool) : claudeInput(envelope, event, tool);
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

function claudeInput(envelope: JsonObject, event: EventName, tool: JsonObject | undefined): JsonObject {
  const name = agentEventOf('claude', event) ?? str(envelope.hook_event_name, event);
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
  if (event === 'session_start' || event === 'session_restored') out.source = event === 'session_restored' ? 'resume' : str(envelope.source, 'startup');
  if (event === 'session_end') out.reason = str(envelope.reason, 'other');
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
  if (event === 'session_start') out.source = str(envelope.source, 'startup');
  if (event === 'session_end') out.reason = str(envelope.reason, 'exit');
  if (event === 'pre_compact') out.trigger = str(envelope.trigger, 'auto');
  return out;
}
