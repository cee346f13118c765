// validate, list and resolve through the built binary (CONTRACT §2, §8).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, flagName } from '../../src/cli/spec.js';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const GOOD = `hooks:\n${hookYaml({ id: 'guard', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file' })}\n`;

describe('validate', () => {
  it('passes a clean file with exit 0', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', GOOD);
    const r = await s.run(['validate', file]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('1 file checked: 0 errors, 0 warnings');
  });

  it('prints file:line:col  severity  code  message, and exits 1 on an error', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', GOOD.replace('    run:', '    timout_seconds: 3\n    run:'));
    const r = await s.run(['validate', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`${file}:6:5  error    unknown_key  unknown key "timout_seconds" in hooks[0] (did you mean "execution.timeout_seconds"?)`);
  });

  it('exits 1 on warnings only with --strict', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', GOOD.replace('before_tool_call', 'PreToolUse'));
    expect((await s.run(['validate', file])).exitCode).toBe(0);
    const strict = await s.run(['validate', file, '--strict']);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toContain('event_alias');
  });

  it('emits the documented JSON shape', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', GOOD + hookYaml({ id: 'guard', event: 'session_start', run: 'type: command\nargv: ["true"]' }) + '\n');
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      diagnostics: [
        { path: file, line: 11, column: 9, severity: 'error', code: 'duplicate_id', message: expect.stringContaining('"guard"'), hint: 'ids must be unique within a file', hook: 'guard' },
      ],
      errors: 1,
      warnings: 0,
    });
  });

  it('writes GitHub annotations with paths relative to the current directory', async () => {
    const s = sandbox();
    s.projectHooks(GOOD.replace('mode: blocking', 'mode: sync'));
    const r = await s.run(['validate', '--format', 'github']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('::error file=.chrys/hooks/hooks.yaml,line=10,col=13,title=chrys-hooks invalid_value::hooks[0].execution.mode is "sync"; allowed: "blocking", "async", "fire_and_forget" (did you mean "async"?)');
  });

  it('lints both discovered files, the untrusted project file too, without dormant warnings', async () => {
    const s = sandbox();
    s.globalHooks(GOOD.replace('guard', 'g'));
    s.projectHooks(GOOD.replace('    match:\n      tool_name: edit_file\n', ''));
    const r = await s.run(['validate', '--format', 'json']);
    const out = JSON.parse(r.stdout);
    expect(out.diagnostics.map((d: any) => d.code)).toEqual(['broad_match']);
    expect(r.exitCode).toBe(0);
  });

  it('reports a named file that does not exist as file_not_found', async () => {
    const s = sandbox();
    const r = await s.run(['validate', join(s.root, 'nope.yaml'), '--format', 'json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ code: 'file_not_found', severity: 'error' }]);
  });

  it('warns about a missing script, a missing prompt_file and a missing interpreter', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', `hooks:\n${hookYaml({ id: 'a', event: 'session_start', run: 'type: script\npath: gone.sh\nprompt_file: prompts/none.md' })}\n${hookYaml({ id: 'b', event: 'session_start', run: 'type: script\npath: x.rb' })}\n`);
    s.write('x.rb', 'puts 1');
    const r = await s.run(['validate', file, '--format', 'json'], { env: { PATH: '/nonexistent' } });
    expect(JSON.parse(r.stdout).diagnostics.map((d: any) => d.code)).toEqual(['script_not_found', 'interpreter_not_found', 'script_not_found', 'interpreter_not_found']);
  });

  it.each<[string, string | Buffer, string]>([
    ['an empty file', '', ''],
    ['a file of only comments', '# nothing yet\n# really\n', ''],
    ['a JSON file with a trailing comma', '{"hooks": [],}', 'syntax_error'],
    ['a binary file', Buffer.from([0x68, 0x6f, 0x00, 0xff, 0x01]), 'unreadable_file'],
  ])('handles %s', async (_name, content, code) => {
    const s = sandbox();
    const file = join(s.root, typeof content === 'string' && content.startsWith('{') ? 'hooks.json' : 'hooks.yaml');
    writeFileSync(file, content);
    const r = await s.run(['validate', file, '--format', 'json']);
    const codes = JSON.parse(r.stdout).diagnostics.map((d: any) => d.code);
    expect(codes).toEqual(code ? [code] : []);
    expect(r.exitCode).toBe(code ? 1 : 0);
  });

  it('reports a directory named hooks.yaml, in validate and in fire', async () => {
    const s = sandbox();
    mkdirSync(join(s.configDir, 'hooks', 'hooks.yaml'), { recursive: true });
    const r = await s.run(['validate', '--format', 'json']);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ code: 'unreadable_file', message: expect.stringContaining('directory') }]);
    const { decision } = await s.fire({ event: 'session_start' });
    expect(decision.warnings).toMatchObject([{ code: 'hooks_config_invalid' }]);
  });

  it('reads paths with spaces and non-ASCII characters, and keeps CRLF positions right', async () => {
    const s = sandbox();
    const file = s.write('dossier à moi/hooks ü.yaml', GOOD.replace('    run:', '    bogus: 1\n    run:').replaceAll('\n', '\r\n'));
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ path: file, line: 6, column: 5, code: 'unknown_key' }]);
  });

  it('accepts YAML anchors and merge keys', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', `hooks:
  - &base
    id: a
    event: session_start
    run: { type: command, argv: ["true"] }
    execution: { mode: blocking }
  - <<: *base
    id: b
`);
    const r = await s.run(['validate', file]);
    expect(r.exitCode).toBe(0);
  });

  it('lints a 5,000-hook file', async () => {
    const s = sandbox();
    const hooks = Array.from({ length: 5000 }, (_, i) => hookYaml({ id: `h${i}`, run: 'type: command\nargv: ["true"]', match: 'tool_name: x' })).join('\n');
    const file = s.write('hooks.yaml', `hooks:\n${hooks}\n  - id: h4999\n    event: session_start\n    run: { type: command, argv: ["true"] }\n`);
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ code: 'duplicate_id', line: 9 * 5000 + 2 }]);
  });

  it('rejects an unknown --format as a usage error', async () => {
    const r = await sandbox().run(['validate', '--format', 'xml']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain('xml');
  });

  // A named pipe cannot be read as a file by anyone, root included (CI runs as root).
  it('shows an unreadable file (a named pipe) instead of crashing or hanging, in validate and in fire', async () => {
    const s = sandbox();
    const file = join(s.configDir, 'hooks', 'hooks.yaml');
    mkdirSync(dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ code: 'unreadable_file', severity: 'error', message: expect.stringContaining('named pipe') }]);
    expect(r.exitCode).toBe(1);
    const { decision } = await s.fire({ event: 'session_start' });
    expect(decision.warnings).toMatchObject([{ code: 'hooks_config_invalid', path: file }]);
  });
});

describe('one diagnostics list for validate, list, resolve and fire', () => {
  // A hook whose id is in both layers, each copy naming a script that does not exist.
  const twin = (event = 'session_start'): string => `hooks:\n${hookYaml({ id: 'twin', event, run: 'type: script\npath: gone.sh' })}\n`;
  const keys = (s: ReturnType<typeof sandbox>, found: { code: string; path?: string; hook?: string }[]): string[] =>
    found.map((d) => `${d.code} ${d.path === undefined ? '-' : resolvePath(s.workspace, d.path)} ${d.hook ?? '-'}`).sort();

  it('reports a missing script and a duplicate id alike in every command', async () => {
    const s = sandbox();
    const global = s.globalHooks(twin());
    const project = s.projectHooks(twin());
    const expected = [`duplicate_hook_id ${project} twin`, `script_not_found ${global} twin`, `script_not_found ${project} twin`];
    const validated = JSON.parse((await s.run(['validate', '--format', 'json'])).stdout);
    expect(keys(s, validated.diagnostics)).toEqual(expected);
    const listed = JSON.parse((await s.run(['list', '--json', '--project-hooks'])).stdout);
    expect(keys(s, listed.warnings)).toEqual(expected);
    const resolved = JSON.parse((await s.run(['resolve', '--json', '--project-hooks'])).stdout);
    expect(keys(s, resolved.warnings)).toEqual(expected);
    // fire reports the load warnings that change what a firing does (CONTRACT §7): the duplicate, not the lint finding.
    const { decision } = await s.fire({ event: 'session_start' }, ['--project-hooks']);
    expect(keys(s, decision.warnings.filter((w: any) => w.code !== 'hook_failed'))).toEqual([`duplicate_hook_id ${project} twin`]);
  });

  it('lets fire, and only fire, leave out what concerns another event', async () => {
    const s = sandbox();
    s.globalHooks(twin('session_end'));
    const project = s.projectHooks(twin('session_end'));
    const { decision } = await s.fire({ event: 'session_start' }, ['--project-hooks']);
    expect(decision.warnings).toEqual([]);
    const listed = JSON.parse((await s.run(['list', '--json', '--project-hooks', '--event', 'session_start'])).stdout);
    expect(listed.hooks).toEqual([]);
    expect(keys(s, listed.warnings)).toContain(`duplicate_hook_id ${project} twin`);
  });
});

describe('list', () => {
  it('shows the merged chain with sources, warnings and last run', async () => {
    const s = sandbox();
    s.globalHooks(GOOD.replace('guard', 'g-guard') + hookYaml({ id: 'g-start', event: 'session_start', run: 'type: command\nargv: ["true"]', execution: 'mode: async' }) + '\n');
    s.projectHooks(GOOD.replace('guard', 'p-guard'));
    await s.fire({ event: 'before_tool_call', session_id: 's9', tool: { name: 'edit_file' } }, ['--project-hooks']);
    const json = JSON.parse((await s.run(['list', '--json', '--project-hooks'])).stdout);
    expect(json.sources.map((x: any) => `${x.layer}:${x.state}`)).toEqual(['global:loaded', 'project:loaded']);
    expect(json.hooks).toMatchObject([
      { position: 1, id: 'p-guard', source: 'project', event: 'before_tool_call', mode: 'blocking', enabled: true, match: 'tool_name=edit_file', last_run: { status: 'ok', session_id: 's9' } },
      { position: 2, id: 'g-guard', source: 'global', last_run: { status: 'ok' } },
      { position: 3, id: 'g-start', source: 'global', event: 'session_start', mode: 'async', last_run: null },
    ]);
    const text = (await s.run(['list'])).stdout;
    expect(text).toContain('dormant');
    expect(text).toContain('project_hooks_dormant');
    expect(text).toMatch(/1\s+g-guard\s+global\s+before_tool_call\s+blocking\s+tool_name=edit_file\s+yes\s+ok \d{4}-/);
  });

  it('filters by event, aliases included', async () => {
    const s = sandbox();
    s.globalHooks(GOOD + hookYaml({ id: 'start', event: 'session_start', run: 'type: command\nargv: ["true"]' }) + '\n');
    const json = JSON.parse((await s.run(['list', '--json', '--event', 'SessionStart'])).stdout);
    expect(json.hooks.map((h: any) => h.id)).toEqual(['start']);
  });

  it('shows an invalid source and its warning', async () => {
    const s = sandbox();
    s.globalHooks('hooks: [');
    const json = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(json.sources[0].state).toBe('invalid');
    expect(json.warnings).toMatchObject([{ code: 'hooks_config_invalid' }]);
  });
});

describe('list and resolve: a hook skipped for a bad regex', () => {
  it('is listed by both, in file order, marked skipped', async () => {
    const s = sandbox();
    const cmd = 'type: command\nargv: ["true"]';
    s.globalHooks(`hooks:
${hookYaml({ id: 'first', run: cmd, match: 'tool_name: write_file' })}
${hookYaml({ id: 'bad-re', run: cmd, match: "args:\n  path: { regex: '(?<' }" })}
${hookYaml({ id: 'last', run: cmd, match: 'tool_name: write_file' })}
`);
    const list = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(list.hooks.map((h: any) => [h.id, h.position, h.skipped === null])).toEqual([['first', 1, true], ['bad-re', 2, false], ['last', 3, true]]);
    expect(list.hooks[1].skipped).toContain('regex `(?<` is invalid');
    const text = (await s.run(['list'])).stdout;
    expect(text).toMatch(/bad-re .* skipped/);
    const r = await s.run(['resolve', '--json'], { input: JSON.stringify({ event: 'before_tool_call', tool: { name: 'write_file', args: { path: 'a' } } }) });
    const plan = JSON.parse(r.stdout).plan;
    expect(plan.hooks.map((h: any) => [h.id, h.verdict])).toEqual([['first', 'run'], ['bad-re', 'skipped'], ['last', 'run']]);
  });
});

describe('resolve', () => {
  it('prints sources, settings with their origin, and no plan without an envelope', async () => {
    const s = sandbox();
    s.globalHooks('settings:\n  max_parallel_hooks: 2\n  outbox_max_retries: 5\n' + GOOD);
    s.projectHooks('settings:\n  max_parallel_hooks: 8\nhooks: []\n');
    const r = JSON.parse((await s.run(['resolve', '--json', '--project-hooks'])).stdout);
    expect(r).toMatchObject({
      config_dir: s.configDir,
      workspace: s.workspace,
      project_hooks_enabled: true,
      plan: null,
      settings: {
        max_parallel_hooks: { value: 8, origin: 'project' },
        outbox_max_retries: { value: 5, origin: 'global' },
        shutdown_grace_seconds: { value: 5, origin: 'default' },
        outbox_retry_age_seconds: { value: 60, origin: 'default' },
      },
    });
    expect(r.sources).toEqual([
      { layer: 'global', path: join(s.configDir, 'hooks', 'hooks.yaml'), state: 'loaded' },
      { layer: 'project', path: join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), state: 'loaded' },
    ]);
  });

  it('explains the plan for an envelope: argv, cwd, env, or why not', async () => {
    const s = sandbox();
    const ranMarker = join(s.configDir, 'hooks', 'scripts', 'ran');
    s.globalScript('check.py', "import os\nopen(os.path.join(os.path.dirname(__file__), 'ran'), 'w').close()\n");
    s.globalHooks(`hooks:
${hookYaml({ id: 'runs', run: 'type: script\npath: scripts/check.py\nargs: ["--strict"]\nenv: { MODE: "${session_id}" }', match: 'tool_name: write_file' })}
${hookYaml({ id: 'wrong-tool', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file' })}
${hookYaml({ id: 'cron-only', run: 'type: command\nargv: ["true"]', match: 'session_kinds: [cron]', execution: 'mode: async' })}
${hookYaml({ id: 'off', run: 'type: command\nargv: ["true"]', match: 'tool_name: write_file', extra: '    enabled: false' })}
${hookYaml({ id: 'bad-re', run: 'type: command\nargv: ["true"]', match: "args:\n  path: { regex: '(?<' }" })}
`);
    const r = await s.run(['resolve', '--json'], { input: JSON.stringify({ event: 'PreToolUse', session_id: 'S1', tool: { name: 'write_file', args: { path: 'a' } } }) });
    const plan = JSON.parse(r.stdout).plan;
    expect(plan.event).toBe('before_tool_call');
    const byId = Object.fromEntries(plan.hooks.map((h: any) => [h.id, h]));
    expect(byId.runs).toMatchObject({ phase: 'blocking', verdict: 'run', reason: null, cwd: s.workspace });
    expect(byId.runs.argv.slice(-2)).toEqual([join(s.configDir, 'hooks', 'scripts', 'check.py'), '--strict']);
    expect(byId.runs.env).toMatchObject({ CHRYS_HOOK_ID: 'runs', MODE: 'S1', PYTHONUTF8: '1' });
    expect(byId.runs.env.PATH).toBeUndefined();
    expect(byId['wrong-tool']).toMatchObject({ verdict: 'no_match', reason: 'tool_name is `write_file`, hook wants `edit_file`', argv: null });
    expect(byId['cron-only']).toMatchObject({ phase: 'non_blocking', verdict: 'skipped', reason: expect.stringContaining('interactive') });
    expect(byId.off).toMatchObject({ verdict: 'disabled' });
    expect(byId['bad-re']).toMatchObject({ verdict: 'skipped', reason: expect.stringContaining('regex `(?<` is invalid') });
    expect(plan.hooks.map((h: any) => h.phase)).toEqual(['blocking', 'blocking', 'blocking', 'blocking', 'non_blocking']);
    // It plans the hook that would run without running it: the script leaves no marker, the history no run.
    expect(existsSync(ranMarker)).toBe(false);
    const listed = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(listed.hooks.find((h: any) => h.id === 'runs').last_run).toBeNull();
  });

  it('runs nothing', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'touch', event: 'session_start', run: "type: shell\nshell: 'touch ran'" })}\n`);
    const r = await s.run(['resolve', '--event', 'session_start']);
    expect(r.stdout).toContain('touch (global, blocking)  run');
    expect(r.stdout).toContain("argv: /bin/sh -c 'touch ran'");
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(s.workspace)).toEqual([]);
  });

  it('rejects a bad envelope like fire does', async () => {
    const r = await sandbox().run(['resolve'], { input: '[1]' });
    expect(r.exitCode).toBe(65);
    expect(r.stderr).toContain('must be a JSON object');
  });
});

describe('help', () => {
  it.each(COMMANDS.map((c) => c.name))('%s --help lists its options and an example', async (name) => {
    const r = await sandbox().runRaw([name, '--help']);
    expect(r.exitCode).toBe(0);
    const spec = COMMANDS.find((c) => c.name === name)!;
    for (const o of spec.options) expect(r.stdout).toContain(flagName(o));
    expect(r.stdout).toContain('Examples:');
  });
});
