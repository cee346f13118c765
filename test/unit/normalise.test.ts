// The semantic load-time rules (core/normalise.ts), on schema-checked data:
// the defaults a hook gets, each rule's finding at its path, and which hooks
// are loaded, left out or dropped.
import { describe, expect, it } from 'vitest';
import type { Layer } from '../../src/core/config.js';
import { type RuleFinding, normaliseHooksFile } from '../../src/core/normalise.js';
import { checkHooksFile } from '../../src/core/schema.js';

const H = { id: 'a', event: 'session_start', run: { type: 'shell', shell: 'x' } };
const normalise = (data: unknown, source: Layer = 'global') => {
  const checked = checkHooksFile(data);
  expect(checked.findings).toEqual([]);
  return normaliseHooksFile(checked.value, source, '/cfg/hooks.yaml');
};
const ofHook = (extra: Record<string, unknown>, source: Layer = 'global') => normalise({ hooks: [{ ...H, ...extra }] }, source);
const show = (f: RuleFinding): string => `${f.severity} ${f.code} ${f.path.join('.')}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`;
const shown = (r: ReturnType<typeof normalise>): string[] => r.findings.map(show);

describe('defaults', () => {
  it('fills in every default of a minimal hook', () => {
    const r = ofHook({});
    expect(r.findings).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.settings).toEqual({});
    expect(r.hooks).toStrictEqual([
      {
        id: 'a',
        event: 'session_start',
        enabled: true,
        description: '',
        match: undefined,
        run: { type: 'shell', shell: 'x', env: {}, cwd: '' },
        execution: { mode: 'fire_and_forget', detach: false, delivery: 'best_effort', timeout_seconds: 30, on_error: 'warn', delay_seconds: 0, once_per_session: false },
        source: 'global',
        file: '/cfg/hooks.yaml',
        index: 0,
      },
    ]);
  });

  it('keeps what the file sets', () => {
    const r = ofHook({
      id: '  spaced  ',
      enabled: false,
      description: 'd',
      run: { type: 'script', path: 'p.sh', args: ['1'], env: { A: 'b' }, cwd: 'sub', prompt_file: 'docs/p.md', protocol: 'codex' },
      execution: { mode: 'async', delivery: 'durable', timeout_seconds: 2, on_error: 'block', delay_seconds: 7, once_per_session: true },
    });
    expect(r.findings).toEqual([]);
    expect(r.hooks[0]).toMatchObject({
      id: 'spaced',
      enabled: false,
      description: 'd',
      run: { type: 'script', path: 'p.sh', args: ['1'], env: { A: 'b' }, cwd: 'sub', prompt_file: 'docs/p.md', protocol: 'codex' },
      execution: { mode: 'async', detach: false, delivery: 'durable', timeout_seconds: 2, on_error: 'block', delay_seconds: 7, once_per_session: true },
    });
  });

  it('gives a command its argv and args, and drops the default chrys protocol', () => {
    const r = ofHook({ run: { type: 'command', argv: ['node', 'x.js'], protocol: 'chrys' } });
    expect(r.hooks[0]!.run).toStrictEqual({ type: 'command', argv: ['node', 'x.js'], args: [], env: {}, cwd: '' });
    expect(ofHook({ run: { type: 'script', path: 'p' } }).hooks[0]!.run).toEqual({ type: 'script', path: 'p', args: [], env: {}, cwd: '' });
  });

  it('detaches a fire_and_forget hook', () => {
    expect(ofHook({ execution: { detach: true } }).hooks[0]!.execution).toMatchObject({ mode: 'fire_and_forget', detach: true });
  });

  it('takes only the known settings', () => {
    const r = normalise({ settings: { max_parallel_hooks: 2, outbox_max_retries: 0, shutdown_grace_seconds: 1, outbox_retry_age_seconds: 3, outbox_retry_delay_seconds: 4 } });
    expect(r.settings).toEqual({ max_parallel_hooks: 2, outbox_max_retries: 0, shutdown_grace_seconds: 1, outbox_retry_age_seconds: 3, outbox_retry_delay_seconds: 4 });
    expect(normalise({ settings: {} }).settings).toEqual({});
  });

  it('numbers hooks by their place in the file and skips entries that failed the schema', () => {
    const r = normaliseHooksFile({ hooks: [undefined, { ...H, id: 'b' } as never, { ...H, id: 'c' } as never] }, 'project', '/p/hooks.yaml');
    expect(r.hooks.map((h) => [h.id, h.index, h.source, h.file])).toEqual([
      ['b', 1, 'project', '/p/hooks.yaml'],
      ['c', 2, 'project', '/p/hooks.yaml'],
    ]);
    expect(r.findings).toEqual([]);
    expect(normaliseHooksFile({}, 'global', '/g').hooks).toEqual([]);
  });
});

