// `fire --protocol claude|codex|gemini` and `--fail-closed` through the binary:
// the agent's hook input in, Chrys hooks run, the answer in the agent's format.
// One input against given files is a golden scenario (test/golden/fire-protocol/); here
// inputs too big for a file, a package copy, and a project trusted and then changed.
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
});
