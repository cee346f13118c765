// Cursor and Copilot CLI spoken natively through the built binary: `fire
// --protocol cursor|copilot` with Chrys hooks, `run.protocol: cursor|copilot`
// scripts run unchanged, and `install` / `uninstall` round trips.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const SCRIPTS = resolve('test/fixtures/agent-scripts');
const RM_GUARD = hookYaml({
  id: 'no-rm',
  match: 'tool_kind: process.exec\nargs:\n  command: { regex: "rm\\\\s+-rf" }',
  run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"rm -rf is not allowed\\"}" > "$CHRYS_HOOK_RESULT"'`,
});
const DRY = hookYaml({ id: 'dry', match: 'tool_kind: process.exec\nargs:\n  command: { regex: "^make$" }', run: `type: shell\nshell: 'echo "{\\"action\\": \\"modify\\", \\"args_override\\": {\\"command\\": \\"make -n\\"}}" > "$CHRYS_HOOK_RESULT"'` });
const NO_SECRETS = hookYaml({ id: 'no-secret', event: 'user_prompt_submit', run: `type: shell\nshell: 'grep -q sk-live "$CHRYS_HOOK_PAYLOAD_FILE" && echo "{\\"action\\": \\"block\\", \\"reason\\": \\"no secrets in prompts\\"}" > "$CHRYS_HOOK_RESULT" || true'` });

const cursorInput = (s: Sandbox, event: string, extra: object): string =>
  JSON.stringify({ conversation_id: 'c-1', generation_id: 'g-1', hook_event_name: event, cursor_version: '1.7', workspace_roots: [s.workspace], user_email: null, ...extra });
const copilotInput = (s: Sandbox, extra: object): string => JSON.stringify({ timestamp: 1767225600000, cwd: s.workspace, ...extra });

async function fire(s: Sandbox, input: string, args: string[], env: Record<string, string> = {}) {
  const r = await s.run(['fire', ...args], { input, env });
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
}

