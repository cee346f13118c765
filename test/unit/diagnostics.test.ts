// The load's one diagnostics list as fire, list and resolve report it (core/diagnostics.ts).
import { describe, expect, it } from 'vitest';
import { type Diagnostic, fromWarning, loadWarnings, toWarning } from '../../src/core/diagnostics.js';

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
  it('places a helper warning at the start of the file it names, as a warning', () => {
    expect(fromWarning({ code: 'trust_record_invalid', path: '/t.json', message: 'm' })).toStrictEqual({ path: '/t.json', line: 1, column: 1, severity: 'warning', code: 'trust_record_invalid', message: 'm' });
    expect(toWarning(fromWarning({ code: 'hook_skipped', path: '/g', message: 'm', hook: 'h', event: 'e', source: 'project', line: 2, column: 4 }))).toStrictEqual({ code: 'hook_skipped', path: '/g', message: 'm', hook: 'h', event: 'e', source: 'project', line: 2, column: 4 });
  });
});
