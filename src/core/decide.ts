// Folds hook outcomes into the one decision `fire` prints (CONTRACT §5–§7).
// Each result-file key has its merge strategy in one table; a key added to
// ResultKey without a strategy does not compile.

import type { Hook, Layer, Mode } from './config.js';
import { type DecisionKey, type EventName, type EventSpec, eventSpec } from './events.js';
import { type Json, type JsonObject, isJsonObject } from './json.js';
import type { Warning } from './diagnostics.js';
import type { ProjectTrust } from './trust.js';

export type Channel = 'pre_prompt' | 'tool_preface' | 'ui_notice';
// `defer` comes only from a `run.protocol` hook (Claude's PreToolUse "defer"); a result file cannot say it.
export type Permission = 'allow' | 'ask' | 'defer' | 'deny';
export type HookStatus = 'ok' | 'blocked' | 'failed' | 'timeout' | 'launch_error' | 'skipped' | 'not_run' | 'started' | 'queued';

export interface HookReport {
  id: string;
  source: Layer;
  mode: Mode;
  status: HookStatus;
  exit_code: number | null;
  duration_ms: number | null;
  reason?: string;
}

export interface Decision {
  schema: 1;
  event: EventName;
  blocked: boolean;
  reason: string | null;
  blocked_by: { id: string; source: Layer } | null;
  args: Json | null;
  args_override: JsonObject;
  system_reminders: string[];
  extra_context: string[];
  replace_result: string | null;
  block_feedback: string | null;
  permission: Permission | null;
  contexts: { channel: Channel; text: string; hook: string }[];
  hooks: HookReport[];
  warnings: Warning[];
  /** Which rule loaded (or did not load) the project layer; only when a project hooks file exists. */
  project_trust?: ProjectTrust;
}

/** How a hook process ended, classified once by the runner. */
export interface Outcome {
  status: 'ok' | 'failed' | 'timeout' | 'launch_error';
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** Human description of a failure: launch error, exit code, signal. */
  error?: string;
  stderrTail: string;
  result: { kind: 'none' } | { kind: 'json'; value: JsonObject } | { kind: 'invalid'; reason: string };
  /** A foreign hook that failed (exit other than 0 and 2) yet whose stdout decided, as its agent reads it. */
  failure?: string;
  /** A foreign hook's PreToolUse "ask" or "defer": the agent must ask the user (or park the call), never just run it. */
  ask?: 'ask' | 'defer';
}

export function emptyDecision(event: EventName): Decision {
  return {
    schema: 1,
    event,
    blocked: false,
    reason: null,
    blocked_by: null,
    args: null,
    args_override: {},
    system_reminders: [],
    extra_context: [],
    replace_result: null,
    block_feedback: null,
    permission: null,
    contexts: [],
    hooks: [],
    warnings: [],
  };
}

/** The running state of a blocking chain: the decision plus the args as modified so far. */
export interface Chain {
  decision: Decision;
  /** tool.args as the next hook sees them. */
  args: Json | undefined;
  /** Some hook replaced or overrode the args. */
  argsModified: boolean;
  /** The event's rules for this firing, where an agent protocol changes them (eventSpecFor). */
  spec?: EventSpec;
  /** When present, the result keys that took effect are appended (for --explain and `test`). */
  applied?: string[];
}

const specOf = (chain: Chain): EventSpec => chain.spec ?? eventSpec(chain.decision.event);

/** What each result-file key holds once parsed: a strategy's parse and apply agree on it. */
interface ResultValues {
  args: JsonObject;
  args_override: JsonObject;
  system_reminder: string[];
  extra_context: string[];
  replace_result: string;
  context: { channel: Channel; text: string }[];
  permission: Permission;
  reason: string;
  action: 'allow' | 'block' | 'modify';
}
type ResultKey = keyof ResultValues;

interface Strategy<T> {
  /** The value, or undefined when it has the wrong shape. */
  parse(value: Json): T | undefined;
  expected: string;
  /** The decision key this value needs the event to honour; null = always applies. */
  needs(value: T, result: JsonObject, keys: readonly DecisionKey[]): DecisionKey | null;
  /** Why it is ignored even where the event honours it (e.g. args without action: modify). */
  precondition?(result: JsonObject): string | undefined;
  apply(chain: Chain, value: T, hook: Hook, result: JsonObject): void;
}

const asString = (v: Json): string | undefined => (typeof v === 'string' ? v : undefined);
const asStrings = (v: Json): string[] | undefined =>
  typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
const CHANNELS: readonly Channel[] = ['pre_prompt', 'tool_preface', 'ui_notice'];
// Chrys's permission_request order is deny > allow > ask (CONTRACT §6); defer, which only a tool call gets, sits below deny.
const PERMISSION_RANK: Record<Permission, number> = { ask: 0, allow: 1, defer: 2, deny: 3 };
// A tool call's ask or defer merges as the agents do: deny > defer > ask.
const TOOL_ASK_RANK: Record<'ask' | 'defer', number> = { ask: 0, defer: 1 };
const needsModify = (r: JsonObject): string | undefined => (r.action === 'modify' ? undefined : 'it applies only with action: modify');

