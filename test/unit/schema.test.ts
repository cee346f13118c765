// The hooks-file schema (core/schema.ts) on parsed data: each problem mapped
// to its contract code at its data path, with a message that names the field,
// what it must be and what it is, and a hint where one can be given.
import { describe, expect, it } from 'vitest';
import type { SchemaFinding } from '../../src/core/diagnostics.js';
import { checkHooksFile } from '../../src/core/schema.js';

const H = { id: 'a', event: 'session_start', run: { type: 'shell', shell: 'x' } };
const hook = (extra: Record<string, unknown>) => ({ hooks: [{ ...H, ...extra }] });
const findings = (data: unknown): SchemaFinding[] => checkHooksFile(data).findings;
const one = (data: unknown): string => {
  const f = findings(data);
  expect(f).toHaveLength(1);
  const [x] = f;
  return `${x!.code} ${x!.at} ${x!.path.join('.')}: ${x!.message}${x!.hint ? ` (${x!.hint})` : ''}`;
};

describe('a valid file', () => {
  it('has no findings and keeps what it holds', () => {
    expect(checkHooksFile(null)).toEqual({ value: {}, findings: [] });
    expect(checkHooksFile(undefined)).toEqual({ value: {}, findings: [] });
    expect(checkHooksFile({ version: 1 })).toEqual({ value: { version: 1 }, findings: [] });
    expect(checkHooksFile({ settings: { max_parallel_hooks: 64 }, hooks: [H] })).toEqual({ value: { settings: { max_parallel_hooks: 64 }, hooks: [H] }, findings: [] });
  });

  it('keeps the hooks that passed, by index, when others did not', () => {
    const r = checkHooksFile({ hooks: [{ ...H, enabled: 'x' }, H, null] });
    expect(r.value.hooks).toEqual([undefined, H, undefined]);
    expect(r.findings.map((f) => `${f.path.join('.')}: ${f.message}`)).toEqual(['hooks.0.enabled: hooks[0].enabled must be true or false, not string "x"', 'hooks.2: hooks[2] must be a mapping, not null']);
  });
});

describe('unknown keys', () => {
  it.each<[string, unknown, string]>([
    ['top level, close to a key', { hoks: [] }, 'unknown_key key hoks: unknown key "hoks" in the file (did you mean "hooks"?)'],
    ['top level, close to nothing', { zzzzzz: 1 }, 'unknown_key key zzzzzz: unknown key "zzzzzz" in the file (allowed keys: version, settings, hooks)'],
    ['settings', { settings: { qqqqq: 2 } }, 'unknown_key key settings.qqqqq: unknown key "qqqqq" in settings (allowed keys: shutdown_grace_seconds, max_parallel_hooks, outbox_retry_age_seconds, outbox_max_retries, outbox_retry_delay_seconds)'],
    ['settings, close to a key', { settings: { max_parallel_hook: 2 } }, 'unknown_key key settings.max_parallel_hook: unknown key "max_parallel_hook" in settings (did you mean "max_parallel_hooks"?)'],
    ['a hook, close to nothing', hook({ qqqqqqqq: 'x' }), 'unknown_key key hooks.0.qqqqqqqq: unknown key "qqqqqqqq" in hooks[0] (allowed keys: id, event, enabled, locked, description, match, run, execution)'],
    ['a hook, close to a hook key', hook({ enabld: true }), 'unknown_key key hooks.0.enabld: unknown key "enabld" in hooks[0] (did you mean "enabled"?)'],
    ['a hook, belonging in execution', hook({ timeout_seconds: 3 }), 'unknown_key key hooks.0.timeout_seconds: unknown key "timeout_seconds" in hooks[0] (did you mean "execution.timeout_seconds"?)'],
    ['a hook, belonging in run', hook({ shel: 'x' }), 'unknown_key key hooks.0.shel: unknown key "shel" in hooks[0] (did you mean "run.shell"?)'],
    ['a hook, belonging in match', hook({ tool_name: 'x' }), 'unknown_key key hooks.0.tool_name: unknown key "tool_name" in hooks[0] (did you mean "match.tool_name"?)'],
    ['match', hook({ match: { tool: 'x' } }), 'unknown_key key hooks.0.match.tool: unknown key "tool" in hooks[0].match (did you mean "tool_kind"?)'],
    ['match, close to nothing', hook({ match: { qqqqqqqq: 'x' } }), 'unknown_key key hooks.0.match.qqqqqqqq: unknown key "qqqqqqqq" in hooks[0].match (allowed keys: profile, profiles, tool_kind, tool_name, tool_names, tool_name_regex, args, command, fields, session_kinds, max_context_tokens)'],
    ['an argument matcher', hook({ match: { args: { p: { equal: 'x' } } } }), 'unknown_key key hooks.0.match.args.p.equal: unknown key "equal" in hooks[0].match.args.p (did you mean "equals"?)'],
    ['an argument matcher, close to nothing', hook({ match: { args: { p: { qqqqqqqq: 'x' } } } }), 'unknown_key key hooks.0.match.args.p.qqqqqqqq: unknown key "qqqqqqqq" in hooks[0].match.args.p (allowed keys: equals, contains, regex)'],
    ['run', hook({ run: { type: 'shell', shell: 'x', cmd: 'y' } }), 'unknown_key key hooks.0.run.cmd: unknown key "cmd" in hooks[0].run (did you mean "cwd"?)'],
    ['run, close to nothing', hook({ run: { type: 'shell', shell: 'x', qqqqqqqq: 'y' } }), 'unknown_key key hooks.0.run.qqqqqqqq: unknown key "qqqqqqqq" in hooks[0].run (allowed keys: type, path, argv, shell, args, env, cwd, prompt_file, protocol)'],
    ['execution', hook({ execution: { mod: 'async' } }), 'unknown_key key hooks.0.execution.mod: unknown key "mod" in hooks[0].execution (did you mean "mode"?)'],
    ['execution, close to nothing', hook({ execution: { qqqqqqqq: 1 } }), 'unknown_key key hooks.0.execution.qqqqqqqq: unknown key "qqqqqqqq" in hooks[0].execution (allowed keys: mode, detach, delivery, timeout_seconds, on_error, delay_seconds, once_per_session, portable)'],
  ])('in %s', (_name, data, expected) => expect(one(data)).toBe(expected));

  it('suggests the first nested object that has the key, and only at hook level', () => {
    expect(findings(hook({ args: ['x'] }))[0]!.hint).toBe('did you mean "run.args"?');
    expect(findings(hook({ env: {} }))[0]!.hint).toBe('did you mean "run.env"?');
    expect(findings(hook({ profile: 'p' }))[0]!.hint).toBe('did you mean "match.profile"?');
    expect(findings({ timeout_seconds: 3 })[0]!.hint).toBe('allowed keys: version, settings, hooks');
    expect(findings(hook({ run: { ...H.run, timeout_seconds: 3 } }))[0]!.hint).toMatch(/^allowed keys: type, /);
  });

  it('reports each unknown key of one object', () => {
    expect(findings({ hoks: [], vesion: 1 }).map((f) => f.path.join('.'))).toEqual(['hoks', 'vesion']);
  });
});

