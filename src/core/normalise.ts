// The semantic load-time rules of CONTRACT §2 that a schema cannot express,
// applied to a schema-checked file: defaults filled in, each problem a
// finding at its data path. Pure: nothing is read.

import { type ArgMatcher, type Execution, type Hook, type Layer, type Match, type Run, type Settings, DEFAULT_SETTINGS, DEFAULT_TIMEOUT_SECONDS } from './config.js';
import { type EventName, eventSpec, lookupEvent } from './events.js';
import { compilePythonRegex } from './pyregex.js';
import { provenLinear } from './regex-budget.js';
import type { DiagnosticCode, SchemaFinding } from './diagnostics.js';
import type { JsonPath } from './json.js';
import type { RawCommandClause, RawCommandNot, RawHook, RawHooksFile, RawSettings } from './schema.js';
import { compileToolMatcher } from './tool-matcher.js';
import { foreignArgOf } from './protocols/tool-args.js';
import { type ArgsTest, type CommandClause, globToRegExp } from './shell/command-match.js';

export interface RuleFinding extends SchemaFinding {
  severity: 'error' | 'warning';
  hook?: string;
  event?: EventName;
}

export interface NormalisedFile {
  hooks: Hook[];
  /** Hooks left out for a bad regex (`hook_skipped`), in file order: listed, never run. */
  skipped: Hook[];
  settings: Partial<Settings>;
  findings: RuleFinding[];
}

const TOOL_FILTERS = ['tool_kind', 'tool_name', 'tool_names', 'tool_name_regex', 'args', 'command'] as const;

/** Applies defaults and the semantic rules to a schema-valid file. */
export function normaliseHooksFile(raw: RawHooksFile, source: Layer, file: string): NormalisedFile {
  const findings: RuleFinding[] = [];
  const hooks: Hook[] = [];
  const skipped: Hook[] = [];
  const seen = new Map<string, number>();
  const add = (severity: 'error' | 'warning', path: JsonPath, code: DiagnosticCode, message: string, extra: Partial<RuleFinding> = {}): void => {
    findings.push({ severity, path, at: 'value', code, message, ...extra });
  };

  (raw.hooks ?? []).forEach((h, index) => {
    if (!h) return; // failed the schema; already reported
    const at = (...rest: (string | number)[]): JsonPath => ['hooks', index, ...rest];
    const id = h.id.trim();
    let hookInfo: { hook: string; event?: EventName } = { hook: id };
    if (seen.has(id)) {
      add('error', at('id'), 'duplicate_id', `duplicate id "${id}" (first used by hooks[${seen.get(id)}])`, { ...hookInfo, hint: 'ids must be unique within a file' });
    } else seen.set(id, index);

    const found = lookupEvent(h.event);
    if (!found.ok) return; // the schema already reported unknown_event
    const event = found.event;
    hookInfo = { hook: id, event };
    if (found.alias) add('warning', at('event'), 'event_alias', `event "${h.event}" is an alias of "${event}"`, { ...hookInfo, hint: `write event: ${event}` });

    const execution = normaliseExecution(h, (path, code, message, severity = 'error') => add(severity, at('execution', ...path), code, message, hookInfo));
    const run = normaliseRun(h, (path, code, message) => add('error', at('run', ...path), code, message, hookInfo));
    const enabled = h.enabled ?? true;
    if (h.locked !== undefined && source === 'project') {
      add('error', at('locked'), 'locked_in_project', `hook "${id}": locked is allowed only in the global hooks file`, { ...hookInfo, hint: 'a project cannot stop its users from skipping its hooks; remove locked' });
    }
    const { match, regexErrors } = normaliseMatch(h);
    for (const e of regexErrors) {
      if (!enabled) continue;
      const where = at('match', ...e.path);
      const syntax = e.path[0] === 'tool_name_regex' ? 'JavaScript RegExp (Claude Code matcher) syntax' : 'Python re syntax';
      if (e.unsupported) add('warning', where, 'hook_skipped', `hook "${id}" is left out: regex \`${e.source}\` has no JavaScript translation: ${e.error}`, hookInfo);
      else add('error', where, 'invalid_regex', `hook "${id}" is left out: regex \`${e.source}\` is invalid: ${e.error}`, { ...hookInfo, hint: `fix the pattern, written in ${syntax}` });
    }
    if (event === 'before_tool_call' && (!h.match || Object.keys(h.match).length === 0)) {
      add('warning', at(), 'broad_match', `hook "${id}" runs before every tool call`, { ...hookInfo, hint: 'add a match: clause (tool_name, tool_kind or args)' });
    }
    if (!eventSpec(event).hasTool && h.match) {
      for (const key of TOOL_FILTERS) {
        if (h.match[key] !== undefined) {
          add('warning', at('match', key), 'tool_filter_never_matches', `${key} never matches: event ${event} carries no tool`, hookInfo);
        }
      }
    }
    if (h.match?.args) {
      const names = [...(h.match.tool_name !== undefined ? [h.match.tool_name] : []), ...(h.match.tool_names ?? []), ...(match?.toolMatcher?.kind === 'names' ? match.toolMatcher.names : [])];
      for (const arg of Object.keys(h.match.args)) {
        for (const tool of new Set(names)) {
          const f = foreignArgOf(tool, arg);
          if (!f) continue;
          const also = f.via ? `; it matches only through the canonical view (${f.via})` : '; it never matches';
          add('warning', at('match', 'args', arg), 'args_other_agent', `hook "${id}": ${tool} (${f.agent}) has no argument "${arg}", which other agents' tools take (${f.others.slice(0, 3).join(', ')}${f.others.length > 3 ? ', ...' : ''})${also}`, { ...hookInfo, hint: `${tool} takes ${f.own.join(', ')}${f.via ? `: write args.${f.via}, or drop tool_name and match tool_kind to cover every agent` : ''}` });
        }
      }
    }
    if (!run || !execution) return;
    const hook: Hook = { id, event, enabled, ...(h.locked === true && source === 'global' ? { locked: true } : {}), description: h.description ?? '', match, run, execution, source, file, index };
    (enabled && regexErrors.length > 0 ? skipped : hooks).push(hook);
  });

  return { hooks, skipped, settings: settingsOf(raw.settings), findings };
}