describe('fire --protocol cursor', () => {
  it('denies a shell command in Cursor form (permission, or exit 2), and allows the rest', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    const shell = (command: string) => cursorInput(s, 'beforeShellExecution', { command, cwd: s.workspace, sandbox: false });
    expect((await fire(s, shell('rm -rf /'), ['--protocol', 'cursor'])).json).toEqual({ permission: 'deny', user_message: 'rm -rf is not allowed', agent_message: 'rm -rf is not allowed' });
    expect(await fire(s, shell('rm -rf /'), ['--protocol', 'cursor', '--exit-code'])).toMatchObject({ exitCode: 2, stdout: '', stderr: 'rm -rf is not allowed' });
    expect((await fire(s, shell('ls'), ['--protocol', 'cursor'])).json).toEqual({});
    // preToolUse names the same tool Shell: one guard covers both.
    const pre = cursorInput(s, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'rm -rf build' }, tool_use_id: 't1', cwd: s.workspace });
    expect((await fire(s, pre, ['--protocol', 'cursor'])).json).toMatchObject({ permission: 'deny' });
  });

  it('rewrites on preToolUse (updated_input) and denies a rewrite beforeShellExecution cannot carry', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${DRY}\n`);
    const pre = cursorInput(s, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'make' }, cwd: s.workspace });
    expect((await fire(s, pre, ['--protocol', 'cursor'])).json).toEqual({ updated_input: { command: 'make -n' } });
    const gate = await fire(s, cursorInput(s, 'beforeShellExecution', { command: 'make', cwd: s.workspace }), ['--protocol', 'cursor']);
    expect(gate.json).toMatchObject({ permission: 'deny', agent_message: expect.stringContaining('cannot apply') });
  });

  it('blocks a prompt with continue: false', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${NO_SECRETS}\n`);
    expect((await fire(s, cursorInput(s, 'beforeSubmitPrompt', { prompt: 'key sk-live-1', attachments: [] }), ['--protocol', 'cursor'])).json).toEqual({ continue: false, user_message: 'no secrets in prompts' });
    expect((await fire(s, cursorInput(s, 'beforeSubmitPrompt', { prompt: 'hello', attachments: [] }), ['--protocol', 'cursor'])).json).toEqual({});
  });

  it('runs a Cursor beforeShellExecution script unchanged: deny, ask kept where Cursor asks, deny where it cannot', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'cursor-guard', run: `type: script\npath: ${join(SCRIPTS, 'cursor-block-dangerous.sh')}\nprotocol: cursor` })}\n`);
    const shell = (command: string) => cursorInput(s, 'beforeShellExecution', { command, cwd: s.workspace });
    expect((await fire(s, shell('rm -rf x'), ['--protocol', 'cursor'])).json).toMatchObject({ permission: 'deny', agent_message: 'rm -rf is not allowed here' });
    expect((await fire(s, shell('git push'), ['--protocol', 'cursor'])).json).toMatchObject({ permission: 'ask' });
    // The same script on a Claude input: it reads `command` there too, and its deny is Claude's.
    const claude = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });
    expect((await fire(s, claude, ['--protocol', 'claude'])).json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed here' } });
    // preToolUse has no enforced ask in Cursor: the ask becomes a deny, never an allow.
    const pre = cursorInput(s, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'git push' }, cwd: s.workspace });
    expect((await fire(s, pre, ['--protocol', 'cursor'])).json).toMatchObject({ permission: 'deny' });
  });

  it('under --fail-closed, refused input is a deny', async () => {
    const s = sandbox();
    expect(await fire(s, 'not json', ['--protocol', 'cursor', '--fail-closed'])).toMatchObject({ exitCode: 2 });
  });
});

describe('fire --protocol copilot', () => {
  it('denies a shell command, reading toolArgs as JSON text, with --event naming the event', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n${DRY}\n`);
    const pre = (command: string) => copilotInput(s, { toolName: 'bash', toolArgs: JSON.stringify({ command, description: 'x' }) });
    expect((await fire(s, pre('rm -rf /'), ['--protocol', 'copilot', '--event', 'preToolUse'])).json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' });
    // Copilot reads exit 2 as a warning: the deny stays JSON with --exit-code.
    expect(await fire(s, pre('rm -rf /'), ['--protocol', 'copilot', '--event', 'preToolUse', '--exit-code'])).toMatchObject({ exitCode: 0, json: { permissionDecision: 'deny' } });
    expect((await fire(s, pre('make'), ['--protocol', 'copilot', '--event', 'preToolUse'])).json).toEqual({ modifiedArgs: { command: 'make -n', description: 'x' } });
    expect((await fire(s, pre('ls'), ['--protocol', 'copilot', '--event', 'preToolUse'])).json).toEqual({});
  });

  it('says on stderr that a prompt block cannot stop a Copilot prompt', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${NO_SECRETS}\n`);
    const r = await fire(s, copilotInput(s, { prompt: 'sk-live-2' }), ['--protocol', 'copilot', '--event', 'userPromptSubmitted']);
    expect(r).toMatchObject({ exitCode: 0, json: {}, stderr: expect.stringContaining('no secrets in prompts') });
  });

  it('runs a Copilot preToolUse script unchanged, its ask kept as ask', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'copilot-guard', run: `type: script\npath: ${join(SCRIPTS, 'copilot-deny-rm.sh')}\nprotocol: copilot` })}\n`);
    const pre = (command: string) => copilotInput(s, { toolName: 'bash', toolArgs: JSON.stringify({ command }) });
    expect((await fire(s, pre('rm -rf /'), ['--protocol', 'copilot', '--event', 'preToolUse'])).json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'Dangerous command detected' });
    expect((await fire(s, pre('git push'), ['--protocol', 'copilot', '--event', 'preToolUse'])).json).toMatchObject({ permissionDecision: 'ask' });
    // From a Claude input the script still gets Copilot's shape and its deny holds.
    const claude = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });
    expect((await fire(s, claude, ['--protocol', 'claude'])).json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'Dangerous command detected' } });
  });

  it('under --fail-closed, refused input is a deny', async () => {
    const s = sandbox();
    const r = await fire(s, 'not json', ['--protocol', 'copilot', '--event', 'preToolUse', '--fail-closed']);
    expect(r.json).toMatchObject({ permissionDecision: 'deny' });
  });
});