describe('version, event and required fields', () => {
  it.each<[string, unknown, string]>([
    ['version 2', { version: 2 }, 'unsupported_version value version: version 2 is not supported (use version: 1 or leave it out)'],
    ['version "1"', { version: '1' }, 'unsupported_version value version: version "1" is not supported (use version: 1 or leave it out)'],
    ['a misspelt event', hook({ event: 'sesion_start' }), 'unknown_event value hooks.0.event: unknown event "sesion_start" (did you mean "session_start"?)'],
    ['an unknown event like no other', hook({ event: 'zzzzzzzzzzzzzz' }), 'unknown_event value hooks.0.event: unknown event "zzzzzzzzzzzzzz"'],
    ['a number as event', hook({ event: 5 }), 'unknown_event value hooks.0.event: unknown event "5"'],
    ['a hook without id', { hooks: [{ event: 'session_start', run: H.run }] }, 'missing_field key hooks.0.id: hooks[0].id is required'],
    ['a hook without event', { hooks: [{ id: 'a', run: H.run }] }, 'missing_field key hooks.0.event: hooks[0].event is required'],
    ['a run without type', hook({ run: { shell: 'x' } }), 'missing_field key hooks.0.run.type: hooks[0].run.type is required'],
  ])('%s', (_name, data, expected) => expect(one(data)).toBe(expected));
});

