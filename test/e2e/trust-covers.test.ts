// Trust covers what runs, and only what runs (through the built binary):
// a hook's own log is data, a module beside a Python guard cannot hijack its
// imports, a swap between the check and the run runs nothing unhashed, and
// `trust` refuses files another local user could change.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, lines, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file' } };

async function trust(s: Sandbox): Promise<void> {
  const r = await s.run(['trust', '--yes']);
  expect(r.exitCode, r.stderr).toBe(0);
}

const claude = (s: Sandbox, hook_event_name: string, i: number): string =>
  JSON.stringify({ session_id: 's', cwd: s.workspace, hook_event_name, tool_name: 'Bash', tool_input: { command: `echo ${i}` }, ...(hook_event_name === 'PostToolUse' ? { tool_response: { stdout: `${i}` } } : {}) });

describe('trust covers what runs, not the data a hook writes', () => {
  it('a hook appending to .claude/format.log keeps its layer trusted for 20 tool calls under --fail-closed', async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, '.claude'));
    const log = (id: string, event: string): string => hookYaml({ id, event, run: `type: shell\nshell: 'echo "$CHRYS_HOOK_EVENT" >> .claude/format.log'`, match: 'tool_name: Bash' });
    s.projectHooks(`hooks:\n${log('log-pre', 'PreToolUse')}\n${log('log-post', 'PostToolUse')}\n`);
    await trust(s);
    for (let i = 0; i < 20; i++) {
      for (const event of ['PreToolUse', 'PostToolUse']) {
        const r = await s.run(['fire', '--protocol', 'claude', '--fail-closed'], { input: claude(s, event, i) });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stdout, `call ${i} ${event}`).not.toMatch(/deny|block|fail_closed|project_hooks_changed/);
      }
    }
    expect(lines(join(s.workspace, '.claude', 'format.log'))).toHaveLength(40);
    const list = JSON.parse((await s.run(['trust', '--list', '--json'])).stdout);
    expect(list.workspaces).toMatchObject([{ state: 'trusted' }]);
    expect((await s.fire(EDIT)).decision.project_trust).toMatchObject({ trusted: true, rule: 'trust_record' });
  }, 120_000); // 40 firings one after another, and the test files running beside them: past a minute on a loaded 2-core machine

  it('says in the review that trust cannot see into sh -c', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'opaque', run: `type: shell\nshell: "sh -c './.claude/hooks/x.sh'"`, match: 'tool_name: edit_file' })}\n`);
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('warning: hook "opaque" (run.shell): sh runs a command string (-c) it does not read into');
  });
});

describe('what a Python guard imports is covered', () => {
  const GUARD = 'import json, os\njson.dump({"context": ["guard ran"]}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))\n';
  const EVIL_JSON = 'import os\nopen(os.path.join(os.environ["CHRYS_WORKSPACE"], "hijacked"), "w").write("x")\ndef dump(*a, **k): pass\n';
  const contexts = (d: any): string[] => d.contexts.map((c: any) => c.text);

  it('a json.py added beside a trusted guard turns the layer dormant instead of running', async () => {
    const s = sandbox();
    s.projectScript('guard.py', GUARD);
    s.projectHooks(`hooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.py', match: 'tool_name: edit_file' })}\n`);
    await trust(s);
    expect(contexts((await s.fire(EDIT)).decision)).toEqual(['guard ran']);
    s.projectScript('json.py', EVIL_JSON); // a `git pull`
    const d = (await s.fire(EDIT)).decision;
    expect(existsSync(join(s.workspace, 'hijacked'))).toBe(false);
    expect(d.hooks).toEqual([]);
    expect(d.warnings.find((w: any) => w.code === 'project_hooks_changed')?.message).toContain('added: .chrys/hooks/scripts/json.py');
  });

  it('a json.py beside the guard does not hijack `import json` when project hooks are switched on', async () => {
    const s = sandbox();
    s.projectScript('guard.py', GUARD);
    s.projectScript('json.py', EVIL_JSON);
    const shell = hookYaml({ id: 'by-shell', run: "type: shell\nshell: 'python3 .chrys/hooks/scripts/guard.py'", match: 'tool_name: edit_file' });
    s.projectHooks(`hooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.py', match: 'tool_name: edit_file' })}\n${shell}\n`);
    const d = (await s.fire(EDIT, ['--project-hooks'])).decision;
    expect(contexts(d)).toEqual(['guard ran', 'guard ran']);
    expect(existsSync(join(s.workspace, 'hijacked'))).toBe(false);
  });
});