describe('ids and events', () => {
  it('reports a duplicate id after trimming, naming the first use', () => {
    const r = normalise({ hooks: [H, { ...H, event: 'after_turn' }, { ...H, id: ' a ' }] });
    expect(shown(r)).toEqual(['error duplicate_id hooks.1.id: duplicate id "a" (first used by hooks[0]) (ids must be unique within a file)', 'error duplicate_id hooks.2.id: duplicate id "a" (first used by hooks[0]) (ids must be unique within a file)']);
    expect(r.findings[0]).toMatchObject({ hook: 'a' });
  });

  it('loads an alias under its canonical event, with a warning', () => {
    const r = ofHook({ event: 'PreToolUse', match: { tool_name: 'Bash' } });
    expect(shown(r)).toEqual(['warning event_alias hooks.0.event: event "PreToolUse" is an alias of "before_tool_call" (write event: before_tool_call)']);
    expect(r.findings[0]).toMatchObject({ hook: 'a', event: 'before_tool_call' });
    expect(r.hooks[0]!.event).toBe('before_tool_call');
  });

  it('reports a finding with the hook and its event', () => {
    expect(ofHook({ execution: { mode: 'async', detach: true } }).findings[0]).toMatchObject({ hook: 'a', event: 'session_start', at: 'value' });
  });
});

describe('entries the schema rejected', () => {
  it('adds no finding for a hook whose event the schema already reported', () => {
    const r = normaliseHooksFile({ hooks: [{ ...H, event: 'no_such_event' } as never, { ...H, id: 'b' } as never] }, 'global', '/g');
    expect(r.findings).toEqual([]);
    expect(r.hooks.map((h) => h.id)).toEqual(['b']);
  });
});

describe('execution rules', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['detach with async', { mode: 'async', detach: true }, ['error invalid_combination hooks.0.execution.detach: detach needs mode fire_and_forget, not async']],
    ['detach with blocking', { mode: 'blocking', detach: true }, ['error invalid_combination hooks.0.execution.detach: detach needs mode fire_and_forget, not blocking']],
    ['a delay without durable delivery', { mode: 'async', delay_seconds: 5 }, ['error invalid_combination hooks.0.execution.delay_seconds: delay_seconds needs delivery: durable and a non-blocking mode']],
    ['a delay on a blocking hook', { mode: 'blocking', delivery: 'durable', delay_seconds: 5 }, [
      'error invalid_combination hooks.0.execution.delay_seconds: delay_seconds needs delivery: durable and a non-blocking mode',
      'warning durable_ignored hooks.0.execution.delivery: a blocking hook cannot be durable; delivery: durable is ignored',
    ]],
  ])('drops a hook with %s', (_name, execution, expected) => {
    const r = ofHook({ execution });
    expect(shown(r)).toEqual(expected);
    expect(r.hooks).toEqual([]);
    expect(r.skipped).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a delay of 0 on a blocking hook', { mode: 'blocking', delay_seconds: 0 }],
    ['a delay on a durable async hook', { mode: 'async', delivery: 'durable', delay_seconds: 5 }],
    ['a delay on a durable fire_and_forget hook', { delivery: 'durable', delay_seconds: 5 }],
    ['detach: false on a blocking hook', { mode: 'blocking', detach: false }],
  ])('accepts %s', (_name, execution) => {
    const r = ofHook({ execution });
    expect(r.findings).toEqual([]);
    expect(r.hooks).toHaveLength(1);
  });

  it('loads a blocking durable hook as best effort, with a warning', () => {
    const r = ofHook({ execution: { mode: 'blocking', delivery: 'durable' } });
    expect(shown(r)).toEqual(['warning durable_ignored hooks.0.execution.delivery: a blocking hook cannot be durable; delivery: durable is ignored']);
    expect(r.hooks[0]!.execution.delivery).toBe('best_effort');
  });
});

