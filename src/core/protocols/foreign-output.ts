// How a foreign hook script's exit code and stdout are read, by the rules of
// its agent, into a Chrys result (CONTRACT §5 keys) that goes through the same
// merge table as a Chrys hook's result file.
//
// Claude Code: exit 0 reads stdout as JSON when it starts with `{` and
// parses, else as plain text (context on UserPromptSubmit and SessionStart
// only); exit 2 blocks with stderr as the reason where Claude blocks; any
// other exit is a failure unless stdout is a JSON object, which then decides.
// Codex: the same, except exit 2 needs non-empty stderr and any other
// non-zero exit is a failure. Gemini CLI: non-JSON stdout is a systemMessage.

import type { Outcome } from '../decide.js';
import { type Json, type JsonObject, isJsonObject, parseJson, stringifyJson } from '../json.js';
import { AGENT_PROTOCOLS, type AgentProtocol, protocolOf } from './agents/index.js';

export interface AgentRun extends Outcome {
  stdout: string;
  stderr: string;
}

// A hook's input can carry another agent's name for its event (Cursor's
// preToolUse under --protocol claude, kept from the agent's own input), so
// exit 2 is read by every agent's exit-2 events but Copilot's, whose exit 2 is
// its own (below).
const EXIT2_READ: ReadonlySet<string> = new Set(
  AGENT_PROTOCOLS.filter((p) => p !== 'copilot').flatMap((p) => [...protocolOf(p).exit2Blocks, ...protocolOf(p).exit2Feedback]),
);

/** The record re-read by the agent's rules: status ok with a result, or a failure. */
export function readAgentOutcome<T extends AgentRun>(protocol: AgentProtocol, agentEvent: string, run: T): T {
  if (run.status === 'ok') return withResult(run, ...fromStdout(protocol, agentEvent, run.stdout));
  if (run.status !== 'failed' || run.exitCode === null) return run; // timeout, signal, launch error
  const stderr = run.stderr.trim();
  // Copilot CLI reads exit 2 as recovery guidance for the model on postToolUseFailure.
  if (run.exitCode === 2 && protocol === 'copilot' && agentEvent === 'postToolUseFailure') return withResult(run, { kind: 'json', value: stderr ? { extra_context: stderr } : {} });
  if (run.exitCode === 2 && protocol === 'copilot' && !protocolOf(protocol).exit2Blocks.includes(agentEvent)) {
    // Elsewhere as a warning, except on permissionRequest.
    return withResult(run, { kind: 'json', value: stderr ? { context: [{ text: stderr, channel: 'ui_notice' }] } : {} });
  }
  if (run.exitCode === 2 && protocol === 'copilot') return withResult(run, { kind: 'json', value: { permission: 'deny', reason: stderr || 'denied (exit 2)' } });
  if (run.exitCode === 2) {
    if (protocol === 'codex' && stderr === '') return { ...run, error: 'exited with status 2 and empty stderr (Codex treats that as a failure, not a block)' };
    if (agentEvent === 'PermissionRequest') return { ...run, error: 'exited with status 2, which PermissionRequest does not honour (deny with hookSpecificOutput.decision.behavior)' };
    if (EXIT2_READ.has(agentEvent)) return withResult(run, { kind: 'json', value: { action: 'block', reason: stderr || `blocked (exit 2)` } });
    // Elsewhere exit 2 only shows stderr to the user.
    return withResult(run, { kind: 'json', value: stderr ? { context: [{ text: stderr, channel: 'ui_notice' }] } : {} });
  }
  if (protocol === 'claude' && run.stdout.trim().startsWith('{')) {
    const json = parseObject(run.stdout);
    if (json) return withResult(run, claudeResult(agentEvent, json), askOf(protocol, agentEvent, json));
  }
  return run;
}

type Read = [Outcome['result'], Outcome['ask']?];

const withResult = <T extends AgentRun>(run: T, result: Outcome['result'], ask?: Outcome['ask']): T =>
  ({ ...run, status: 'ok', error: undefined, result, ...(ask ? { ask } : {}) } as T);

function fromStdout(protocol: AgentProtocol, agentEvent: string, stdout: string): Read {
  const text = stdout.trim();
  if (text === '') return [{ kind: 'none' }];
  if ((protocol === 'cursor' || protocol === 'copilot') && !text.startsWith('{')) return [{ kind: 'none' }];
  if (protocol !== 'gemini' && !text.startsWith('{')) {
    if (!protocolOf(protocol).plainTextContext.includes(agentEvent)) return [{ kind: 'none' }]; // formatter output, an echo: not a decision
    return [{ kind: 'json', value: agentEvent === 'UserPromptSubmit' ? { system_reminder: text } : { context: [{ text, channel: 'pre_prompt' }] } }];
  }
  const json = parseObject(text);
  if (!json) {
    if (protocol === 'gemini') return [{ kind: 'json', value: { context: [{ text, channel: 'ui_notice' }] } }];
    return [{ kind: 'invalid', reason: 'stdout starts with "{" but is not one JSON object; ignored as the agent would' }];
  }
  if (protocol === 'cursor') return [{ kind: 'json', value: fromCursorJson(agentEvent, json) }, askOf(protocol, agentEvent, json)];
  if (protocol === 'copilot') return [{ kind: 'json', value: fromCopilotJson(agentEvent, json) }, askOf(protocol, agentEvent, json)];
  return [protocol === 'gemini' ? { kind: 'json', value: fromGeminiJson(agentEvent, json) } : claudeResult(agentEvent, json), askOf(protocol, agentEvent, json)];
}

