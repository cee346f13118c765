// Regression tests for the second adversarial review, through the binary:
// trust hashes only regular files and records exactly what runs, foreign hooks
// honour on_error, init and the trust record never go through symlinks, the
// Claude bridge never answers a block with an allow, discovery sees dangling
// links.
import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'a' } } };
const CTX = `#!/usr/bin/env bash\necho '{"context": ["ran"]}' > "$CHRYS_HOOK_RESULT"\n`;
const ids = (d: any): string[] => d.hooks.map((h: any) => h.id);
const warning = (d: any, code: string): string => d.warnings.find((w: any) => w.code === code)?.message ?? '';

async function trustedScriptProject(s: Sandbox): Promise<string> {
  const script = s.projectScript('ctx.sh', CTX);
  s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: script\npath: scripts/ctx.sh' })}\n`);
  const r = await s.run(['trust', '--yes']);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']);
  return script;
}

describe('finding 1: trust hashes only regular files, and fire always answers', () => {
  it('a recorded script replaced by a FIFO makes the layer dormant instead of hanging fire', async () => {
    const s = sandbox();
    const script = await trustedScriptProject(s);
    unlinkSync(script);
    await execa('mkfifo', [script]);
    const { decision, result } = await s.fire(EDIT);
    expect(result.exitCode).toBe(0);
    expect(ids(decision)).toEqual([]);
    expect(warning(decision, 'project_hooks_changed')).toContain('.chrys/hooks/scripts/ctx.sh (it is a named pipe (FIFO), not a regular file)');
  });

  it('a recorded script grown past 16 MiB counts as changed', async () => {
    const s = sandbox();
    const script = await trustedScriptProject(s);
    truncateSync(script, 17 * 1024 * 1024);
    const { decision } = await s.fire(EDIT);
    expect(ids(decision)).toEqual([]);
    expect(warning(decision, 'project_hooks_changed')).toContain('larger than 16 MiB');
  });

  it('trust refuses a referenced file that is not a regular file', async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, '.chrys', 'hooks', 'scripts'), { recursive: true });
    await execa('mkfifo', [join(s.workspace, '.chrys', 'hooks', 'scripts', 'ctx.sh')]);
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: script\npath: scripts/ctx.sh' })}\n`);
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('named pipe');
    expect(r.stderr).toContain('nothing was trusted');
  });
});

