// `install` / `uninstall` / `doctor` through the built binary, on a temp HOME:
// the agents' real files edited in place, every other byte kept, and the
// written command answering a real input of that agent.
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Sandbox, read, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

type Agent = 'claude' | 'codex' | 'gemini';
const USER_FILE: Record<Agent, string> = { claude: '.claude/settings.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json' };
const TOOL_EVENT: Record<Agent, string> = { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool' };

const userFile = (s: Sandbox, agent: Agent): string => join(s.home, USER_FILE[agent]);
const projectFile = (s: Sandbox, agent: Agent): string => join(s.workspace, USER_FILE[agent]);

// Another tool's hooks, settings and comments (comments only where the agent reads them).
const EXISTING: Record<Agent, string> = {
  claude: `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/guard.sh" }] }
    ],
    "Notification": [{ "hooks": [{ "type": "command", "command": "notify-send hi" }] }]
  },
  "permissions": { "allow": ["Bash(git *)"] }
}
`,
  codex: `{
    "hooks": {
        "Stop": [{ "hooks": [{ "type": "command", "command": "say done", "timeout": 5 }] }]
    }
}
`,
  gemini: `// Gemini settings, with comments
{
  "theme": "GitHub", // the look
  /* hooks of another tool */
  "hooks": {
    "BeforeTool": [
      { "matcher": "write_file", "hooks": [{ "name": "lint", "type": "command", "command": "lint.sh" }] } // keep me
    ]
  }
}
`,
};

const commandsOf = (text: string, event: string): string[] =>
  ((JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/ [^"\n]*$/gm, '')).hooks?.[event] ?? []) as { hooks: { command: string }[] }[]).flatMap((g) => g.hooks.map((h) => h.command));

const GUARD = 'hooks:\n  - id: guard\n    event: before_tool_call\n    run: { type: script, path: scripts/guard.sh }\n    execution: { mode: blocking }\n';

/** Runs a written command as the agent would (through sh), with that agent's input on stdin. */
async function asAgent(s: Sandbox, command: string, input: object) {
  const r = await execa('sh', ['-c', command], { input: JSON.stringify(input), env: { ...s.env(), CHRYS_HOME: s.configDir }, extendEnv: false, reject: false, cwd: s.workspace });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe.each(['claude', 'codex', 'gemini'] as const)('install --agent %s', (agent) => {
  it('(a) creates the file with one entry per event, and uninstall leaves an empty object', async () => {
    const s = sandbox();
    const r = await s.run(['install', '--agent', agent]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`created ${userFile(s, agent)} (user scope`);
    expect(r.stdout).toContain(`command: ${BIN} (the running binary: \`chrys-hooks\` is not on PATH)`);
    const text = read(userFile(s, agent))!;
    expect(commandsOf(text, TOOL_EVENT[agent])).toEqual([`${BIN} fire --protocol ${agent} --fail-closed`]);
    const post = agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
    expect(commandsOf(text, post)).toEqual([`${BIN} fire --protocol ${agent}`]);
    if (agent === 'gemini') expect(JSON.parse(text).hooks.BeforeTool[0]).toEqual({ matcher: '*', hooks: [{ name: 'chrys', type: 'command', command: `${BIN} fire --protocol gemini --fail-closed`, timeout: 60000 }] });
    if (agent === 'codex') expect(r.stdout).toContain('next: Codex runs none of these entries until you trust them, and `codex exec` skips them without a word: run `codex` in a terminal and choose "Trust all and continue" at "Hooks need review"');

    const u = await s.run(['uninstall', '--agent', agent]);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('removed');
    expect(read(userFile(s, agent))).toBe('{}\n');
  });

  it('(b) keeps every other key, hook and comment byte for byte, and uninstall restores the file exactly', async () => {
    const s = sandbox();
    const file = s.write(userFile(s, agent), EXISTING[agent]);
    const r = await s.run(['install', '--agent', agent]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`the old file is kept as ${file}.chrys-backup`);
    expect(read(`${file}.chrys-backup`)).toBe(EXISTING[agent]);
    const text = read(file)!;
    // The other tool's entry is still first and unchanged; ours comes after it.
    const tool = commandsOf(text, TOOL_EVENT[agent]);
    if (agent !== 'codex') expect(tool).toEqual([agent === 'claude' ? '~/bin/guard.sh' : 'lint.sh', `${BIN} fire --protocol ${agent} --fail-closed`]);
    // Each line is still there: as it was, or with our comma or inline entry before its closing brackets and comment.
    const lines = text.split('\n');
    for (const line of EXISTING[agent].split('\n')) {
      const comment = /\/\/.*$|\/\*.*\*\/$/.exec(line)?.[0] ?? '';
      const head = line.slice(0, line.length - comment.length).replace(/[\]},\s]*$/, '');
      expect(lines.some((l) => l.startsWith(head) && l.endsWith(comment)), line).toBe(true);
    }

    const u = await s.run(['uninstall', '--agent', agent]);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(read(file)).toBe(EXISTING[agent]);
  });

  it('(c) a second run changes nothing and says so', async () => {
    const s = sandbox();
    s.write(userFile(s, agent), EXISTING[agent]);
    await s.run(['install', '--agent', agent]);
    const once = read(userFile(s, agent));
    const again = await s.run(['install', '--agent', agent]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${agent}: nothing to change: ${userFile(s, agent)} already calls chrys-hooks for ${TOOL_EVENT[agent]}`);
    expect(read(userFile(s, agent))).toBe(once);
  });

  it('(d) refuses an event the other scope already wires, naming both files', async () => {
    const s = sandbox();
    expect((await s.run(['install', '--agent', agent, '--project'])).exitCode).toBe(0);
    const r = await s.run(['install', '--agent', agent, '--user']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${TOOL_EVENT[agent]} (${projectFile(s, agent)})`);
    expect(r.stderr).toContain(`an entry in ${userFile(s, agent)} would fire every hook twice`);
    expect(r.stderr).toContain(`chrys-hooks uninstall --agent ${agent} --project`);
    expect(existsSync(userFile(s, agent))).toBe(false);
  });

  it('--dry-run prints the diff and writes nothing', async () => {
    const s = sandbox();
    s.write(userFile(s, agent), EXISTING[agent]);
    const r = await s.run(['install', '--agent', agent, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`--- ${userFile(s, agent)}\n+++ ${userFile(s, agent)}\n@@ `);
    expect(r.stdout).toMatch(new RegExp(`\\n\\+.*${TOOL_EVENT[agent] === 'BeforeTool' ? 'chrys-hooks fire --protocol gemini --fail-closed' : 'fire --protocol'}`));
    expect(r.stdout).toContain('dry run: nothing was written');
    expect(read(userFile(s, agent))).toBe(EXISTING[agent]);
    expect(existsSync(`${userFile(s, agent)}.chrys-backup`)).toBe(false);
  });

  it("the written command, given the agent's own tool-call input, answers as that agent reads it", async () => {
    const s = sandbox();
    s.globalScript('guard.sh', 'printf \'{"action": "block", "reason": "not here"}\' > "$CHRYS_HOOK_RESULT"\n');
    s.globalHooks(GUARD);
    await s.run(['install', '--agent', agent]);
    const [command] = commandsOf(read(userFile(s, agent))!, TOOL_EVENT[agent]);
    const input = agent === 'gemini'
      ? { session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00Z', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } }
      : { session_id: 's', transcript_path: '/t', cwd: s.workspace, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'tu1' };
    const r = await asAgent(s, command!, input);
    expect(r.exitCode, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    if (agent === 'gemini') expect(answer).toMatchObject({ decision: 'deny', reason: expect.stringContaining('not here') });
    else expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('not here') });
  });
});

describe('install details', () => {
  it('writes the bare name when chrys-hooks on PATH is this binary, and says so', async () => {
    const s = sandbox();
    const bin = join(s.root, 'path-bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'chrys-hooks'));
    const r = await s.run(['install', '--agent', 'claude', '--events', 'PreToolUse,Stop'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`command: chrys-hooks (on PATH as ${join(bin, 'chrys-hooks')}, which is this binary)`);
    const text = read(userFile(s, 'claude'))!;
    expect(commandsOf(text, 'PreToolUse')).toEqual(['chrys-hooks fire --protocol claude --fail-closed']);
    expect(Object.keys(JSON.parse(text).hooks)).toEqual(['PreToolUse', 'Stop']);
  });

  it('recognises its entries by command, not position: another path to the binary is updated in place', async () => {
    const s = sandbox();
    const file = s.write(userFile(s, 'claude'), '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "echo a" }, { "type": "command", "command": "/old/bin/chrys-hooks fire --protocol claude" }] }]\n  }\n}\n');
    const r = await s.run(['install', '--agent', 'claude', '--events', 'Stop', '--no-fail-closed']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`updated  Stop: ${BIN} fire --protocol claude (was /old/bin/chrys-hooks fire --protocol claude)`);
    expect(commandsOf(read(file)!, 'Stop')).toEqual(['echo a', `${BIN} fire --protocol claude`]);
    const u = await s.run(['uninstall', '--agent', 'claude']);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(read(file)).toBe('{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "echo a" }] }]\n  }\n}\n');
  });

  it('--project warns that teammates need chrys-hooks; --no-fail-closed leaves the gating events open', async () => {
    const s = sandbox();
    const r = await s.run(['install', '--agent', 'gemini', '--project', '--no-fail-closed']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`warning: ${projectFile(s, 'gemini')} is the project's file: every teammate who opens this project runs these entries`);
    expect(commandsOf(read(projectFile(s, 'gemini'))!, 'BeforeTool')).toEqual([`${BIN} fire --protocol gemini`]);
  });

  it('refuses a symlinked settings file and an unknown event', async () => {
    const s = sandbox();
    const real = s.write(join(s.root, 'dotfiles', 'settings.json'), '{}\n');
    mkdirSync(join(s.home, '.claude'));
    symlinkSync(real, userFile(s, 'claude'));
    const r = await s.run(['install', '--agent', 'claude']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${userFile(s, 'claude')} is a symbolic link; chrys-hooks does not write through links`);
    expect(readFileSync(real, 'utf8')).toBe('{}\n');
    const bad = await s.run(['install', '--agent', 'codex', '--events', 'BeforeTool']);
    expect(bad.exitCode).toBe(64);
    expect(bad.stderr).toContain('Codex has no event "BeforeTool"');
  });

  it('refuses a file it cannot read, naming the place', async () => {
    const s = sandbox();
    s.write(userFile(s, 'codex'), '{ "hooks": { // no comments in Codex JSON? still JSONC-read\n  "Stop": [ }\n');
    const r = await s.run(['install', '--agent', 'codex']);
    expect(r.exitCode).toBe(65);
    expect(r.stderr).toMatch(new RegExp(`${userFile(s, 'codex').replace(/[.]/g, '\\.')}:2:\\d+: cannot read it as the agent's settings`));
  });
});

describe('doctor', () => {
  it('is healthy after install: which events, from which file, with which command, reaching this binary', async () => {
    const s = sandbox();
    s.globalScript('guard.sh', 'exit 0\n');
    s.globalHooks(GUARD);
    await s.run(['install', '--agent', 'claude']);
    const r = await s.run(['doctor']);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain(`${userFile(s, 'claude')} (user): 12 chrys-hooks entries`);
    expect(r.stdout).toMatch(new RegExp(`PreToolUse +${BIN.replace(/[.]/g, '\\.')} fire --protocol claude --fail-closed  -> this binary`));
    expect(r.stdout).toContain('healthy: no problems found');
    expect(r.stdout).toContain('project hooks not enabled');
    const j = JSON.parse((await s.run(['doctor', '--json'])).stdout);
    expect(j.agents.map((a: { agent: string }) => a.agent)).toEqual(['claude']);
    expect(j.agents[0].wired[0]).toMatchObject({ event: 'PreToolUse', file: userFile(s, 'claude'), scope: 'user', fail_closed: true, binary: { found: true, self: true } });
    expect(j.problems).toEqual([]);
  });

  it('flags a missing binary, double wiring, an unreadable agent file and an invalid hooks file, one line each with its fix', async () => {
    const s = sandbox();
    s.write(userFile(s, 'claude'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '/gone/chrys-hooks fire --protocol claude' }] }] } }));
    s.write(projectFile(s, 'claude'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `${BIN} fire --protocol claude` }] }] } }));
    s.write(userFile(s, 'gemini'), '{ "hooks": ');
    mkdirSync(join(s.home, '.codex'));
    s.globalHooks('hooks:\n  - id: x\n');
    const r = await s.run(['doctor']);
    expect(r.exitCode).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => l.startsWith('problem: '));
    expect(problems).toEqual(expect.arrayContaining([
      `problem: PreToolUse in ${userFile(s, 'claude')} calls /gone/chrys-hooks, which is missing or not executable: the event runs no hooks; fix: chrys-hooks install --agent claude`,
      `problem: PreToolUse calls chrys-hooks 2 times (${userFile(s, 'claude')}, ${projectFile(s, 'claude')}): every hook fires 2 times; fix: chrys-hooks uninstall --agent claude --project (or --user): keep one scope`,
      expect.stringMatching(new RegExp(`^problem: Gemini CLI cannot read ${userFile(s, 'gemini').replace(/[.]/g, '\\.')}: line 1, column \\d+: .*; fix: fix the JSON`)),
      expect.stringMatching(/^problem: .*hooks\.yaml:2:5: .*; fix: fix the hooks file/),
    ]));
    expect(problems).toHaveLength(5); // the hooks file has two findings (no event, no run)
    expect(r.stdout).toContain('note: codex: Codex is here');
    const j = JSON.parse((await s.run(['doctor', '--json'])).stdout);
    expect(j.problems).toHaveLength(5);
    expect(j.agents.find((a: { agent: string }) => a.agent === 'gemini').files[0]).toMatchObject({ valid: false, exists: true });
  });

  // Codex skips a hook the user has not trusted in its review, silently in
  // `codex exec`: doctor asks Codex (`codex app-server`, hooks/list) and
  // reports every entry Codex would skip. The real Codex answers in
  // test/agents/codex; here a stand-in `codex` on PATH answers the same way.
  const withCodex = (s: Sandbox, trust: Record<string, string> = {}): Record<string, string> => {
    const bin = join(s.root, 'codex-bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'codex'))) symlinkSync(resolve('test/fixtures/agent-scripts/codex-app-server.js'), join(bin, 'codex'));
    return { PATH: `${bin}:${process.env.PATH}`, CODEX_FIXTURE_TRUST: JSON.stringify(trust) };
  };
  const CODEX_EVENTS = ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionStart', 'PreCompact'];

  it('reports every Codex entry that Codex has not trusted yet, with the review as the fix', async () => {
    const s = sandbox();
    await s.run(['install', '--agent', 'codex']);
    const r = await s.run(['doctor'], { env: withCodex(s) });
    expect(r.exitCode, r.stdout).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => l.startsWith('problem: '));
    expect(problems).toEqual(CODEX_EVENTS.map((e) => `problem: Codex does not trust ${e} in ${userFile(s, 'codex')} (new, never reviewed): it skips the entry, so the event runs no hooks; fix: run \`codex\` in a terminal and choose "Trust all and continue" at "Hooks need review" (or open \`/hooks\` there and press t)`));
    expect(r.stdout).toMatch(/PreToolUse +\S+ fire --protocol codex --fail-closed {2}-> this binary, untrusted in Codex/);
    expect(r.stdout).not.toContain('check: ');
  });

  it('is healthy once Codex trusts every entry, and names the one changed since', async () => {
    const s = sandbox();
    await s.run(['install', '--agent', 'codex']);
    const all = Object.fromEntries(CODEX_EVENTS.map((e) => [e, 'trusted']));
    const healthy = await s.run(['doctor', '--json'], { env: withCodex(s, all) });
    expect(healthy.exitCode, healthy.stdout).toBe(0);
    const codex = JSON.parse(healthy.stdout).agents.find((a: { agent: string }) => a.agent === 'codex');
    expect(codex.wired.map((w: { codex_trust: string }) => w.codex_trust)).toEqual(CODEX_EVENTS.map(() => 'trusted'));
    expect(codex.checks).toEqual([]);

    const changed = await s.run(['doctor'], { env: withCodex(s, { ...all, Stop: 'modified' }) });
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout.split('\n').filter((l) => l.startsWith('problem: '))).toEqual([
      expect.stringMatching(/^problem: Codex does not trust Stop in .* \(changed since it was trusted\): it skips the entry/),
    ]);
  });

  it('says it could not ask when `codex` is not on PATH, and repeats the review step', async () => {
    const s = sandbox();
    await s.run(['install', '--agent', 'codex']);
    const r = await s.run(['doctor'], { env: { PATH: '/usr/bin:/bin' } });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain('check: `codex` is not on PATH, so chrys-hooks could not ask Codex which of these entries it trusts');
    expect(r.stdout).toContain('check: Codex runs these entries only once trusted in its `/hooks` review');
  });

  it('honours CLAUDE_CONFIG_DIR', async () => {
    const s = sandbox();
    const dir = join(s.root, 'claude-dir');
    const r = await s.run(['install', '--agent', 'claude', '--events', 'Stop'], { env: { CLAUDE_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'settings.json'))).toBe(true);
    writeFileSync(join(s.root, 'x'), '');
    const d = await s.run(['doctor'], { env: { CLAUDE_CONFIG_DIR: dir } });
    expect(d.stdout).toContain(`${join(dir, 'settings.json')} (user): 1 chrys-hooks entries`);
  });

  it('honours GEMINI_CLI_HOME: the settings Gemini reads are $GEMINI_CLI_HOME/.gemini/settings.json', async () => {
    const s = sandbox();
    const home = join(s.root, 'gemini-home');
    const env = { GEMINI_CLI_HOME: home };
    const r = await s.run(['install', '--agent', 'gemini', '--events', 'BeforeTool'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = join(home, '.gemini', 'settings.json');
    expect(JSON.parse(read(file) ?? '{}').hooks.BeforeTool[0].hooks[0].command).toMatch(/fire --protocol gemini --fail-closed$/);
    expect(existsSync(userFile(s, 'gemini'))).toBe(false);
    const d = await s.run(['doctor'], { env });
    expect(d.stdout).toContain(`${file} (user): 1 chrys-hooks entries`);
    const u = await s.run(['uninstall', '--agent', 'gemini'], { env });
    expect(u.exitCode, u.stderr).toBe(0);
    expect(read(file)).toBe('{}\n');
  });
});
