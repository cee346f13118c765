// Does a hook match an envelope? Returns which clause failed and against which
// value, so `resolve` can explain a non-match and `fire` can report a skip.

import type { Hook } from './config.js';
import { type Json, type JsonObject, isJsonObject, JsonNumber } from './json.js';
import { pyStr } from './pystr.js';
import { toolMatches } from './tool-matcher.js';
import { REGEX_BUDGET_MS, testBounded } from './regex-budget.js';
import { shellCommandOf } from './protocols/names.js';
import { canonicalArgsOf, isCanonicalArg } from './protocols/tool-args.js';
import { type CommandClause, type CommandVerdict, matchCommandLine } from './shell/command-match.js';

export type MatchVerdict =
  /** command: how match.command matched (the parsed simple commands, which one matched, or why it failed closed). */
  | { verdict: 'run'; command?: CommandVerdict }
  | { verdict: 'no_match'; reason: string; command?: CommandVerdict }
  /** rule: which clause said no (a skip, not a non-match: the user can see why nothing ran). */
  | { verdict: 'skipped'; reason: string; rule: 'session_kinds' | 'max_context_tokens' }
  /** Matching itself failed (a regex ran out of time): the hook's on_error applies. */
  | { verdict: 'error'; reason: string };

const show = (v: string | undefined): string => (v === undefined ? 'missing' : `\`${v}\``);

