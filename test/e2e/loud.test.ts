// No silent no-op (issue 11.1): every mistake that turns a hook off is named
// in the output it concerns, on stderr for `fire`, and by `validate` where a
// file is at fault. What fire alone shows of given files is a golden scenario
// (test/golden/loud/); here fire beside list, resolve and validate.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
// A guard that blocks every write_file (by failing with on_error: block).
const GUARD = hookYaml({ id: 'guard', run: 'type: command\nargv: ["false"]', match: 'tool_name: write_file', execution: 'mode: blocking\non_error: block' });
const WRITE = { event: 'before_tool_call', tool: { name: 'write_file', args: { path: 'a' } } };

describe('an invalid hooks file', () => {
  it('list and resolve show it first', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${GUARD}\n    timout: 3\n`);
    for (const command of ['list', 'resolve']) {
      const r = await s.run([command]);
      expect(r.stdout.split('\n')[0]).toBe(`${file}:12:5 [unknown_key] unknown key "timout" in hooks[0] (did you mean "execution.timeout_seconds"?); run chrys-hooks validate — the hooks of this file are off`);
    }
  });
});

describe('regexes', () => {
  it('an invalid regex fails validate, quoting the pattern as written; fire runs the other hooks and says why one is off', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${hookYaml({ id: 'env', run: 'type: command\nargv: ["true"]', match: "args:\n  path: { regex: '(^|/)(\\.env' }" })}\n${GUARD}\n`);
    const v = await s.run(['validate', file]);
    expect(v.exitCode).toBe(1);
    expect(v.stdout).toContain('error    invalid_regex  hook "env" is left out: regex `(^|/)(\\.env` is invalid: Unterminated group');
    const { decision, result } = await s.fire(WRITE);
    expect(decision.blocked).toBe(true);
    expect(decision.warnings).toMatchObject([{ code: 'hook_skipped', hook: 'env' }]);
    expect(result.stderr).toContain('chrys-hooks: warning hook_skipped: hook "env" is left out');
  });

  it('a Python-only feature stays a hook_skipped warning', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${hookYaml({ id: 'atomic', run: 'type: command\nargv: ["true"]', match: "args:\n  path: { regex: '(?>a)' }" })}\n`);
    const v = await s.run(['validate', file]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toContain('warning  hook_skipped');
  });
});

describe('validate', () => {
  it('a hook without event is missing_field at the hook', async () => {
    const s = sandbox();
    const file = s.globalHooks('hooks:\n  - id: a\n    run: { type: shell, shell: x }\n');
    const v = await s.run(['validate', file]);
    expect(v.stdout).toContain(`${file}:2:5  error    missing_field  hooks[0].event is required`);
    expect(v.stdout).not.toContain('undefined');
  });

  it('prints a path named on the command line as it was given', async () => {
    const s = sandbox();
    s.write('other/hooks.yaml', 'hooks:\n\t- id: a\n');
    const v = await s.run(['validate', '../other/hooks.yaml']);
    expect(v.stdout.split('\n')[0]).toBe('../other/hooks.yaml:2:1  error    syntax_error  a tab in the indentation (YAML indents with spaces, never tabs)');
  });

  it('lints settings.yaml, with did-you-mean', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'settings.yaml'), 'theme: dark\nproject:\n  hooks_enable: true\n');
    const v = await s.run(['validate', '--format', 'json']);
    expect(JSON.parse(v.stdout).diagnostics).toEqual([
      { path: join(s.configDir, 'settings.yaml'), line: 3, column: 3, severity: 'warning', code: 'settings_unknown_key', message: 'unknown key "project.hooks_enable"', hint: 'did you mean "project.hooks_enabled"?' },
    ]);
  });

  it('a settings value of the wrong type is an error', async () => {
    const s = sandbox();
    const settings = s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: "yes"\n');
    const v = await s.run(['validate', settings]);
    expect(v.exitCode).toBe(1);
    expect(v.stdout).toContain(`${settings}:2:18  error    invalid_type  project.hooks_enabled must be true or false, not "yes"`);
  });

  it('warns about run.cwd naming a missing directory', async () => {
    const s = sandbox();
    const run = 'type: command\nargv: ["true"]\ncwd: "$' + '{workspace_cwd}/build"';
    const file = s.projectHooks(`hooks:\n${hookYaml({ id: 'a', event: 'session_start', run })}\n`);
    const v = await s.run(['validate', file]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toContain(`warning  cwd_not_found  hook "a": run.cwd ${join(s.workspace, 'build')} is not a directory`);
    mkdirSync(join(s.workspace, 'build'));
    expect((await s.run(['validate', file])).stdout).not.toContain('cwd_not_found');
  });
});

describe('shadowed files', () => {
  it('a hooks.json beside a hooks.yaml is shadowed_file in validate and fire', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${GUARD}\n`);
    const json = s.globalHooks('{"hooks": []}', 'hooks.json');
    const v = await s.run(['validate']);
    expect(v.stdout).toContain(`${json}:1:1  warning  shadowed_file  ${json} is never read: hooks.yaml beside it takes precedence`);
    const { decision, result } = await s.fire(WRITE);
    expect(decision.blocked).toBe(true);
    expect(decision.warnings).toMatchObject([{ code: 'shadowed_file', path: json }]);
    expect(result.stderr).toContain('warning shadowed_file');
  });
});

