// The one table of lifecycle events: canonical names, which ones are gated,
// which carry a tool, which decision keys a blocking hook may set on each,
// and the aliases other agents use for them.

export type DecisionKey =
  | 'action:block'
  | 'action:modify'
  | 'system_reminder'
  | 'extra_context'
  | 'replace_result'
  | 'permission'
  | 'block_feedback'
  | 'context';

export type FieldType = 'string' | 'number' | 'boolean' | 'object';

/** A payload field the agent sends with an event; `tool.args` names a field inside `tool`. */
export interface PayloadField {
  name: string;
  type: FieldType;
}

export interface EventSpec {
  /** Blocking hooks' block decisions apply (a block stops the chain). */
  gated: boolean;
  /** The envelope carries `tool`, so tool filters can match. */
  hasTool: boolean;
  /** Decision keys honoured for blocking hooks; `context` applies everywhere. */
  keys: readonly DecisionKey[];
  /** Event-specific payload fields, beyond the COMMON_FIELDS every envelope has. */
  fields: readonly PayloadField[];
  /** A stop that Claude, Codex and Gemini let a hook refuse (the agent keeps going). */
  agentStop?: boolean;
}

const f = (spec: string): PayloadField[] =>
  spec.split(' ').filter(Boolean).map((s) => {
    const [name, type] = s.split(':') as [string, FieldType];
    return { name, type };
  });
const TOOL = f('tool:object tool.name:string tool.kind:string tool.call_id:string tool.args:object');
const RESULT = f('result:object result.text:string result.duration_ms:number result.error:string result.failed:boolean result.approval_rejected:boolean');

export const COMMON_FIELDS: readonly PayloadField[] = f('schema:number event:string timestamp:string cwd:string session_id:string profile:string session_kind:string context_tokens:number');

const observer = (hasTool = false, fields: readonly PayloadField[] = []): EventSpec => ({ gated: false, hasTool, keys: ['context'], fields });

export const EVENTS = {
  session_start: observer(),
  session_restored: observer(false, f('restored_session_id:string')),
  session_end: observer(),
  before_turn: observer(false, f('turn:number user_text:string is_retry:boolean')),
  after_turn: observer(false, f('turn:number status:string failed:boolean')),
  user_prompt_submit: { gated: true, hasTool: false, keys: ['action:block', 'system_reminder', 'context'], fields: f('text:string injected:boolean') },
  user_interrupt: observer(),
  before_tool_call: { gated: true, hasTool: true, keys: ['action:block', 'action:modify', 'context'], fields: TOOL },
  // After a tool, a block is model-visible feedback (the tool already ran): block_feedback, not blocked.
  after_tool_call: { gated: false, hasTool: true, keys: ['extra_context', 'replace_result', 'block_feedback', 'context'], fields: [...TOOL, ...RESULT] },
  tool_error: { gated: false, hasTool: true, keys: ['extra_context', 'replace_result', 'block_feedback', 'context'], fields: [...TOOL, ...RESULT] },
  approval_requested: observer(true, [...f('request_id:string caller_name:string'), ...TOOL]),
  approval_resolved: observer(true, [...f('request_id:string caller_name:string approved:boolean'), ...TOOL]),
  permission_request: { gated: true, hasTool: true, keys: ['action:block', 'permission', 'context'], fields: TOOL },
  sub_agent_start: observer(false, f('sub_agent:object')),
  sub_agent_end: { ...observer(false, f('sub_agent:object status:string result_summary:string')), agentStop: true },
  pre_compact: observer(false, f('trigger:string usage_pct:number tokens_before:number')),
  workflow_run_start: observer(false, f('run_id:string')),
  workflow_run_end: observer(false, f('run_id:string status:string')),
  conversation_done: { ...observer(), agentStop: true },
  mode_switch: observer(),
  model_switch: observer(),
  error: observer(),
  other: observer(),
} as const satisfies Record<string, EventSpec>;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export const EVENT_ALIASES: Readonly<Record<string, EventName>> = {
  UserPromptSubmit: 'user_prompt_submit',
  PrePrompt: 'user_prompt_submit',
  pre_prompt: 'user_prompt_submit',
  PreToolUse: 'before_tool_call',
  PreTool: 'before_tool_call',
  pre_tool: 'before_tool_call',
  preToolUse: 'before_tool_call',
  BeforeTool: 'before_tool_call',
  PostToolUse: 'after_tool_call',
  PostTool: 'after_tool_call',
  post_tool: 'after_tool_call',
  postToolUse: 'after_tool_call',
  AfterTool: 'after_tool_call',
  PermissionRequest: 'permission_request',
  SessionStart: 'session_start',
  OnSessionStart: 'session_start',
  startup: 'session_start',
  SessionEnd: 'session_end',
  OnSessionEnd: 'session_end',
  PreCompact: 'pre_compact',
  Compact: 'pre_compact',
  OnCompact: 'pre_compact',
  compact: 'pre_compact',
  Stop: 'conversation_done',
  'conversation-done': 'conversation_done',
  SubagentStart: 'sub_agent_start',
  SubagentStop: 'sub_agent_end',
  ModeSwitch: 'mode_switch',
  OnModeSwitch: 'mode_switch',
  ModelSwitch: 'model_switch',
  OnModelSwitch: 'model_switch',
  Error: 'error',
  OnError: 'error',
  Other: 'other',
};