// On after_tool_call / tool_error a block is feedback for the model, not a gate.
const blockKey = (keys: readonly DecisionKey[]): DecisionKey => (keys.includes('block_feedback') ? 'block_feedback' : 'action:block');

const block = (chain: Chain, hook: Hook, reason: string): void => {
  const d = chain.decision;
  d.blocked = true;
  d.reason = reason;
  d.blocked_by = { id: hook.id, source: hook.source };
};

// The key order is the apply order: within one result a full `args`
// replacement comes before the `args_override` merged over it, and what a
// result adds (reminders, context, permission) is gathered before its block.
const STRATEGIES: { [K in ResultKey]: Strategy<ResultValues[K]> } = {
  args: {
    parse: (v) => (isJsonObject(v) ? v : undefined),
    expected: 'an object',
    needs: () => 'action:modify',
    precondition: needsModify,
    apply(chain, v: JsonObject) {
      chain.args = v;
      chain.argsModified = true;
      chain.decision.args_override = {};
    },
  },
  args_override: {
    parse: (v) => (isJsonObject(v) ? v : undefined),
    expected: 'an object',
    needs: () => 'action:modify',
    precondition: needsModify,
    apply(chain, v: JsonObject) {
      const base = isJsonObject(chain.args) ? chain.args : {};
      chain.args = { ...base, ...v };
      chain.argsModified = true;
      // Spread, not Object.assign: a "__proto__" key stays data.
      chain.decision.args_override = { ...chain.decision.args_override, ...v };
    },
  },
  system_reminder: {
    parse: asStrings,
    expected: 'a string or a list of strings',
    needs: () => 'system_reminder',
    apply: (chain, v: string[]) => chain.decision.system_reminders.push(...v),
  },
  extra_context: {
    parse: asStrings,
    expected: 'a string or a list of strings',
    needs: () => 'extra_context',
    apply: (chain, v: string[]) => chain.decision.extra_context.push(...v),
  },
  replace_result: {
    parse: asString,
    expected: 'a string',
    needs: () => 'replace_result',
    apply(chain, v: string) {
      chain.decision.replace_result = v;
    },
  },
  context: {
    parse(v) {
      const items = Array.isArray(v) ? v : [v];
      const out: { channel: Channel; text: string }[] = [];
      for (const item of items) {
        if (typeof item === 'string') {
          out.push({ channel: 'pre_prompt', text: item });
          continue;
        }
        if (!isJsonObject(item) || typeof item.text !== 'string') return undefined;
        const channel = item.channel ?? 'pre_prompt';
        if (typeof channel !== 'string' || !CHANNELS.includes(channel as Channel)) return undefined;
        out.push({ channel: channel as Channel, text: item.text });
      }
      return out;
    },
    expected: 'a list of {text, channel} with channel pre_prompt, tool_preface or ui_notice',
    needs: () => null,
    apply: (chain, v: { channel: Channel; text: string }[], hook) => {
      for (const c of v) chain.decision.contexts.push({ ...c, hook: hook.id });
    },
  },
  permission: {
    parse: (v) => (v === 'allow' || v === 'ask' || v === 'deny' ? v : undefined),
    expected: '"allow", "ask" or "deny"',
    needs: () => 'permission',
    apply(chain, v: Permission, hook, result) {
      const d = chain.decision;
      if (d.permission === null || PERMISSION_RANK[v] > PERMISSION_RANK[d.permission]) d.permission = v;
      if (v === 'deny' && !d.blocked) block(chain, hook, asString(result.reason ?? null) || `permission denied by hook "${hook.id}"`);
    },
  },
  reason: {
    parse: asString,
    expected: 'a string',
    needs: (_v, _r, keys) => blockKey(keys),
    apply() {}, // read by `action`
  },
  action: {
    parse: (v) => (v === 'allow' || v === 'block' || v === 'modify' ? v : undefined),
    expected: '"allow", "block" or "modify"',
    needs: (v: string, _r, keys) => (v === 'block' ? blockKey(keys) : v === 'modify' ? 'action:modify' : null),
    apply(chain, v: string, hook, result) {
      if (v !== 'block') return;
      const reason = asString(result.reason ?? null) || `blocked by hook "${hook.id}"`;
      if (specOf(chain).keys.some((k) => k === 'block_feedback')) chain.decision.block_feedback = reason;
      else block(chain, hook, reason);
    },
  },
};

/** The keys a result file may hold (the rest are ignored). */
export const RESULT_KEYS = Object.keys(STRATEGIES) as readonly ResultKey[];

const APPLY_ORDER = Object.keys(STRATEGIES) as readonly ResultKey[];

