// The two layers put together (config/load.ts): trust, sources, hook order,
// and the one diagnostics list every command reports from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoadOptions, lintConfig, loadConfig } from '../../src/config/load.js';

const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A config dir and a workspace in a fresh temp dir. */
function layout() {
  const root = mkdtempSync(join(tmpdir(), 'chrys-load-config-'));
  made.push(root);
  const configDir = join(root, 'config');
  const workspace = join(root, 'work');
  mkdirSync(configDir);
  mkdirSync(workspace);
  const write = (path: string, text: string): string => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return {
    root,
    configDir,
    workspace,
    global: (text: string, name = 'hooks.yaml') => write(join(configDir, 'hooks', name), text),
    project: (text: string, name = 'hooks.yaml') => write(join(workspace, '.chrys', 'hooks', name), text),
    opts: (extra: Partial<LoadOptions> = {}): LoadOptions => ({ configDir, cwd: workspace, workspace, projectHooks: true, ...extra }),
  };
}

const hook = (id: string, run = '{ type: command, argv: ["true"] }', event = 'session_start'): string =>
  `  - id: ${id}\n    event: ${event}\n    run: ${run}\n    execution: { mode: blocking }\n`;
const file = (...hooks: string[]): string => `hooks:\n${hooks.join('')}`;
const summary = (d: { code: string; path: string; line: number; column: number }): string => `${d.code} ${d.path}:${d.line}:${d.column}`;