describe('findings 2 and 3: trust refuses a program chosen by a template', () => {
  for (const [field, run] of [
    ['run.path', 'type: script\npath: "scripts/${profile}.sh"'],
    ['run.argv[0]', 'type: command\nargv: ["./${session_id}"]'],
    ['run.cwd', 'type: command\nargv: ["./check.sh"]\ncwd: "${session_id}"'],
  ] as const) {
    it(`names the hook and ${field}`, async () => {
      const s = sandbox();
      s.projectHooks(`hooks:\n${hookYaml({ id: 'templated', run })}\n`);
      const r = await s.run(['trust', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`hook "templated"`);
      expect(r.stderr).toContain(field);
      expect(ids((await s.fire(EDIT)).decision)).toEqual([]);
    });
  }
});

describe('finding 4: a run.protocol hook that exits neither 0 nor 2 has failed', () => {
  const claudeHook = (s: Sandbox, stdout: string, execution: string): void => {
    s.globalScript('c.sh', `#!/usr/bin/env bash\ncat > /dev/null\necho '${stdout}'\nexit 1\n`);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'c', run: 'type: script\npath: scripts/c.sh\nprotocol: claude', execution })}\n`);
  };

  it('on_error: block blocks even when stdout is a JSON object', async () => {
    const s = sandbox();
    claudeHook(s, '{}', 'mode: blocking\non_error: block');
    const { decision } = await s.fire(EDIT);
    expect(decision).toMatchObject({ blocked: true, blocked_by: { id: 'c' } });
    expect(decision.reason).toContain('exited with status 1');
  });

  it('under on_error: warn the JSON still decides, as Claude Code does, with a hook_failed warning', async () => {
    const s = sandbox();
    claudeHook(s, '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}', 'mode: blocking');
    const denied = (await s.fire(EDIT)).decision;
    expect(denied).toMatchObject({ blocked: true, reason: 'no' });
    expect(warning(denied, 'hook_failed')).toContain('exited with status 1');
    claudeHook(s, '{}', 'mode: blocking');
    const allowed = (await s.fire(EDIT)).decision;
    expect(allowed.blocked).toBe(false);
    expect(warning(allowed, 'hook_failed')).toContain('exited with status 1');
  });
});

describe('finding 6: trust covers the files shell and argv words name', () => {
  it('records argv[1..] and run.shell files, and a change to one makes the layer dormant', async () => {
    const s = sandbox();
    const argvScript = s.write(join(s.workspace, 'tools', 'check.sh'), 'exit 0\n');
    const shellScript = s.write(join(s.workspace, 'tools', 'lint.sh'), 'exit 0\n');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'argv', run: 'type: command\nargv: [bash, tools/check.sh]' })}\n${hookYaml({ id: 'sh', run: `type: shell\nshell: 'bash "$CLAUDE_PROJECT_DIR"/tools/lint.sh && echo ok'` })}\n`);
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('tools/check.sh');
    expect(r.stdout).toContain('tools/lint.sh');
    expect(r.stdout).not.toContain('warning:');
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['argv', 'sh']);
    writeFileSync(shellScript, 'echo evil\n');
    const after = (await s.fire(EDIT)).decision;
    expect(ids(after)).toEqual([]);
    expect(warning(after, 'project_hooks_changed')).toContain('tools/lint.sh');
    writeFileSync(shellScript, 'exit 0\n');
    writeFileSync(argvScript, 'echo evil\n');
    expect(warning((await s.fire(EDIT)).decision, 'project_hooks_changed')).toContain('tools/check.sh');
  });

  it('warns about a shell hook whose command reaches files through a variable', async () => {
    const s = sandbox();
    s.write(join(s.workspace, 'README.md'), 'hi\n');
    // README.md/x lies under a file: not a file a hook can run, and no crash.
    s.projectHooks(`hooks:\n${hookYaml({ id: 'opaque', run: `type: shell\nshell: 'bash "$SCRIPT_DIR/x.sh"; cat README.md/x'` })}\n`);
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/warning: hook "opaque" \(run\.shell\): .*\$SCRIPT_DIR\/x\.sh/);
  });

  it('covers the scripts of imported Claude hooks, which stay run.type: shell', async () => {
    const s = sandbox();
    cpSync(resolve('test/fixtures/agent-scripts'), join(s.workspace, '.claude', 'hooks'), { recursive: true });
    const command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm-rf.sh';
    s.write(join(s.workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }));
    expect((await s.run(['import', '--from', 'claude', '--write'])).exitCode).toBe(0);
    expect(readFileSync(join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), 'utf8')).toContain('type: shell');
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('.claude/hooks/block-rm-rf.sh');
    writeFileSync(join(s.workspace, '.claude', 'hooks', 'block-rm-rf.sh'), '#!/bin/sh\nexit 0\n');
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: s.workspace, tool_name: 'Bash', tool_input: { command: 'ls' } });
    const fired = await s.run(['fire', '--protocol', 'claude'], { input });
    expect(JSON.parse(fired.stdout).systemMessage).toContain('project_hooks_changed');
  });
});

