// Trust by content: `trust` records the project hooks file and the files its
// hooks reference; any change makes the layer dormant again, naming the files.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, type Sandbox, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file' } };
const scriptHook = (id: string, path: string): string => hookYaml({ id, run: `type: script\npath: ${path}`, match: 'tool_name: edit_file' });
const CTX_SCRIPT = (text: string): string => `#!/usr/bin/env bash\necho '{"context": ["${text}"]}' > "$CHRYS_HOOK_RESULT"\n`;

/** A project with one script hook, trusted with `trust --yes`. */
async function trustedProject(s: Sandbox): Promise<string> {
  s.projectScript('ctx.sh', CTX_SCRIPT('one'));
  const path = s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/ctx.sh')}\n`);
  const r = await s.run(['trust', '--yes']);
  expect(r.exitCode, r.stderr).toBe(0);
  return path;
}

const ids = (d: any): string[] => d.hooks.map((h: any) => h.id);
const changedWarning = (d: any): string => d.warnings.find((w: any) => w.code === 'project_hooks_changed')?.message ?? '';

describe('trust', () => {
  it('takes a dormant project layer to loaded, and says which rule did it', async () => {
    const s = sandbox();
    s.projectScript('ctx.sh', CTX_SCRIPT('one'));
    s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/ctx.sh')}\n`);
    const before = (await s.fire(EDIT)).decision;
    expect(ids(before)).toEqual([]);
    expect(before.warnings).toMatchObject([{ code: 'project_hooks_dormant', message: expect.stringContaining('chrys-hooks trust') }]);
    expect(before.project_trust).toMatchObject({ trusted: false, rule: 'none' });

    const refused = await s.run(['trust']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('--yes');
    expect(refused.stdout).toContain('.chrys/hooks/scripts/ctx.sh');
    expect(ids((await s.fire(EDIT)).decision)).toEqual([]);

    const yes = await s.run(['trust', '--yes']);
    expect(yes.exitCode).toBe(0);
    expect(yes.stdout).toMatch(/\.chrys\/hooks\/hooks\.yaml\s+[0-9a-f]{64}/);
    const after = (await s.fire(EDIT)).decision;
    expect(ids(after)).toEqual(['p']);
    expect(after.warnings).toEqual([]);
    expect(after.project_trust).toMatchObject({ trusted: true, rule: 'trust_record' });

    const resolve = JSON.parse((await s.run(['resolve', '--json'])).stdout);
    expect(resolve.project_trust).toMatchObject({ trusted: true, rule: 'trust_record' });
    const list = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(list.project_trust).toMatchObject({ trusted: true, rule: 'trust_record' });
    expect((await s.run(['list'])).stdout).toContain('enabled by trust record');
  });

  it('shows a file name holding terminal escapes escaped, so it cannot erase lines of the review', async () => {
    const s = sandbox();
    const name = 'x\u001b[2K\u001b[1A\r\u009b2Ky.sh';
    s.projectScript(name, CTX_SCRIPT('one'));
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: `type: script\npath: ${JSON.stringify(`scripts/${name}`)}`, match: 'tool_name: edit_file' })}\n`);
    const review = await s.run(['trust']);
    expect(review.exitCode).toBe(1);
    const yes = await s.run(['trust', '--yes']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    const list = await s.run(['list']);
    for (const out of [review.stdout, yes.stdout, list.stdout]) {
      // eslint-disable-next-line no-control-regex
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    }
    expect(review.stdout).toContain('.chrys/hooks/scripts/x\\e[2K\\e[1A\\r\\x9b2Ky.sh');
  });

  it('asks on a terminal and records only on yes', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file' })}\n`);
    const viaTty = (answer: string) =>
      execa('script', ['-qec', `${process.execPath} ${BIN} trust --config-dir ${s.configDir} --cwd ${s.workspace}`, '/dev/null'], {
        input: `${answer}\n`, env: s.env(), extendEnv: false, reject: false,
      });
    const no = await viaTty('n');
    expect(no.stdout).toContain('[y/N]');
    expect(ids((await s.fire(EDIT)).decision)).toEqual([]);
    const yes = await viaTty('y');
    expect(yes.stdout).toContain('trusted');
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']);
  });

  it('goes dormant when the hooks file changes, naming it, until trusted again', async () => {
    const s = sandbox();
    const path = await trustedProject(s);
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']); // warm the caches
    writeFileSync(path, readFileSync(path, 'utf8').replace('id: p', 'id: q')); // same size
    const d = (await s.fire(EDIT)).decision;
    expect(ids(d)).toEqual([]);
    expect(changedWarning(d)).toContain('changed: .chrys/hooks/hooks.yaml');
    expect(d.project_trust).toMatchObject({ trusted: false, rule: 'trust_record' });
    expect(JSON.parse((await s.run(['resolve', '--json'])).stdout).sources[1]).toMatchObject({ layer: 'project', state: 'dormant' });
    await s.run(['trust', '--yes']);
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['q']);
  });

  it('goes dormant when only a referenced script changes (the cache never serves it)', async () => {
    const s = sandbox();
    await trustedProject(s);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'one' }]);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'one' }]); // warm
    s.projectScript('ctx.sh', CTX_SCRIPT('two')); // same size, new content
    const { decision: d, result } = await s.fire(EDIT);
    expect(result.stderr).toContain('warning project_hooks_changed'); // loud where agents log
    expect(d.contexts).toEqual([]);
    expect(changedWarning(d)).toContain('changed: .chrys/hooks/scripts/ctx.sh');
    expect(changedWarning(d)).not.toContain('hooks.yaml');
    const list = await s.run(['trust', '--list']);
    expect(list.stdout).toMatch(/changed/);
    const review = await s.run(['trust']);
    expect(review.stdout).toContain('since then changed: .chrys/hooks/scripts/ctx.sh');
    await s.run(['trust', '--yes']);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'two' }]);
  });

  it('goes dormant when a referenced script appears, is removed, or a hook with a new script is added', async () => {
    const s = sandbox();
    s.projectScript('ctx.sh', CTX_SCRIPT('one'));
    const path = s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/ctx.sh')}\n${scriptHook('later', 'scripts/later.sh')}\n`);
    const trust = await s.run(['trust', '--yes']);
    expect(trust.stdout).toContain('missing');
    expect((await s.fire(EDIT)).decision.hooks).toMatchObject([{ id: 'p', status: 'ok' }, { id: 'later', status: 'launch_error' }]);

    s.projectScript('later.sh', CTX_SCRIPT('late'));
    const added = (await s.fire(EDIT)).decision;
    expect(ids(added)).toEqual([]);
    expect(changedWarning(added)).toContain('added: .chrys/hooks/scripts/later.sh');

    await s.run(['trust', '--yes']);
    unlinkSync(join(s.workspace, '.chrys/hooks/scripts/later.sh'));
    expect(changedWarning((await s.fire(EDIT)).decision)).toContain('removed: .chrys/hooks/scripts/later.sh');

    await s.run(['trust', '--yes']);
    writeFileSync(path, readFileSync(path, 'utf8') + scriptHook('third', 'scripts/third.sh') + '\n');
    s.projectScript('third.sh', CTX_SCRIPT('3'));
    expect(changedWarning((await s.fire(EDIT)).decision)).toContain('changed: .chrys/hooks/hooks.yaml');
    const review = await s.run(['trust']);
    expect(review.stdout).toContain('added: .chrys/hooks/scripts/third.sh');
  });

  it('goes dormant when a symlinked script is retargeted, even to identical content', async () => {
    const s = sandbox();
    s.projectScript('a.sh', CTX_SCRIPT('same'));
    s.projectScript('b.sh', CTX_SCRIPT('same'));
    const link = join(s.workspace, '.chrys/hooks/scripts/link.sh');
    symlinkSync('a.sh', link);
    s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/link.sh')}\n`);
    const trust = await s.run(['trust', '--yes']);
    expect(trust.stdout).toContain('-> .chrys/hooks/scripts/a.sh');
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']);
    unlinkSync(link);
    symlinkSync('b.sh', link);
    const d = (await s.fire(EDIT)).decision;
    expect(ids(d)).toEqual([]);
    expect(changedWarning(d)).toContain('changed: .chrys/hooks/scripts/link.sh');
    await s.run(['trust', '--yes']);
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']);
  });

  it('records a script outside the workspace by path and hash, shown as outside', async () => {
    const s = sandbox();
    const outside = s.write('elsewhere/ctx.sh', CTX_SCRIPT('out'), 0o755);
    s.projectHooks(`hooks:\n${scriptHook('p', outside)}\n`);
    const r = await s.run(['trust', '--yes', '--json']);
    expect(JSON.parse(r.stdout).files).toContainEqual(expect.objectContaining({ path: outside, outside: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }));
    expect((await s.run(['trust'])).stdout).toContain('outside the workspace');
    writeFileSync(outside, CTX_SCRIPT('OUT'));
    expect(changedWarning((await s.fire(EDIT)).decision)).toContain(`changed: ${outside}`);
  });

  it('trusts the same workspace reached through a symlinked path', async () => {
    const s = sandbox();
    await trustedProject(s);
    const alias = join(s.root, 'alias');
    symlinkSync(s.workspace, alias);
    const r = await s.runRaw(['fire', '--config-dir', s.configDir, '--cwd', alias], { input: JSON.stringify(EDIT) });
    expect(ids(JSON.parse(r.stdout))).toEqual(['p']);
  });

  it('does not trust a copy of a trusted workspace at another path', async () => {
    const s = sandbox();
    await trustedProject(s);
    const copy = join(s.root, 'copy');
    cpSync(s.workspace, copy, { recursive: true });
    const r = await s.runRaw(['fire', '--config-dir', s.configDir, '--cwd', copy], { input: JSON.stringify(EDIT) });
    const d = JSON.parse(r.stdout);
    expect(ids(d)).toEqual([]);
    expect(d.warnings).toMatchObject([{ code: 'project_hooks_dormant' }]);
  });

  it('keeps the switches first: --no-project-hooks and CHRYS_PROJECT_HOOKS=0 beat the record', async () => {
    const s = sandbox();
    await trustedProject(s);
    const flag = (await s.fire(EDIT, ['--no-project-hooks'])).decision;
    expect(ids(flag)).toEqual([]);
    expect(flag.project_trust).toMatchObject({ trusted: false, rule: 'cli_flag' });
    const env = (await s.fire(EDIT, [], { env: { CHRYS_PROJECT_HOOKS: '0' } })).decision;
    expect(env.project_trust).toMatchObject({ trusted: false, rule: 'env', detail: 'CHRYS_PROJECT_HOOKS=0' });
    s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: true\n');
    expect((await s.fire(EDIT)).decision.project_trust).toMatchObject({ trusted: true, rule: 'settings' });
  });

  it('untrust makes the layer dormant again; trust --list shows what is trusted', async () => {
    const s = sandbox();
    await trustedProject(s);
    const list = JSON.parse((await s.run(['trust', '--list', '--json'])).stdout);
    expect(list.workspaces).toMatchObject([{ state: 'trusted', files: 2 }]);
    const r = await s.run(['untrust']);
    expect(r.stdout).toContain('untrusted');
    expect(ids((await s.fire(EDIT)).decision)).toEqual([]);
    expect((await s.run(['untrust'])).stdout).toContain('was not trusted');
    expect((await s.run(['trust', '--list'])).stdout).toContain('no trusted workspaces');
  });

  it.each([
    ['corrupt', (p: string) => writeFileSync(p, '{ not json')],
    ['a directory', (p: string) => mkdirSync(p)],
    ['a symlink', (p: string) => { writeFileSync(`${p}.real`, '{"version":1,"workspaces":{}}'); symlinkSync(`${p}.real`, p); }],
  ])('treats a trust record that is %s as "not trusted", with a warning', async (_name, spoil) => {
    const s = sandbox();
    await trustedProject(s);
    const record = join(s.configDir, 'hooks', 'state', 'trust.json');
    rmSync(record);
    spoil(record);
    const { decision, result } = await s.fire(EDIT);
    expect(result.exitCode).toBe(0);
    expect(ids(decision)).toEqual([]);
    expect(decision.warnings.map((w: any) => w.code)).toEqual(['trust_record_invalid', 'project_hooks_dormant']);
  });

  it('says project_hooks_dormant once per session, every time with no session id, and again for a new reason', async () => {
    const s = sandbox();
    s.projectScript('ctx.sh', CTX_SCRIPT('one'));
    s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/ctx.sh')}\n`);
    const dormant = async (envelope: object, args: string[] = []): Promise<number> =>
      (await s.fire({ ...EDIT, ...envelope }, args)).decision.warnings.filter((w: any) => w.code === 'project_hooks_dormant').length;
    expect(await dormant({ session_id: 's1' })).toBe(1);
    expect(await dormant({ session_id: 's1' })).toBe(0);
    expect(await dormant({ session_id: 's1', event: 'after_tool_call' })).toBe(0);
    expect(await dormant({ session_id: 's2' })).toBe(1);
    expect(await dormant({})).toBe(1);
    expect(await dormant({})).toBe(1);
    // --no-project-hooks gives its own reason: said once in the session too.
    expect(await dormant({ session_id: 's1' }, ['--no-project-hooks'])).toBe(1);
    expect(await dormant({ session_id: 's1' }, ['--no-project-hooks'])).toBe(0);
    // list and resolve are asked, not pushed: they always say it.
    expect((await s.run(['list', '--json'])).stdout).toContain('project_hooks_dormant');
  });

  it('writes no session record when there is no dormant layer to report', async () => {
    const s = sandbox();
    expect((await s.fire({ ...EDIT, session_id: 's1' })).decision.warnings).toEqual([]);
    expect(readdirSync(s.configDir)).toEqual([]);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'g', run: "type: shell\nshell: 'true'", match: 'tool_name: nothing' })}\n`);
    await s.fire({ ...EDIT, session_id: 's1' });
    expect(existsSync(join(s.configDir, 'hooks', 'state', 'sessions'))).toBe(false);
  });

  it('untrust --ignore silences a never-trusted workspace for good, from the config dir; trust lifts it', async () => {
    const s = sandbox();
    s.projectScript('ctx.sh', CTX_SCRIPT('one'));
    s.projectHooks(`hooks:\n${scriptHook('p', 'scripts/ctx.sh')}\n`);
    const workspaceBefore = readdirSync(s.workspace, { recursive: true }).sort();
    const ignored = await s.run(['untrust', '--ignore']);
    expect(ignored.exitCode, ignored.stderr).toBe(0);
    expect(ignored.stdout).toContain('no longer reports them');
    expect(readdirSync(s.workspace, { recursive: true }).sort()).toEqual(workspaceBefore);
    expect(JSON.parse(readFileSync(join(s.configDir, 'hooks', 'state', 'trust.json'), 'utf8')).ignored).toHaveProperty([realpathSync(s.workspace)]);
    for (const session of ['', 's1', 's1']) {
      const { decision } = await s.fire({ ...EDIT, session_id: session });
      expect(decision.warnings).toEqual([]);
      expect(ids(decision)).toEqual([]);
    }
    const list = await s.run(['list']);
    expect(list.stdout).toMatch(/project +dormant/);
    expect(list.stdout).toContain('untrust --ignore');
    const resolved = JSON.parse((await s.run(['resolve', '--json'], { input: '' })).stdout);
    expect(resolved.sources).toContainEqual(expect.objectContaining({ layer: 'project', state: 'dormant' }));
    expect(resolved.project_trust).toMatchObject({ trusted: false, ignored_at: expect.any(String) });
    expect(resolved.warnings).toMatchObject([{ code: 'project_hooks_dormant', message: expect.stringContaining('ignored since') }]);
    // Trusting lifts it; untrusting afterwards makes the layer dormant and reported again.
    expect((await s.run(['trust', '--yes'])).exitCode).toBe(0);
    expect(ids((await s.fire(EDIT)).decision)).toEqual(['p']);
    expect(JSON.parse(readFileSync(join(s.configDir, 'hooks', 'state', 'trust.json'), 'utf8')).ignored).toEqual({});
    expect((await s.run(['untrust'])).exitCode).toBe(0);
    expect((await s.fire(EDIT)).decision.warnings).toMatchObject([{ code: 'project_hooks_dormant' }]);
  });

  it('ignores a trust record inside the workspace, and will not write one there', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'p', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file' })}\n`);
    const inner = join(s.workspace, 'cfg');
    const refused = await s.runRaw(['trust', '--yes', '--config-dir', inner, '--cwd', s.workspace]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('inside the workspace');
    // A record shipped with the workspace, trusting it: ignored.
    await s.run(['trust', '--yes']);
    s.write(join(inner, 'hooks', 'state', 'trust.json'), readFileSync(join(s.configDir, 'hooks', 'state', 'trust.json'), 'utf8'));
    const r = await s.runRaw(['fire', '--config-dir', inner, '--cwd', s.workspace], { input: JSON.stringify(EDIT) });
    const d = JSON.parse(r.stdout);
    expect(ids(d)).toEqual([]);
    expect(d.warnings.map((w: any) => w.code)).toEqual(['trust_record_invalid', 'project_hooks_dormant']);
  });

  it('writes the record 0600 under the config dir, never inside the workspace', async () => {
    const s = sandbox();
    await trustedProject(s);
    const record = join(s.configDir, 'hooks', 'state', 'trust.json');
    const { statSync } = await import('node:fs');
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(record, 'utf8')).workspaces).toHaveProperty([s.workspace]);
  });

  it('refuses a workspace without a project file, and an invalid one', async () => {
    const s = sandbox();
    const none = await s.run(['trust', '--yes']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('no project hooks file');
    s.projectHooks('hooks:\n  - id: x\n');
    const bad = await s.run(['trust', '--yes']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('validate');
  });

  it('refuses a file whose only error leaves out one hook (a bad regex), as validate does', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'rm', run: 'type: command\nargv: [echo]', match: "args:\n  command:\n    regex: 'rm (-rf'" })}\n`);
    expect((await s.run(['validate'])).exitCode).toBe(1);
    const r = await s.run(['trust', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('invalid_regex');
    expect((await s.run(['trust', '--list'])).stdout).toContain('no trusted workspaces');
  });

  it('lets a warm trusted-by-record firing run without the YAML parser and zod', async () => {
    const s = sandbox();
    await trustedProject(s);
    const pkg = s.packageCopy();
    expect((await pkg.fire(EDIT)).exitCode).toBe(0);
    expect(pkg.removeParserChunks()).toHaveLength(6); // yaml, js-yaml and zod: chunks and the fire path's cold files
    const warm = await pkg.fire(EDIT);
    expect(warm.exitCode, warm.stderr).toBe(0);
    expect(JSON.parse(warm.stdout).contexts).toMatchObject([{ text: 'one', hook: 'p' }]);
  });

  it('drain-outbox runs a project job only while its workspace is trusted by content', async () => {
    const s = sandbox();
    s.globalHooks('settings:\n  outbox_retry_age_seconds: 0\nhooks: []\n');
    s.projectScript('mark.sh', `#!/usr/bin/env bash\necho ran >> "${join(s.root, 'ran.log')}"\n`);
    s.projectHooks(`hooks:\n${hookYaml({ id: 'later', event: 'session_start', run: 'type: script\npath: scripts/mark.sh', execution: 'mode: async\ndelivery: durable\ndelay_seconds: 1' })}\n`);
    await s.run(['trust', '--yes']);
    const fired = (await s.fire({ event: 'session_start' })).decision;
    expect(fired.hooks).toMatchObject([{ id: 'later', status: 'queued' }]);
    const dueAt = Date.now() + 1000;
    await eventually(() => Date.now() > dueAt + 50, 5000, 'the job to be due');
    s.projectScript('mark.sh', `#!/usr/bin/env bash\necho changed >> "${join(s.root, 'ran.log')}"\n`);
    const drained = JSON.parse((await s.runRaw(['drain-outbox', '--json', '--config-dir', s.configDir])).stdout);
    expect(drained.skipped.untrusted).toBe(1);
    expect(drained.warnings).toMatchObject([{ code: 'project_hooks_changed' }]);
    await s.run(['trust', '--yes']);
    const again = JSON.parse((await s.runRaw(['drain-outbox', '--json', '--config-dir', s.configDir])).stdout);
    expect(again.done).toBe(1);
    expect(readFileSync(join(s.root, 'ran.log'), 'utf8')).toBe('changed\n');
  });
});
