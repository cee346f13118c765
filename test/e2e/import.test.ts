// `chrys-hooks import`: another agent's hook config becomes a hooks.yaml that
// `validate` accepts and that blocks, rewrites and adds context as the agent
// would have with the original, unchanged scripts.
import { cpSync, existsSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const SCRIPTS = resolve('test/fixtures/agent-scripts');

const CLAUDE_SETTINGS = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm-rf.sh', timeout: 10 }] },
      { matcher: 'Write|Edit|Bash', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard-env.js"' }] },
      { matcher: 'mcp__.*', hooks: [{ type: 'prompt', prompt: 'Is this MCP call safe? $ARGUMENTS' }] },
      { matcher: '(unclosed', hooks: [{ type: 'command', command: 'true' }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'bash .claude/hooks/echo-input.sh' }] },
    ],
    PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: '.claude/hooks/format-file.sh' }] }],
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'python3 .claude/hooks/inject_context.py' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/stop_until_tests.py"' }] }],
    PermissionRequest: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'python3 .claude/hooks/approve-reads.py' }] }],
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/start.sh' }] }],
    TeleportHome: [{ hooks: [{ type: 'command', command: 'true' }] }],
  },
};

function claudeProject(s: Sandbox): void {
  cpSync(SCRIPTS, join(s.workspace, '.claude', 'hooks'), { recursive: true });
  s.write(join(s.workspace, '.claude', 'settings.json'), JSON.stringify(CLAUDE_SETTINGS, null, 2));
}