describe('what runs is what was hashed', () => {
  it('a loop swapping the hooks file and the script during 200 firings never runs the swapped-in content', async () => {
    const s = sandbox();
    const good = '#!/usr/bin/env bash\necho \'{"context": ["good"]}\' > "$CHRYS_HOOK_RESULT"\n';
    const evil = '#!/usr/bin/env bash\ntouch "$CHRYS_WORKSPACE/pwned-by-script"\necho \'{"context": ["good"]}\' > "$CHRYS_HOOK_RESULT"\n';
    const script = s.projectScript('guard.sh', good);
    const guard = hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.sh', match: 'tool_name: edit_file' });
    const goodHooks = `hooks:\n${guard}\n`;
    const evilHooks = `hooks:\n${hookYaml({ id: 'guard', run: `type: shell\nshell: 'touch "$CHRYS_WORKSPACE/pwned-by-hooks"'`, match: 'tool_name: edit_file' })}\n`;
    const hooks = s.projectHooks(goodHooks);
    await trust(s);
    const src = (name: string, text: string): string => s.write(join(s.root, 'src', name), text);
    const [goodS, evilS, goodH, evilH] = [src('good.sh', good), src('evil.sh', evil), src('good.yaml', goodHooks), src('evil.yaml', evilHooks)];
    // Renames (a checkout) and in-place writes (another user's 0666 file), alternating, as fast as bash can.
    const tmp = join(s.workspace, '.swap');
    const loop = `while :; do cp ${evilS} ${tmp}; mv -f ${tmp} ${script}; cat ${goodS} > ${script}; cp ${evilH} ${tmp}; mv -f ${tmp} ${hooks}; cat ${goodH} > ${hooks}; ` +
      `cat ${evilS} > ${script}; cp ${goodS} ${tmp}; mv -f ${tmp} ${script}; cat ${evilH} > ${hooks}; cp ${goodH} ${tmp}; mv -f ${tmp} ${hooks}; done`;
    // Its own process group: the kill reaches a cp or cat it has started, which would otherwise write after the restore below.
    const swapper: ChildProcess = spawn('bash', ['-c', loop], { stdio: 'ignore', detached: true });
    let ran = 0;
    try {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < 200) {
          next++;
          const r = await s.run(['fire'], { input: JSON.stringify(EDIT) });
          if (JSON.parse(r.stdout).contexts.some((c: any) => c.text === 'good')) ran++;
        }
      };
      await Promise.all([worker(), worker(), worker()]);
    } finally {
      const exited = new Promise((r) => swapper.once('exit', r));
      process.kill(-swapper.pid!, 'SIGKILL');
      await exited;
    }
    expect(existsSync(join(s.workspace, 'pwned-by-script'))).toBe(false);
    expect(existsSync(join(s.workspace, 'pwned-by-hooks'))).toBe(false);
    writeFileSync(script, good);
    writeFileSync(hooks, goodHooks);
    rmSync(tmp, { force: true });
    const after = (await s.fire(EDIT)).decision;
    expect(after.contexts.map((c: any) => c.text)).toEqual(['good']);
    expect(ran, "some firings ran the trusted script").toBeGreaterThan(0);
  }, 180_000);

  it('runs a trusted script from a checked copy of the .chrys/hooks tree, so what it sources beside itself is checked too', async () => {
    const s = sandbox();
    s.projectScript('lib.sh', 'say() { echo "{\\"context\\": [\\"$1\\"]}" > "$CHRYS_HOOK_RESULT"; }\n');
    const script = s.projectScript('guard.sh', '#!/usr/bin/env bash\necho "$0" > "$CHRYS_WORKSPACE/zero"\nsource "$(dirname "$0")/lib.sh"\nsay good\n');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.sh', match: 'tool_name: edit_file' })}\n`);
    await trust(s);
    expect((await s.fire(EDIT)).decision.contexts.map((c: any) => c.text)).toEqual(['good']);
    const zero = readFileSync(join(s.workspace, 'zero'), 'utf8').trim();
    expect(zero).toMatch(/\/hooks\/tmp\/script-\d+-[0-9a-f]+\/scripts\/guard\.sh$/);
    expect(existsSync(zero)).toBe(false); // removed after the run
    expect(script).not.toBe(zero);
    // A changed library is a changed layer: it is not sourced.
    s.projectScript('lib.sh', 'say() { touch "$CHRYS_WORKSPACE/pwned"; }\n');
    expect((await s.fire(EDIT)).decision.hooks).toEqual([]);
    expect(existsSync(join(s.workspace, 'pwned'))).toBe(false);
  });
});

