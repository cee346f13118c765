// A Chrys decision (CONTRACT §7) answered in an agent's hook output format:
// Claude Code and Codex (`hookSpecificOutput`, `decision`/`reason`,
// `systemMessage`) or Gemini CLI (`decision: "deny"`, `tool_input`). With
// `exitCode`, a block is exit 2 with the reason on stderr where the agent
// honours exit 2.

import type { Decision } from '../decide.js';
import type { EventName } from '../events.js';
import { type JsonObject, JsonNumber, isJsonObject, parseJson, stringifyJson } from '../json.js';
import { claudeToolOutput } from './claude-tool-output.js';
import { protocolOf } from './agents/index.js';
import { type AgentProtocol, chrysEventOf, isCursorStyleName, ownEventName } from './names.js';

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

/**
 * The Chrys events of the agent's exit-2 blocks: where a block is answered by
 * exit 2 (under --exit-code, or where the output would say nothing). After a
 * tool nothing is blocked, so exit2Feedback is not among them.
 */
const exit2Events = (protocol: AgentProtocol): EventName[] => {
  const d = protocolOf(protocol);
  return d.exit2Blocks.map((name) => d.events[name]!);
};

export interface ReplyOptions {
  exitCode?: boolean;
  /** The agent's hook input: Claude's replaced tool output takes the shape of its `tool_response`. */
  input?: JsonObject;
}

/** The agent's answer for a decision on `agentEvent`. */
export function decisionToReply(protocol: AgentProtocol, given: Decision, asked: string, opts: ReplyOptions = {}): AgentReply {
  if (protocol === 'cursor') return cursorReply(given, asked, opts);
  if (protocol === 'copilot') return copilotReply(given, asked);
  const decision = askWithoutAsk(protocol, given);
  const reason = decision.reason || 'blocked by chrys-hooks';
  const agentEvent = ownEventName(protocol, asked);
  if (protocol === 'claude' && isCursorStyleName(asked) && chrysEventOf(protocol, asked) === undefined) return unknownCursorEvent(asked);
  const exit2 = exit2Events(protocol);
  if (opts.exitCode && decision.blocked && exit2.includes(decision.event)) {
    return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  }
  const out = protocol === 'gemini' ? geminiOutput(decision, agentEvent) : claudeOutput(protocol, decision, agentEvent, opts.input ?? {});
  // A block must never read as an allow: where the output has no decision in it, exit 2 says it.
  if (decision.blocked && exit2.includes(decision.event) && out.decision === undefined && out.hookSpecificOutput === undefined) {
    return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  }
  const context = modelContext(decision, agentEvent);
  if (context && protocolOf(protocol).contextEvents.includes(agentEvent)) {
    out.hookSpecificOutput = { hookEventName: agentEvent, ...(out.hookSpecificOutput as JsonObject | undefined), additionalContext: context };
  }
  const notices = [
    ...(typeof out.systemMessage === 'string' ? [out.systemMessage] : []),
    ...decision.contexts.filter((c) => c.channel === 'ui_notice').map((c) => c.text),
    ...decision.warnings.map((w) => `chrys-hooks ${w.code}: ${w.message}`),
  ];
  // Gemini CLI displays a blocked prompt or stop as `systemMessage || reason`
  // ("Agent execution blocked: ..."), so warnings alone there would hide why:
  // on a block the reason leads whatever it shows.
  if (protocol === 'gemini' && decision.blocked && notices.length > 0) notices.unshift(reason);
  if (notices.length > 0) out.systemMessage = notices.join('\n');
  // stringifyJson keeps the args' numbers as the agent spelled them.
  return { stdout: stringifyJson(out), stderr: '', exitCode: 0 };
}

/**
 * A hook's ask or defer on a tool call where the agent has none (AGENT-PROTOCOLS:
 * Codex parses PreToolUse "ask" but runs the call; Gemini blocks only on
 * deny): the nearest answer that is not an allow is a deny, with a warning.
 * Claude has both and gets them as they are.
 */
function askWithoutAsk(protocol: AgentProtocol, d: Decision, agentHasAsk = protocol === 'claude'): Decision {
  if (agentHasAsk || d.event !== 'before_tool_call' || d.blocked || (d.permission !== 'ask' && d.permission !== 'defer')) return d;
  const agent = protocolOf(protocol).name;
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
  const known = Object.keys(protocolOf('claude').aliases).join(', ');
  return { stdout: '', stderr: `chrys-hooks: event "${name}" is not one chrys-hooks knows under --protocol claude, so no hook ran; denied rather than allowed (use a Claude event name, or one of ${known})\n`, exitCode: 2 };
}

