// Regression tests for the adversarial review (issue 9) that show through
// `fire` and `validate`: untrusted interpreters, regex budgets, timeouts,
// bounded and non-blocking input, signals, result-file edge cases,
// __proto__ keys, max_parallel_hooks and stdout write errors. What one
// firing of given files shows is a golden scenario (test/golden/hardening-fire/).
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, eventually, hookYaml, isAlive, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'a' } } };
const read = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** A fake executable that appends "<name> <cwd> <args>" to `log`, then exits 0. */
function fakeTool(dir: string, name: string, log: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $PWD $*" >> '${log}'\n`, { mode: 0o755 });
}

describe('finding 1: a global hook never runs an interpreter from the workspace', () => {
  it('runs a global .ts hook with the tsx of the global hooks dir, not npx and not the workspace tsx', async () => {
    const s = sandbox();
    const log = join(s.root, 'calls.log');
    const fakeBin = join(s.root, 'bin');
    fakeTool(fakeBin, 'npx', log);
    fakeTool(join(s.workspace, 'node_modules', '.bin'), 'tsx', log.replace('calls', 'workspace'));
    fakeTool(join(s.configDir, 'hooks', 'node_modules', '.bin'), 'tsx', log);
    s.globalScript('audit.ts', 'export {};\n');
    s.globalHooks(`hooks:\n${hookYaml({ id: 'audit', run: 'type: script\npath: scripts/audit.ts', match: 'tool_name: edit_file' })}\n`);
    const { decision } = await s.fire(EDIT, [], { env: { PATH: `${fakeBin}:${process.env.PATH}` } });
    expect(decision.hooks).toMatchObject([{ id: 'audit', status: 'ok' }]);
    expect(read(log)).toBe(`tsx ${s.workspace} ${join(s.configDir, 'hooks', 'scripts', 'audit.ts')}\n`);
    expect(read(join(s.root, 'workspace.log'))).toBe('');
  });

  it('runs a global .py hook through uv in script mode that ignores the workspace project, with the PATH python', async () => {
    const s = sandbox();
    const log = join(s.root, 'calls.log');
    const fakeBin = join(s.root, 'bin');
    fakeTool(fakeBin, 'uv', log);
    writeFileSync(join(s.workspace, 'pyproject.toml'), '[project]\nname = "evil"\n');
    writeFileSync(join(s.workspace, '.python-version'), '3.99\n');
    const script = s.globalScript('audit.py', 'print("hi")\n');
    s.globalHooks(`hooks:\n${hookYaml({ id: 'audit', run: 'type: script\npath: scripts/audit.py', match: 'tool_name: edit_file' })}\n`);
    const { decision } = await s.fire(EDIT, [], { env: { PATH: `${fakeBin}:${process.env.PATH}` } });
    expect(decision.hooks).toMatchObject([{ id: 'audit', status: 'ok' }]);
    const python = (await execa('sh', ['-c', 'command -v python3'])).stdout.trim();
    expect(read(log)).toBe(`uv ${s.workspace} run --no-project --no-config --python ${python} --script ${script}\n`);
  });

  it('gives a trusted project .ts hook the same tsx: never npx, never the workspace tsx', async () => {
    const s = sandbox();
    const log = join(s.root, 'calls.log');
    const fakeBin = join(s.root, 'bin');
    fakeTool(fakeBin, 'npx', log);
    fakeTool(join(s.workspace, 'node_modules', '.bin'), 'tsx', log.replace('calls', 'workspace'));
    fakeTool(join(s.configDir, 'hooks', 'node_modules', '.bin'), 'tsx', log);
    const script = s.projectScript('p.ts', 'export {};\n');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: script\npath: scripts/p.ts', match: 'tool_name: edit_file' })}\n`);
    await s.fire(EDIT, ['--project-hooks'], { env: { PATH: `${fakeBin}:${process.env.PATH}` } });
    expect(read(log)).toBe(`tsx ${s.workspace} ${script}\n`);
    expect(read(join(s.root, 'workspace.log'))).toBe('');
  });

  it('runs a trusted project .py hook through uv in script mode too', async () => {
    const s = sandbox();
    const log = join(s.root, 'calls.log');
    const fakeBin = join(s.root, 'bin');
    fakeTool(fakeBin, 'uv', log);
    writeFileSync(join(s.workspace, 'pyproject.toml'), '[project]\nname = "evil"\n');
    const script = s.projectScript('p.py', 'print("hi")\n');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: script\npath: scripts/p.py', match: 'tool_name: edit_file' })}\n`);
    await s.fire(EDIT, ['--project-hooks'], { env: { PATH: `${fakeBin}:${process.env.PATH}` } });
    const python = (await execa('sh', ['-c', 'command -v python3'])).stdout.trim();
    expect(read(log)).toBe(`uv ${s.workspace} run --no-project --no-config --python ${python} --script ${script}\n`);
  });
});

