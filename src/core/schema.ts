// The hooks-file schema (CONTRACT §2) in zod, and the mapping of zod's issues
// onto the contract's diagnostic codes. zod/mini keeps start-up cost low:
// this module loads only when a hooks file exists.

import * as z from './zod.js';
import { EVENT_ALIASES, EVENT_NAMES, closest, lookupEvent } from './events.js';
import type { SchemaFinding } from './diagnostics.js';
import { MAX_PARALLEL_HOOKS, MAX_TIMEOUT_SECONDS } from './config.js';
import type { JsonPath } from './json.js';
import { AGENT_PROTOCOLS, type AgentProtocol } from './protocols/agents/index.js';

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const matcherSchema = z.strictObject({
  equals: z.optional(z.string()),
  contains: z.optional(z.string()),
  regex: z.optional(z.string()),
});

const oneOrMore = z.union([z.string(), z.array(z.string())]);

/** match.command's args: globs (a string or a list), or { glob, regex }. */
const commandArgsSchema = z.union([
  z.string(),
  z.array(z.string()),
  z.strictObject({ glob: z.optional(oneOrMore), regex: z.optional(z.string()) }),
]);

const commandFields = {
  program: z.optional(oneOrMore),
  subcommand: z.optional(oneOrMore),
  flags: z.optional(oneOrMore),
  args: z.optional(commandArgsSchema),
};
const commandNotSchema = z.strictObject(commandFields);
const commandClauseSchema = z.strictObject({ ...commandFields, not: z.optional(z.union([commandNotSchema, z.array(commandNotSchema)])) });
const commandSchema = z.union([commandClauseSchema, z.array(commandClauseSchema)]);

const matchSchema = z.strictObject({
  profile: z.optional(z.string()),
  profiles: z.optional(z.array(z.string())),
  tool_kind: z.optional(z.string()),
  tool_name: z.optional(z.string()),
  tool_names: z.optional(z.array(z.string())),
  tool_name_regex: z.optional(z.string()),
  args: z.optional(z.record(z.string(), matcherSchema)),
  command: z.optional(commandSchema),
  fields: z.optional(z.record(z.string(), z.array(z.string()).check(z.minLength(1)))),
  session_kinds: z.optional(z.array(z.string())),
  max_context_tokens: z.optional(z.number().check(z.gte(0))),
});