describe('--config-dir', () => {
  it.each([
    ['missing', (root: string) => join(root, 'nope'), 'does not exist'],
    ['a file', (root: string) => join(root, 'config', 'file'), 'is a file, not a directory'],
  ])('naming a %s directory is config_dir_not_found in fire, list and validate', async (_what, dirOf, words) => {
    const s = sandbox();
    const dir = dirOf(s.root);
    if (_what === 'a file') s.write(dir, 'x');
    const r = await s.runRaw(['fire', '--config-dir', dir, '--cwd', s.workspace], { input: JSON.stringify(WRITE) });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toMatchObject([{ code: 'config_dir_not_found', message: expect.stringContaining(words) }]);
    expect(r.stderr).toContain(`chrys-hooks: warning config_dir_not_found: --config-dir ${dir} ${words}`);
    const list = await s.runRaw(['list', '--json', '--config-dir', dir, '--cwd', s.workspace]);
    expect(JSON.parse(list.stdout).warnings).toMatchObject([{ code: 'config_dir_not_found' }]);
    const v = await s.runRaw(['validate', '--config-dir', dir, '--cwd', s.workspace]);
    expect(v.stdout).toContain('config_dir_not_found');
  });

  it('a --cwd that does not exist is workspace_not_found in fire, list, resolve and validate', async () => {
    const s = sandbox();
    const cwd = join(s.root, 'no-such-dir');
    for (const withGlobal of [false, true]) {
      if (withGlobal) s.globalHooks('hooks: []\n');
      const r = await s.runRaw(['fire', '--config-dir', s.configDir, '--cwd', cwd], { input: JSON.stringify(WRITE) });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).warnings).toMatchObject([{ code: 'workspace_not_found', path: cwd, message: expect.stringContaining('does not exist') }]);
      expect(r.stderr).toContain(`chrys-hooks: warning workspace_not_found: --cwd ${cwd} does not exist`);
    }
    const list = await s.runRaw(['list', '--json', '--config-dir', s.configDir, '--cwd', cwd]);
    expect(JSON.parse(list.stdout).warnings).toMatchObject([{ code: 'workspace_not_found' }]);
    const resolve = await s.runRaw(['resolve', '--json', '--config-dir', s.configDir, '--cwd', cwd]);
    expect(JSON.parse(resolve.stdout).warnings).toMatchObject([{ code: 'workspace_not_found' }]);
    const v = await s.runRaw(['validate', '--config-dir', s.configDir, '--cwd', cwd]);
    expect(v.stdout).toContain('workspace_not_found');
  });
});

describe('envelope shape', () => {
  it.each([
    [{ event: 'before_tool_call', tool: 'write_file' }, 'envelope field "tool" must be an object for before_tool_call, not a string; tool filters cannot match it'],
    [{ event: 'before_tool_call', tool: { name: 'write_file', args: '{"path": "a"}' } }, 'envelope field "tool.args" must be an object for before_tool_call, not a string; tool filters cannot match it'],
    [{ event: 'user_prompt_submit', text: 5 }, 'envelope field "text" must be a string for user_prompt_submit, not a number'],
  ])('%j gets an envelope_shape warning naming the field, with or without hooks files', async (envelope, message) => {
    const s = sandbox();
    const bare = await s.fire(envelope);
    expect(bare.decision.warnings).toEqual([{ code: 'envelope_shape', message }]);
    expect(bare.result.stderr).toBe(`chrys-hooks: warning envelope_shape: ${message}`);
    s.globalHooks(`hooks:\n${GUARD}\n`);
    const loaded = await s.fire(envelope);
    expect(loaded.decision.warnings).toEqual([{ code: 'envelope_shape', message }]);
    const resolved = await s.run(['resolve', '--json'], { input: JSON.stringify(envelope) });
    expect(JSON.parse(resolved.stdout).warnings).toEqual([{ code: 'envelope_shape', message }]);
  });
});
