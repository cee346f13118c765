// A Chrys decision (CONTRACT §7) answered in an agent's hook output format:
// Claude Code and Codex (`hookSpecificOutput`, `decision`/`reason`,
// `systemMessage`) or Gemini CLI (`decision: "deny"`, `tool_input`). With
// `exitCode`, a block is exit 2 with the reason on stderr where the agent
// honours exit 2.

import type { Decision } from '../decide.js';
import type { EventName } from '../events.js';
import { type JsonObject, JsonNumber, isJsonObject, parseJson, stringifyJson } from '../json.js';
import { type AgentProtocol, CURSOR_EVENTS, chrysEventOf, claudeEventName, isCursorStyleName } from './names.js';

export interface AgentReply {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * A reply as one JSON object, for `serve` and the API, which have no exit
 * status or stderr: the agent's answer plus `exit_code` and `stderr` (the
 * block reason the agent reads on exit 2, without its newline).
 */
export function replyObject(reply: AgentReply): JsonObject {
  const answer = reply.stdout ? parseJson(reply.stdout) : {};
  return { ...(isJsonObject(answer) ? answer : {}), exit_code: new JsonNumber(String(reply.exitCode)), stderr: reply.stderr.replace(/\n$/, '') };
}

// Where the agent reads hookSpecificOutput.additionalContext.
const CONTEXT_EVENTS: Record<AgentProtocol, readonly string[]> = {
  claude: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SubagentStart', 'Stop', 'SubagentStop'],
  codex: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  gemini: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionStart'],
};
// Where exit 2 blocks: not on PermissionRequest (the agents ignore it there); after a tool nothing is blocked.
const EXIT2_BLOCKS: readonly EventName[] = ['before_tool_call', 'user_prompt_submit', 'conversation_done', 'sub_agent_end'];

/** The agent's answer for a decision on `agentEvent`. */
export function decisionToReply(protocol: AgentProtocol, given: Decision, asked: string, opts: { exitCode?: boolean } = {}): AgentReply {
  const decision = askWithoutAsk(protocol, given);
  const reason = decision.reason || 'blocked by chrys-hooks';
  const agentEvent = protocol === 'gemini' ? asked : claudeEventName(asked);
  if (protocol === 'claude' && isCursorStyleName(asked) && chrysEventOf(protocol, asked) === undefined) return unknownCursorEvent(asked);
  if (opts.exitCode && decision.blocked && EXIT2_BLOCKS.includes(decision.event)) {
    return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  }
  const out = protocol === 'gemini' ? geminiOutput(decision, agentEvent) : claudeOutput(protocol, decision, agentEvent);
  // A block must never read as an allow: where the output has no decision in it, exit 2 says it.
  if (decision.blocked && EXIT2_BLOCKS.includes(decision.event) && out.decision === undefined && out.hookSpecificOutput === undefined) {
    return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  }
  const context = modelContext(decision, agentEvent);
  if (context && CONTEXT_EVENTS[protocol].includes(agentEvent)) {
    out.hookSpecificOutput = { hookEventName: agentEvent, ...(out.hookSpecificOutput as JsonObject | undefined), additionalContext: context };
  }
  const notices = [
    ...decision.contexts.filter((c) => c.channel === 'ui_notice').map((c) => c.text),
    ...decision.warnings.map((w) => `chrys-hooks ${w.code}: ${w.message}`),
  ];
  if (notices.length > 0) out.systemMessage = notices.join('\n');
  // stringifyJson keeps the args' numbers as the agent spelled them.
  return { stdout: stringifyJson(out), stderr: '', exitCode: 0 };
}

const AGENT_NAMES: Record<AgentProtocol, string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' };

/**
 * A hook's ask or defer on a tool call where the agent has none (AGENT-PROTOCOLS:
 * Codex parses PreToolUse "ask" but runs the call; Gemini blocks only on
 * deny): the nearest answer that is not an allow is a deny, with a warning.
 * Claude has both and gets them as they are.
 */
