// A Claude Code session as it really goes, under --fail-closed: SessionStart,
// twenty tool calls whose cwd wanders into subdirectories, hooks that append
// to their own logs, a Stop. Every project guard stays on, every safe call
// is allowed, and the layer stays trusted throughout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const HOOKS = `hooks:
  - id: no-rm-rf
    event: before_tool_call
    match:
      tool_name: Bash
    run:
      type: script
      path: guard.py
    execution:
      mode: blocking
      on_error: block
  - id: format-log
    event: after_tool_call
    run:
      type: shell
      shell: 'echo "formatted $CHRYS_HOOK_EVENT" >> .claude/format.log'
    execution:
      mode: blocking
  - id: audit
    event: after_tool_call
    run:
      type: shell
      shell: 'jq -c .tool_input >> .claude/audit.jsonl 2>/dev/null || cat >> .claude/audit.jsonl'
      protocol: claude
    execution:
      mode: blocking
  - id: stop-log
    event: conversation_done
    run:
      type: shell
      shell: 'cat README.md > /dev/null; echo stop >> .claude/format.log'
    execution:
      mode: blocking
`;

const GUARD = `import json, os, sys
payload = json.load(open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"]))
command = payload["tool"]["args"].get("command", "")
if "rm -rf" in command:
    with open(os.environ["CHRYS_HOOK_RESULT"], "w") as f:
        json.dump({"action": "block", "reason": "no rm -rf in this repository"}, f)
`;

function workspace(s: Sandbox): void {
  s.projectHooks(HOOKS);
  s.write(join(s.workspace, '.chrys', 'hooks', 'guard.py'), GUARD);
  s.write(join(s.workspace, 'README.md'), '# demo\n');
  s.write(join(s.workspace, '.claude', 'format.log'), '');
  s.write(join(s.workspace, 'src', 'lib', 'util.c'), '');
}

const COMMANDS = ['ls', 'cat README.md', 'npm test', 'git status', 'rm -rf /'];
const CWDS = (ws: string) => [ws, join(ws, 'src'), join(ws, 'src', 'lib')];

describe('a Claude Code session under --fail-closed', () => {
  it('keeps every project guard on through cd and log-writing hooks, with no spurious deny', async () => {
    const s = sandbox();
    workspace(s);
    expect((await s.run(['trust', '--yes'])).exitCode).toBe(0);
    const env = { CLAUDE_PROJECT_DIR: s.workspace };
    const fire = async (input: object) => {
      const r = await s.runRaw(['fire', '--protocol', 'claude', '--fail-closed', '--config-dir', s.configDir], { input: JSON.stringify({ session_id: 'real-1', transcript_path: '/t', permission_mode: 'default', ...input }), env, cwd: join(s.workspace, 'src') });
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout.trim() ? JSON.parse(r.stdout) : {};
    };

    expect(await fire({ hook_event_name: 'SessionStart', cwd: s.workspace, source: 'startup' })).toEqual({});
    for (let call = 0; call < 20; call++) {
      const cwd = CWDS(s.workspace)[call % 3]!;
      const command = COMMANDS[call % COMMANDS.length]!;
      const tool = { tool_name: 'Bash', tool_input: { command }, tool_use_id: `t${call}` };
      const pre = await fire({ hook_event_name: 'PreToolUse', cwd, ...tool });
      if (command.startsWith('rm -rf')) {
        expect(pre.hookSpecificOutput, `call ${call}`).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf in this repository' });
        continue;
      }
      expect(pre, `call ${call}: ${command} in ${cwd}`).toEqual({});
      expect(await fire({ hook_event_name: 'PostToolUse', cwd, ...tool, tool_response: { stdout: 'ok', stderr: '' } }), `call ${call}`).toEqual({});
    }
    expect(await fire({ hook_event_name: 'Stop', cwd: join(s.workspace, 'src'), stop_hook_active: false, last_assistant_message: 'done' })).toEqual({});

    // The log hooks ran every time, in the workspace, and trust never noticed their writes.
    expect(readFileSync(join(s.workspace, '.claude', 'format.log'), 'utf8').split('\n').filter(Boolean)).toHaveLength(17);
    const list = JSON.parse((await s.run(['trust', '--list', '--json'])).stdout);
    expect(list.workspaces).toMatchObject([{ workspace: s.workspace, state: 'trusted', diff: { changed: [], added: [], removed: [] } }]);
  });
});