const runSchema = z.strictObject({
  type: z.enum(['script', 'command', 'shell']),
  path: z.optional(z.string().check(z.minLength(1))),
  argv: z.optional(z.array(z.string()).check(z.minLength(1))),
  shell: z.optional(z.string().check(z.minLength(1))),
  args: z.optional(z.array(z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  cwd: z.optional(z.string()),
  prompt_file: z.optional(z.string()),
  protocol: z.optional(z.enum(['chrys', ...AGENT_PROTOCOLS] as ['chrys', ...AgentProtocol[]])),
});

const executionSchema = z.strictObject({
  mode: z.optional(z.enum(['blocking', 'async', 'fire_and_forget'])),
  detach: z.optional(z.boolean()),
  delivery: z.optional(z.enum(['best_effort', 'durable'])),
  timeout_seconds: z.optional(z.number().check(z.gt(0), z.lte(MAX_TIMEOUT_SECONDS))),
  on_error: z.optional(z.enum(['block', 'warn', 'ignore'])),
  delay_seconds: z.optional(z.number().check(z.gte(0), z.lte(86400))),
  once_per_session: z.optional(z.boolean()),
  portable: z.optional(z.boolean()),
});

const hookSchema = z.strictObject({
  id: z.string().check(
    z.minLength(1),
    z.refine((s) => {
      const t = s.trim();
      return t.length >= 1 && t.length <= 512 && !CONTROL_CHARS.test(s);
    }, 'must be 1 to 512 characters after trimming, with no control characters'),
  ),
  event: z.enum([...EVENT_NAMES, ...Object.keys(EVENT_ALIASES)] as [string, ...string[]]),
  enabled: z.optional(z.boolean()),
  locked: z.optional(z.boolean()),
  description: z.optional(z.string()),
  match: z.optional(matchSchema),
  run: runSchema,
  execution: z.optional(executionSchema),
});

export const settingsSchema = z.strictObject({
  shutdown_grace_seconds: z.optional(z.number().check(z.gte(0))),
  max_parallel_hooks: z.optional(z.int().check(z.gte(1), z.lte(MAX_PARALLEL_HOOKS))),
  outbox_retry_age_seconds: z.optional(z.number().check(z.gte(0))),
  outbox_max_retries: z.optional(z.int().check(z.gte(0))),
  outbox_retry_delay_seconds: z.optional(z.number().check(z.gte(0))),
});

/** The whole file, as published in schema/hooks.schema.json. */
export const hooksFileSchema = z.strictObject({
  version: z.optional(z.literal(1)),
  settings: z.optional(settingsSchema),
  hooks: z.optional(z.array(hookSchema)),
});

// Checked in two steps so that one bad hook does not hide the problems of the others.
const fileShellSchema = z.strictObject({
  version: z.optional(z.literal(1)),
  settings: z.optional(settingsSchema),
  hooks: z.optional(z.array(z.unknown())),
});

/** A schema-checked file; hooks that failed the schema are undefined (indexes kept). */
export interface RawHooksFile {
  version?: 1;
  settings?: RawSettings;
  hooks?: (RawHook | undefined)[];
  /**
   * The hooks that failed the schema but parse with their bad keys left out,
   * at their index: never run, only linted, so that one run of `validate`
   * also shows their regex, script and mode problems.
   */
  salvaged?: (RawHook | undefined)[];
}
export type RawHook = z.infer<typeof hookSchema>;
export type RawSettings = z.infer<typeof settingsSchema>;
export type RawCommandClause = z.infer<typeof commandClauseSchema>;
export type RawCommandNot = z.infer<typeof commandNotSchema>;

/** The keys each kind of object accepts, for "did you mean" hints. */
const KEYS_AT: Array<[(path: JsonPath) => boolean, readonly string[]]> = [
  [(p) => p.length === 0, Object.keys(hooksFileSchema.shape)],
  [(p) => p.length === 1 && p[0] === 'settings', Object.keys(settingsSchema.shape)],
  [(p) => p.length === 2 && p[0] === 'hooks', Object.keys(hookSchema.shape)],
  [(p) => p.length === 3 && p[2] === 'match', Object.keys(matchSchema.shape)],
  [(p) => p.length === 5 && p[3] === 'args', Object.keys(matcherSchema.shape)],
  [(p) => p[3] === 'command' && p[p.length - 1] === 'args', ['glob', 'regex']],
  [(p) => p[3] === 'command' && (p.length === 4 || (p.length === 5 && typeof p[4] === 'number')), Object.keys(commandClauseSchema.shape)],
  [(p) => p[3] === 'command' && p.includes('not'), Object.keys(commandNotSchema.shape)],
  [(p) => p.length === 3 && p[2] === 'run', Object.keys(runSchema.shape)],
  [(p) => p.length === 3 && p[2] === 'execution', Object.keys(executionSchema.shape)],
];

// A hook-level key that belongs one level down: `timeout_seconds` -> `execution.timeout_seconds`.
const NESTED_KEYS: readonly [string, readonly string[]][] = [
  ['execution', Object.keys(executionSchema.shape)],
  ['run', Object.keys(runSchema.shape)],
  ['match', Object.keys(matchSchema.shape)],
];
function nestedSuggestion(key: string): string | undefined {
  for (const [parent, keys] of NESTED_KEYS) {
    const found = closest(key, keys);
    if (found) return `${parent}.${found}`;
  }
  return undefined;
}

export type { SchemaFinding } from './diagnostics.js';

const typeName = (v: unknown): string =>
  typeof v === 'number' && !Number.isFinite(v) ? String(v) : v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`;

const expectedName: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

const fieldName = (path: JsonPath): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || 'the file';

/**
 * Validates a parsed hooks file; findings carry data paths, mapped to contract
 * codes. Each hook is checked on its own, so the value holds every hook that
 * passed even when others did not (for linting; the file is still invalid).
 */
export function checkHooksFile(data: unknown): { value: RawHooksFile; findings: SchemaFinding[] } {
  if (data === null || data === undefined) return { value: {}, findings: [] };
  const findings: SchemaFinding[] = [];
  const shell = fileShellSchema.safeParse(data);
  if (!shell.success) for (const issue of shell.error.issues) findings.push(...mapIssue(issue, data));
  const top = shell.success ? shell.data : {};
  const value: RawHooksFile = {};
  if (top.version !== undefined) value.version = top.version;
  if (top.settings !== undefined) value.settings = top.settings;
  const entries = (data as { hooks?: unknown }).hooks;
  if (Array.isArray(entries)) {
    value.hooks = [];
    entries.forEach((entry, index) => {
      const result = hookSchema.safeParse(entry);
      const badProto = result.success ? keepProtoKeys(result.data, entry) : [];
      for (const path of badProto) findings.push({ path: ['hooks', index, ...path], at: 'value', code: 'invalid_type', message: `${fieldName(['hooks', index, ...path])} has the wrong type` });
      value.hooks!.push(result.success && badProto.length === 0 ? result.data : undefined);
      if (!result.success) {
        for (const issue of result.error.issues) findings.push(...mapIssue({ ...issue, path: ['hooks', index, ...issue.path] } as z.core.$ZodIssue, data));
        const rescued = salvage(entry, result.error.issues);
        if (rescued) (value.salvaged ??= [])[index] = rescued;
      }
    });
  }
  return { value, findings };
}

/**
 * A value that fits none of a union's shapes: the problems of the shape it
 * was meant to have (a mapping for a mapping, a list for a list), so a typo
 * in `match.command` is an unknown key with a "did you mean".
 */
function unionIssues(issue: z.core.$ZodIssue & { code: 'invalid_union' }, path: (string | number)[], root: unknown): SchemaFinding[] {
  const input = valueAt(root, path);
  const kind = Array.isArray(input) ? 'array' : input !== null && typeof input === 'object' ? 'object' : typeof input;
  const branch = issue.errors.find((issues) => !issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')) ?? issue.errors.find((issues) => issues.some((i) => i.path.length === 0 && i.code === 'invalid_type' && i.expected === kind));
  if (!branch || branch.length === 0) {
    return [{ path, at: 'value', code: 'invalid_type', message: `${fieldName(path)} has the wrong type (${typeName(input)})`, ...(path.includes('command') ? { hint: 'see match.command in docs/hooks-file.md' } : {}) }];
  }
  return branch.flatMap((i) => mapIssue({ ...i, path: [...path, ...i.path] } as z.core.$ZodIssue, root));
}

/** The hook with the keys its issues name left out, if it then parses (a few rounds, for nested problems). */
function salvage(entry: unknown, issues: readonly z.core.$ZodIssue[]): RawHook | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  let copy: unknown;
  try {
    copy = structuredClone(entry);
  } catch {
    return undefined;
  }
  let current = issues;
  for (let round = 0; round < 4; round++) {
    for (const issue of current) {
      const path = issue.path as (string | number)[];
      if (issue.code === 'unrecognized_keys') {
        const parent = valueAt(copy, path);
        if (parent && typeof parent === 'object') for (const key of issue.keys) delete (parent as Record<string, unknown>)[key];
      } else if (path.length > 0) {
        const parent = valueAt(copy, path.slice(0, -1));
        if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[path[path.length - 1]!];
      } else return undefined;
    }
    const again = hookSchema.safeParse(copy);
    if (again.success) return again.data;
    current = again.error.issues;
  }
  return undefined;
}

// zod builds a record by assignment, which turns a "__proto__" key into the
// record's prototype; a key is data here, so put it back as an own property.
const PROTO_RECORDS = [
  { path: ['match', 'args'], value: matcherSchema },
  { path: ['match', 'fields'], value: z.array(z.string()).check(z.minLength(1)) },
  { path: ['run', 'env'], value: z.string() },
] as const;

function keepProtoKeys(hook: RawHook, input: unknown): JsonPath[] {
  const bad: JsonPath[] = [];
  for (const { path, value } of PROTO_RECORDS) {
    const raw = valueAt(input, path);
    const out = valueAt(hook, path);
    if (!raw || typeof raw !== 'object' || !out || typeof out !== 'object' || !Object.hasOwn(raw, '__proto__')) continue;
    const parsed = value.safeParse(Object.getOwnPropertyDescriptor(raw, '__proto__')!.value);
    Object.setPrototypeOf(out, Object.prototype);
    if (parsed.success) Object.defineProperty(out, '__proto__', { value: parsed.data, enumerable: true, writable: true, configurable: true });
    else bad.push([...path, '__proto__']);
  }
  return bad;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let cur = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Object.hasOwn(cur, p) ? Object.getOwnPropertyDescriptor(cur, p)!.value : undefined;
  }
  return cur;
}

function mapIssue(issue: z.core.$ZodIssue, root: unknown): SchemaFinding[] {
  const path = issue.path as (string | number)[];
  if (issue.code === 'invalid_union') return unionIssues(issue, path, root);
  const field = fieldName(path);
  const input = valueAt(root, path);
  const last = path[path.length - 1];
  if (issue.code === 'unrecognized_keys') {
    const allowed = KEYS_AT.find(([test]) => test(path))?.[1] ?? [];
    return issue.keys.map((key) => {
      const suggestion = closest(key, allowed) ?? (path.length === 2 ? nestedSuggestion(key) : undefined);
      return {
        path: [...path, key],
        at: 'key' as const,
        code: 'unknown_key' as const,
        message: `unknown key "${key}" in ${fieldName(path)}`,
        hint: suggestion ? `did you mean "${suggestion}"?` : `allowed keys: ${allowed.join(', ')}`,
      };
    });
  }
  if (path.length === 1 && last === 'version') {
    return [{ path, at: 'value', code: 'unsupported_version', message: `version ${JSON.stringify(input)} is not supported`, hint: 'use version: 1 or leave it out' }];
  }
  if (path.length === 3 && last === 'event' && issue.code === 'invalid_value' && input !== undefined) {
    const name = String(input);
    const found = lookupEvent(name);
    const suggestion = found.ok ? undefined : found.suggestion;
    return [{ path, at: 'value', code: 'unknown_event', message: `unknown event "${name}"`, ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}) }];
  }
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && input === undefined) {
    return [{ path, at: 'key', code: 'missing_field', message: `${field} is required` }];
  }
  if (path.length === 6 && path[3] === 'args' && issue.code === 'invalid_type') {
    return [{ path, at: 'value', code: 'non_string_matcher', message: `${field} must be a string, not ${typeName(input)}`, hint: `quote it: ${last}: "${String(input)}"` }];
  }
  if (issue.code === 'invalid_type') {
    const expected = typeof input === 'number' && !Number.isFinite(input) ? 'a finite number' : (expectedName[issue.expected] ?? issue.expected);
    return [{ path, at: 'value', code: 'invalid_type', message: `${field} must be ${expected}, not ${typeName(input)}` }];
  }
  if (issue.code === 'invalid_value') {
    const allowed = issue.values.map((v) => JSON.stringify(v));
    const suggestion = typeof input === 'string' ? closest(input, issue.values.map(String)) : undefined;
    return [{ path, at: 'value', code: 'invalid_value', message: `${field} is ${JSON.stringify(input)}; allowed: ${allowed.join(', ')}`, ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}) }];
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
    const what = Array.isArray(input) ? 'must not be empty' : typeof input === 'string' ? 'must not be empty' : `must be ${bound} ${issue.code === 'too_small' ? issue.minimum : issue.maximum}`;
    return [{ path, at: 'value', code: 'invalid_value', message: `${field} ${what} (got ${JSON.stringify(input)})` }];
  }
  return [{ path, at: 'value', code: 'invalid_value', message: `${field}: ${issue.message}` }];
}
