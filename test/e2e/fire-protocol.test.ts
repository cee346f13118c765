// `fire --protocol claude|codex|gemini` and `--fail-closed` through the binary:
// the agent's hook input in, Chrys hooks run, the answer in the agent's format.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const RM_GUARD = hookYaml({
  id: 'no-rm',
  match: 'tool_kind: process.exec\nargs:\n  command: { regex: "rm\\\\s+-rf" }',
  run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"rm -rf is not allowed\\"}" > "$CHRYS_HOOK_RESULT"'`,
});
const PRE = (s: Sandbox, command: string) => JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

async function fire(s: Sandbox, input: string, args: string[], env: Record<string, string> = {}) {
  const r = await s.run(['fire', ...args], { input, env });
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
}

describe('fire --protocol', () => {
  it('a Claude PreToolUse input meets a Chrys project hook: denied in Claude format, or exit 2 with --exit-code', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${RM_GUARD}\n`);
    const denied = await fire(s, PRE(s, 'rm -rf /'), ['--protocol', 'claude', '--project-hooks']);
    expect(denied).toMatchObject({ exitCode: 0, json: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' } } });
    const exit2 = await fire(s, PRE(s, 'rm -rf /'), ['--protocol', 'claude', '--project-hooks', '--exit-code']);
    expect(exit2).toMatchObject({ exitCode: 2, stdout: '', stderr: 'rm -rf is not allowed' });
    expect(await fire(s, PRE(s, 'ls'), ['--protocol', 'claude', '--project-hooks', '--exit-code'])).toMatchObject({ exitCode: 0, json: {} });
    // Without trust the project hook is dormant, and Claude is told so.
    const dormant = await fire(s, PRE(s, 'rm -rf /'), ['--protocol', 'claude']);
    expect(dormant.json).toEqual({ systemMessage: expect.stringContaining('project_hooks_dormant') });
  });

  it('answers Codex with an explicit allow beside updatedInput, and Gemini with tool_input', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'dry', match: 'tool_kind: process.exec', run: `type: shell\nshell: 'echo "{\\"action\\": \\"modify\\", \\"args_override\\": {\\"command\\": \\"make -n\\"}}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const codex = await fire(s, PRE(s, 'make'), ['--protocol', 'codex']);
    expect(codex.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'make -n' } } });
    const gemini = await fire(s, JSON.stringify({ hook_event_name: 'BeforeTool', session_id: 'g', cwd: s.workspace, timestamp: 'x', tool_name: 'run_shell_command', tool_input: { command: 'make', dir: '.' } }), ['--protocol', 'gemini']);
    expect(gemini.json).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'make -n', dir: '.' } } });
  });

  it('a Gemini block with warnings leads its systemMessage with the reason, which Gemini shows in place of reason', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'frozen', event: 'user_prompt_submit', run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"the repo is frozen\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    s.projectHooks('hooks: []\n');
    const input = (event: string) => JSON.stringify({ hook_event_name: event, session_id: '', cwd: s.workspace, prompt: 'refactor' });
    const gemini = await fire(s, input('BeforeAgent'), ['--protocol', 'gemini']);
    expect(gemini.json).toMatchObject({ decision: 'deny', reason: 'the repo is frozen' });
    const [first, ...rest] = String(gemini.json.systemMessage).split('\n');
    expect(first).toBe('the repo is frozen');
    expect(rest.join('\n')).toContain('chrys-hooks project_hooks_dormant');
    // Not blocked: the warnings alone. Claude shows reason and systemMessage apart: unchanged.
    const allowed = await fire(s, JSON.stringify({ hook_event_name: 'AfterTool', session_id: '', cwd: s.workspace, tool_name: 'read_file', tool_input: {}, tool_response: {} }), ['--protocol', 'gemini']);
    expect(allowed.json).toEqual({ systemMessage: expect.stringMatching(/^chrys-hooks project_hooks_dormant/) });
    const claude = await fire(s, input('UserPromptSubmit'), ['--protocol', 'claude']);
    expect(claude.json).toMatchObject({ decision: 'block', reason: 'the repo is frozen', systemMessage: expect.stringMatching(/^chrys-hooks project_hooks_dormant/) });
  });

  it('a Chrys block after a tool is block_feedback, answered as decision: block on PostToolUse', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'lint', event: 'after_tool_call', run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"lint: 2 errors\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const input = JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', cwd: s.workspace, tool_name: 'Edit', tool_input: { file_path: 'a.ts' }, tool_response: { success: true } });
    expect((await fire(s, input, ['--protocol', 'claude'])).json).toEqual({ decision: 'block', reason: 'lint: 2 errors' });
    const { decision } = await s.fire({ event: 'PostToolUse', tool: { name: 'Edit', args: {} }, result: { text: 'ok' } });
    expect(decision).toMatchObject({ blocked: false, block_feedback: 'lint: 2 errors', blocked_by: null, warnings: [] });
  });

  it('a replace_result reaches Claude as updatedToolOutput in the tool\'s own shape, so the original output is gone', async () => {
    const s = sandbox();
    s.globalScript('redact.py', 'import json, os\njson.dump({"replace_result": "[redacted]"}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))\n');
    const redact = (event: string) => hookYaml({ id: `redact-${event}`, event, run: 'type: script\npath: scripts/redact.py' });
    s.globalHooks(`hooks:\n${redact('after_tool_call')}\n${redact('tool_error')}\n`);
    const post = (tool_name: string, tool_response: object, hook_event_name = 'PostToolUse') =>
      JSON.stringify({ hook_event_name, session_id: 's', cwd: s.workspace, tool_name, tool_input: {}, tool_use_id: 't1', tool_response });
    // Claude Code rejects a plain string for Bash and keeps the original: the object is its Bash output shape.
    const bash = await fire(s, post('Bash', { stdout: 'TOKEN=abc', stderr: 'warn', interrupted: false, isImage: false }), ['--protocol', 'claude']);
    expect(bash.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: '[redacted]', stderr: '', interrupted: false, isImage: false } } });
    const file = { filePath: '/w/.env', content: 'TOKEN=abc\nB=2\n', numLines: 3, startLine: 1, totalLines: 3 };
    const read = await fire(s, post('Read', { type: 'text', file }), ['--protocol', 'claude']);
    expect(read.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { type: 'text', file: { ...file, content: '[redacted]', numLines: 1 } } } });
    // No shape known (or no field on PostToolUseFailure): the replacement is fed back and the user is told the original leaked.
    for (const [tool, event] of [['mcp__db__query', 'PostToolUse'], ['Bash', 'PostToolUseFailure']] as const) {
      const fallback = await fire(s, post(tool, { rows: ['TOKEN=abc'] }, event), ['--protocol', 'claude']);
      expect(fallback.json, `${tool} ${event}`).toEqual({ decision: 'block', reason: '[redacted]', systemMessage: expect.stringContaining(`replaced the result of ${tool}`) });
      expect(fallback.json.systemMessage).toContain('the model sees the original output too');
    }
    // Codex's PostToolUse keeps its own answer.
    const codex = await fire(s, post('Bash', { stdout: 'TOKEN=abc' }), ['--protocol', 'codex']);
    expect(codex.json).toEqual({ decision: 'block', reason: '[redacted]' });
  });

  it('an unknown hook_event_name gets "no decision" plus a warning, exit 0; tool_input that is not an object is a warning', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    const unknown = await fire(s, JSON.stringify({ hook_event_name: 'PreToolUseX', tool_name: 'Bash' }), ['--protocol', 'claude', '--exit-code']);
    expect(unknown).toMatchObject({ exitCode: 0, json: { systemMessage: expect.stringContaining('agent_event_unknown') } });
    const notObject = await fire(s, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: 'rm -rf /' }), ['--protocol', 'claude']);
    expect(notObject).toMatchObject({ exitCode: 0, json: { systemMessage: expect.stringContaining('agent_input_invalid') } });
    const missing = await fire(s, '{"tool_name":"Bash"}', ['--protocol', 'claude']);
    expect(missing).toMatchObject({ exitCode: 65, json: { error: { code: 'missing_event' } } });
    const bad = await s.run(['fire', '--protocol', 'windsurf'], { input: '{}' });
    expect(bad.exitCode).toBe(64);
  });

  it('--event names an agent event like hook_event_name does; a bad --protocol and a Claude input without it get a hint', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    const bogus = await fire(s, '', ['--protocol', 'claude', '--event', 'Bogus']);
    expect(bogus).toMatchObject({ exitCode: 0, json: { systemMessage: expect.stringContaining('agent_event_unknown') } });
    const named = await fire(s, JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }), ['--protocol', 'claude', '--event', 'PreToolUse']);
    expect(named.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const bad = await fire(s, '{}', ['--protocol', 'nonsense']);
    expect(bad).toMatchObject({ exitCode: 64, json: { error: { code: 'usage', hint: expect.stringContaining('--help') } } });
    const noProtocol = await fire(s, '{"hook_event_name":"PreToolUse"}', []);
    expect(noProtocol).toMatchObject({ exitCode: 65, json: { error: { code: 'missing_event', hint: expect.stringContaining('--protocol claude') } } });
  });

  it('maps every Claude event it knows, and keeps Stop/SessionStart contexts', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${['session_start', 'conversation_done', 'pre_compact', 'other', 'tool_error', 'sub_agent_end'].map((event) => hookYaml({ id: `ctx-${event}`, event, run: `type: shell\nshell: 'printf "{\\"context\\": \\"%s\\"}" "$CHRYS_HOOK_EVENT" > "$CHRYS_HOOK_RESULT"'` })).join('\n')}\n`);
    const reply = async (event: string, extra: object = {}) => (await fire(s, JSON.stringify({ hook_event_name: event, session_id: 's', cwd: s.workspace, ...extra }), ['--protocol', 'claude'])).json;
    expect(await reply('SessionStart', { source: 'startup' })).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'session_start' } });
    expect(await reply('Stop', { stop_hook_active: false })).toEqual({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'conversation_done' } });
    expect(await reply('SubagentStop')).toEqual({ hookSpecificOutput: { hookEventName: 'SubagentStop', additionalContext: 'sub_agent_end' } });
    expect(await reply('PostToolUseFailure', { tool_name: 'Bash', tool_input: {}, error: 'boom' })).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'tool_error' } });
    expect(await reply('PreCompact', { trigger: 'auto' })).toEqual({}); // PreCompact reads no additionalContext
    expect(await reply('Notification', { message: 'hi' })).toEqual({});
  });

  it('handles a 50 MiB tool_response', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'size', event: 'after_tool_call', run: `type: shell\nshell: 'wc -c < "$CHRYS_HOOK_PAYLOAD_FILE" | tr -d " " > "$CHRYS_WORKSPACE/size"; cat > /dev/null'` })}\n`);
    const big = 'x'.repeat(50 * 1024 * 1024);
    const r = await fire(s, JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', cwd: s.workspace, tool_name: 'Read', tool_input: {}, tool_response: big }), ['--protocol', 'claude']);
    expect(r).toMatchObject({ exitCode: 0, json: {} });
    expect(Number(readFileSync(join(s.workspace, 'size'), 'utf8'))).toBeGreaterThan(big.length);
  });
});