describe('finding 7: init never writes through a symlink', () => {
  it('refuses a symlinked .chrys and writes nothing there', async () => {
    const s = sandbox();
    mkdirSync(join(s.root, 'elsewhere'));
    symlinkSync(join(s.root, 'elsewhere'), join(s.workspace, '.chrys'));
    const r = await s.run(['init']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${join(s.workspace, '.chrys')} is a symbolic link`);
    expect(existsSync(join(s.root, 'elsewhere', 'hooks'))).toBe(false);
  });

  it('refuses a symlinked scripts directory under the global hooks dir', async () => {
    const s = sandbox();
    mkdirSync(join(s.root, 'elsewhere'));
    mkdirSync(join(s.configDir, 'hooks'), { recursive: true });
    symlinkSync(join(s.root, 'elsewhere'), join(s.configDir, 'hooks', 'scripts'));
    const r = await s.run(['init', '--global']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('symbolic link');
    expect(existsSync(join(s.configDir, 'hooks', 'hooks.yaml'))).toBe(false);
  });
});

describe('finding 8: a trust record reached through a symlink or lying in the workspace trusts nothing', () => {
  it('ignores the record when hooks/state is a symlink, and trust refuses to write it', async () => {
    const s = sandbox();
    await trustedScriptProject(s);
    const state = join(s.configDir, 'hooks', 'state');
    cpSync(state, join(s.root, 'moved-state'), { recursive: true });
    rmSync(state, { recursive: true });
    symlinkSync(join(s.root, 'moved-state'), state);
    const { decision } = await s.fire(EDIT);
    expect(ids(decision)).toEqual([]);
    expect(warning(decision, 'trust_record_invalid')).toContain('is a symbolic link');
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('symbolic link');
  });

  it('ignores a record whose hooks/ directory really lies inside the workspace', async () => {
    const s = sandbox();
    await trustedScriptProject(s);
    const hooksDir = join(s.configDir, 'hooks');
    const inWorkspace = join(s.workspace, 'vendored-hooks');
    cpSync(hooksDir, inWorkspace, { recursive: true });
    rmSync(hooksDir, { recursive: true });
    symlinkSync(inWorkspace, hooksDir);
    const { decision } = await s.fire(EDIT);
    expect(ids(decision)).toEqual([]);
    expect(warning(decision, 'trust_record_invalid')).toMatch(/symbolic link|inside the workspace/);
  });
});

describe('finding 9: the Claude bridge never answers a block with an allow', () => {
  const GUARD = hookYaml({ id: 'deny', run: `type: shell\nshell: 'echo {\\"action\\":\\"block\\",\\"reason\\":\\"no\\"} > "$CHRYS_HOOK_RESULT"'` });

  it('answers a blocked Cursor-style preToolUse with a Claude deny', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${GUARD}\n`);
    const input = JSON.stringify({ hook_event_name: 'preToolUse', cwd: s.workspace, tool_name: 'Shell', tool_input: { command: 'rm -rf /' } });
    const r = await s.run(['fire', '--protocol', 'claude'], { input });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
  });

  it('denies a Cursor-style name it does not know (beforeShellExecution) with exit 2', async () => {
    const s = sandbox();
    const input = JSON.stringify({ hook_event_name: 'beforeShellExecution', cwd: s.workspace, command: 'rm -rf /' });
    const r = await s.run(['fire', '--protocol', 'claude'], { input });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"beforeShellExecution" is not one chrys-hooks knows');
  });

  it('--fail-closed blocks a guarded event whose tool_input is not an object', async () => {
    const s = sandbox();
    for (const toolInput of ['rm -rf /', null, ['rm']]) {
      const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: s.workspace, tool_name: 'Bash', tool_input: toolInput });
      const r = await s.run(['fire', '--protocol', 'claude', '--fail-closed'], { input });
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('tool_input is') });
    }
    const chrys = await s.fire({ event: 'before_tool_call', tool: { name: 'shell', args: 'rm -rf /' } }, ['--fail-closed']);
    expect(chrys.decision).toMatchObject({ blocked: true, reason: expect.stringContaining('tool.args is a string') });
    const fine = await s.run(['fire', '--protocol', 'claude', '--fail-closed'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', cwd: s.workspace, tool_name: 'Bash', tool_input: { command: 'ls' } }) });
    expect(JSON.parse(fine.stdout)).toEqual({});
  });
});

describe('finding 10: a dangling hooks-file symlink is that layer\'s file, and invalid', () => {
  it('reports the global file invalid instead of falling through to hooks.json, and --fail-closed blocks', async () => {
    const s = sandbox();
    mkdirSync(join(s.configDir, 'hooks'), { recursive: true });
    symlinkSync(join(s.root, 'gone.yaml'), join(s.configDir, 'hooks', 'hooks.yaml'));
    s.globalHooks('{"hooks": []}', 'hooks.json');
    const { decision } = await s.fire(EDIT);
    expect(warning(decision, 'hooks_config_invalid')).toContain('symbolic link to a file that does not exist');
    expect((await s.fire(EDIT, ['--fail-closed'])).decision).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed' } });
    const v = await s.run(['validate']);
    expect(v.exitCode).toBe(1);
    expect(v.stdout + v.stderr).toContain('unreadable_file');
  });

  it('reports a FIFO as the project hooks file invalid without hanging', async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, '.chrys', 'hooks'), { recursive: true });
    await execa('mkfifo', [join(s.workspace, '.chrys', 'hooks', 'hooks.yaml')]);
    const { decision } = await s.fire(EDIT, ['--project-hooks']);
    expect(warning(decision, 'project_hooks_config_invalid')).toContain('named pipe');
  });
});
