// tool.canonical_args after an earlier hook's modify: the next hook's payload has the view of the new args.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

/** Fires `input` through a chain whose first hook rewrites the command to `rm -rf build`; the tool the second hook was given. */
async function secondHookTool(s: Sandbox, fireArgs: string[], input: string): Promise<{ args: { command: string }; canonical_args?: { command?: string } }> {
  const dump = join(s.root, 'payload.json');
  const REWRITE = hookYaml({ id: 'rewrite', match: 'tool_kind: process.exec', run: `type: shell\nshell: 'echo "{\\"action\\": \\"modify\\", \\"args_override\\": {\\"command\\": \\"rm -rf build\\"}}" > "$CHRYS_HOOK_RESULT"'` });
  const DUMP = hookYaml({ id: 'dump', match: 'tool_kind: process.exec', run: `type: shell\nshell: 'cp "$CHRYS_HOOK_PAYLOAD_FILE" ${dump}'` });
  s.globalHooks(`hooks:\n${REWRITE}\n${DUMP}\n`);
  const r = await s.run(['fire', ...fireArgs], { input });
  expect(r.exitCode).toBe(0);
  return JSON.parse(readFileSync(dump, 'utf8')).tool;
}

describe('canonical_args seen by the second hook of a chain', () => {
  it('copilot: a rewrite of the command by hook 1 is what hook 2 sees in tool.canonical_args', async () => {
    const s = sandbox();
    const tool = await secondHookTool(s, ['--protocol', 'copilot', '--event', 'preToolUse'], JSON.stringify({ timestamp: 1767225600000, cwd: s.workspace, toolName: 'bash', toolArgs: JSON.stringify({ command: 'make' }) }));
    expect(tool.args.command).toBe('rm -rf build');
    expect(tool.canonical_args?.command).toBe(tool.args.command);
  });

  it('claude (the same code path): a rewrite by hook 1 is what hook 2 sees in tool.canonical_args', async () => {
    const s = sandbox();
    const tool = await secondHookTool(s, ['--protocol', 'claude'], JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' } }));
    expect(tool.args.command).toBe('rm -rf build');
    expect(tool.canonical_args?.command).toBe(tool.args.command);
  });
});
