// Published-style Claude Code, Codex and Gemini CLI hook scripts run unchanged
// through `run.protocol`: their input on stdin, their environment, their exit
// code and stdout read by their agent's rules, merged like Chrys decisions.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const SCRIPTS = resolve('test/fixtures/agent-scripts');

/** A project hook running a fixture script by `protocol`. */
function foreign(id: string, event: string, script: string, protocol = 'claude', match?: string): string {
  return hookYaml({ id, event, run: `type: script\npath: ${join(SCRIPTS, script)}\nprotocol: ${protocol}`, ...(match ? { match } : {}) });
}

const claudeInput = (s: Sandbox, event: string, extra: object): string =>
  JSON.stringify({ session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: s.workspace, permission_mode: 'default', hook_event_name: event, ...extra });

const fireClaude = async (s: Sandbox, input: string, protocol = 'claude', args: string[] = []) => {
  const r = await s.run(['fire', '--protocol', protocol, '--project-hooks', ...args], { input });
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
};

describe('run.protocol: published hook scripts, unchanged', () => {
  it('a bash guard blocks rm -rf with exit 2, in Chrys envelopes and Claude inputs alike', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('no-rm', 'PreToolUse', 'block-rm-rf.sh', 'claude', 'tool_name_regex: "Bash"')}\n`);
    const { decision } = await s.fire({ event: 'before_tool_call', tool: { name: 'Bash', args: { command: 'rm -rf /' } } }, ['--project-hooks']);
    expect(decision).toMatchObject({ blocked: true, reason: 'Blocked: rm -rf is not allowed in this project', blocked_by: { id: 'no-rm' } });
    expect(decision.hooks).toMatchObject([{ id: 'no-rm', status: 'blocked', exit_code: 2 }]);

    const denied = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } }));
    expect(denied.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Blocked: rm -rf is not allowed in this project' } });
    const allowed = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(allowed.json).toEqual({});
    const exitForm = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } }), 'codex', ['--exit-code']);
    expect(exitForm).toMatchObject({ exitCode: 2, stdout: '', stderr: 'Blocked: rm -rf is not allowed in this project' });
  });

  it('a node guard denies with permissionDecision and rewrites with updatedInput (the full input)', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('env-guard', 'PreToolUse', 'guard-env.js')}\n${hookYaml({ id: 'see-args', run: 'type: shell\nshell: \'cat > "$CHRYS_WORKSPACE/seen.json"\'' })}\n`);
    const denied = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: `${s.workspace}/.env`, content: 'X=1' } }));
    expect(denied.json.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('.env is not allowed') });

    const rewritten = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push origin main', timeout: 1.0 } }));
    expect(rewritten.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'git push origin main --dry-run', timeout: 1 }, additionalContext: 'git push runs as a dry run here' } });
    // The Chrys hook after it sees the rewritten args, and every field Claude sent.
    const seen = JSON.parse(readFileSync(join(s.workspace, 'seen.json'), 'utf8'));
    expect(seen).toMatchObject({ event: 'before_tool_call', hook_event_name: 'PreToolUse', transcript_path: '/tmp/t.jsonl', tool: { name: 'Bash', kind: 'process.exec', args: { command: 'git push origin main --dry-run' } } });
  });

  it('a python UserPromptSubmit hook: plain stdout becomes context, its JSON block blocks the prompt', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('ctx', 'UserPromptSubmit', 'inject_context.py')}\n`);
    const ok = await fireClaude(s, claudeInput(s, 'UserPromptSubmit', { prompt: 'add a test' }));
    expect(ok.json).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Project context: the tests live in test/ and run with `npm test`.' } });
    const { decision } = await s.fire({ event: 'user_prompt_submit', text: 'add a test' }, ['--project-hooks']);
    expect(decision.system_reminders).toEqual(['Project context: the tests live in test/ and run with `npm test`.']);
    const blocked = await fireClaude(s, claudeInput(s, 'UserPromptSubmit', { prompt: 'use password: hunter2' }));
    expect(blocked.json).toEqual({ decision: 'block', reason: 'Your prompt seems to contain a secret; remove it and try again.' });
  });

  it('a Stop hook keeps the agent going once, and honours stop_hook_active', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('tests-first', 'Stop', 'stop_until_tests.py')}\n`);
    const first = await fireClaude(s, claudeInput(s, 'Stop', { stop_hook_active: false }));
    expect(first.json).toEqual({ decision: 'block', reason: 'Run the test suite and make it pass before you stop.' });
    const again = await fireClaude(s, claudeInput(s, 'Stop', { stop_hook_active: true }));
    expect(again.json).toEqual({});
    s.write(join(s.workspace, '.tests-passed'), '');
    expect((await fireClaude(s, claudeInput(s, 'Stop', { stop_hook_active: false }))).json).toEqual({});
  });

  it('a PostToolUse formatter printing plain text neither blocks nor breaks the chain; an echo of the input is no opinion', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('fmt', 'PostToolUse', 'format-file.sh')}\n${foreign('echo', 'PostToolUse', 'echo-input.sh')}\n${foreign('echo-pre', 'PreToolUse', 'echo-input.sh')}\n${hookYaml({ id: 'ctx', event: 'after_tool_call', run: 'type: shell\nshell: \'echo "{\\"extra_context\\": \\"ran the formatter\\"}" > "$CHRYS_HOOK_RESULT"\'' })}\n`);
    const post = await fireClaude(s, claudeInput(s, 'PostToolUse', { tool_name: 'Write', tool_input: { file_path: 'a.ts' }, tool_response: { success: true } }), 'claude', ['--exit-code']);
    expect(post.exitCode).toBe(0);
    expect(post.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ran the formatter' } });
    const pre = await fireClaude(s, claudeInput(s, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(pre.json).toEqual({});
  });

  it('a PermissionRequest auto-approver allows reads inside the project and leaves the rest to the user', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('approve', 'PermissionRequest', 'approve-reads.py')}\n`);
    const inside = await fireClaude(s, claudeInput(s, 'PermissionRequest', { tool_name: 'Read', tool_input: { file_path: join(s.workspace, 'a.txt') } }));
    expect(inside.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    const outside = await fireClaude(s, claudeInput(s, 'PermissionRequest', { tool_name: 'Read', tool_input: { file_path: '/etc/passwd' } }));
    expect(outside.json).toEqual({});
  });

  it('a Gemini BeforeTool guard denies in JSON and merges tool_input over the arguments; Gemini env vars are set', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${foreign('g', 'BeforeTool', 'gemini-guard.sh', 'gemini')}\n${hookYaml({ id: 'env', event: 'before_tool_call', run: 'type: shell\nshell: \'printf "%s|%s|%s" "$GEMINI_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" "$GEMINI_SESSION_ID" > "$CHRYS_WORKSPACE/env.txt"\'\nprotocol: gemini' })}\n`);
    const input = (command: string) => JSON.stringify({ session_id: 'g-1', transcript_path: '', cwd: s.workspace, hook_event_name: 'BeforeTool', timestamp: '2026-12-01T00:00:00Z', tool_name: 'run_shell_command', tool_input: { command, dir: 'src' } });
    const denied = await s.run(['fire', '--protocol', 'gemini', '--project-hooks'], { input: input('rm -rf /') });
    expect(JSON.parse(denied.stdout)).toEqual({ decision: 'deny', reason: 'rm -rf is blocked by policy' });
    const rewritten = await s.run(['fire', '--protocol', 'gemini', '--project-hooks'], { input: input('npm test') });
    expect(JSON.parse(rewritten.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'npm test --silent', dir: 'src' } } });
    expect(readFileSync(join(s.workspace, 'env.txt'), 'utf8')).toBe(`${s.workspace}|${s.workspace}|g-1`);
  });
});

describe('run.protocol: non-blocking foreign hooks', () => {
  it('an async and a detached foreign hook both read the agent input on stdin, with no Chrys files', async () => {
    const s = sandbox();
    const probe = (name: string) => `type: shell\nshell: 'printf "%s|%s|%s" "$(cat)" "\${CHRYS_HOOK_PAYLOAD_FILE:-none}" "$CLAUDE_PROJECT_DIR" > "$CHRYS_WORKSPACE/${name}.tmp" && mv "$CHRYS_WORKSPACE/${name}.tmp" "$CHRYS_WORKSPACE/${name}"'\nprotocol: claude`;
    s.projectHooks(`hooks:\n${hookYaml({ id: 'log-async', event: 'PostToolUse', run: probe('async.txt'), execution: 'mode: async' })}\n${hookYaml({ id: 'log-detached', event: 'PostToolUse', run: probe('detached.txt'), execution: 'mode: fire_and_forget\ndetach: true' })}\n`);
    const r = await fireClaude(s, claudeInput(s, 'PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'a' }));
    expect(r.json).toEqual({});
    for (const name of ['async.txt', 'detached.txt']) {
      const path = join(s.workspace, name);
      await eventually(() => existsSync(path), 30_000, name);
      const [stdin, payloadFile, projectDir] = readFileSync(path, 'utf8').split('|');
      expect(JSON.parse(stdin!)).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: 'a', transcript_path: '/tmp/t.jsonl' });
      expect(payloadFile).toBe('none');
      expect(projectDir).toBe(s.workspace);
    }
  });
});

describe('run.protocol: odd output, read as the agent reads it', () => {
  const odd = async (script: string, protocol = 'claude', event = 'PreToolUse', args: string[] = []) => {
    const s = sandbox();
    s.projectScript('odd.sh', `#!/usr/bin/env bash\ncat > /dev/null\n${script}\n`);
    s.projectHooks(`hooks:\n${hookYaml({ id: 'odd', event, run: `type: script\npath: scripts/odd.sh\nprotocol: ${protocol}` })}\n`);
    const { decision } = await s.fire({ event, tool: { name: 'Bash', args: { command: 'ls' } } }, ['--project-hooks', ...args]);
    return decision;
  };
  const DENY = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`;

  it('text before the JSON is plain text: ignored on PreToolUse', async () => {
    const d = await odd(`echo "checking..."; echo '${DENY}'`);
    expect(d).toMatchObject({ blocked: false, warnings: [] });
    expect(d.hooks).toMatchObject([{ status: 'ok' }]);
  });

  it('two JSON documents, or "{" that is not JSON: no opinion, with result_invalid', async () => {
    for (const script of [`echo '${DENY}'; echo '${DENY}'`, `echo '{not json'`]) {
      const d = await odd(script);
      expect(d.blocked).toBe(false);
      expect(d.warnings).toMatchObject([{ code: 'result_invalid', hook: 'odd' }]);
    }
  });

  it('JSON on a non-zero exit decides for Claude; Codex counts it a failure and fails open', async () => {
    expect(await odd(`echo '${DENY}'; exit 1`)).toMatchObject({ blocked: true, reason: 'no' });
    const codex = await odd(`echo '${DENY}'; exit 1`, 'codex');
    expect(codex).toMatchObject({ blocked: false, warnings: [{ code: 'hook_failed' }] });
    expect(await odd('exit 1')).toMatchObject({ blocked: false, warnings: [{ code: 'hook_failed', message: expect.stringContaining('status 1') }] });
  });

  it('exit 2 with empty stderr blocks for Claude, and is a failure for Codex', async () => {
    expect(await odd('exit 2')).toMatchObject({ blocked: true, reason: 'blocked (exit 2)' });
    const codex = await odd('exit 2', 'codex');
    expect(codex).toMatchObject({ blocked: false, warnings: [{ code: 'hook_failed', message: expect.stringContaining('empty stderr') }] });
  });

  it('exit 2 after a tool is feedback (block_feedback), not a block; on PermissionRequest it is not honoured', async () => {
    const after = await odd('echo "tests now fail" >&2; exit 2', 'claude', 'PostToolUse');
    expect(after).toMatchObject({ blocked: false, block_feedback: 'tests now fail' });
    const permission = await odd('echo no >&2; exit 2', 'claude', 'PermissionRequest');
    expect(permission).toMatchObject({ blocked: false, permission: null, warnings: [{ code: 'hook_failed', message: expect.stringContaining('does not honour') }] });
  });

  it('a permissionDecision the agent does not know ("Deny") is said as result_invalid, and blocks under --fail-closed', async () => {
    const script = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny","permissionDecisionReason":"no"}}'`;
    const plain = await odd(script, 'claude', 'before_tool_call');
    expect(plain).toMatchObject({ blocked: false, warnings: [{ code: 'result_invalid', hook: 'odd', message: expect.stringContaining('not "Deny"') }] });
    const closed = await odd(script, 'claude', 'before_tool_call', ['--fail-closed']);
    expect(closed).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed' } });
    expect(closed.reason).toMatch(/^chrys-hooks fails closed: \[result_invalid\] hook "odd": hookSpecificOutput.permissionDecision must be /);
  });

  it('permissionDecision ask is kept as the decision\'s permission, its reason a notice to the user', async () => {
    const d = await odd(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"push to main?"}}'`);
    expect(d).toMatchObject({ blocked: false, permission: 'ask', contexts: [{ channel: 'ui_notice', text: 'push to main?' }] });
  });

  it('Gemini: plain stdout is a notice to the user, never a block', async () => {
    const d = await odd('echo "looked fine"', 'gemini', 'BeforeTool');
    expect(d).toMatchObject({ blocked: false, contexts: [{ channel: 'ui_notice', text: 'looked fine', hook: 'odd' }] });
  });
});