function settingsOf(raw: RawSettings | undefined): Partial<Settings> {
  const out: Partial<Settings> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if (raw?.[key] !== undefined) out[key] = raw[key];
  }
  return out;
}

type Report = (path: (string | number)[], code: DiagnosticCode, message: string, severity?: 'error' | 'warning') => void;

function normaliseExecution(h: RawHook, report: Report): Execution | undefined {
  const e = h.execution ?? {};
  const mode = e.mode ?? 'fire_and_forget';
  const delivery = e.delivery ?? 'best_effort';
  let ok = true;
  if (e.detach && mode !== 'fire_and_forget') {
    report(['detach'], 'invalid_combination', `detach needs mode fire_and_forget, not ${mode}`);
    ok = false;
  }
  if ((e.delay_seconds ?? 0) > 0 && (delivery !== 'durable' || mode === 'blocking')) {
    report(['delay_seconds'], 'invalid_combination', 'delay_seconds needs delivery: durable and a non-blocking mode');
    ok = false;
  }
  if (mode === 'blocking' && delivery === 'durable') {
    report(['delivery'], 'durable_ignored', 'a blocking hook cannot be durable; delivery: durable is ignored', 'warning');
  }
  if (!ok) return undefined;
  return {
    mode,
    detach: e.detach ?? false,
    delivery: mode === 'blocking' ? 'best_effort' : delivery,
    timeout_seconds: e.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    on_error: e.on_error ?? 'warn',
    ...(e.on_error !== undefined ? { on_error_explicit: true as const } : {}),
    delay_seconds: e.delay_seconds ?? 0,
    once_per_session: e.once_per_session ?? false,
    ...(e.portable ? { portable: true as const } : {}),
  };
}

const RUN_FIELDS = { script: ['path', 'args'], command: ['argv', 'args'], shell: ['shell'] } as const;
const TYPE_SPECIFIC = ['path', 'argv', 'shell', 'args'] as const;