/** Applies one blocking hook's successful result; returns the warnings it earned. */
export function applyResult(chain: Chain, hook: Hook, result: JsonObject): Warning[] {
  const warnings: Warning[] = [];
  const wasBlocked = chain.decision.blocked;
  const spec = specOf(chain);
  for (const key of APPLY_ORDER) {
    if (Object.hasOwn(result, key)) applyKey(key, { chain, hook, result, spec, warnings });
  }
  // `reason` takes effect only through the block this result made.
  if (chain.applied && !wasBlocked && chain.decision.blocked && Object.hasOwn(result, 'reason')) chain.applied.push('reason');
  return warnings;
}

interface KeyContext {
  chain: Chain;
  hook: Hook;
  result: JsonObject;
  spec: EventSpec;
  warnings: Warning[];
}

/** One key of a result: parsed by its strategy, checked against the event and its precondition, applied. */
function applyKey<K extends ResultKey>(key: K, { chain, hook, result, spec, warnings }: KeyContext): void {
  const strategy: Strategy<ResultValues[K]> = STRATEGIES[key];
  const ignored = (why: string): void => {
    warnings.push({ code: 'decision_ignored', hook: hook.id, message: `hook "${hook.id}": ${key} ignored: ${why}` });
  };
  const value = strategy.parse(result[key]!);
  if (value === undefined) {
    warnings.push({ code: 'result_invalid', hook: hook.id, message: `hook "${hook.id}": ${key} must be ${strategy.expected}; ignored` });
    return;
  }
  const needed = strategy.needs(value, result, spec.keys);
  // A key whose effect the event does not have is ignored; `reason` needs the event's block (blockKey).
  if (needed !== null && !spec.keys.includes(needed)) return ignored(`it does not apply to event ${chain.decision.event}`);
  const why = strategy.precondition?.(result);
  if (why) return ignored(why);
  strategy.apply(chain, value, hook, result);
  if (key !== 'reason') chain.applied?.push(key);
}

/** Warnings for a non-blocking hook's result: every opinion is discarded. */
export function ignoredResult(hook: Hook, result: JsonObject): Warning[] {
  const keys = Object.keys(result).filter((k) => Object.hasOwn(STRATEGIES, k));
  if (keys.length === 0) return [];
  return [{ code: 'decision_ignored', hook: hook.id, message: `hook "${hook.id}" is ${hook.execution.mode}: its decision (${keys.join(', ')}) is ignored; make it blocking to have it applied` }];
}

/** The report line and the chain effect of one blocking hook's outcome. */
export function applyOutcome(chain: Chain, hook: Hook, outcome: Outcome): HookReport {
  const d = chain.decision;
  const report: HookReport = {
    id: hook.id,
    source: hook.source,
    mode: hook.execution.mode,
    status: outcome.status,
    exit_code: outcome.exitCode,
    duration_ms: outcome.durationMs,
  };
  if (outcome.status === 'ok') {
    if (outcome.result.kind === 'invalid') {
      d.warnings.push({ code: 'result_invalid', hook: hook.id, message: `hook "${hook.id}": ${outcome.result.reason}; treated as no opinion` });
    } else if (outcome.result.kind === 'json') {
      const wasBlocked = d.blocked;
      d.warnings.push(...applyResult(chain, hook, outcome.result.value));
      if (!wasBlocked && d.blocked) report.status = 'blocked';
    }
    if (outcome.ask) applyAsk(chain, outcome.ask);
    if (outcome.failure && hook.execution.on_error !== 'ignore') {
      d.warnings.push({ code: 'hook_failed', hook: hook.id, message: `hook "${hook.id}" ${outcome.failure}; its JSON output still decided, as its agent reads it (on_error: block blocks instead)` });
    }
    return report;
  }
  const error = outcome.error ?? outcome.status;
  report.reason = error;
  const gated = specOf(chain).gated;
  const policy = hook.execution.on_error === 'block' && !gated ? 'warn' : hook.execution.on_error;
  if (policy === 'block') {
    const tail = outcome.stderrTail.trim();
    block(chain, hook, `hook "${hook.id}" failed (${error})${tail ? `: ${tail}` : ''}`);
  } else if (policy === 'warn') {
    d.warnings.push({
      code: outcome.status === 'timeout' ? 'hook_timeout' : 'hook_failed',
      hook: hook.id,
      message: `hook "${hook.id}" ${error}`,
    });
  }
  return report;
}

/** A foreign hook's ask or defer on a tool call: kept as the decision's permission, so no answer can read it as an allow. */
function applyAsk(chain: Chain, ask: 'ask' | 'defer'): void {
  const d = chain.decision;
  if (d.event !== 'before_tool_call' || d.blocked) return;
  const now = d.permission === 'ask' || d.permission === 'defer' ? d.permission : undefined;
  if (now === undefined || TOOL_ASK_RANK[ask] > TOOL_ASK_RANK[now]) d.permission = ask;
  chain.applied?.push('permission');
}