describe('install --agent cursor|copilot', () => {
  it.each([
    ['cursor', '.cursor/hooks.json', 'command', '.cursor/hooks.json'],
    ['copilot', '.copilot/hooks/chrys-hooks.json', 'bash', '.github/hooks/chrys-hooks.json'],
  ])('%s: installs, is idempotent, keeps other hooks, refuses the other scope, uninstalls', async (agent, userRel, key, projectRel) => {
    const s = sandbox();
    const file = join(s.home, userRel);
    mkdirSync(join(file, '..'), { recursive: true });
    const other = agent === 'cursor' ? { command: './audit.sh' } : { type: 'command', bash: './audit.sh' };
    const existing = `{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [${JSON.stringify(other)}]\n  }\n}\n`;
    writeFileSync(file, existing);
    const r = await s.run(['install', '--agent', agent]);
    expect(r.exitCode, r.stderr).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.version).toBe(1);
    expect(written.hooks.preToolUse[0]).toEqual(other);
    const mine = written.hooks.preToolUse[1];
    expect(mine[key]).toMatch(agent === 'copilot' ? /fire --protocol copilot --event preToolUse --fail-closed$/ : /fire --protocol cursor --fail-closed$/);
    if (agent === 'cursor') expect(mine).toMatchObject({ type: 'command', failClosed: true });
    const again = await s.run(['install', '--agent', agent]);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(again.stdout + again.stderr).toMatch(/unchanged|nothing/i);
    const clash = await s.run(['install', '--agent', agent, '--project']);
    expect(clash.exitCode).not.toBe(0);
    expect(existsSync(join(s.workspace, projectRel))).toBe(false);
    // The written command answers a real input of the agent.
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    const cmd = (mine[key] as string).replace(/^\S+/, '').trim().split(' ');
    const input = agent === 'cursor' ? cursorInput(s, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'rm -rf /' }, cwd: s.workspace }) : copilotInput(s, { toolName: 'bash', toolArgs: '{"command":"rm -rf /"}' });
    const answer = await fire(s, input, cmd.slice(1));
    expect(answer.json).toMatchObject(agent === 'cursor' ? { permission: 'deny' } : { permissionDecision: 'deny' });
    const doctor = await s.run(['doctor', '--json']);
    expect(doctor.stdout).toContain(file);
    const u = await s.run(['uninstall', '--agent', agent]);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(existing));
  });
});

describe('import --from copilot', () => {
  it('imports every .github/hooks/*.json handler with its own id, each still running as Copilot runs it', async () => {
    const s = sandbox();
    const log = join(s.root, 'ran.log');
    const hooksFile = (tag: string) => JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `echo ${tag} >> '${log}'`, powershell: 'Write-Output no' }], sessionStart: [{ type: 'command', bash: `echo start-${tag} >> '${log}'` }] } });
    s.write(join(s.workspace, '.github', 'hooks', 'a.json'), hooksFile('a'));
    s.write(join(s.workspace, '.github', 'hooks', 'b.json'), hooksFile('b'));
    const r = await s.run(['import', '--from', 'copilot', '--write']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('chrys-hooks install --agent copilot');
    const file = join(s.workspace, '.chrys', 'hooks', 'hooks.yaml');
    const v = await s.run(['validate', file, '--format', 'json']);
    expect(JSON.parse(v.stdout), v.stdout).toMatchObject({ errors: 0 });
    const listed = JSON.parse((await s.run(['list', '--json', '--project-hooks'])).stdout) as { hooks: { id: string; event: string }[] };
    expect(listed.hooks.map((h) => h.event).sort()).toEqual(['before_tool_call', 'before_tool_call', 'session_start', 'session_start']);
    expect(new Set(listed.hooks.map((h) => h.id)).size).toBe(4);
    const pre = await fire(s, copilotInput(s, { toolName: 'bash', toolArgs: '{"command":"ls"}' }), ['--protocol', 'copilot', '--event', 'preToolUse', '--project-hooks']);
    expect(pre.exitCode, pre.stderr).toBe(0);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['a', 'b']);
  });
});