export function matchHook(hook: Hook, envelope: JsonObject): MatchVerdict {
  const m = hook.match;
  if (!m) return { verdict: 'run' };
  const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
  const profile = str(envelope.profile) ?? '';
  if (m.profile !== undefined && profile !== m.profile) {
    return { verdict: 'no_match', reason: `profile is ${show(profile)}, hook wants \`${m.profile}\`` };
  }
  if (m.profiles && m.profiles.length > 0 && !m.profiles.includes(profile)) {
    return { verdict: 'no_match', reason: `profile is ${show(profile)}, hook wants one of ${m.profiles.map((p) => `\`${p}\``).join(', ')}` };
  }
  const tool = isJsonObject(envelope.tool) ? envelope.tool : undefined;
  if (m.tool_kind !== undefined) {
    const kind = tool ? pyStr(tool.kind) : undefined;
    if (kind !== m.tool_kind) return { verdict: 'no_match', reason: `tool_kind is ${show(kind)}, hook wants \`${m.tool_kind}\`` };
  }
  if (m.tool_name !== undefined) {
    const name = tool ? pyStr(tool.name) : undefined;
    if (name !== m.tool_name) return { verdict: 'no_match', reason: `tool_name is ${show(name)}, hook wants \`${m.tool_name}\`` };
  }
  if (m.tool_names && m.tool_names.length > 0) {
    const name = tool ? pyStr(tool.name) : undefined;
    if (name === undefined || !m.tool_names.includes(name)) {
      return { verdict: 'no_match', reason: `tool_name is ${show(name)}, hook wants one of ${m.tool_names.map((n) => `\`${n}\``).join(', ')}` };
    }
  }
  if (m.toolMatcher) {
    const name = tool ? pyStr(tool.name) : undefined;
    if (!toolMatches(m.toolMatcher, name)) return { verdict: 'no_match', reason: `tool_name is ${show(name)}, hook wants tool_name_regex \`${m.tool_name_regex}\`` };
  }
  if (m.args) {
    const args = tool && isJsonObject(tool.args) ? tool.args : undefined;
    let canonical: Record<string, string> | undefined | null = null;
    for (const [name, op] of Object.entries(m.args)) {
      let value = args && Object.hasOwn(args, name) ? pyStr(args[name]) : undefined;
      // The tool has no argument of that name: a canonical name (path, command, content) reads the
      // portable view, computed from the arguments as modified so far (docs/hooks-file.md).
      if (value === undefined && isCanonicalArg(name) && !(args && Object.hasOwn(args, name))) {
        if (canonical === null) canonical = tool && typeof tool.name === 'string' ? canonicalArgsOf(tool.name, args) : undefined;
        value = canonical && Object.hasOwn(canonical, name) ? canonical[name] : undefined;
      }
      if (value === undefined) return { verdict: 'no_match', reason: `argument ${name} is missing` };
      if (op.equals !== undefined && value !== op.equals) {
        return { verdict: 'no_match', reason: `argument ${name} is ${show(value)}, hook wants it to equal \`${op.equals}\`` };
      }
      if (op.contains !== undefined && !value.includes(op.contains)) {
        return { verdict: 'no_match', reason: `argument ${name} is ${show(value)}, hook wants it to contain \`${op.contains}\`` };
      }
      if (op.regex) {
        const found = op.regexBounded ? testBounded(op.regex, value) : op.regex.test(value);
        if (found === 'over_budget') {
          return { verdict: 'error', reason: `regex \`${op.regexSource}\` on argument ${name} ran out of its ${REGEX_BUDGET_MS} ms budget` };
        }
        if (!found) return { verdict: 'no_match', reason: `argument ${name} is ${show(value)}, hook wants regex \`${op.regexSource}\`` };
      }
    }
  }
  if (m.fields) {
    for (const [name, wanted] of Object.entries(m.fields)) {
      const value = Object.hasOwn(envelope, name) ? str(envelope[name]) : undefined;
      if (value === undefined || !wanted.includes(value)) {
        return { verdict: 'no_match', reason: `${name} is ${show(value)}, hook wants ${wanted.length === 1 ? `\`${wanted[0]}\`` : `one of ${wanted.map((w) => `\`${w}\``).join(', ')}`}` };
      }
    }
  }
  let command: CommandVerdict | undefined;
  if (m.command) {
    const name = tool ? pyStr(tool.name) : undefined;
    const line = name === undefined ? 'not_shell' : shellCommandOf(name, tool && isJsonObject(tool.args) ? tool.args : undefined);
    if (line === 'not_shell') return { verdict: 'no_match', reason: `tool_name is ${show(name)}, not a shell tool: match.command looks at shell commands only` };
    if (line === 'missing') return { verdict: 'no_match', reason: `tool ${name} has no command line in its arguments` };
    command = matchCommandLine(m.command, line);
    if (!command.matched) {
      const verdict = command;
      return {
        verdict: 'no_match',
        get reason() {
          return `command: ${verdict.reason}`; // built when read: command-match.ts
        },
        command,
      };
    }
  }
  if (m.session_kinds && m.session_kinds.length > 0) {
    const kind = str(envelope.session_kind) ?? 'interactive';
    if (!m.session_kinds.includes(kind)) {
      return { verdict: 'skipped', rule: 'session_kinds', reason: `session_kind is \`${kind}\`, hook runs only for ${m.session_kinds.map((k) => `\`${k}\``).join(', ')}` };
    }
  }
  if (m.max_context_tokens !== undefined) {
    const raw = envelope.context_tokens;
    const tokens = raw instanceof JsonNumber ? raw.toNumber() : undefined;
    if (tokens !== undefined && tokens > m.max_context_tokens) {
      return { verdict: 'skipped', rule: 'max_context_tokens', reason: `context_tokens ${raw instanceof JsonNumber ? raw.raw : ''} is above max_context_tokens ${m.max_context_tokens}` };
    }
  }
  return command === undefined ? { verdict: 'run' } : { verdict: 'run', command };
}

const describeClause = (c: CommandClause): string => {
  const bits = [c.programs?.join('|') ?? '*', ...(c.subcommands ? [c.subcommands.map((s) => s.join(' ')).join('|')] : []), ...(c.flags ?? [])];
  if (c.args) bits.push(`args~${[...c.args.globs.map((g) => g.source), ...(c.args.regex ? [`/${c.args.regex.source}/`] : [])].join('|')}`);
  if (c.not?.length) bits.push(`not(${c.not.map(describeClause).join('; ')})`);
  return `[${bits.join(' ')}]`;
};

/** A one-line summary of a hook's match clauses, for `list`. */
export function describeMatch(m: Hook['match']): string {
  if (!m) return '*';
  const parts: string[] = [];
  if (m.profile !== undefined) parts.push(`profile=${m.profile}`);
  if (m.profiles?.length) parts.push(`profiles=${m.profiles.join('|')}`);
  if (m.tool_kind !== undefined) parts.push(`tool_kind=${m.tool_kind}`);
  if (m.tool_name !== undefined) parts.push(`tool_name=${m.tool_name}`);
  if (m.tool_names?.length) parts.push(`tool_names=${m.tool_names.join('|')}`);
  if (m.tool_name_regex !== undefined) parts.push(`tool_name=~/${m.tool_name_regex}/`);
  for (const [name, op] of Object.entries(m.args ?? {})) {
    if (op.equals !== undefined) parts.push(`args.${name}==${JSON.stringify(op.equals)}`);
    if (op.contains !== undefined) parts.push(`args.${name}~${JSON.stringify(op.contains)}`);
    if (op.regexSource !== undefined) parts.push(`args.${name}=~/${op.regexSource}/`);
  }
  for (const c of m.command ?? []) parts.push(`command=${describeClause(c)}`);
  for (const [name, wanted] of Object.entries(m.fields ?? {})) parts.push(`${name}=${wanted.join('|')}`);
  if (m.session_kinds?.length) parts.push(`session_kinds=${m.session_kinds.join('|')}`);
  if (m.max_context_tokens !== undefined) parts.push(`context_tokens<=${m.max_context_tokens}`);
  return parts.join(' ') || '*';
}