describe('run rules', () => {
  it('reports each field that does not fit the run type', () => {
    const r = ofHook({ run: { type: 'shell', shell: 'x', path: 'p', argv: ['a'], args: ['a'] } });
    expect(shown(r)).toEqual([
      'error run_type_mismatch hooks.0.run.path: run.path does not fit run type "shell" (it takes shell)',
      'error run_type_mismatch hooks.0.run.argv: run.argv does not fit run type "shell" (it takes shell)',
      'error run_type_mismatch hooks.0.run.args: run.args does not fit run type "shell" (it takes shell)',
    ]);
    expect(r.hooks).toEqual([]);
    expect(shown(ofHook({ run: { type: 'script', path: 'p', shell: 'x' } }))).toEqual(['error run_type_mismatch hooks.0.run.shell: run.shell does not fit run type "script" (it takes path, args)']);
    expect(shown(ofHook({ run: { type: 'command', argv: ['x'], path: 'p' } }))).toEqual(['error run_type_mismatch hooks.0.run.path: run.path does not fit run type "command" (it takes argv, args)']);
  });

  it.each<[string, string]>([
    ['script', 'path'],
    ['command', 'argv'],
    ['shell', 'shell'],
  ])('needs a %s run to say its %s', (type, field) => {
    const r = ofHook({ run: { type } });
    expect(shown(r)).toEqual([`error missing_field hooks.0.run: run.${field} is required for run type "${type}"`]);
    expect(r.hooks).toEqual([]);
  });

  it.each(['a.txt', 'a.md.bak', '../a.md', 'a/../b.md', 'a\\..\\b.md', '..'])('rejects prompt_file %j', (file) => {
    const r = ofHook({ run: { ...H.run, prompt_file: file } });
    expect(shown(r)).toEqual([`error invalid_prompt_file hooks.0.run.prompt_file: prompt_file "${file}" must end in .md and must not contain ".."`]);
    expect(r.hooks).toEqual([]);
  });

  it.each(['a.md', 'docs/a..b.md', '..a.md', 'x/.md'])('accepts prompt_file %j', (file) => {
    expect(ofHook({ run: { ...H.run, prompt_file: file } }).hooks[0]!.run.prompt_file).toBe(file);
  });
});

describe('locked', () => {
  it('locks a global hook that asks for it', () => {
    expect(ofHook({ locked: true }).hooks[0]!.locked).toBe(true);
    expect(ofHook({ locked: false }).hooks[0]).not.toHaveProperty('locked');
  });

  it('refuses locked in a project file, true or false, and does not lock the hook', () => {
    for (const locked of [true, false]) {
      const r = ofHook({ locked }, 'project');
      expect(shown(r)).toEqual(['error locked_in_project hooks.0.locked: hook "a": locked is allowed only in the global hooks file (a project cannot stop its users from skipping its hooks; remove locked)']);
      expect(r.hooks[0]).not.toHaveProperty('locked');
    }
  });
});