const claude = async (s: Sandbox, event: string, extra: object) => {
  const input = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, permission_mode: 'default', hook_event_name: event, ...extra });
  const r = await s.run(['fire', '--protocol', 'claude', '--project-hooks'], { input });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('import --from claude', () => {
  it('prints a hooks.yaml that validate accepts, with comments on what could not be carried over', async () => {
    const s = sandbox();
    claudeProject(s);
    const r = await s.run(['import', '--from', 'claude']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('shell: "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/block-rm-rf.sh"');
    expect(r.stdout).toContain('timeout_seconds: 10');
    expect(r.stdout).toContain('tool_names: ["Write", "Edit", "Bash"]');
    expect(r.stdout).toMatch(/# not imported: .*PreToolUse\[2\]\.hooks\[0\] is a "prompt" handler/);
    expect(r.stdout).toMatch(/# not imported: .*"\(unclosed" is not a valid regex/);
    expect(r.stdout).toMatch(/# not imported: .*event "TeleportHome" has no chrys-hooks equivalent/);
    expect(r.stdout).toContain('# uses CLAUDE_PLUGIN_ROOT');
    expect(r.stdout).toContain('"source": ["startup"]');
    const file = s.write('imported.yaml', r.stdout);
    const v = await s.run(['validate', file, '--format', 'json']);
    expect(JSON.parse(v.stdout)).toMatchObject({ errors: 0 });
    expect(v.exitCode).toBe(0);
  });

  it('--write tells the user to trust, to remove the hooks from the agent settings, and how an "other" event gets called', async () => {
    const s = sandbox();
    s.write(join(s.workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] } }));
    const r = await s.run(['import', '--from', 'claude', '--write']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/trusted workspace: review and trust them with `chrys-hooks trust`/);
    expect(r.stdout).toContain('remove the imported hooks from .claude/settings.json');
    expect(r.stdout).toContain('runs each one itself and again through chrys-hooks');
    expect(r.stdout).toContain('"Notification" is imported as event other: it fires only if');
    // The next steps are the install commands, not hand-written settings lines.
    expect(r.stdout).toContain('then wire Claude Code to chrys-hooks: chrys-hooks install --agent claude');
    expect(r.stdout).toContain('calls chrys-hooks for Notification: chrys-hooks install --agent claude --events Notification');
  });

  it('writes the project file, never over an existing one without --force, and then behaves as Claude Code would', async () => {
    const s = sandbox();
    claudeProject(s);
    const written = await s.run(['import', '--from', 'claude', '--write']);
    expect(written.exitCode, written.stderr).toBe(0);
    const path = join(s.workspace, '.chrys', 'hooks', 'hooks.yaml');
    expect(written.stdout).toContain(`wrote ${path}`);
    const again = await s.run(['import', '--from', 'claude', '--write']);
    expect(again).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('already exists') });
    expect((await s.run(['import', '--from', 'claude', '--write', '--force'])).exitCode).toBe(0);

    // Blocks (exit 2 script), denies (JSON script), rewrites, adds context, keeps Claude going, approves.
    expect((await claude(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'Blocked: rm -rf is not allowed in this project' });
    expect((await claude(s, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: '.env' } })).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(await claude(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push' } })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'git push --dry-run' }, additionalContext: 'git push runs as a dry run here' } });
    expect(await claude(s, 'PostToolUse', { tool_name: 'Write', tool_input: { file_path: 'a.ts' }, tool_response: {} })).toEqual({});
    expect(await claude(s, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a.ts' } })).toEqual({}); // echoes its input: no opinion
    expect((await claude(s, 'UserPromptSubmit', { prompt: 'hi' })).hookSpecificOutput.additionalContext).toContain('Project context');
    expect(await claude(s, 'Stop', { stop_hook_active: false })).toMatchObject({ decision: 'block' });
    expect(await claude(s, 'Stop', { stop_hook_active: true })).toEqual({});
    expect(await claude(s, 'PermissionRequest', { tool_name: 'Read', tool_input: { file_path: join(s.workspace, 'x') } })).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
  });

  it('refuses to write through a symlinked .chrys directory', async () => {
    const s = sandbox();
    claudeProject(s);
    mkdirSync(join(s.root, 'elsewhere'));
    symlinkSync(join(s.root, 'elsewhere'), join(s.workspace, '.chrys'));
    const r = await s.run(['import', '--from', 'claude', '--write']);
    expect(r).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('symbolic link') });
    expect(existsSync(join(s.root, 'elsewhere', 'hooks'))).toBe(false);
  });

  it('reports bad input with the file position; a file with no hooks key imports to an empty valid file', async () => {
    const s = sandbox();
    const broken = s.write('settings.json', '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
    const r = await s.run(['import', '--from', 'claude', broken]);
    expect(r.exitCode).toBe(65);
    expect(r.stderr).toContain(`${broken}:3:`);
    expect(r.stderr).not.toContain('    at ');
    const empty = s.write('empty.json', '{"permissions": {}}');
    const e = await s.run(['import', '--from', 'claude', empty]);
    expect(e.stdout).toContain('has no "hooks" key');
    expect(e.stdout).toContain('hooks: []');
    expect((await s.run(['validate', s.write('e.yaml', e.stdout)])).exitCode).toBe(0);
    const none = await s.run(['import', '--from', 'codex']);
    expect(none).toMatchObject({ exitCode: 65, stderr: expect.stringContaining('.codex/hooks.json') });
  });
});

describe('import of a hostile settings file', () => {
  // A line break in an event key would end the `# not imported` comment and
  // start a live YAML line. js-yaml (the fast read of fire, list and resolve)
  // takes a lone CR as a line break, the positioned parser of validate does
  // not: validate said 0 errors while fire read a settings block the import
  // wrote from the hostile key. (A second `hooks:` key would be a duplicate,
  // so the injection reaches the top-level settings.)
  const injected = (brk: string) => `X${brk}settings:${brk}  shutdown_grace_seconds: 77${brk}#`;

  it('keeps every untrusted fragment inside its comment, whatever line break it holds', async () => {
    const s = sandbox();
    const breaks = ['\r', '\n', '\r\n', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c'];
    const hooks = Object.fromEntries(breaks.map((b, i) => [i === 0 ? injected(b) : `Y${i}${b}version: 2${b}#`, [{ hooks: [{ type: 'command', command: 'true' }] }]]));
    s.write(join(s.workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { ...hooks, SessionStart: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    const r = await s.run(['import', '--from', 'claude', '--write']);
    expect(r.exitCode, r.stderr).toBe(0);
    const yaml = readFileSync(join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), 'utf8');
    // eslint-disable-next-line no-control-regex
    expect(yaml).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(yaml).toContain('# not imported: ');
    expect(yaml).toContain('event "X\\rsettings:\\r  shutdown_grace_seconds: 77\\r#" has no chrys-hooks equivalent');
    expect(yaml).toContain('Y5\\u2029version: 2');
    const v = await s.run(['validate', '--format', 'json']);
    expect(JSON.parse(v.stdout)).toMatchObject({ errors: 0 });
    const listed = JSON.parse((await s.run(['list', '--json', '--project-hooks'])).stdout);
    expect(listed.hooks.map((h: { id: string }) => h.id)).toEqual(['claude-sessionstart-1-1']);
    const resolved = JSON.parse((await s.run(['resolve', '--json', '--project-hooks'], { input: '' })).stdout);
    expect(resolved.settings.shutdown_grace_seconds.origin).toBe('default');
    const fired = await s.fire({ event: 'session_start', session_id: 'h' }, ['--project-hooks']);
    expect(fired.decision.hooks.map((h: { id: string }) => h.id)).toEqual(['claude-sessionstart-1-1']);
    expect(existsSync(join(s.workspace, 'EVIL'))).toBe(false);
  });
});

describe('import --from gemini, codex and cursor', () => {
  it('converts Gemini milliseconds, disabled names, env and an invalid regex (matched exactly, as Gemini does)', async () => {
    const s = sandbox();
    cpSync(SCRIPTS, join(s.workspace, 'hooks'), { recursive: true });
    s.write(join(s.workspace, '.gemini', 'settings.json'), JSON.stringify({
      hooks: {
        enabled: true,
        disabled: ['old-check'],
        BeforeTool: [
          { matcher: 'run_shell_command', hooks: [{ name: 'shell-guard', type: 'command', command: 'bash "$GEMINI_PROJECT_DIR/hooks/gemini-guard.sh"', timeout: 5000, env: { LEVEL: 'strict' } }] },
          { matcher: 'write_(file', hooks: [{ name: 'old-check', type: 'command', command: 'true' }] },
        ],
      },
    }));
    const r = await s.run(['import', '--from', 'gemini']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('id: "gemini-shell-guard"');
    expect(r.stdout).toContain('timeout_seconds: 5\n');
    expect(r.stdout).toContain('"LEVEL": "strict"');
    expect(r.stdout).toContain('enabled: false');
    expect(r.stdout).toContain('tool_name: "write_(file"');
    expect(r.stdout).toContain('protocol: gemini');
    s.projectHooks(r.stdout);
    expect((await s.run(['validate'])).exitCode).toBe(0);
    const input = JSON.stringify({ hook_event_name: 'BeforeTool', session_id: 'g', cwd: s.workspace, timestamp: 't', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } });
    const denied = await s.run(['fire', '--protocol', 'gemini', '--project-hooks'], { input });
    expect(JSON.parse(denied.stdout)).toEqual({ decision: 'deny', reason: 'rm -rf is blocked by policy' });
  });

  it('imports Codex hooks with the codex protocol and Cursor hooks with failClosed as on_error: block', async () => {
    const s = sandbox();
    s.write(join(s.workspace, '.codex', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 30 }] }] } }));
    const codex = await s.run(['import', '--from', 'codex']);
    expect(codex.stdout).toContain('protocol: codex');
    expect(codex.stdout).toContain('timeout_seconds: 30');
    s.write(join(s.workspace, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: './guard.sh', matcher: 'Shell', failClosed: true, loop_limit: 3 }], beforeShellExecution: [{ command: 'x' }] } }));
    const cursor = await s.run(['import', '--from', 'cursor']);
    expect(cursor.stdout).toContain('on_error: block');
    expect(cursor.stdout).toContain('loop_limit: 3 was not carried over');
    // beforeShellExecution is imported as the Shell tool's before_tool_call, run by the cursor protocol.
    expect(cursor.stdout).toMatch(/id: "cursor-beforeshellexecution-1"[\s\S]*tool_name: "Shell"[\s\S]*protocol: cursor/);
    for (const text of [codex.stdout, cursor.stdout]) expect((await s.run(['validate', s.write(`v${text.length}.yaml`, text)])).exitCode).toBe(0);
    expect(readFileSync(join(s.workspace, '.cursor', 'hooks.json'), 'utf8')).toContain('failClosed');
  });
});