describe('doctor on broken Cursor and Copilot set-ups', () => {
  it('names a missing binary, an unreadable hooks file and double wiring, each with its fix, and exits 1', async () => {
    const s = sandbox();
    const cursorUser = join(s.home, '.cursor', 'hooks.json');
    const cursorProject = join(s.workspace, '.cursor', 'hooks.json');
    const copilotUser = join(s.home, '.copilot', 'hooks', 'chrys-hooks.json');
    const copilotProject = join(s.workspace, '.github', 'hooks', 'chrys-hooks.json');
    s.write(cursorUser, JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: '/gone/chrys-hooks fire --protocol cursor' }] } }));
    s.write(cursorProject, '{ "hooks": ');
    const copilotEntry = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `${resolve('bin/chrys-hooks')} fire --protocol copilot --event preToolUse --fail-closed` }] } });
    s.write(copilotUser, copilotEntry);
    s.write(copilotProject, copilotEntry);
    const r = await s.run(['doctor']);
    expect(r.exitCode).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => l.startsWith('problem: '));
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^problem: Cursor cannot read ${cursorProject.replace(/[.]/g, '\\.')}: line \\d+, column \\d+: .*; fix: fix the JSON of `)),
      `problem: preToolUse in ${cursorUser} calls /gone/chrys-hooks, which is missing or not executable: the event runs no hooks; fix: chrys-hooks install --agent cursor`,
      `problem: preToolUse calls chrys-hooks 2 times (${copilotUser}, ${copilotProject}): every hook fires 2 times; fix: chrys-hooks uninstall --agent copilot --project (or --user): keep one scope`,
    ]);
    const j = JSON.parse((await s.run(['doctor', '--json'])).stdout) as { problems: { agent: string }[] };
    expect(j.problems.map((p) => p.agent)).toEqual(['cursor', 'cursor', 'copilot']);
  });
});

describe('list and resolve --protocol cursor|copilot', () => {
  it('map the agent event and input as fire does: the guard that denies is the one resolve shows running', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${RM_GUARD}\n`);
    const pre = cursorInput(s, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'rm -rf build' }, cwd: s.workspace });
    const copilotPre = copilotInput(s, { toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf build' }) });
    for (const [protocol, input, event] of [['cursor', pre, 'preToolUse'], ['copilot', copilotPre, 'preToolUse']] as const) {
      const listed = await s.run(['list', '--protocol', protocol, '--event', event, '--json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).hooks.map((h: { id: string }) => h.id)).toEqual(['no-rm']);
      s.write('input.json', input);
      const resolved = await s.run(['resolve', '--protocol', protocol, '--event', event, '--input', join(s.root, 'input.json'), '--json']);
      expect(resolved.exitCode, resolved.stderr).toBe(0);
      expect(JSON.parse(resolved.stdout).plan.hooks).toMatchObject([{ id: 'no-rm', verdict: 'run' }]);
      expect((await fire(s, input, ['--protocol', protocol, '--event', event])).json).toMatchObject(protocol === 'cursor' ? { permission: 'deny' } : { permissionDecision: 'deny' });
    }
  });
});
