// The workspace of an agent's firing is the session's project root, not the
// directory the tool call runs in (CONTRACT §1): a session that `cd`s into
// src/ keeps every project guard, under each protocol; where no root can be
// known, a trusted workspace around the agent's cwd is said loudly, and
// blocks under --fail-closed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const HOOKS = `hooks:
  - id: no-rm
    event: before_tool_call
    match:
      tool_kind: process.exec
    run:
      type: script
      path: guard.sh
    execution:
      mode: blocking
      on_error: block
`;

// Blocks any command holding "rm -rf"; records the workspace it was given.
const GUARD = `#!/usr/bin/env bash
printf '%s\\n' "$CHRYS_WORKSPACE" >> "$CHRYS_WORKSPACE/.seen-workspace"
if grep -q 'rm -rf' "$CHRYS_HOOK_PAYLOAD_FILE"; then
  echo '{"action": "block", "reason": "rm -rf is not allowed here"}' > "$CHRYS_HOOK_RESULT"
fi
`;

async function trustedWorkspace(s: Sandbox): Promise<string> {
  s.projectHooks(HOOKS);
  s.write(join(s.workspace, '.chrys', 'hooks', 'guard.sh'), GUARD, 0o755);
  s.write(join(s.workspace, 'src', 'main.c'), '');
  const trusted = await s.run(['trust', '--yes']);
  expect(trusted.exitCode, trusted.stderr).toBe(0);
  return join(s.workspace, 'src');
}

const claudeInput = (event: string, cwd: string, extra: object = {}) =>
  JSON.stringify({ session_id: 'sess-1', transcript_path: '/t', cwd, permission_mode: 'default', hook_event_name: event, ...extra });
const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });
const geminiInput = (event: string, cwd: string, extra: object = {}) =>
  JSON.stringify({ session_id: 'g-1', transcript_path: '/t', cwd, hook_event_name: event, timestamp: '2026-01-01T00:00:00Z', ...extra });

/** fire with no --cwd: the workspace comes from the input and the agent's environment only. */
async function fireAgent(s: Sandbox, protocol: string, input: string, env: Record<string, string> = {}, extra: string[] = []) {
  const r = await s.runRaw(['fire', '--protocol', protocol, '--config-dir', s.configDir, ...extra], { input, env, cwd: join(s.workspace, 'src') });
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
}

describe('the workspace of an agent session', () => {
  it('Claude: CLAUDE_PROJECT_DIR is the workspace when the input cwd is a subdirectory', async () => {
    const s = sandbox();
    const src = await trustedWorkspace(s);
    const env = { CLAUDE_PROJECT_DIR: s.workspace };
    const denied = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('rm -rf /')), env, ['--fail-closed']);
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed here' } });
    const allowed = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('ls')), env, ['--fail-closed']);
    expect(allowed).toMatchObject({ exitCode: 0, json: {} });
    expect(readFileSync(join(s.workspace, '.seen-workspace'), 'utf8')).toBe(`${s.workspace}\n${s.workspace}\n`);
  });

  it('Gemini: GEMINI_PROJECT_DIR is the workspace', async () => {
    const s = sandbox();
    const src = await trustedWorkspace(s);
    const input = geminiInput('BeforeTool', src, { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf ~' } });
    const denied = await fireAgent(s, 'gemini', input, { GEMINI_PROJECT_DIR: s.workspace }, ['--fail-closed']);
    expect(denied.json).toMatchObject({ decision: 'deny', reason: 'rm -rf is not allowed here' });
  });

  it('Codex: the cwd of the session start is the workspace for the rest of the session', async () => {
    const s = sandbox();
    const src = await trustedWorkspace(s);
    const start = await fireAgent(s, 'codex', claudeInput('SessionStart', s.workspace, { source: 'startup' }));
    expect(start.exitCode, start.stderr).toBe(0);
    // A later start that reports a subdirectory (a resume, say) does not move the root.
    await fireAgent(s, 'codex', claudeInput('SessionStart', src, { source: 'resume' }));
    const denied = await fireAgent(s, 'codex', claudeInput('PreToolUse', src, bash('rm -rf build')), {}, ['--fail-closed']);
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed here' } });
    // Another session has no recorded start: its own cwd stands, and the lost guard is said.
    const other = await fireAgent(s, 'codex', claudeInput('PreToolUse', src, { ...bash('rm -rf build'), session_id: 'sess-2' }));
    expect(other.json?.hookSpecificOutput?.permissionDecision).not.toBe('deny');
    expect(other.stderr).toContain('enclosing_workspace_not_loaded');
  });

  it('a cwd inside a trusted workspace whose layer did not load blocks under --fail-closed, naming both paths; else it warns', async () => {
    const s = sandbox();
    const src = await trustedWorkspace(s);
    const closed = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('ls')), {}, ['--fail-closed']);
    expect(closed.json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(closed.json.hookSpecificOutput.permissionDecisionReason).toContain(`inside the trusted workspace ${s.workspace}`);
    expect(closed.json.hookSpecificOutput.permissionDecisionReason).toContain(`the agent works in ${src}`);
    const open = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('ls')));
    expect(open.json.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(open.json.systemMessage).toContain('enclosing_workspace_not_loaded');
    // An observer event is never blocked by it.
    const post = await fireAgent(s, 'claude', claudeInput('PostToolUse', src, { ...bash('ls'), tool_response: 'ok' }), {}, ['--fail-closed']);
    expect(post.json?.decision).toBeUndefined();
  });

  it('--cwd wins over CLAUDE_PROJECT_DIR', async () => {
    const s = sandbox();
    const src = await trustedWorkspace(s);
    const r = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('rm -rf /')), { CLAUDE_PROJECT_DIR: src }, ['--cwd', s.workspace]);
    expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('a run.protocol hook gets the project root as CLAUDE_PROJECT_DIR and the agent its own cwd on stdin', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:
  - id: claude-style
    event: before_tool_call
    run:
      type: shell
      shell: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'
      protocol: claude
    execution:
      mode: blocking
`);
    s.write(join(s.workspace, '.claude', 'hooks', 'check.sh'), `#!/usr/bin/env bash\ncat > "$CLAUDE_PROJECT_DIR/.stdin.json"\nprintf '%s' "$CLAUDE_PROJECT_DIR" > "$CLAUDE_PROJECT_DIR/.project-dir"\n`, 0o755);
    s.write(join(s.workspace, 'src', 'x'), '');
    expect((await s.run(['trust', '--yes'])).exitCode).toBe(0);
    const src = join(s.workspace, 'src');
    const r = await fireAgent(s, 'claude', claudeInput('PreToolUse', src, bash('ls')), { CLAUDE_PROJECT_DIR: s.workspace }, ['--fail-closed']);
    expect(r).toMatchObject({ exitCode: 0, json: {} });
    expect(readFileSync(join(s.workspace, '.project-dir'), 'utf8')).toBe(s.workspace);
    const stdin = JSON.parse(readFileSync(join(s.workspace, '.stdin.json'), 'utf8'));
    expect(stdin).toMatchObject({ cwd: src, hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } });
    expect(stdin).not.toHaveProperty('agent_cwd');
  });
});