export const eventSpec = (event: EventName): EventSpec => EVENTS[event];

/**
 * The event's rules for one firing. A Chrys agent cannot refuse a stop, so
 * conversation_done and sub_agent_end are observers (CONTRACT §3); an agent
 * that came in through a protocol whose Stop hooks can say "keep going"
 * (Claude, Codex, Gemini) gets them gated, with action: block.
 */
export function eventSpecFor(event: EventName, agentProtocol: string | undefined): EventSpec {
  const spec: EventSpec = EVENTS[event];
  if (!spec.agentStop || agentProtocol === undefined) return spec;
  return { ...spec, gated: true, keys: ['action:block', ...spec.keys] };
}

export type Agent = 'claude' | 'codex' | 'gemini' | 'cursor';

/** Which agents send an alias as their own event name; the rest are other hook systems' spellings. */
export const ALIAS_AGENTS: Readonly<Record<string, readonly Agent[]>> = {
  UserPromptSubmit: ['claude', 'codex'],
  PreToolUse: ['claude', 'codex'],
  PostToolUse: ['claude', 'codex'],
  PermissionRequest: ['claude', 'codex'],
  SessionStart: ['claude', 'codex', 'gemini'],
  SessionEnd: ['claude', 'gemini'],
  PreCompact: ['claude', 'codex'],
  Stop: ['claude', 'codex'],
  SubagentStart: ['claude', 'codex'],
  SubagentStop: ['claude', 'codex'],
  BeforeTool: ['gemini'],
  AfterTool: ['gemini'],
  preToolUse: ['cursor'],
  postToolUse: ['cursor'],
};

export type EventLookup =
  | { ok: true; event: EventName; alias: boolean }
  | { ok: false; suggestion: string | undefined };

/** Canonical name for a name or alias (case-sensitive), with a suggestion when unknown. */
export function lookupEvent(name: string): EventLookup {
  if (Object.hasOwn(EVENTS, name)) return { ok: true, event: name as EventName, alias: false };
  const aliased = Object.hasOwn(EVENT_ALIASES, name) ? EVENT_ALIASES[name] : undefined;
  if (aliased) return { ok: true, event: aliased, alias: true };
  return { ok: false, suggestion: closest(name, [...EVENT_NAMES, ...Object.keys(EVENT_ALIASES)]) };
}

/** The candidate nearest to `word` by edit distance, if it is plausibly a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const cl = c.toLowerCase();
    // "timout" should find "timeout_seconds": also compare with the first word of the name.
    const head = cl.split('_')[0]!;
    // Stryker disable next-line ConditionalExpression: both shortcuts give what the edit distances would (0, and a distance one more than the full name's)
    const d = cl === lower ? 0 : Math.min(editDistance(lower, cl), head === cl ? Infinity : editDistance(lower, head) + 1);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Stryker disable next-line ConditionalExpression: with no candidate the distance is Infinity, which no bound admits
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
