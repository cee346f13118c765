// `chrys-hooks import`: another agent's hook config (Claude Code, Codex,
// Gemini CLI, Cursor) turned into Chrys hook entries. Pure: the config is
// parsed JSON; what cannot be carried over becomes a note the YAML shows.

import { type EventName, eventSpec } from '../events.js';
import { type Json, type JsonObject, JsonNumber, isJsonObject } from '../json.js';
import { CURSOR_EVENTS, chrysEventOf } from '../protocols/names.js';
import { compileToolMatcher } from '../tool-matcher.js';

export type ImportSource = 'claude' | 'codex' | 'gemini' | 'cursor';

export interface ImportedHook {
  id: string;
  event: EventName;
  /** The agent's event name it was configured under. */
  agentEvent: string;
  description: string;
  enabled: boolean;
  match: { tool_name?: string; tool_names?: string[]; tool_name_regex?: string } | undefined;
  run: { type: 'shell'; shell: string } | { type: 'command'; argv: string[] };
  env: Record<string, string>;
  protocol: 'claude' | 'codex' | 'gemini';
  mode: 'blocking' | 'async';
  timeoutSeconds: number | undefined;
  onError: 'warn' | 'block';
  /** Shown as comments above the entry. */
  notes: string[];
}

export interface ImportPlan {
  hooks: ImportedHook[];
  /** Things not imported at all, shown as comments. */
  skipped: string[];
}

const PROTOCOL_OF: Record<ImportSource, ImportedHook['protocol']> = { claude: 'claude', codex: 'codex', gemini: 'gemini', cursor: 'claude' };
// The agents' own default timeouts (seconds), so an imported hook gets the time it had.
const DEFAULT_TIMEOUT: Record<ImportSource, number | undefined> = { claude: 600, codex: 600, gemini: 60, cursor: undefined };
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
    if (from === 'gemini' && ['enabled', 'disabled', 'notifications'].includes(agentEvent)) continue;
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
      const handlers = from === 'cursor' ? [group] : Array.isArray(group.hooks) ? group.hooks : [];
      handlers.forEach((handler, h) => {
        const where = `${agentEvent}[${g}]${from === 'cursor' ? '' : `.hooks[${h}]`}`;
        const position = from === 'cursor' ? `${g + 1}` : `${g + 1}-${h + 1}`;
        const hook = isJsonObject(handler) ? convertHandler(from, { agentEvent, event, group, handler, file, where, position, disabled }, plan) : undefined;
        if (!isJsonObject(handler)) plan.skipped.push(`${file}: ${where} is not an object; not imported`);
        if (hook) plan.hooks.push(hook);
      });
    });
  }
  uniqueIds(plan.hooks);
  return plan;
}

function eventFor(from: ImportSource, agentEvent: string): EventName | undefined {
  if (from === 'cursor') return Object.hasOwn(CURSOR_EVENTS, agentEvent) ? CURSOR_EVENTS[agentEvent] : undefined;
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
  const command = handler.command;
  if (type !== 'command' || typeof command !== 'string' || command.trim() === '') {
    const what = type === 'command' ? 'has no command' : `is a ${JSON.stringify(plainJson(type))} handler`;
    plan.skipped.push(`${file}: ${where} ${what}; only command handlers can be imported`);
    return undefined;
  }
  const notes: string[] = [];
  const match = convertMatcher(from, event, agentEvent, group.matcher, notes);
  if (match === null) {
    plan.skipped.push(`${file}: ${where}: matcher ${JSON.stringify(group.matcher)} is not a valid regex; ${from === 'claude' || from === 'codex' ? 'the agent never runs this hook' : 'not imported'}`);
    return undefined;
  }
  const name = typeof handler.name === 'string' ? handler.name : undefined;
  if (event === 'other') notes.push(`"${agentEvent}" arrives as event other, which also fires for the agent's other unmapped events`);
  if (/\$\{?CLAUDE_PLUGIN_(ROOT|DATA)\}?/.test(command)) notes.push('uses CLAUDE_PLUGIN_ROOT / CLAUDE_PLUGIN_DATA, which only plugin hooks get: set them in run.env');
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
    enabled: !(name && site.disabled.includes(name)),
    match,
    run: args ? { type: 'command', argv: [command, ...args] } : { type: 'shell', shell: command },
    env: envOf(handler.env),
    protocol: PROTOCOL_OF[from],
    mode: handler.async === true ? 'async' : 'blocking',
    timeoutSeconds: timeoutOf(from, event, handler.timeout),
    onError: handler.failClosed === true ? 'block' : 'warn',
    notes,
  };
}

/** The match clause; undefined = match all; null = an invalid regex. */
function convertMatcher(from: ImportSource, event: EventName, agentEvent: string, matcher: Json | undefined, notes: string[]): ImportedHook['match'] | null {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') return undefined;
  if (typeof matcher !== 'string') {
    notes.push(`matcher ${JSON.stringify(plainJson(matcher))} is not a string; not carried over`);
    return undefined;
  }
  if (!TOOL_EVENTS.includes(event) || !eventSpec(event).hasTool) {
    notes.push(`matcher ${JSON.stringify(matcher)} on ${agentEvent} was not carried over: this hook runs on every ${agentEvent}`);
    return undefined;
  }
  const compiled = compileToolMatcher(matcher);
  if (!compiled.ok) {
    // Gemini CLI falls back to an exact match when the regex does not compile.
    if (from === 'gemini') {
      notes.push(`matcher ${JSON.stringify(matcher)} is not a valid regex; Gemini CLI matches it exactly, and so does this hook`);
      return { tool_name: matcher };
    }
    return null;
  }
  if (compiled.matcher.kind === 'names') return compiled.matcher.names.length === 1 ? { tool_name: compiled.matcher.names[0]! } : { tool_names: compiled.matcher.names };
  if (compiled.matcher.kind === 'all') return undefined;
  return { tool_name_regex: matcher };
}

function timeoutOf(from: ImportSource, event: EventName, raw: Json | undefined): number | undefined {
  const value = raw instanceof JsonNumber ? raw.toNumber() : undefined;
  if (value !== undefined && value > 0) return from === 'gemini' ? value / 1000 : value; // Gemini: milliseconds
  if (from === 'claude' && event === 'user_prompt_submit') return 30;
  return DEFAULT_TIMEOUT[from];
}

function envOf(raw: Json | undefined): Record<string, string> {
  if (!isJsonObject(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function uniqueIds(hooks: ImportedHook[]): void {
  const seen = new Map<string, number>();
  for (const h of hooks) {
    const n = (seen.get(h.id) ?? 0) + 1;
    seen.set(h.id, n);
    if (n > 1) h.id = `${h.id}-${n}`;
  }
}

function plainJson(v: Json): unknown {
  if (v instanceof JsonNumber) return v.toNumber();
  if (Array.isArray(v)) return v.map(plainJson);
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJson(x)]));
  return v;
}
