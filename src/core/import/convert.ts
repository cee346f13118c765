// `chrys-hooks import`: another agent's hook config (Claude Code, Codex,
// Gemini CLI, Cursor) turned into Chrys hook entries. Pure: the config is
// parsed JSON; what cannot be carried over becomes a note the YAML shows.

import { type EventName, eventSpec } from '../events.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject } from '../json.js';
import { type AgentProtocol, importRulesOf, protocolOf } from '../protocols/agents/index.js';
import { chrysEventOf } from '../protocols/names.js';
import { compileToolMatcher } from '../tool-matcher.js';

export type ImportSource = AgentProtocol;

export interface ImportedHook {
  id: string;
  event: EventName;
  /** The agent's event name it was configured under. */
  agentEvent: string;
  description: string;
  enabled: boolean;
  match: { tool_name?: string; tool_names?: string[]; tool_name_regex?: string; fields?: Record<string, string[]>; command_regex?: string } | undefined;
  run: { type: 'shell'; shell: string } | { type: 'command'; argv: string[] };
  env: Record<string, string>;
  protocol: AgentProtocol;
  mode: 'blocking' | 'async';
  timeoutSeconds: number | undefined;
  onError: 'warn' | 'block';
  /** Shown as comments above the entry. */
  notes: string[];
  /** Why the hook is imported `enabled: false` because no Chrys match is exactly the agent's (also said on stderr). */
  disabledReason?: string;
}

export interface ImportPlan {
  hooks: ImportedHook[];
  /** Things not imported at all, shown as comments. */
  skipped: string[];
}

const flat = (from: ImportSource): boolean => protocolOf(from).hooksFile.flat === true;
const TOOL_EVENTS: readonly EventName[] = ['before_tool_call', 'after_tool_call', 'tool_error', 'permission_request'];

/** Converts one agent config file's content; `file` names it in descriptions. */
export function convertAgentConfig(from: ImportSource, config: JsonObject, file: string, plan: ImportPlan = { hooks: [], skipped: [] }): ImportPlan {
  const hooks = config.hooks;
  if (hooks === undefined) {
    plan.skipped.push(`${file} has no "hooks" key: nothing to import`);
    return plan;
  }
  if (!isJsonObject(hooks)) {
    plan.skipped.push(`${file}: "hooks" is not an object: nothing imported`);
    return plan;
  }
  const disabled = from === 'gemini' && Array.isArray(hooks.disabled) ? hooks.disabled.filter((n): n is string => typeof n === 'string') : [];
  for (const [agentEvent, groups] of Object.entries(hooks)) {
    if (importRulesOf(from).settingsKeys.includes(agentEvent)) continue;
    const event = eventFor(from, agentEvent);
    if (!event) {
      plan.skipped.push(`${file}: event "${agentEvent}" has no chrys-hooks equivalent; its hooks were not imported`);
      continue;
    }
    if (!Array.isArray(groups)) {
      plan.skipped.push(`${file}: hooks.${agentEvent} is not a list; not imported`);
      continue;
    }
    groups.forEach((group, g) => {
      if (!isJsonObject(group)) return void plan.skipped.push(`${file}: hooks.${agentEvent}[${g}] is not an object; not imported`);
      const handlers = flat(from) ? [group] : Array.isArray(group.hooks) ? group.hooks : [];
      handlers.forEach((handler, h) => {
        const where = `${agentEvent}[${g}]${flat(from) ? '' : `.hooks[${h}]`}`;
        const position = flat(from) ? `${g + 1}` : `${g + 1}-${h + 1}`;
        const hook = isJsonObject(handler) ? convertHandler(from, { agentEvent, event, group, handler, file, where, position, disabled }, plan) : undefined;
        if (!isJsonObject(handler)) plan.skipped.push(`${file}: ${where} is not an object; not imported`);
        if (hook) plan.hooks.push(withFreeId(hook, plan.hooks));
      });
    });
  }
  return plan;
}

function eventFor(from: ImportSource, agentEvent: string): EventName | undefined {
  return chrysEventOf(from, agentEvent);
}

interface HandlerSite {
  agentEvent: string;
  event: EventName;
  group: JsonObject;
  handler: JsonObject;
  file: string;
  where: string;
  /** 1-based group (and handler) number, for the id. */
  position: string;
  disabled: string[];
}

