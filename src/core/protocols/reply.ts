// A Chrys decision (CONTRACT §7) answered in an agent's hook output format:
// Claude Code and Codex (`hookSpecificOutput`, `decision`/`reason`,
// `systemMessage`) or Gemini CLI (`decision: "deny"`, `tool_input`). With
// `exitCode`, a block is exit 2 with the reason on stderr where the agent
// honours exit 2.

import type { Decision } from '../decide.js';
import type { EventName } from '../events.js';
import { type JsonObject, stringifyJson } from '../json.js';
import type { AgentProtocol } from './names.js';

export interface AgentReply {
  stdout: string;
  stderr: string;
  exitCode: number;
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
export function decisionToReply(protocol: AgentProtocol, decision: Decision, agentEvent: string, opts: { exitCode?: boolean } = {}): AgentReply {
  const reason = decision.reason || 'blocked by chrys-hooks';
  if (opts.exitCode && decision.blocked && EXIT2_BLOCKS.includes(decision.event)) {
    return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  }
  const out = protocol === 'gemini' ? geminiOutput(decision, agentEvent) : claudeOutput(protocol, decision, agentEvent);
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

function claudeOutput(protocol: AgentProtocol, d: Decision, agentEvent: string): JsonObject {
  const reason = d.reason || 'blocked by chrys-hooks';
  const specific = (fields: JsonObject): JsonObject => ({ hookSpecificOutput: { hookEventName: agentEvent, ...fields } });
  switch (agentEvent) {
    case 'PreToolUse':
      if (d.blocked) return specific({ permissionDecision: 'deny', permissionDecisionReason: reason });
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