describe('types', () => {
  it.each<[string, unknown, string]>([
    ['a string for a boolean', hook({ enabled: 'yes' }), 'hooks[0].enabled must be true or false, not string "yes"'],
    ['a number for a boolean', hook({ enabled: 1 }), 'hooks[0].enabled must be true or false, not number 1'],
    ['null for a string', hook({ description: null }), 'hooks[0].description must be a string, not null'],
    ['a list for a string', hook({ description: [] }), 'hooks[0].description must be a string, not a list'],
    ['a mapping for a string', hook({ description: {} }), 'hooks[0].description must be a string, not a mapping'],
    ['a boolean for a number', hook({ execution: { timeout_seconds: true } }), 'hooks[0].execution.timeout_seconds must be a number, not boolean true'],
    ['Infinity for a number', hook({ execution: { timeout_seconds: Number.POSITIVE_INFINITY } }), 'hooks[0].execution.timeout_seconds must be a finite number, not Infinity'],
    ['NaN for a number', hook({ execution: { timeout_seconds: Number.NaN } }), 'hooks[0].execution.timeout_seconds must be a finite number, not NaN'],
    ['a fraction for a whole number', { settings: { max_parallel_hooks: 1.5 } }, 'settings.max_parallel_hooks must be a whole number, not number 1.5'],
    ['a string for a list', hook({ match: { profiles: 'x' } }), 'hooks[0].match.profiles must be a list, not string "x"'],
    ['a string for a mapping', hook({ match: 'x' }), 'hooks[0].match must be a mapping, not string "x"'],
    ['a list for a record', hook({ run: { ...H.run, env: [] } }), 'hooks[0].run.env must be a mapping, not a list'],
    ['a mapping for the hooks list', { hooks: {} }, 'hooks must be a list, not a mapping'],
    ['a list for the file', [], 'the file must be a mapping, not a list'],
    ['a string for the file', 'x', 'the file must be a mapping, not string "x"'],
  ])('%s', (_name, data, message) => expect(one(data)).toBe(`invalid_type value ${findings(data)[0]!.path.join('.')}: ${message}`));

  it('asks for a non-string matcher to be quoted', () => {
    expect(one(hook({ match: { args: { n: { equals: 10 } } } }))).toBe('non_string_matcher value hooks.0.match.args.n.equals: hooks[0].match.args.n.equals must be a string, not number 10 (quote it: equals: "10")');
    expect(one(hook({ match: { args: { n: { regex: true } } } }))).toBe('non_string_matcher value hooks.0.match.args.n.regex: hooks[0].match.args.n.regex must be a string, not boolean true (quote it: regex: "true")');
  });
});

describe('values', () => {
  it.each<[string, unknown, string]>([
    ['a misspelt enum value', hook({ execution: { mode: 'blockin' } }), 'hooks[0].execution.mode is "blockin"; allowed: "blocking", "async", "fire_and_forget" (did you mean "blocking"?)'],
    ['an enum value like no other', hook({ execution: { mode: 'zzzzzzzz' } }), 'hooks[0].execution.mode is "zzzzzzzz"; allowed: "blocking", "async", "fire_and_forget"'],
    ['a number for an enum', hook({ execution: { mode: 5 } }), 'hooks[0].execution.mode is 5; allowed: "blocking", "async", "fire_and_forget"'],
    ['a timeout of 0', hook({ execution: { timeout_seconds: 0 } }), 'hooks[0].execution.timeout_seconds must be > 0 (got 0)'],
    ['a timeout over a day', hook({ execution: { timeout_seconds: 86401 } }), 'hooks[0].execution.timeout_seconds must be <= 86400 (got 86401)'],
    ['a delay over a day', hook({ execution: { delay_seconds: 86401 } }), 'hooks[0].execution.delay_seconds must be <= 86400 (got 86401)'],
    ['a negative delay', hook({ execution: { delay_seconds: -1 } }), 'hooks[0].execution.delay_seconds must be >= 0 (got -1)'],
    ['a negative token limit', hook({ match: { max_context_tokens: -1 } }), 'hooks[0].match.max_context_tokens must be >= 0 (got -1)'],
    ['no parallelism', { settings: { max_parallel_hooks: 0 } }, 'settings.max_parallel_hooks must be >= 1 (got 0)'],
    ['too much parallelism', { settings: { max_parallel_hooks: 65 } }, 'settings.max_parallel_hooks must be <= 64 (got 65)'],
    ['a negative grace', { settings: { shutdown_grace_seconds: -1 } }, 'settings.shutdown_grace_seconds must be >= 0 (got -1)'],
    ['a negative retry age', { settings: { outbox_retry_age_seconds: -1 } }, 'settings.outbox_retry_age_seconds must be >= 0 (got -1)'],
    ['negative retries', { settings: { outbox_max_retries: -1 } }, 'settings.outbox_max_retries must be >= 0 (got -1)'],
    ['a negative retry delay', { settings: { outbox_retry_delay_seconds: -0.5 } }, 'settings.outbox_retry_delay_seconds must be >= 0 (got -0.5)'],
    ['an empty argv', hook({ run: { type: 'command', argv: [] } }), 'hooks[0].run.argv must not be empty (got [])'],
    ['an empty path', hook({ run: { type: 'script', path: '' } }), 'hooks[0].run.path must not be empty (got "")'],
    ['an empty shell', hook({ run: { type: 'shell', shell: '' } }), 'hooks[0].run.shell must not be empty (got "")'],
    ['an unknown protocol', hook({ run: { ...H.run, protocol: 'windsurf' } }), 'hooks[0].run.protocol is "windsurf"; allowed: "chrys", "claude", "codex", "gemini", "cursor", "copilot"'],
  ])('%s', (_name, data, message) => expect(one(data)).toBe(`invalid_value value ${findings(data)[0]!.path.join('.')}: ${message}`));

  it.each<[string, unknown]>([
    ['a timeout of a day', hook({ execution: { timeout_seconds: 86400 } })],
    ['a delay of a day', hook({ execution: { delay_seconds: 86400 } })],
    ['a tiny timeout', hook({ execution: { timeout_seconds: 0.001 } })],
    ['64 at a time', { settings: { max_parallel_hooks: 64 } }],
    ['one at a time, no grace, no retries', { settings: { max_parallel_hooks: 1, shutdown_grace_seconds: 0, outbox_max_retries: 0, outbox_retry_age_seconds: 0, outbox_retry_delay_seconds: 0 } }],
    ['a token limit of 0', hook({ match: { max_context_tokens: 0 } })],
    ['a 512-character id with spaces around it', hook({ id: ` ${'x'.repeat(512)} ` })],
    ['every field of a hook', hook({ enabled: false, locked: true, description: 'd', match: { profile: 'p', profiles: ['p'], tool_kind: 'k', tool_name: 'n', tool_names: ['n'], tool_name_regex: 'n', args: { a: { equals: 'e', contains: 'c', regex: 'r' } }, session_kinds: ['cron'] }, run: { type: 'command', argv: ['x'], args: ['y'], env: { A: 'b' }, cwd: 'c', prompt_file: 'p.md', protocol: 'claude' }, execution: { mode: 'async', detach: false, delivery: 'durable', on_error: 'block', once_per_session: true } })],
  ])('accepts %s', (_name, data) => expect(findings(data)).toEqual([]));

  it.each<[string, string]>([
    ['empty', ''],
    ['blank', '   '],
    ['with a control character', 'a\u0001b'],
    ['with a DEL', 'a\u007f'],
    ['with a newline', 'a\nb'],
    ['513 characters long', 'x'.repeat(513)],
  ])('rejects an id that is %s', (_name, id) => {
    const f = findings(hook({ id }));
    expect(f.at(-1)).toEqual({ path: ['hooks', 0, 'id'], at: 'value', code: 'invalid_value', message: 'hooks[0].id: must be 1 to 512 characters after trimming, with no control characters' });
  });
});