function convertHandler(from: ImportSource, site: HandlerSite, plan: ImportPlan): ImportedHook | undefined {
  const { agentEvent, event, group, handler, file, where } = site;
  const type = handler.type ?? 'command';
  // Copilot: `bash` (Unix) and `powershell`; chrys-hooks runs the Unix one.
  const command = handler[protocolOf(from).hooksFile.commandKey ?? 'command'];
  if (type !== 'command' || typeof command !== 'string' || command.trim() === '') {
    const what = type === 'command' ? 'has no command' : `is a ${JSON.stringify(plainJson(type))} handler`;
    plan.skipped.push(`${file}: ${where} ${what}; only command handlers can be imported`);
    return undefined;
  }
  const notes: string[] = [];
  const converted = Object.hasOwn(importRulesOf(from).gateTools, agentEvent) ? gateMatch(from, agentEvent, group.matcher) : convertMatcher(from, event, agentEvent, group.matcher, notes);
  if (converted === null) {
    plan.skipped.push(`${file}: ${where}: matcher ${JSON.stringify(group.matcher)} is not a valid regex; ${from === 'claude' || from === 'codex' ? 'the agent never runs this hook' : 'not imported'}`);
    return undefined;
  }
  let match = 'disabled' in converted ? undefined : converted.match;
  const disabledReason = 'disabled' in converted ? converted.disabled : undefined;
  const name = typeof handler.name === 'string' ? handler.name : undefined;
  if (event === 'other') {
    // `other` fires for every unmapped event: the event name keeps it to its own.
    match = { ...match, fields: { hook_event_name: [agentEvent], ...match?.fields } };
    notes.push(`"${agentEvent}" arrives as event other; match.fields.hook_event_name keeps this hook to ${agentEvent}`);
  }
  if (disabledReason) notes.unshift(`imported disabled: ${disabledReason}`);
  if (/\$\{?CLAUDE_PLUGIN_(ROOT|DATA)\}?/.test(command)) notes.push('uses CLAUDE_PLUGIN_ROOT / CLAUDE_PLUGIN_DATA, which only plugin hooks get: set them in run.env');
  if (from === 'copilot' && typeof handler.cwd === 'string') notes.push(`cwd: ${JSON.stringify(handler.cwd)} was not carried over: set run.cwd`);
  for (const key of ['if', 'once', 'asyncRewake', 'statusMessage', 'shell', 'loop_limit']) {
    if (handler[key] !== undefined) notes.push(`${key}: ${JSON.stringify(plainJson(handler[key]))} was not carried over`);
  }
  if (group.sequential !== undefined) notes.push('sequential was not carried over (blocking hooks always run one at a time)');
  const args = Array.isArray(handler.args) && handler.args.every((a) => typeof a === 'string') ? (handler.args as string[]) : undefined;
  return {
    id: name ? `${from}-${slug(name)}` : `${from}-${slug(agentEvent)}-${site.position}`,
    event,
    agentEvent,
    description: `${agentEvent} hook imported from ${file}${name ? ` (${name})` : ''}`,
    enabled: !(name && site.disabled.includes(name)) && disabledReason === undefined,
    match,
    run: args ? { type: 'command', argv: [command, ...args] } : { type: 'shell', shell: command },
    env: envOf(handler.env),
    protocol: from,
    mode: handler.async === true ? 'async' : 'blocking',
    timeoutSeconds: timeoutOf(from, event, handler[importRulesOf(from).timeoutKey]),
    onError: handler.failClosed === true ? 'block' : 'warn',
    notes,
    ...(disabledReason ? { disabledReason } : {}),
  };
}

/**
 * A gate of one tool (Cursor's): the tool's match; a matcher on the command
 * line (shell gates) becomes a match on the command. Any other matcher has no
 * exact equivalent: the hook is imported disabled, never broader.
 */
function gateMatch(from: ImportSource, agentEvent: string, matcher: Json | undefined): Converted | null {
  const base = importRulesOf(from).gateTools[agentEvent]!;
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') return { match: base };
  if (typeof matcher === 'string' && (agentEvent === 'beforeShellExecution' || agentEvent === 'afterShellExecution')) {
    if (!compileToolMatcher(matcher).ok) return null;
    return { match: { ...base, command_regex: matcher } };
  }
  return { disabled: `its matcher ${JSON.stringify(plainJson(matcher))} on ${agentEvent} has no exact equivalent` };
}

type Converted = { match: ImportedHook['match'] } | { disabled: string };

/**
 * The match clause that is exactly the agent's matcher; `disabled` with the
 * reason when there is none (the hook is imported off, never broader); null
 * for a regex the agent itself rejects (it never runs the hook).
 */
