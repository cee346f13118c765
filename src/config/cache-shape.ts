// The shape a cache entry's value must have before `fire` trusts it. The
// entry is our own file, but another version, a crash or a hand edit can
// leave anything there; a value of the wrong shape is a miss, and rebuilt,
// never "no hooks" or an internal error.

import { AGENT_PROTOCOLS } from '../core/protocols/names.js';
import type { CachedFile } from './cache.js';

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (check: Check): Check => (v) => v === undefined || check(v);
const isString: Check = (v) => typeof v === 'string';
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isBoolean: Check = (v) => typeof v === 'boolean';
const listOf = (check: Check): Check => (v) => Array.isArray(v) && v.every(check);
const recordOf = (check: Check): Check => (v) => isObject(v) && Object.values(v).every(check);
// The field list is made once per shape, not on every value checked: `fire` checks each cached hook on every run.
const shape = (fields: Record<string, Check>): Check => {
  const entries = Object.entries(fields);
  return (v) => isObject(v) && entries.every(([k, check]) => check(Object.hasOwn(v, k) ? v[k] : undefined));
};
const oneOf = (...values: string[]): Check => (v) => typeof v === 'string' && values.includes(v);

const matcher = shape({ equals: optional(isString), contains: optional(isString), regex: optional(isString) });
const hook = shape({
  id: isString,
  event: isString,
  enabled: optional(isBoolean),
  description: optional(isString),
  match: optional(shape({
    profile: optional(isString),
    profiles: optional(listOf(isString)),
    tool_kind: optional(isString),
    tool_name: optional(isString),
    tool_names: optional(listOf(isString)),
    tool_name_regex: optional(isString),
    args: optional(recordOf(matcher)),
    fields: optional(recordOf(listOf(isString))),
    session_kinds: optional(listOf(isString)),
    max_context_tokens: optional(isNumber),
  })),
  run: shape({
    type: oneOf('script', 'command', 'shell'),
    path: optional(isString),
    argv: optional(listOf(isString)),
    shell: optional(isString),
    args: optional(listOf(isString)),
    env: optional(recordOf(isString)),
    cwd: optional(isString),
    prompt_file: optional(isString),
    protocol: optional(oneOf('chrys', ...AGENT_PROTOCOLS)),
  }),
  execution: optional(shape({
    mode: optional(oneOf('blocking', 'async', 'fire_and_forget')),
    detach: optional(isBoolean),
    delivery: optional(oneOf('best_effort', 'durable')),
    timeout_seconds: optional(isNumber),
    on_error: optional(oneOf('block', 'warn', 'ignore')),
    delay_seconds: optional(isNumber),
    once_per_session: optional(isBoolean),
  })),
});
const rawFile = shape({
  version: optional((v) => v === 1),
  settings: optional(recordOf(isNumber)),
  // A hook that failed the schema is stored as null, keeping the indexes.
  hooks: optional(listOf((h) => h === null || hook(h))),
});
const diagnostic = shape({
  path: isString,
  line: isNumber,
  column: isNumber,
  severity: oneOf('error', 'warning'),
  code: isString,
  message: isString,
  hint: optional(isString),
  hook: optional(isString),
  event: optional(isString),
});

const cachedFile = shape({ raw: (r) => r === null || rawFile(r), diagnostics: listOf(diagnostic) });
export const isCachedFile = (v: unknown): v is CachedFile => cachedFile(v);

export interface CachedTrust {
  enabled: boolean;
  problem?: string;
}

const cachedTrust = shape({ enabled: isBoolean, problem: optional(isString) });
export const isCachedTrust = (v: unknown): v is CachedTrust => cachedTrust(v);