function askWithoutAsk(protocol: AgentProtocol, d: Decision): Decision {
  if (protocol === 'claude' || d.event !== 'before_tool_call' || d.blocked || (d.permission !== 'ask' && d.permission !== 'defer')) return d;
  const agent = AGENT_NAMES[protocol];
  const what = d.permission === 'ask' ? 'asked for the user\'s confirmation of this tool call' : 'deferred this tool call';
  const reason = `a hook ${what}, which ${agent} cannot do for a tool call, so chrys-hooks denies it instead (confirm with the user, then retry)`;
  return {
    ...d,
    blocked: true,
    reason,
    blocked_by: { id: 'permission-ask', source: 'global' },
    warnings: [...d.warnings, { code: 'permission_ask_denied', message: `a hook answered permissionDecision "${d.permission}", which ${agent} has no form for on a tool call (it would run the call); denied instead` }],
  };
}

/**
 * A Cursor-style name chrys-hooks does not map (beforeShellExecution): Cursor
 * gates on some of these, so an empty answer would allow what no hook saw.
 * Denied with Claude's exit 2, the reason on stderr.
 */
function unknownCursorEvent(name: string): AgentReply {
  const known = Object.keys(CURSOR_EVENTS).join(', ');
  return { stdout: '', stderr: `chrys-hooks: event "${name}" is not one chrys-hooks knows under --protocol claude, so no hook ran; denied rather than allowed (use a Claude event name, or one of ${known})\n`, exitCode: 2 };
}

function claudeOutput(protocol: AgentProtocol, d: Decision, agentEvent: string): JsonObject {
  const reason = d.reason || 'blocked by chrys-hooks';
  const specific = (fields: JsonObject): JsonObject => ({ hookSpecificOutput: { hookEventName: agentEvent, ...fields } });
  switch (agentEvent) {
    case 'PreToolUse':
      if (d.blocked) return specific({ permissionDecision: 'deny', permissionDecisionReason: reason });
      // Only Claude gets here with ask or defer (askWithoutAsk); updatedInput goes with it, as Claude reads both.
      if (d.permission === 'ask' || d.permission === 'defer') return specific({ permissionDecision: d.permission, ...(d.args !== null ? { updatedInput: d.args } : {}) });
      // Claude applies updatedInput in its normal permission flow; Codex needs an explicit allow with it.
      if (d.args !== null) return specific({ ...(protocol === 'codex' ? { permissionDecision: 'allow' } : {}), updatedInput: d.args });
      return {};
    case 'PermissionRequest':
      if (d.blocked || d.permission === 'deny') return specific({ decision: { behavior: 'deny', message: reason } });
      if (d.permission === 'allow') return specific({ decision: { behavior: 'allow' } });
      return {};
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const visible = d.replace_result ?? d.block_feedback;
      return visible === null ? {} : { decision: 'block', reason: visible };
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop':
      return d.blocked ? { decision: 'block', reason } : {};
    default:
      return {};
  }
}

function geminiOutput(d: Decision, agentEvent: string): JsonObject {
  const reason = d.reason || 'blocked by chrys-hooks';
  switch (agentEvent) {
    case 'BeforeTool':
      if (d.blocked) return { decision: 'deny', reason };
      return d.args !== null ? { hookSpecificOutput: { hookEventName: agentEvent, tool_input: d.args } } : {};
    case 'AfterTool': {
      const visible = d.replace_result ?? d.block_feedback;
      return visible === null ? {} : { decision: 'deny', reason: visible };
    }
    case 'BeforeAgent':
    case 'AfterAgent':
      return d.blocked ? { decision: 'deny', reason } : {};
    default:
      return {};
  }
}

/** Text for the model: reminders (prompt), extra context (after a tool) and the non-notice contexts. */
function modelContext(d: Decision, agentEvent: string): string {
  const after = agentEvent === 'PostToolUse' || agentEvent === 'PostToolUseFailure' || agentEvent === 'AfterTool';
  const parts = [
    ...d.system_reminders,
    ...(after ? d.extra_context : []),
    ...d.contexts.filter((c) => c.channel !== 'ui_notice').map((c) => c.text),
  ];
  return parts.join('\n\n');
}