describe('match rules', () => {
  it('warns that a before_tool_call hook without a match runs on every call', () => {
    for (const match of [undefined, {}]) {
      const r = ofHook({ event: 'before_tool_call', ...(match ? { match } : {}) });
      expect(shown(r)).toEqual(['warning broad_match hooks.0: hook "a" runs before every tool call (add a match: clause (tool_name, tool_kind or args))']);
    }
    expect(ofHook({ event: 'before_tool_call', match: { profile: 'p' } }).findings).toEqual([]);
    expect(ofHook({ event: 'after_tool_call' }).findings).toEqual([]);
  });

  it('warns about each tool filter on an event without a tool', () => {
    const r = ofHook({ match: { profile: 'p', tool_kind: 'k', tool_name: 'n', tool_names: ['n'], tool_name_regex: 'n', args: {}, session_kinds: ['cron'] } });
    expect(shown(r)).toEqual(['tool_kind', 'tool_name', 'tool_names', 'tool_name_regex', 'args'].map((k) => `warning tool_filter_never_matches hooks.0.match.${k}: ${k} never matches: event session_start carries no tool`));
    expect(r.hooks).toHaveLength(1);
    expect(ofHook({ event: 'after_tool_call', match: { tool_name: 'n' } }).findings).toEqual([]);
  });

  it('compiles the matchers of a hook', () => {
    const r = ofHook({ event: 'before_tool_call', match: { tool_name_regex: 'Edit|Write', args: { path: { equals: 'a', contains: 'b', regex: '\\.env$' }, mode: { contains: 'w' } } } });
    const m = r.hooks[0]!.match!;
    expect(m.toolMatcher).toEqual({ kind: 'names', names: ['Edit', 'Write'] });
    expect(m.args!.path).toMatchObject({ equals: 'a', contains: 'b', regexSource: '\\.env$' });
    expect(m.args!.path!.regex!.test('x/.env')).toBe(true);
    expect(m.args!.path).not.toHaveProperty('regexBounded');
    expect(m.args!.mode).toStrictEqual({ contains: 'w' });
    expect(ofHook({ match: { profile: 'p' } }).hooks[0]!.match).toStrictEqual({ profile: 'p' });
    expect(Object.getPrototypeOf(m.args)).toBeNull();
  });

  it('runs a pattern not proven linear under the time budget', () => {
    expect(ofHook({ event: 'before_tool_call', match: { args: { p: { regex: '(a+)+$' } } } }).hooks[0]!.match!.args!.p).toMatchObject({ regexBounded: true, regexSource: '(a+)+$' });
  });

  it('leaves out an enabled hook with an invalid regex, as an error that names the syntax', () => {
    const args = ofHook({ event: 'before_tool_call', match: { args: { p: { regex: '(' } } } });
    expect(shown(args)).toEqual(['error invalid_regex hooks.0.match.args.p.regex: hook "a" is left out: regex `(` is invalid: Unterminated group (fix the pattern, written in Python re syntax)']);
    expect(args.hooks).toEqual([]);
    expect(args.skipped.map((h) => h.id)).toEqual(['a']);
    const tool = ofHook({ event: 'before_tool_call', match: { tool_name_regex: '(' } });
    expect(shown(tool)).toEqual(['error invalid_regex hooks.0.match.tool_name_regex: hook "a" is left out: regex `(` is invalid: Invalid regular expression: /(/: Unterminated group (fix the pattern, written in JavaScript RegExp (Claude Code matcher) syntax)']);
    expect(tool.skipped.map((h) => h.id)).toEqual(['a']);
  });

  it('leaves out a hook whose regex has no JavaScript translation, as a warning', () => {
    const r = ofHook({ event: 'before_tool_call', match: { args: { p: { regex: '(?>a)' } } } });
    expect(r.findings).toMatchObject([{ severity: 'warning', code: 'hook_skipped', path: ['hooks', 0, 'match', 'args', 'p', 'regex'], message: expect.stringMatching(/^hook "a" is left out: regex `\(\?>a\)` has no JavaScript translation: /) }]);
    expect(r.findings[0]).not.toHaveProperty('hint');
    expect(r.skipped.map((h) => h.id)).toEqual(['a']);
  });

  it('loads a disabled hook with a bad regex quietly: it never runs', () => {
    const r = ofHook({ event: 'before_tool_call', enabled: false, match: { args: { p: { regex: '(' } } } });
    expect(r.findings).toEqual([]);
    expect(r.hooks.map((h) => h.id)).toEqual(['a']);
    expect(r.skipped).toEqual([]);
  });
});