function normaliseRun(h: RawHook, report: Report): Run | undefined {
  const r = h.run;
  let ok = true;
  const allowed: readonly string[] = RUN_FIELDS[r.type];
  for (const field of TYPE_SPECIFIC) {
    if (r[field] !== undefined && !allowed.includes(field)) {
      report([field], 'run_type_mismatch', `run.${field} does not fit run type "${r.type}" (it takes ${allowed.join(', ')})`);
      ok = false;
    }
  }
  const required = allowed[0] as 'path' | 'argv' | 'shell';
  if (r[required] === undefined) {
    report([], 'missing_field', `run.${required} is required for run type "${r.type}"`);
    ok = false;
  }
  if (r.prompt_file !== undefined && (!r.prompt_file.endsWith('.md') || r.prompt_file.split(/[\\/]/).includes('..'))) {
    report(['prompt_file'], 'invalid_prompt_file', `prompt_file "${r.prompt_file}" must end in .md and must not contain ".."`);
    ok = false;
  }
  if (!ok) return undefined;
  const common = {
    env: r.env ?? {},
    cwd: r.cwd ?? '',
    ...(r.prompt_file === undefined ? {} : { prompt_file: r.prompt_file }),
    ...(r.protocol === undefined || r.protocol === 'chrys' ? {} : { protocol: r.protocol }),
  };
  if (r.type === 'script') return { type: 'script', path: r.path!, args: r.args ?? [], ...common };
  if (r.type === 'command') return { type: 'command', argv: r.argv!, args: r.args ?? [], ...common };
  return { type: 'shell', shell: r.shell!, ...common };
}

interface RegexError {
  /** Where the pattern is, under match: ['tool_name_regex'], ['args', NAME, 'regex'], ['command', 0, 'args', 'regex']. */
  path: (string | number)[];
  source: string;
  error: string;
  unsupported: boolean;
}

function normaliseMatch(h: RawHook): { match: Match | undefined; regexErrors: RegexError[] } {
  const regexErrors: RegexError[] = [];
  if (!h.match) return { match: undefined, regexErrors };
  const { args, command, ...rest } = h.match;
  const match: Match = { ...rest };
  if (rest.tool_name_regex !== undefined) {
    const compiled = compileToolMatcher(rest.tool_name_regex);
    if (compiled.ok) match.toolMatcher = compiled.matcher;
    else regexErrors.push({ path: ['tool_name_regex'], source: rest.tool_name_regex, error: compiled.error, unsupported: false });
  }
  if (command !== undefined) {
    const clauses = Array.isArray(command) ? command : [command];
    match.command = clauses.map((c, i) => commandClause(c, Array.isArray(command) ? ['command', i] : ['command'], regexErrors));
  }
  if (args) {
    // Null prototype: an argument named "__proto__" is a key like any other.
    match.args = Object.create(null) as Record<string, ArgMatcher>;
    for (const [name, m] of Object.entries(args)) {
      const compiled: ArgMatcher = {};
      if (m.equals !== undefined) compiled.equals = m.equals;
      if (m.contains !== undefined) compiled.contains = m.contains;
      if (m.regex !== undefined) {
        const r = compilePythonRegex(m.regex);
        if (r.ok) {
          compiled.regex = r.regex;
          compiled.regexSource = m.regex;
          if (!provenLinear(m.regex)) compiled.regexBounded = true;
        } else regexErrors.push({ path: ['args', name, 'regex'], source: m.regex, error: r.error, unsupported: r.unsupported });
      }
      match.args[name] = compiled;
    }
  }
  return { match, regexErrors };
}


const list = (v: string | string[] | undefined): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** One match.command clause, compiled: globs and regexes built, `not` clauses the same way. */
function commandClause(raw: RawCommandClause | RawCommandNot, path: (string | number)[], regexErrors: RegexError[]): CommandClause {
  const clause: CommandClause = {};
  const programs = list(raw.program);
  if (programs) clause.programs = programs.map((p) => p.slice(p.lastIndexOf('/') + 1));
  const subs = list(raw.subcommand);
  if (subs) clause.subcommands = subs.map((s) => s.trim().split(/\s+/).filter(Boolean));
  const flags = list(raw.flags);
  if (flags) clause.flags = flags;
  if (raw.args !== undefined) {
    const a = raw.args;
    const globs = typeof a === 'string' || Array.isArray(a) ? list(a)! : (list(a.glob) ?? []);
    const test: ArgsTest = { globs: globs.map((g) => ({ source: g, regex: globToRegExp(g) })) };
    if (typeof a === 'object' && !Array.isArray(a) && a.regex !== undefined) {
      const r = compilePythonRegex(a.regex);
      if (r.ok) test.regex = { source: a.regex, regex: r.regex, bounded: !provenLinear(a.regex) };
      else regexErrors.push({ path: [...path, 'args', 'regex'], source: a.regex, error: r.error, unsupported: r.unsupported });
    }
    clause.args = test;
  }
  if ('not' in raw && raw.not !== undefined) {
    const nots = Array.isArray(raw.not) ? raw.not : [raw.not];
    clause.not = nots.map((n, i) => commandClause(n, Array.isArray(raw.not) ? [...path, 'not', i] : [...path, 'not'], regexErrors));
  }
  return clause;
}
