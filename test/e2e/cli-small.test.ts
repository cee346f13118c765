// Issue 19.7: `resolve` / `list --protocol`, `test --protocol` exit codes, the
// env vars `resolve` shows for a protocol hook, and the completion files
// loaded in their real shells (skipped, with a message, where a shell is not
// installed), bash `test <TAB>` completing hook ids.
import { execa } from 'execa';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const BLOCKER = hookYaml({ id: 'claude-guard', match: 'tool_name: Bash', run: "type: shell\nshell: 'echo no rm here >&2; exit 2'\nprotocol: claude" });
const CHRYS_HOOK = hookYaml({ id: 'chrys-guard', match: 'tool_kind: process.exec', run: "type: shell\nshell: 'true'" });
const input = (s: Sandbox, extra: object = {}) => s.write('in.json', JSON.stringify({ session_id: 's', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, ...extra }));

describe('resolve and list --protocol', () => {
  it('resolve maps an agent input as fire does, and shows a protocol hook only the env it gets', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${BLOCKER}\n${CHRYS_HOOK}\n`);
    const r = await s.run(['resolve', '--protocol', 'claude', '--input', input(s), '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout).plan;
    expect(plan.event).toBe('before_tool_call');
    const [claude, chrys] = ['claude-guard', 'chrys-guard'].map((id) => plan.hooks.find((h: any) => h.id === id));
    expect(claude.verdict).toBe('run');
    expect(chrys.verdict).toBe('run'); // tool.kind from the mapping
    expect(claude.env).toMatchObject({ CLAUDE_PROJECT_DIR: s.workspace });
    expect(Object.keys(claude.env)).not.toContain('CHRYS_HOOK_PAYLOAD_FILE');
    expect(Object.keys(claude.env)).not.toContain('CHRYS_HOOK_RESULT');
    expect(Object.keys(chrys.env)).toEqual(expect.arrayContaining(['CHRYS_HOOK_PAYLOAD_FILE', 'CHRYS_HOOK_RESULT']));
    // Without --protocol the same input is refused with the hint, which now names an option resolve has.
    const plain = await s.run(['resolve', '--input', input(s)]);
    expect(plain.stderr).toContain('pass --protocol claude');
    const unknown = await s.run(['resolve', '--protocol', 'gemini', '--input', input(s)]);
    expect(unknown).toMatchObject({ exitCode: 65, stderr: expect.stringContaining('gemini event "PreToolUse" is not one chrys-hooks knows') });
  });

  it('list --protocol takes the agent event name, and without --event lists the hooks the agent can fire', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${CHRYS_HOOK}\n${hookYaml({ id: 'on-workflow', event: 'workflow_run_start', run: "type: shell\nshell: 'true'" })}\n${hookYaml({ id: 'on-stop', event: 'conversation_done', run: "type: shell\nshell: 'true'" })}\n`);
    const ids = async (args: string[]) => JSON.parse((await s.run(['list', ...args, '--json'])).stdout).hooks.map((h: any) => h.id);
    expect(await ids(['--protocol', 'claude', '--event', 'PreToolUse'])).toEqual(['chrys-guard']);
    expect(await ids(['--protocol', 'gemini', '--event', 'AfterAgent'])).toEqual(['on-stop']);
    expect(await ids(['--protocol', 'codex'])).toEqual(['chrys-guard', 'on-stop']);
    const bad = await s.run(['list', '--protocol', 'claude', '--event', 'BeforeTool']);
    expect(bad).toMatchObject({ exitCode: 65, stderr: expect.stringContaining('claude event "BeforeTool"') });
  });
});

describe('test --protocol', () => {
  it('exits 1 when the protocol hook blocks with exit 2, 0 when it allows', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${BLOCKER}\n${hookYaml({ id: 'claude-ok', match: 'tool_name: Bash', run: "type: shell\nshell: 'exit 0'\nprotocol: claude" })}\n`);
    const blocked = await s.run(['test', 'claude-guard', '--protocol', 'claude', '--input', input(s), '--json']);
    expect(blocked.exitCode).toBe(1);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ exit_code: 2, decision: { blocked: true, reason: 'no rm here' } });
    expect((await s.run(['test', 'claude-ok', '--protocol', 'claude', '--input', input(s)])).exitCode).toBe(0);
  });

  it('the sample envelope of a hook with match.fields matches it', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'on-resume', event: 'session_start', match: 'fields: { source: [resume, clear] }', run: "type: shell\nshell: 'true'" })}\n`);
    const r = await s.run(['test', 'on-resume', '--json']);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ match: { verdict: 'run' }, payload: { source: 'resume' } });
  });
});

const has = async (shell: string): Promise<boolean> => (await execa('sh', ['-c', `command -v ${shell}`], { reject: false })).exitCode === 0;
const FILES = { bash: resolve('completions/chrys-hooks.bash'), zsh: resolve('completions/_chrys-hooks'), fish: resolve('completions/chrys-hooks.fish') };

describe('completion files load in their shells', () => {
  it('bash: parses, registers the completion, and `test <TAB>` completes hook ids', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${BLOCKER}\n${CHRYS_HOOK}\n`);
    expect((await execa('bash', ['-n', FILES.bash], { reject: false })).exitCode).toBe(0);
    const loaded = await execa('bash', ['-c', `source ${FILES.bash}; complete -p chrys-hooks`], { reject: false });
    expect(loaded, loaded.stderr).toMatchObject({ exitCode: 0, stdout: 'complete -F _chrys_hooks chrys-hooks', stderr: '' });
    // chrys-hooks on PATH, as a user who installed it has it.
    const bin = join(s.root, 'bin');
    mkdirSync(bin);
    symlinkSync(resolve(BIN), join(bin, 'chrys-hooks'));
    const words = ['chrys-hooks', 'test', '--config-dir', s.configDir, '--cwd', s.workspace, 'c'];
    const script = `source ${FILES.bash}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _chrys_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execa('bash', ['-c', script], { env: { ...s.env(), PATH: `${bin}:${process.env.PATH}` }, cwd: s.root });
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['chrys-guard', 'claude-guard']);
  });

  it('zsh: compinit, then the file loads without an error', async (ctx) => {
    if (!(await has('zsh'))) {
      console.warn('zsh is not installed: the zsh completion was not loaded (CI installs it in .ci/run)');
      return ctx.skip();
    }
    const r = await execa('zsh', ['-fc', `autoload -Uz compinit; compinit -u; source ${FILES.zsh}`], { reject: false, env: { HOME: sandbox().home, PATH: process.env.PATH ?? '' } });
    // Sourced outside a completion the function complains about the context only, never a parse error.
    expect(r.stderr).not.toMatch(/unmatched|parse error/);
    const defined = await execa('zsh', ['-fc', `autoload -Uz compinit; compinit -u; source ${FILES.zsh} 2>/dev/null; whence -w _chrys_hooks`], { reject: false, env: { HOME: sandbox().home, PATH: process.env.PATH ?? '' } });
    expect(defined.stdout).toBe('_chrys_hooks: function');
  });

  it('fish: the file parses', async (ctx) => {
    if (!(await has('fish'))) {
      console.warn('fish is not installed: the fish completion was not loaded (CI installs it in .ci/run)');
      return ctx.skip();
    }
    const r = await execa('fish', ['-n', FILES.fish], { reject: false });
    expect(r, r.stderr).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('the zsh file quotes a quote as the shell needs it', () => {
    // A `\'` inside single quotes ends the word: the file failed to load with "unmatched '".
    expect(readFileSync(FILES.zsh, 'utf8')).not.toMatch(/[^']\\'/);
  });
});