function claudeOutput(protocol: AgentProtocol, d: Decision, agentEvent: string, input: JsonObject): JsonObject {
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
      // Codex shares this answer but has no updatedToolOutput: it keeps the feedback form below.
      if (protocol === 'claude' && d.replace_result !== null) return claudeReplacedResult(d.replace_result, agentEvent, input);
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

/**
 * Claude's `decision: "block"` after a tool only adds its reason beside the
 * original output, so a replaced result goes in `updatedToolOutput`, in the
 * tool's own shape (claude-tool-output.ts). Where there is none (an unknown
 * shape, or PostToolUseFailure, which has no such field), the replacement is
 * still fed back, and the user is told that the model saw the original too.
 */
function claudeReplacedResult(text: string, agentEvent: string, input: JsonObject): JsonObject {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : 'the tool';
  const shaped = agentEvent === 'PostToolUse' ? claudeToolOutput(input.tool_name, input.tool_response, text) : undefined;
  if (shaped) return { hookSpecificOutput: { hookEventName: agentEvent, updatedToolOutput: shaped } };
  const why = agentEvent === 'PostToolUse' ? `chrys-hooks knows no output shape for ${tool} to replace it in` : `Claude Code cannot replace a result on ${agentEvent}`;
  return { decision: 'block', reason: text, systemMessage: `chrys-hooks: a hook replaced the result of ${tool}, but ${why}; the model sees the original output too, with the replacement as hook feedback` };
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

const noticesOf = (d: Decision): string[] => [
  ...d.contexts.filter((c) => c.channel === 'ui_notice').map((c) => c.text),
  ...d.warnings.map((w) => `chrys-hooks ${w.code}: ${w.message}`),
];

// Cursor's gates with `permission: ask`; preToolUse accepts ask but does not enforce it, and beforeReadFile has none.
const CURSOR_ASKS = ['beforeShellExecution', 'beforeMCPExecution'];
const CURSOR_GATES = ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'subagentStart'];

/**
 * Cursor (hooks.json version 1): `permission` on its gates, `continue` on
 * beforeSubmitPrompt, `followup_message` on stop, `additional_context` after a
 * tool and at session start. Exit 2 is its deny, on the gates and the prompt.
 */
function cursorReply(given: Decision, asked: string, opts: { exitCode?: boolean }): AgentReply {
  let d = askWithoutAsk('cursor', given, CURSOR_ASKS.includes(asked));
  // Only preToolUse can rewrite (updated_input): elsewhere the rewritten call cannot run, and the original must not.
  if (!d.blocked && d.args !== null && CURSOR_GATES.includes(asked) && asked !== 'preToolUse') {
    d = { ...d, blocked: true, reason: `a hook rewrote this call, which Cursor cannot apply on ${asked}; denied instead of running the original`, warnings: [...d.warnings, { code: 'rewrite_denied', message: `Cursor has no rewrite on ${asked}; denied` }] };
  }
  const reason = d.reason || 'blocked by chrys-hooks';
  const notices = noticesOf(d);
  const gate = CURSOR_GATES.includes(asked);
  if (opts.exitCode && d.blocked && protocolOf('cursor').exit2Blocks.includes(asked)) return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
  const out: JsonObject = {};
  if (gate) {
    if (d.blocked) Object.assign(out, { permission: 'deny', user_message: reason, agent_message: reason });
    else if (d.permission === 'ask' || d.permission === 'defer') out.permission = 'ask';
    else if (d.args !== null) Object.assign(out, { ...(d.permission === 'allow' ? { permission: 'allow' } : {}), updated_input: d.args });
    else if (d.permission === 'allow') out.permission = 'allow';
  } else if (asked === 'beforeSubmitPrompt') {
    if (d.blocked) Object.assign(out, { continue: false, user_message: reason });
  } else if (asked === 'stop' || asked === 'subagentStop') {
    if (d.blocked) out.followup_message = reason;
  } else if (protocolOf('cursor').contextEvents.includes(asked)) {
    const after = asked !== 'sessionStart';
    const parts = [...(after ? [d.replace_result ?? d.block_feedback].filter((x): x is string => x !== null && x !== undefined) : []), ...(after ? d.extra_context : []), ...d.contexts.filter((c) => c.channel !== 'ui_notice').map((c) => c.text), ...d.system_reminders];
    if (parts.length > 0) out.additional_context = parts.join('\n\n');
  }
  if (notices.length > 0 && out.user_message === undefined && (gate || asked === 'beforeSubmitPrompt')) out.user_message = notices.join('\n');
  // Other notices reach the user through fire's stderr, as for every agent.
  return { stdout: stringifyJson(out), stderr: '', exitCode: 0 };
}

/**
 * Copilot CLI: JSON on stdout only (exit 2 is a warning to it except on
 * permissionRequest): preToolUse `permissionDecision` allow|deny|ask and
 * `modifiedArgs`; permissionRequest `behavior`; agentStop and subagentStop
 * `decision: "block"`. userPromptSubmitted's output is not read, so a prompt
 * block cannot stop the prompt: said on stderr.
 */
function copilotReply(d: Decision, asked: string): AgentReply {
  const reason = d.reason || 'blocked by chrys-hooks';
  const notices: string[] = [];
  const out: JsonObject = {};
  const context = [...d.system_reminders, ...(asked === 'postToolUse' || asked === 'postToolUseFailure' ? d.extra_context : []), ...d.contexts.filter((c) => c.channel !== 'ui_notice').map((c) => c.text)].join('\n\n');
  switch (asked) {
    case 'preToolUse':
      if (d.blocked) Object.assign(out, { permissionDecision: 'deny', permissionDecisionReason: reason });
      else if (d.permission === 'ask' || d.permission === 'defer') Object.assign(out, { permissionDecision: 'ask', ...(d.args !== null ? { modifiedArgs: d.args } : {}) });
      else if (d.args !== null) Object.assign(out, { ...(d.permission === 'allow' ? { permissionDecision: 'allow' } : {}), modifiedArgs: d.args });
      else if (d.permission === 'allow') out.permissionDecision = 'allow';
      break;
    case 'permissionRequest':
      if (d.blocked || d.permission === 'deny') Object.assign(out, { behavior: 'deny', message: reason });
      else if (d.permission === 'allow') out.behavior = 'allow';
      break;
    case 'agentStop':
    case 'subagentStop':
      if (d.blocked) Object.assign(out, { decision: 'block', reason });
      break;
    case 'userPromptSubmitted':
      if (d.blocked) notices.unshift(`chrys-hooks: a hook blocked this prompt (${reason}), but Copilot CLI does not read userPromptSubmitted output, so the prompt goes on`);
      break;
  }
  if (context && protocolOf('copilot').contextEvents.includes(asked)) out.additionalContext = context;
  return { stdout: stringifyJson(out), stderr: notices.map((n) => `${n}\n`).join(''), exitCode: 0 };
}