/**
 * A tool-call answer that asks the user ("ask") or parks the call ("defer").
 * It has no Chrys result key (permission is permission_request's), so it
 * travels beside the result; Gemini's HookDecision also lists "ask".
 */
function askOf(protocol: AgentProtocol, agentEvent: string, json: JsonObject): Outcome['ask'] {
  if (protocol === 'cursor') return json.permission === 'ask' && agentEvent !== 'beforeReadFile' ? 'ask' : undefined;
  if (protocol === 'copilot') return agentEvent === 'preToolUse' && json.permissionDecision === 'ask' ? 'ask' : undefined;
  const said = protocol === 'gemini' ? (agentEvent === 'BeforeTool' ? json.decision : undefined) : agentEvent === 'PreToolUse' ? specificOf(json).permissionDecision : undefined;
  return said === 'ask' || said === 'defer' ? said : undefined;
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const v = parseJson(text.trim());
    return isJsonObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const specificOf = (json: JsonObject): JsonObject => (isJsonObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {});

/** Universal fields: systemMessage is a notice to the user; continue: false stops the action. */
function universal(json: JsonObject, out: JsonObject, contexts: Json[]): void {
  const message = str(json.systemMessage);
  if (message) contexts.push({ text: message, channel: 'ui_notice' });
  if (json.continue === false) {
    out.action = 'block';
    out.reason = str(json.stopReason) ?? str(json.reason) ?? 'stopped by hook (continue: false)';
  }
}

const PERMISSION_DECISIONS: readonly Json[] = ['allow', 'deny', 'ask', 'defer'];
const BEHAVIORS: readonly Json[] = ['allow', 'deny'];

/**
 * Claude Code's (and Codex's) reading of a JSON answer. A gate answered with
 * a value the agent does not know (`permissionDecision: "Deny"`) fails its
 * output check, so the agent ignores the answer: here it is an unreadable
 * result, said as result_invalid, and under --fail-closed a guard with no
 * answer blocks (fail-closed.ts), where taking it as no opinion would let
 * the call through unseen.
 */
function claudeResult(agentEvent: string, json: JsonObject): Outcome['result'] {
  const specific = specificOf(json);
  const said = (field: string, value: Json, allowed: readonly Json[]): Outcome['result'] =>
    ({ kind: 'invalid', reason: `${field} must be ${allowed.map((v) => JSON.stringify(v)).join(', ')}, not ${stringifyJson(value)}; ${agentEvent} ignores the whole answer` });
  if (agentEvent === 'PreToolUse' && specific.permissionDecision !== undefined && !PERMISSION_DECISIONS.includes(specific.permissionDecision)) {
    return said('hookSpecificOutput.permissionDecision', specific.permissionDecision, PERMISSION_DECISIONS);
  }
  if (agentEvent === 'PermissionRequest' && isJsonObject(specific.decision) && !BEHAVIORS.includes(specific.decision.behavior ?? null)) {
    return said('hookSpecificOutput.decision.behavior', specific.decision.behavior ?? null, BEHAVIORS);
  }
  return { kind: 'json', value: fromClaudeJson(agentEvent, json) };
}

function fromClaudeJson(agentEvent: string, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  const contexts: Json[] = [];
  const specific = specificOf(json);
  const added = str(specific.additionalContext);
  const blocks = json.decision === 'block';
  const reason = str(json.reason);
  if (agentEvent === 'PreToolUse') {
    const legacy = json.decision === 'block' ? 'deny' : json.decision === 'approve' ? 'allow' : undefined;
    const permission = str(specific.permissionDecision) ?? legacy;
    if (permission === 'deny') Object.assign(out, { action: 'block', reason: str(specific.permissionDecisionReason) ?? reason ?? 'denied by hook' });
    else if (isJsonObject(specific.updatedInput)) Object.assign(out, { action: 'modify', args: specific.updatedInput });
    // ask and defer travel beside the result (askOf). The reason of an allow, ask or defer is for the user
    // (Claude Code shows it to the user, and only a deny's to the model).
    const asked = str(specific.permissionDecisionReason);
    if ((permission === 'allow' || permission === 'ask' || permission === 'defer') && asked) contexts.push({ text: asked, channel: 'ui_notice' });
    if (added) contexts.push({ text: added, channel: 'tool_preface' });
  } else if (agentEvent === 'PermissionRequest') {
    const decision = isJsonObject(specific.decision) ? specific.decision : {};
    if (decision.behavior === 'allow' || decision.behavior === 'deny') out.permission = decision.behavior;
    if (decision.behavior === 'deny') out.reason = str(decision.message) ?? 'denied by hook';
  } else if (agentEvent === 'PostToolUse' || agentEvent === 'PostToolUseFailure') {
    if (blocks) Object.assign(out, { action: 'block', reason: reason ?? 'blocked by hook' });
    const replaced = specific.updatedToolOutput ?? specific.updatedMCPToolOutput;
    if (replaced !== undefined) out.replace_result = typeof replaced === 'string' ? replaced : stringifyJson(replaced);
    if (added) out.extra_context = added;
  } else if (agentEvent === 'UserPromptSubmit') {
    if (blocks) Object.assign(out, { action: 'block', reason: reason ?? 'blocked by hook' });
    if (added) out.system_reminder = added;
  } else {
    if (blocks) Object.assign(out, { action: 'block', reason: reason ?? 'blocked by hook' });
    if (added) contexts.push({ text: added, channel: 'pre_prompt' });
  }
  universal(json, out, contexts);
  if (contexts.length > 0) out.context = contexts;
  return out;
}

function fromGeminiJson(agentEvent: string, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  const contexts: Json[] = [];
  const specific = specificOf(json);
  const added = str(specific.additionalContext);
  if (json.decision === 'deny' || json.decision === 'block') Object.assign(out, { action: 'block', reason: str(json.reason) ?? 'denied by hook' });
  if (agentEvent === 'BeforeTool' && isJsonObject(specific.tool_input) && out.action === undefined) {
    Object.assign(out, { action: 'modify', args_override: specific.tool_input });
  }
  if (added) {
    if (agentEvent === 'BeforeAgent') out.system_reminder = added;
    else if (agentEvent === 'AfterTool') out.extra_context = added;
    else contexts.push({ text: added, channel: 'pre_prompt' });
  }
  universal(json, out, contexts);
  if (contexts.length > 0) out.context = contexts;
  return out;
}

/** Cursor: permission on its gates (ask travels beside, askOf), continue on the prompt, followup_message on stop. */
function fromCursorJson(agentEvent: string, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  const contexts: Json[] = [];
  const reason = str(json.agent_message) ?? str(json.user_message);
  if (json.permission === 'deny') Object.assign(out, { action: 'block', reason: reason ?? 'denied by hook' });
  else if (agentEvent === 'preToolUse' && isJsonObject(json.updated_input)) Object.assign(out, { action: 'modify', args: json.updated_input });
  if (agentEvent === 'beforeSubmitPrompt' && json.continue === false) Object.assign(out, { action: 'block', reason: reason ?? 'blocked by hook (continue: false)' });
  if ((agentEvent === 'stop' || agentEvent === 'subagentStop') && str(json.followup_message)) Object.assign(out, { action: 'block', reason: str(json.followup_message)! });
  const added = str(json.additional_context);
  if (added) {
    if (agentEvent === 'postToolUse' || agentEvent === 'postToolUseFailure') out.extra_context = added;
    else contexts.push({ text: added, channel: 'pre_prompt' });
  }
  if (str(json.user_message) && out.action === undefined) contexts.push({ text: str(json.user_message)!, channel: 'ui_notice' });
  if (contexts.length > 0) out.context = contexts;
  return out;
}

/** Copilot CLI: permissionDecision / modifiedArgs on preToolUse, behavior on permissionRequest, decision on agentStop. */
function fromCopilotJson(agentEvent: string, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  const contexts: Json[] = [];
  if (agentEvent === 'preToolUse') {
    if (json.permissionDecision === 'deny') Object.assign(out, { action: 'block', reason: str(json.permissionDecisionReason) ?? 'denied by hook' });
    else if (isJsonObject(json.modifiedArgs)) Object.assign(out, { action: 'modify', args: json.modifiedArgs });
    if (json.permissionDecision === 'ask' && str(json.permissionDecisionReason)) contexts.push({ text: str(json.permissionDecisionReason)!, channel: 'ui_notice' });
  } else if (agentEvent === 'permissionRequest') {
    if (json.behavior === 'allow' || json.behavior === 'deny') out.permission = json.behavior;
    if (json.behavior === 'deny') out.reason = str(json.message) ?? 'denied by hook';
  } else if ((agentEvent === 'agentStop' || agentEvent === 'subagentStop') && json.decision === 'block') {
    Object.assign(out, { action: 'block', reason: str(json.reason) ?? 'blocked by hook' });
  }
  const added = str(json.additionalContext);
  if (added) {
    if (agentEvent === 'postToolUse' || agentEvent === 'postToolUseFailure') out.extra_context = added;
    else contexts.push({ text: added, channel: 'pre_prompt' });
  }
  if (contexts.length > 0) out.context = contexts;
  return out;
}
