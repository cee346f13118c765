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
  | 'context';

interface EventSpec {
  /** Blocking hooks' block decisions apply (a block stops the chain). */
  gated: boolean;
  /** The envelope carries `tool`, so tool filters can match. */
  hasTool: boolean;
  /** Decision keys honoured for blocking hooks; `context` applies everywhere. */
  keys: readonly DecisionKey[];
}

const observer = (hasTool = false): EventSpec => ({ gated: false, hasTool, keys: ['context'] });

export const EVENTS = {
  session_start: observer(),
  session_restored: observer(),
  session_end: observer(),
  before_turn: observer(),
  after_turn: observer(),
  user_prompt_submit: { gated: true, hasTool: false, keys: ['action:block', 'system_reminder', 'context'] },
  user_interrupt: observer(),
  before_tool_call: { gated: true, hasTool: true, keys: ['action:block', 'action:modify', 'context'] },
  after_tool_call: { gated: false, hasTool: true, keys: ['extra_context', 'replace_result', 'context'] },
  tool_error: { gated: false, hasTool: true, keys: ['extra_context', 'replace_result', 'context'] },
  approval_requested: observer(true),
  approval_resolved: observer(true),
  permission_request: { gated: true, hasTool: true, keys: ['action:block', 'permission', 'context'] },
  sub_agent_start: observer(),
  sub_agent_end: observer(),
  pre_compact: observer(),
  workflow_run_start: observer(),
  workflow_run_end: observer(),
  conversation_done: observer(),
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
    const d = cl === lower ? 0 : Math.min(editDistance(lower, cl), head === cl ? Infinity : editDistance(lower, head) + 1);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
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