function convertMatcher(from: ImportSource, event: EventName, agentEvent: string, matcher: Json | undefined, notes: string[]): Converted | null {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') return { match: undefined };
  if (typeof matcher !== 'string') return { disabled: `its matcher ${JSON.stringify(plainJson(matcher))} is not a string, and no match clause is exactly what the agent does with it` };
  if (!TOOL_EVENTS.includes(event) || !eventSpec(event).hasTool) return fieldMatcher(from, agentEvent, matcher, notes);
  const compiled = compileToolMatcher(matcher);
  if (!compiled.ok) {
    // Gemini CLI falls back to an exact match when the regex does not compile.
    if (from === 'gemini') {
      notes.push(`matcher ${JSON.stringify(matcher)} is not a valid regex; Gemini CLI matches it exactly, and so does this hook`);
      return { match: { tool_name: matcher } };
    }
    // Codex reads matchers as Rust regexes, which accept some patterns JavaScript does not ((?i), \\z).
    if (from === 'codex') return { disabled: `matcher ${JSON.stringify(matcher)} is not a JavaScript regex, so tool_name_regex cannot say what Codex's Rust regex matches; rewrite it as tool_name_regex or tool_names` };
    return null;
  }
  if (compiled.matcher.kind === 'all') return { match: undefined };
  if (compiled.matcher.kind === 'names') {
    let names = compiled.matcher.names;
    // Codex's apply_patch answers to the matchers Edit and Write (AGENT-PROTOCOLS §2.3).
    if (from === 'codex' && names.some((n) => n === 'Edit' || n === 'Write') && !names.includes('apply_patch')) {
      names = [...names, 'apply_patch'];
      notes.push(`Codex runs a matcher naming Edit or Write for apply_patch too, so apply_patch is in tool_names`);
    }
    if (from === 'gemini' || from === 'codex') notes.push(`${protocolOf(from).name} reads matcher ${JSON.stringify(matcher)} as an unanchored regex; this hook matches the names exactly, which is never broader`);
    return { match: names.length === 1 ? { tool_name: names[0]! } : { tool_names: names } };
  }
  return { match: { tool_name_regex: matcher } };
}

/** A matcher on an event without a tool: a match on the input field the agent tests, exactly, or off. */
function fieldMatcher(from: ImportSource, agentEvent: string, matcher: string, notes: string[]): Converted {
  const table = importRulesOf(from).matcherField;
  const field = Object.hasOwn(table, agentEvent) ? table[agentEvent] : undefined;
  if (field === null) {
    notes.push(`matcher ${JSON.stringify(matcher)} on ${agentEvent} was not carried over: the agent ignores matchers on ${agentEvent}, so this hook runs on every ${agentEvent}, as it did`);
    return { match: undefined };
  }
  if (field === undefined) return { disabled: `matcher ${JSON.stringify(matcher)} on ${agentEvent}: chrys-hooks does not know which field it tests, so no match clause is exactly the agent's` };
  // Gemini CLI compares lifecycle matchers as exact strings.
  if (from === 'gemini') return { match: { fields: { [field]: [matcher] } } };
  const compiled = compileToolMatcher(matcher);
  if (compiled.ok && compiled.matcher.kind === 'all') return { match: undefined };
  if (compiled.ok && compiled.matcher.kind === 'names') return { match: { fields: { [field]: compiled.matcher.names } } };
  return { disabled: `matcher ${JSON.stringify(matcher)} on ${agentEvent} is a regex on ${field}; match.fields lists exact values, so write them out (e.g. fields: { ${field}: [...] }) and enable the hook` };
}

function timeoutOf(from: ImportSource, event: EventName, raw: Json | undefined): number | undefined {
  const value = raw instanceof JsonNumber ? raw.toNumber() : undefined;
  const rules = importRulesOf(from);
  if (value !== undefined && value > 0) return rules.timeoutUnit === 'milliseconds' ? value / 1000 : value;
  return rules.eventTimeouts[event] ?? rules.defaultTimeout;
}

function envOf(raw: Json | undefined): Record<string, string> {
  if (!isJsonObject(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * The hook with an id no hook of the plan has yet: its own, else the first
 * free `<id>-<n>` from 2. Checked against every id taken, so a name that
 * spells a suffixed id, or the same handler in several files, never collides.
 */
function withFreeId(hook: ImportedHook, taken: readonly ImportedHook[]): ImportedHook {
  const ids = new Set(taken.map((h) => h.id));
  if (!ids.has(hook.id)) return hook;
  let n = 2;
  while (ids.has(`${hook.id}-${n}`)) n++;
  hook.id = `${hook.id}-${n}`;
  return hook;
}

function plainJson(v: Json): unknown {
  if (v instanceof JsonNumber) return v.toNumber();
  if (Array.isArray(v)) return v.map(plainJson);
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJson(x)]));
  return v;
}