describe('fire --protocol with no hooks files', () => {
  it('answers without the YAML parser or zod, and creates nothing', async () => {
    const s = sandbox();
    const pkg = s.packageCopy();
    expect(pkg.removeParserChunks().length).toBeGreaterThan(0);
    const r = await pkg.fire({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, ['--protocol', 'claude', '--fail-closed']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '{}' });
  });
});

describe('fire --fail-closed', () => {
  it('an invalid hooks file blocks a guarded event in the chosen protocol; CHRYS_HOOKS_FAIL_CLOSED=1 does the same', async () => {
    const s = sandbox();
    s.globalHooks('hooks:\n  - id: typo\n    event: before_tool_call\n    run: { type: script, paht: x.sh }\n');
    const open = await fire(s, PRE(s, 'rm -rf /'), ['--protocol', 'claude']);
    expect(open.json).toEqual({ systemMessage: expect.stringContaining('hooks_config_invalid') });
    const closed = await fire(s, PRE(s, 'rm -rf /'), ['--protocol', 'claude', '--fail-closed']);
    expect(closed.json.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('chrys-hooks fails closed') });
    expect(closed.json.systemMessage).toContain('fail_closed');
    const byEnv = await fire(s, PRE(s, 'ls'), ['--protocol', 'codex', '--exit-code'], { CHRYS_HOOKS_FAIL_CLOSED: '1' });
    expect(byEnv).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('fails closed') });
    const chrys = await s.fire({ event: 'permission_request', tool: { name: 'x' } }, ['--fail-closed']);
    expect(chrys.decision).toMatchObject({ blocked: true, permission: 'deny', blocked_by: { id: 'fail-closed', source: 'global' } });
    // Observers are not blocked: the tool already ran.
    const after = await fire(s, JSON.stringify({ hook_event_name: 'PostToolUse', cwd: s.workspace, tool_name: 'Bash', tool_input: {} }), ['--protocol', 'claude', '--fail-closed']);
    expect(after.json.decision).toBeUndefined();
  });

  it('leaves a valid setup alone', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    expect((await fire(s, PRE(s, 'ls'), ['--protocol', 'claude', '--fail-closed'])).json).toEqual({});
  });

  it('blocks when a trusted project layer changed, but not when the layer was never trusted', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${RM_GUARD}\n`);
    const never = await fire(s, PRE(s, 'ls'), ['--protocol', 'claude', '--fail-closed']);
    expect(never.json).toEqual({ systemMessage: expect.stringContaining('project_hooks_dormant') });
    expect((await s.run(['trust', '--yes'])).exitCode).toBe(0);
    s.projectHooks(`hooks:\n${RM_GUARD.replace('rm -rf is not allowed', 'rm -rf is not alowed')}\n`);
    const changed = await fire(s, PRE(s, 'ls'), ['--protocol', 'claude', '--fail-closed']);
    expect(changed.json.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('project_hooks_changed') });
    const chrys = await s.fire({ event: 'user_prompt_submit', text: 'hi' }, ['--fail-closed']);
    expect(chrys.decision).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed', source: 'project' } });
  });

  it('blocks a guarded event when a hook of it was skipped (a bad regex), even one with on_error: block', async () => {
    const g = sandbox();
    const skipped = hookYaml({ id: 'bad-re', match: "args:\n  command: { regex: 'rm (-rf' }", run: 'type: command\nargv: ["true"]', execution: 'mode: blocking\non_error: block' });
    g.globalHooks(`hooks:\n${skipped}\n`);
    const open = await fire(g, PRE(g, 'rm -rf /'), ['--protocol', 'claude']);
    expect(open.json).toEqual({ systemMessage: expect.stringContaining('hook_skipped') });
    const closed = await g.fire({ event: 'before_tool_call', tool: { name: 'Bash', args: { command: 'rm -rf /' } } }, ['--fail-closed']);
    expect(closed.decision).toMatchObject({ blocked: true, reason: expect.stringContaining('hook_skipped'), blocked_by: { id: 'fail-closed', source: 'global' } });
    // The skipped hook listens to before_tool_call only: other events are not blocked.
    expect((await g.fire({ event: 'user_prompt_submit', text: 'hi' }, ['--fail-closed'])).decision.blocked).toBe(false);
  });

  it('names an error that turned the file off in the headline, not a hook-level one', async () => {
    const s = sandbox();
    const bad = hookYaml({ id: 'dup', match: "args:\n  command: { regex: 'rm (-rf' }", run: 'type: command\nargv: ["true"]' });
    s.globalHooks(`hooks:\n${bad}\n${hookYaml({ id: 'dup', run: 'type: command\nargv: ["true"]' })}\n`);
    const r = await s.fire({ event: 'before_tool_call', tool: { name: 'x' } });
    const invalid = r.decision.warnings.find((w: any) => w.code === 'hooks_config_invalid');
    expect(invalid.message).toContain('[duplicate_id]');
    expect(r.result.stderr).toContain('duplicate_id');
    expect(r.result.stderr).not.toContain('invalid_regex');
  });
});