describe('"__proto__" keys', () => {
  it('keeps an argument or a variable named "__proto__" as data', () => {
    const args = checkHooksFile(hook({ match: { args: JSON.parse('{"__proto__":{"equals":"x"},"b":{"contains":"y"}}') } }));
    expect(args.findings).toEqual([]);
    const matchArgs = args.value.hooks![0]!.match!.args!;
    expect(Object.hasOwn(matchArgs, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(matchArgs, '__proto__')!.value).toEqual({ equals: 'x' });
    expect(Object.keys(matchArgs)).toEqual(['b', '__proto__']);
    expect(Object.getPrototypeOf(matchArgs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(matchArgs, '__proto__')).toEqual(Object.getOwnPropertyDescriptor(JSON.parse('{"__proto__":{"equals":"x"}}'), '__proto__'));
    const env = checkHooksFile(hook({ run: { ...H.run, env: JSON.parse('{"__proto__":"v"}') } })).value.hooks![0]!.run.env!;
    expect(Object.getOwnPropertyDescriptor(env, '__proto__')!.value).toBe('v');
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
  });

  it('rejects a "__proto__" entry of the wrong type, and drops the hook', () => {
    const args = checkHooksFile(hook({ match: { args: JSON.parse('{"__proto__":{"equals":5}}') } }));
    expect(args.findings).toEqual([{ path: ['hooks', 0, 'match', 'args', '__proto__'], at: 'value', code: 'invalid_type', message: 'hooks[0].match.args.__proto__ has the wrong type' }]);
    expect(args.value.hooks).toEqual([undefined]);
    const env = checkHooksFile(hook({ run: { ...H.run, env: JSON.parse('{"__proto__":5}') } }));
    expect(env.findings.map((f) => f.message)).toEqual(['hooks[0].run.env.__proto__ has the wrong type']);
  });

  it('leaves records without a "__proto__" key as zod built them', () => {
    const r = checkHooksFile(hook({ match: { args: { a: { equals: 'x' } } }, run: { ...H.run, env: { A: 'b' } } }));
    expect(r.findings).toEqual([]);
    expect(r.value.hooks![0]!.match!.args).toEqual({ a: { equals: 'x' } });
    expect(r.value.hooks![0]!.run.env).toEqual({ A: 'b' });
  });
});