describe('loadConfig', () => {
  it('runs project hooks before global ones, each in file order', async () => {
    const l = layout();
    l.global(file(hook('g1'), hook('g2')));
    l.project(file(hook('p1'), hook('p2')));
    const config = await loadConfig(l.opts());
    expect(config.hooks.map((h) => `${h.source}:${h.id}`)).toEqual(['project:p1', 'project:p2', 'global:g1', 'global:g2']);
    expect(config.sources.map((s) => `${s.layer}:${s.state}`)).toEqual(['global:loaded', 'project:loaded']);
    expect(config.diagnostics).toEqual([]);
    expect(config.warnings).toEqual([]);
  });

  it('does not load an invalid project file: its hooks are off and a diagnostic names file:line:col', async () => {
    const l = layout();
    l.global(file(hook('g1')));
    const project = l.project(file(hook('p1'), '  - id: p2\n    event: session_start\n    execution: { mode: blocking }\n'));
    const config = await loadConfig(l.opts());
    expect(config.hooks.map((h) => h.id)).toEqual(['g1']);
    expect(config.sources[1]).toEqual({ layer: 'project', path: project, state: 'invalid' });
    expect(config.diagnostics.map(summary)).toEqual([`missing_field ${project}:6:5`]);
    expect(config.diagnostics[0]).toMatchObject({ severity: 'error', source: 'project', message: 'hooks[1].run is required' });
    expect(config.warnings).toEqual([
      {
        code: 'project_hooks_config_invalid',
        path: project,
        line: 6,
        column: 5,
        source: 'project',
        message: `project hooks file ${project} is invalid and was not loaded: 6:5 [missing_field] hooks[1].run is required; run \`chrys-hooks validate ${project}\``,
      },
    ]);
  });

  it('does not read an untrusted project file: it is dormant, whatever it holds', async () => {
    const l = layout();
    const project = l.project('hooks: [');
    const config = await loadConfig(l.opts({ projectHooks: false }));
    expect(config.projectHooksEnabled).toBe(false);
    expect(config.sources[1]).toEqual({ layer: 'project', path: project, state: 'dormant' });
    expect(config.diagnostics.map((d) => d.code)).toEqual(['project_hooks_dormant']);
    expect(config.diagnostics[0]!.message).toContain('--no-project-hooks');
  });

  it('names each hook id found in both layers once, on the project hook, with its event', async () => {
    const l = layout();
    const global = l.global(file(hook('twin'), hook('solo')));
    const project = l.project(file(hook('other'), hook('twin', undefined, 'session_end')));
    const placed = await loadConfig(l.opts({ checkFiles: true }));
    expect(placed.diagnostics).toEqual([
      {
        path: project,
        line: 6,
        column: 9,
        severity: 'warning',
        code: 'duplicate_hook_id',
        message: `hook id "twin" is defined in both ${project} and ${global}; both run, the project one first`,
        hook: 'twin',
        event: 'session_end',
        source: 'project',
      },
    ]);
    // fire's load shows no position, so it does not parse the file again to find one.
    const firing = await loadConfig(l.opts());
    expect(firing.diagnostics.map(summary)).toEqual([`duplicate_hook_id ${project}:1:1`]);
  });

  it('checks the files hooks name only when asked, and says which hook and layer each concerns', async () => {
    const l = layout();
    const global = l.global(file(hook('gone', '{ type: script, path: gone.sh }')));
    expect((await loadConfig(l.opts())).diagnostics).toEqual([]);
    const checked = await loadConfig(l.opts({ checkFiles: true }));
    expect(checked.diagnostics).toMatchObject([{ path: global, line: 4, column: 32, code: 'script_not_found', hook: 'gone', event: 'session_start', source: 'global' }]);
    expect(checked.warnings).toMatchObject([{ code: 'script_not_found', hook: 'gone', source: 'global' }]);
  });

  it('keeps a hook with a bad regex out of the chain, with the error that left it out', async () => {
    const l = layout();
    const global = l.global(file(hook('ok'), `  - id: bad\n    event: before_tool_call\n    match: { args: { path: { regex: '(?<' } } }\n    run: { type: command, argv: ["true"] }\n`));
    const config = await loadConfig(l.opts());
    expect(config.hooks.map((h) => h.id)).toEqual(['ok']);
    expect(config.skipped.map((s) => s.hook.id)).toEqual(['bad']);
    expect(config.skipped[0]!.reason).toMatch(/^hook "bad" is left out: regex `\(\?<` is invalid: .* \(fix the pattern, written in Python re syntax\)$/);
    expect(config.sources[0]!.state).toBe('loaded');
    expect(config.diagnostics).toMatchObject([{ path: global, severity: 'error', code: 'invalid_regex', hook: 'bad' }]);
    expect(config.warnings).toMatchObject([{ code: 'hook_skipped', hook: 'bad', source: 'global', message: config.skipped[0]!.reason }]);
  });

  it('reports a hooks file that loses to a sibling, and a --config-dir that does not exist', async () => {
    const l = layout();
    l.global(file(hook('a')));
    const shadowed = l.global(file(hook('b')), 'hooks.json');
    const config = await loadConfig(l.opts());
    expect(config.hooks.map((h) => h.id)).toEqual(['a']);
    expect(config.diagnostics).toMatchObject([{ code: 'shadowed_file', path: shadowed, severity: 'warning' }]);
    const missing = join(l.root, 'nowhere');
    const elsewhere = await loadConfig({ ...l.opts(), configDir: missing });
    expect(elsewhere.diagnostics).toMatchObject([{ code: 'config_dir_not_found', path: missing }]);
  });

  it('says why an untrusted project file is dormant, and what in the user settings could not be read', async () => {
    const l = layout();
    const project = l.project(file(hook('p')));
    const settings = join(l.configDir, 'settings.yaml');
    writeFileSync(settings, 'project:\n  hooks_enabled: yes please\n');
    const saved = process.env.CHRYS_PROJECT_HOOKS;
    delete process.env.CHRYS_PROJECT_HOOKS;
    try {
      const config = await loadConfig({ ...l.opts(), projectHooks: undefined });
      expect(config.diagnostics.map(summary)).toEqual([`settings_invalid ${settings}:1:1`, `project_hooks_dormant ${project}:1:1`]);
      expect(config.diagnostics[1]!.message).toBe(
        `project hooks file ${project} is not loaded: this workspace is not trusted (run \`chrys-hooks trust\` to review and trust its hooks, or use --project-hooks, CHRYS_PROJECT_HOOKS=1, or project.hooks_enabled: true in ${l.configDir}/settings.yaml)`,
      );
      expect(config.hooks).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.CHRYS_PROJECT_HOOKS = saved;
    }
  });

  it('reports a --cwd that names no directory', async () => {
    const l = layout();
    const gone = join(l.root, 'gone');
    const config = await loadConfig({ ...l.opts(), cwd: gone, workspace: gone });
    expect(config.diagnostics).toMatchObject([{ code: 'workspace_not_found', path: gone, severity: 'warning' }]);
  });

  it('orders the checks of a file with its other findings, by position', async () => {
    const l = layout();
    const global = l.global(file(hook('gone', '{ type: script, path: gone.sh }'), '  - id: alias\n    event: SessionStart\n    run: { type: command, argv: ["true"] }\n'));
    const config = await loadConfig(l.opts({ checkFiles: true }));
    expect(config.diagnostics.map(summary)).toEqual([`script_not_found ${global}:4:32`, `event_alias ${global}:7:12`]);
  });

  it('names where each missing file would be, and has nothing to say about a missing project file', async () => {
    const l = layout();
    const config = await loadConfig(l.opts({ projectHooks: false }));
    expect(config.sources).toEqual([
      { layer: 'global', path: join(l.configDir, 'hooks', 'hooks.yaml'), state: 'missing' },
      { layer: 'project', path: join(l.workspace, '.chrys', 'hooks', 'hooks.yaml'), state: 'missing' },
    ]);
    expect(config.diagnostics).toEqual([]);
    const invalid = l.global('hooks: [');
    expect((await loadConfig(l.opts({ projectHooks: false }))).sources[0]).toEqual({ layer: 'global', path: invalid, state: 'invalid' });
  });

  it('loads the project file that the user settings trust', async () => {
    const l = layout();
    l.project(file(hook('p')));
    writeFileSync(join(l.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: true\n');
    const saved = process.env.CHRYS_PROJECT_HOOKS;
    delete process.env.CHRYS_PROJECT_HOOKS;
    try {
      const config = await loadConfig({ ...l.opts(), projectHooks: undefined });
      expect(config.projectTrust.rule).toBe('settings');
      expect(config.hooks.map((h) => h.id)).toEqual(['p']);
    } finally {
      if (saved !== undefined) process.env.CHRYS_PROJECT_HOOKS = saved;
    }
  });

  it('gives each skipped hook the error that left it out, not another hook\'s finding', async () => {
    const l = layout();
    l.global(file(`  - id: broad\n    event: before_tool_call\n    run: { type: command, argv: ["true"] }\n`, `  - id: bad\n    event: before_tool_call\n    match: { tool_name: x, args: { path: { regex: '(?<' } } }\n    run: { type: command, argv: ["true"] }\n`));
    const config = await loadConfig(l.opts());
    expect(config.diagnostics.map((d) => `${d.code} ${d.hook}`)).toEqual(['broad_match broad', 'invalid_regex bad']);
    expect(config.skipped.map((s) => [s.hook.id, s.reason.startsWith('hook "bad" is left out')])).toEqual([['bad', true]]);
  });

  it('loads a file that both layers name once, as the global layer', async () => {
    const l = layout();
    const both = l.project(file(hook('a')));
    const config = await loadConfig({ ...l.opts(), configDir: join(l.workspace, '.chrys') });
    expect(config.hooks.map((h) => `${h.source}:${h.id}`)).toEqual(['global:a']);
    expect(config.sources).toEqual([
      { layer: 'global', path: both, state: 'loaded' },
      { layer: 'project', path: both, state: 'same-file' },
    ]);
    expect(config.diagnostics).toEqual([]);
  });
});

describe('lintConfig', () => {
  it('reads the project file whatever the trust, with the same findings and checks as the load', async () => {
    const l = layout();
    const global = l.global(file(hook('twin', '{ type: script, path: gone.sh }')));
    const project = l.project(file(hook('twin', '{ type: script, path: gone.sh }')));
    const lint = await lintConfig({ ...l.opts(), projectHooks: false });
    expect(lint.files).toEqual([global, project]);
    expect(lint.diagnostics.map(summary)).toEqual([`script_not_found ${global}:4:32`, `script_not_found ${project}:4:32`, `duplicate_hook_id ${project}:2:9`]);
    const loaded = await loadConfig(l.opts({ checkFiles: true }));
    // The same findings, except that for validate a missing script is an error (issue 20), for the load a warning.
    const asLoaded = lint.diagnostics.map(({ hint: _hint, ...d }) => (d.code === 'script_not_found' ? { ...d, severity: 'warning' } : d));
    expect(loaded.diagnostics).toEqual(asLoaded);
    expect(lint.diagnostics.filter((d) => d.code === 'script_not_found').map((d) => d.severity)).toEqual(['error', 'error']);
    const allowed = await lintConfig({ ...l.opts(), projectHooks: false }, 'warning');
    expect(allowed.diagnostics.map(({ hint: _hint, ...d }) => d)).toEqual(asLoaded);
  });

  it('reads a file both layers name once, and reports a shadowed sibling and a missing --cwd', async () => {
    const l = layout();
    const both = l.project(file(hook('a')));
    const shadowed = l.project(file(hook('b')), 'hooks.yml');
    const gone = join(l.root, 'gone');
    const lint = await lintConfig({ configDir: join(l.workspace, '.chrys'), cwd: l.workspace, workspace: l.workspace });
    expect(lint.files).toEqual([both]);
    expect(lint.diagnostics.map(summary)).toEqual([`shadowed_file ${shadowed}:1:1`]);
    const nowhere = await lintConfig({ configDir: l.configDir, cwd: gone, workspace: gone });
    expect(nowhere.diagnostics.map((d) => d.code)).toEqual(['workspace_not_found']);
    expect(nowhere.files).toEqual([]);
  });

  it('lists the errors of an invalid file one by one', async () => {
    const l = layout();
    const project = l.project('hooks:\n  - id: a\n    bogus: 1\n    event: nope\n');
    const lint = await lintConfig({ ...l.opts(), projectHooks: false });
    expect(lint.diagnostics.map((d) => `${d.severity} ${summary(d)}`)).toEqual([
      `error missing_field ${project}:2:5`,
      `error unknown_key ${project}:3:5`,
      `error unknown_event ${project}:4:12`,
    ]);
  });
});
