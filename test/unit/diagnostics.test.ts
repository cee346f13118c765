// The load's one diagnostics list as fire, list and resolve report it (core/diagnostics.ts).
import { describe, expect, it } from 'vitest';
import { type Diagnostic, ERROR_CODES, FIRE_LOAD_WARNINGS, HOOK_LEVEL_ERRORS, WARNING_CODES, fromWarning, loadWarnings, toWarning } from '../../src/core/diagnostics.js';

const at = (path: string, line: number, extra: Partial<Diagnostic>): Diagnostic => ({ path, line, column: 3, severity: 'warning', code: 'broad_match', message: 'm', ...extra });

describe('loadWarnings', () => {
  it('keeps every finding of a loaded file, in order, with its hook, event, layer and position', () => {
    const d = at('/g.yaml', 4, { hook: 'h', event: 'before_tool_call', source: 'global', hint: 'add a match' });
    expect(loadWarnings([d])).toEqual([{ code: 'broad_match', message: 'm (add a match)', path: '/g.yaml', line: 4, column: 3, hook: 'h', event: 'before_tool_call', source: 'global' }]);
  });

  it('reports a file an error turned off as one warning, where its first diagnostic was, naming the first error', () => {
    const dormant = at('/p/hooks.yaml', 1, { code: 'project_hooks_dormant' });
    const findings = [
      at('/p2.yaml', 2, { code: 'event_alias', source: 'project' }),
      at('/p2.yaml', 5, { code: 'unknown_key', severity: 'error', source: 'project', hint: 'did you mean x?' }),
      at('/p2.yaml', 6, { code: 'invalid_regex', severity: 'error', source: 'project' }),
      at('/p2.yaml', 9, { code: 'missing_field', severity: 'error', source: 'project' }),
    ];
    const after = at('/g.yaml', 1, { code: 'durable_ignored', source: 'global' });
    const warnings = loadWarnings([dormant, ...findings, after]);
    expect(warnings.map((w) => w.code)).toEqual(['project_hooks_dormant', 'project_hooks_config_invalid', 'durable_ignored']);
    expect(warnings[1]).toEqual({
      code: 'project_hooks_config_invalid',
      path: '/p2.yaml',
      line: 5,
      column: 3,
      source: 'project',
      message: 'project hooks file /p2.yaml is invalid and was not loaded: 5:3 [unknown_key] m (did you mean x?) (and 1 more); run `chrys-hooks validate /p2.yaml`',
    });
  });

  it('names a global file by its own code, and counts nothing more for a single error', () => {
    const [w] = loadWarnings([at('/g.yaml', 1, { code: 'syntax_error', severity: 'error', source: 'global', column: 1 })]);
    expect(w).toMatchObject({ code: 'hooks_config_invalid', message: 'global hooks file /g.yaml is invalid and was not loaded: 1:1 [syntax_error] m; run `chrys-hooks validate /g.yaml`' });
  });

  it('reports a hook a hook-level error left out as hook_skipped, and keeps its file on', () => {
    const warnings = loadWarnings([at('/g.yaml', 3, { code: 'invalid_regex', severity: 'error', source: 'global', hook: 'bad' }), at('/g.yaml', 8, { source: 'global' })]);
    expect(warnings).toMatchObject([{ code: 'hook_skipped', hook: 'bad', source: 'global', line: 3 }, { code: 'broad_match', line: 8 }]);
  });

  it('does not fold an error that belongs to no hooks file', () => {
    const error = at('/x.yaml', 1, { code: 'file_not_found', severity: 'error' });
    expect(loadWarnings([error])).toStrictEqual([{ code: 'file_not_found', message: 'm', path: '/x.yaml', line: 1, column: 3 }]);
  });
});

describe('fromWarning', () => {
  it('places a helper warning at the start of the file it names, as a warning, and gives it back with no position', () => {
    const placed = fromWarning({ code: 'trust_record_invalid', path: '/t.json', message: 'm' });
    expect(placed).toStrictEqual({ path: '/t.json', line: 1, column: 1, wholeFile: true, severity: 'warning', code: 'trust_record_invalid', message: 'm' });
    expect(toWarning(placed)).toStrictEqual({ code: 'trust_record_invalid', path: '/t.json', message: 'm' });
    expect(toWarning(fromWarning({ code: 'hook_skipped', path: '/g', message: 'm', hook: 'h', event: 'e', source: 'project', line: 2, column: 4 }))).toStrictEqual({ code: 'hook_skipped', path: '/g', message: 'm', hook: 'h', event: 'e', source: 'project', line: 2, column: 4 });
  });
});

const diag = (extra: Partial<Diagnostic> = {}): Diagnostic => ({ path: '/h/hooks.yaml', line: 3, column: 7, severity: 'warning', code: 'broad_match', message: 'runs everywhere', ...extra });

describe('toWarning', () => {
  it('keeps the position and folds the hint into the message', () => {
    expect(toWarning(diag({ hint: 'add a match' }))).toEqual({ code: 'broad_match', message: 'runs everywhere (add a match)', path: '/h/hooks.yaml', line: 3, column: 7 });
  });

  it('copies the hook and event only when the diagnostic has them', () => {
    expect(toWarning(diag({ hook: 'g', event: 'before_tool_call' }))).toEqual({ code: 'broad_match', message: 'runs everywhere', path: '/h/hooks.yaml', line: 3, column: 7, hook: 'g', event: 'before_tool_call' });
    const bare = toWarning(diag());
    expect(Object.keys(bare).sort()).toEqual(['code', 'column', 'line', 'message', 'path']);
    expect(bare.message).toBe('runs everywhere');
  });
});

describe('the code lists', () => {
  it('keep errors and warnings apart, each code once', () => {
    const all = [...ERROR_CODES, ...WARNING_CODES];
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((c) => /^[a-z]+(_[a-z]+)*$/.test(c))).toBe(true);
    expect(ERROR_CODES).toContain('syntax_error');
    expect(WARNING_CODES).toContain('hook_skipped');
  });

  it('leave out only single hooks for a bad regex', () => {
    expect([...HOOK_LEVEL_ERRORS]).toEqual(['invalid_regex']);
  });

  it.each([
    'project_hooks_dormant',
    'hooks_config_invalid',
    'project_hooks_config_invalid',
    'hook_skipped',
    'duplicate_hook_id',
    'durable_ignored',
    'settings_invalid',
    'config_dir_not_found',
    'workspace_not_found',
    'shadowed_file',
    'project_hooks_changed',
    'trust_record_invalid',
  ] as const)('make fire report the load warning %s, which changes what a firing does', (code) => {
    expect(FIRE_LOAD_WARNINGS.has(code)).toBe(true);
    expect(WARNING_CODES).toContain(code);
  });

  it.each(['broad_match', 'event_alias', 'script_not_found', 'tool_filter_never_matches', 'unknown_key'] as const)('keep the lint-only finding %s out of fire', (code) => {
    expect(FIRE_LOAD_WARNINGS.has(code)).toBe(false);
  });
});
