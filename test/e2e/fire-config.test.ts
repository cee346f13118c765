// `fire` end to end: locations, trust, layering and the no-hooks fast path (CONTRACT §1, §2, §7).
// What one firing of given files shows is a golden scenario (test/golden/fire-config/); here
// what those cannot set up: fire without --config-dir or --cwd, symlinks, firings in a row.
import { existsSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', kind: 'filesystem.write', args: { path: 'src/a.ts' } } };

/** A blocking hook that appends its id to <root>/ran.log and adds a context line. */
const tracer = (id: string, extra: Partial<Parameters<typeof hookYaml>[0]> = {}): string =>
  hookYaml({
    id,
    run: `type: shell\nshell: 'echo ${id} >> "$CHRYS_WORKSPACE/../ran.log"; printf "{\\"context\\": [{\\"text\\": \\"%s\\"}]}" "$CHRYS_HOOK_SOURCE" > "$CHRYS_HOOK_RESULT"'`,
    match: 'tool_name: edit_file',
    ...extra,
  });
const ranLog = (s = sandbox()): string[] => (existsSync(join(s.root, 'ran.log')) ? readFileSync(join(s.root, 'ran.log'), 'utf8').trim().split('\n') : []);

describe('fire: no hooks files', () => {
  it('never loads the YAML parser or zod (their chunks can be missing)', async () => {
    const s = sandbox();
    const pkg = s.packageCopy();
    expect(pkg.removeParserChunks()).toHaveLength(6); // the yaml, js-yaml and zod chunks, and the fire path's cold files
    const fast = await pkg.fire(EDIT);
    expect(fast.exitCode).toBe(0);
    expect(JSON.parse(fast.stdout).blocked).toBe(false);
    // Control: with a hooks file the same copy does need them, so the check above can fail.
    s.globalHooks('hooks: []\n');
    expect((await pkg.fire(EDIT)).exitCode).toBe(70);
  });
});

describe('fire: locations and trust', () => {
  it('takes the config dir from CHRYS_HOME when --config-dir is absent', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${tracer('g')}\n`);
    const r = await s.runRaw(['fire', '--cwd', s.workspace], { input: JSON.stringify(EDIT), env: { CHRYS_HOME: s.configDir } });
    expect(JSON.parse(r.stdout).hooks).toMatchObject([{ id: 'g' }]);
  });

  it('defaults the config dir to ~/.chrys', async () => {
    const s = sandbox();
    s.write(join(s.home, '.chrys', 'hooks', 'hooks.yaml'), `hooks:\n${tracer('home')}\n`);
    const r = await s.runRaw(['fire', '--cwd', s.workspace], { input: JSON.stringify(EDIT) });
    expect(JSON.parse(r.stdout).hooks).toMatchObject([{ id: 'home' }]);
  });

  it('uses the envelope cwd as the workspace when --cwd is absent', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${tracer('p')}\n`);
    const r = await s.runRaw(['fire', '--config-dir', s.configDir, '--project-hooks'], { input: JSON.stringify({ ...EDIT, cwd: s.workspace }), cwd: s.root });
    expect(JSON.parse(r.stdout).hooks).toMatchObject([{ id: 'p', source: 'project' }]);
  });

  it('loads a project file that is the global file (symlink) once, as global', async () => {
    const s = sandbox();
    const global = s.globalHooks(`hooks:\n${tracer('shared')}\n`);
    mkdirSync(join(s.workspace, '.chrys', 'hooks'), { recursive: true });
    symlinkSync(global, join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'));
    for (const args of [[], ['--project-hooks']]) {
      const { decision } = await s.fire(EDIT, args);
      expect(decision.hooks).toMatchObject([{ id: 'shared', source: 'global' }]);
      expect(decision.warnings).toEqual([]);
    }
  });
});

describe('fire: once per session', () => {
  it('runs a once_per_session hook once per session id', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${tracer('once', { execution: 'mode: blocking\nonce_per_session: true' })}\n`);
    const first = await s.fire({ ...EDIT, session_id: 's1' });
    const second = await s.fire({ ...EDIT, session_id: 's1' });
    const other = await s.fire({ ...EDIT, session_id: 's2' });
    const anonymous = [await s.fire(EDIT), await s.fire(EDIT)];
    expect(first.decision.hooks).toMatchObject([{ status: 'ok' }]);
    expect(second.decision.hooks).toMatchObject([{ status: 'skipped', reason: expect.stringContaining('once_per_session') }]);
    expect(other.decision.hooks).toMatchObject([{ status: 'ok' }]);
    expect(anonymous.map((a) => a.decision.hooks[0].status)).toEqual(['ok', 'ok']);
    expect(ranLog(s)).toHaveLength(4);
  });
});