describe('finding 4 and .inf: timeout_seconds is bounded', () => {
  it('rejects a timeout above 86400 s and names a non-finite one', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${hookYaml({ id: 'big', run: "type: shell\nshell: 'true'", execution: 'mode: blocking\ntimeout_seconds: 3000000' })}\n${hookYaml({ id: 'inf', run: "type: shell\nshell: 'true'", execution: 'mode: blocking\ntimeout_seconds: .inf' })}\n`);
    const r = await s.run(['validate', file, '--format', 'json']);
    expect(r.exitCode).toBe(1);
    const messages = JSON.parse(r.stdout).diagnostics.map((d: any) => `${d.code}: ${d.message}`);
    expect(messages).toEqual([
      'invalid_value: hooks[0].execution.timeout_seconds must be <= 86400 (got 3000000)',
      'invalid_type: hooks[1].execution.timeout_seconds must be a finite number, not Infinity',
    ]);
  });
});

describe('finding 6: a non-blocking stdin is read to EOF', () => {
  it('waits for an envelope that arrives late and in two writes', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'guard', run: "type: shell\nshell: 'echo {\\\"action\\\":\\\"block\\\"} > \"$CHRYS_HOOK_RESULT\"'", match: 'tool_name: edit_file' })}\n`);
    // python3 hands the binary a pipe in O_NONBLOCK mode and writes the envelope in two parts, 0.3 s apart.
    const driver = `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(r, False)
p = subprocess.Popen([sys.executable and "${process.execPath}", "${BIN}", "fire", "--event", "before_tool_call", "--config-dir", "${s.configDir}", "--cwd", "${s.workspace}"], stdin=r, stdout=subprocess.PIPE)
os.close(r)
time.sleep(0.3)
os.write(w, b'{"tool": {"name": "edit')
time.sleep(0.3)
os.write(w, b'_file"}}')
os.close(w)
sys.stdout.write(p.communicate()[0].decode())
sys.exit(p.returncode)
`;
    const r = await execa('python3', ['-c', driver], { reject: false, env: s.env(), extendEnv: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ blocked: true, hooks: [{ id: 'guard', status: 'blocked' }] });
  });
});

describe('finding 7: SIGTERM and SIGINT to fire', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`on ${signal} kills the running hook's group, removes its temp files, prints nothing and exits ${code}`, async () => {
      const s = sandbox();
      const pidFile = join(s.root, 'hook.pid');
      s.globalHooks(`hooks:\n${hookYaml({ id: 'slow', run: `type: shell\nshell: 'echo $$ > ${pidFile}; sleep 60 & wait'`, match: 'tool_name: edit_file' })}\n`);
      const child = execa(process.execPath, [BIN, 'fire', '--config-dir', s.configDir, '--cwd', s.workspace], { input: JSON.stringify(EDIT), env: s.env(), extendEnv: false, reject: false });
      const pid = Number(await eventually(() => read(pidFile).trim() || undefined, 30_000, 'the hook to start'));
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(code);
      expect(r.stdout).toBe('');
      await eventually(() => !isAlive(pid), 5_000, 'the hook to be killed');
      const tmp = join(s.configDir, 'hooks', 'tmp');
      expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    });
  }
});

describe('finding 11: max_parallel_hooks is bounded', () => {
  it('rejects a huge value, so a project file cannot stop global async hooks', async () => {
    const s = sandbox();
    const marker = join(s.root, 'ran');
    s.projectHooks('settings:\n  max_parallel_hooks: 5000000000\nhooks: []\n');
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: `type: shell\nshell: 'touch ${marker}'`, execution: 'mode: async' })}\n`);
    const { decision } = await s.fire({ event: 'after_tool_call', tool: { name: 'x' } }, ['--project-hooks']);
    expect(decision.warnings.map((w: any) => w.code)).toContain('project_hooks_config_invalid');
    expect(decision.warnings.find((w: any) => w.code === 'project_hooks_config_invalid').message).toContain('max_parallel_hooks must be <= 64');
    await eventually(() => existsSync(marker), 15_000, 'the global async hook to run');
  });
});

describe('finding 15: __proto__ keys are plain data', () => {
  it('keeps a __proto__ key of args_override in the printed args_override', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'mod', run: "type: shell\nshell: 'echo {\\\"action\\\":\\\"modify\\\",\\\"args_override\\\":{\\\"__proto__\\\":{\\\"x\\\":1},\\\"y\\\":2}} > \"$CHRYS_HOOK_RESULT\"'" })}\n`);
    const { result } = await s.fire(EDIT);
    const decision = JSON.parse(result.stdout);
    expect(Object.keys(decision.args_override)).toEqual(['__proto__', 'y']);
    expect(Object.keys(decision.args)).toEqual(['path', '__proto__', 'y']);
  });
});

describe('finding 18: stdout write errors', () => {
  it('exits 74 with one line on stderr when stdout is full', async () => {
    const s = sandbox();
    const r = await execa('sh', ['-c', `"${process.execPath}" "${BIN}" fire --event session_start --config-dir "${s.configDir}" --cwd "${s.workspace}" < /dev/null > /dev/full`], { reject: false, env: s.env(), extendEnv: false });
    expect(r.exitCode).toBe(74);
    expect(r.stderr.trim().split('\n')).toEqual(['chrys-hooks: cannot write to stdout: ENOSPC']);
  });

  it.each([['--help'], ['--version'], ['help', 'fire'], ['fire', '--help']])('exits 74 for %s too (commander writes those)', async (...args) => {
    const r = await execa('sh', ['-c', `"${process.execPath}" "${BIN}" ${args.join(' ')} > /dev/full`], { reject: false, env: sandbox().env(), extendEnv: false });
    expect(r.exitCode).toBe(74);
    expect(r.stderr.trim().split('\n')).toEqual(['chrys-hooks: cannot write to stdout: ENOSPC']);
  });
});