describe('trust refuses what another local user could change', () => {
  it('a second local user who can write the script dir: trust refuses, naming the chown or chmod that fixes it', async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root to create a second local user (useradd)');
    const s = sandbox();
    const script = s.projectScript('guard.sh', '#!/usr/bin/env bash\ntrue\n');
    const dir = join(s.workspace, '.chrys', 'hooks', 'scripts');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.sh', match: 'tool_name: edit_file' })}\n`);
    const user = `chrys${process.pid}${Math.floor(Math.random() * 1e4)}`;
    execFileSync('useradd', ['-M', '-N', '-s', '/bin/sh', user]);
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      chmodSync(s.root, 0o755); // let the user reach the workspace
      const asUser = (cmd: string): void => void execFileSync('runuser', ['-u', user, '--', 'sh', '-c', cmd]);

      chownSync(dir, uid, 0);
      asUser(`touch ${join(dir, 'probe')} && rm ${join(dir, 'probe')}`); // the user can really write it
      let r = await s.run(['trust', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`cannot trust ${dir}: it is owned by uid ${uid}, not by you (uid 0) or root`);
      expect(r.stderr).toContain(`chown root '${dir}'`);

      chownSync(dir, 0, 0);
      chmodSync(dir, 0o777);
      asUser(`touch ${join(dir, 'probe')} && rm ${join(dir, 'probe')}`);
      r = await s.run(['trust', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`cannot trust ${dir}: it is writable by its group and others (mode 0777)`);
      expect(r.stderr).toContain(`chmod go-w '${dir}'`);

      chmodSync(dir, 0o755);
      chmodSync(script, 0o666);
      r = await s.run(['trust', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`chmod go-w '${script}'`);
      expect((await s.fire(EDIT)).decision.project_trust).toMatchObject({ trusted: false });

      chmodSync(script, 0o755);
      await trust(s);
    } finally {
      execFileSync('userdel', [user]);
    }
  });
});

describe('trust --list', () => {
  it('reaches the verdict the loader reaches: a hooks.yaml shadowing the trusted hooks.json is a change', async () => {
    const s = sandbox();
    s.projectHooks(JSON.stringify({ hooks: [{ id: 'p', event: 'before_tool_call', match: { tool_name: 'edit_file' }, run: { type: 'command', argv: ['true'] }, execution: { mode: 'blocking' } }] }), 'hooks.json');
    await trust(s);
    s.projectHooks(`hooks:\n${hookYaml({ id: 'q', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file' })}\n`);
    const fired = (await s.fire(EDIT)).decision;
    expect(fired.project_trust).toMatchObject({ trusted: false, rule: 'trust_record' });
    const list = JSON.parse((await s.run(['trust', '--list', '--json'])).stdout);
    expect(list.workspaces).toMatchObject([{ state: 'changed', diff: { added: expect.arrayContaining([join(s.workspace, '.chrys', 'hooks', 'hooks.yaml')]) } }]);
  });
});
