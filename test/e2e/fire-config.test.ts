// `fire` end to end: locations, trust, layering and the no-hooks fast path (CONTRACT §1, §2, §7).
import { existsSync, readdirSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
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
  it('prints the allow decision with every key, and creates nothing', async () => {
    const s = sandbox();
    const { decision, result } = await s.fire(EDIT);
    expect(result.exitCode).toBe(0);
    expect(decision).toEqual({
      schema: 1, event: 'before_tool_call', blocked: false, reason: null, blocked_by: null, args: null, args_override: {},
      system_reminders: [], extra_context: [], replace_result: null, block_feedback: null, permission: null, contexts: [], hooks: [], warnings: [],
    });
    expect(readdirSync(s.configDir)).toEqual([]);
    expect(readdirSync(s.workspace)).toEqual([]);
  });

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
  it('loads the global file and runs its matching hooks', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${tracer('g1')}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision.hooks).toMatchObject([{ id: 'g1', source: 'global', mode: 'blocking', status: 'ok', exit_code: 0 }]);
    expect(decision.contexts).toEqual([{ channel: 'pre_prompt', text: 'global', hook: 'g1' }]);
  });

  it('prefers hooks.yaml over hooks.yml over hooks.json', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${tracer('from-json')}\n`, 'hooks.json'); // YAML flow is not JSON: proves the json file is never read
    s.globalHooks(`hooks:\n${tracer('from-yml')}\n`, 'hooks.yml');
    expect((await s.fire(EDIT)).decision.hooks.map((h: any) => h.id)).toEqual(['from-yml']);
    s.globalHooks(`hooks:\n${tracer('from-yaml')}\n`, 'hooks.yaml');
    expect((await s.fire(EDIT)).decision.hooks.map((h: any) => h.id)).toEqual(['from-yaml']);
  });

  it('reads hooks.json', async () => {
    const s = sandbox();
    s.globalHooks(JSON.stringify({ hooks: [{ id: 'j', event: 'PreToolUse', match: { tool_name: 'edit_file' }, run: { type: 'command', argv: ['true'] }, execution: { mode: 'blocking' } }] }), 'hooks.json');
    expect((await s.fire(EDIT)).decision.hooks).toMatchObject([{ id: 'j', status: 'ok' }]);
  });

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

  it('leaves an untrusted project file dormant, unparsed, and says so', async () => {
    const s = sandbox();
    const path = s.projectHooks('hooks: [ this is : not valid yaml\n');
    const { decision } = await s.fire(EDIT);
    expect(decision.hooks).toEqual([]);
    expect(decision.warnings).toEqual([expect.objectContaining({ code: 'project_hooks_dormant', path })]);
    // A finding about the whole file has no place in it: no invented 1:1.
    expect(decision.warnings[0]).not.toHaveProperty('line');
  });

  it.each<[string, string[], Record<string, string>, string | undefined, boolean]>([
    ['--project-hooks', ['--project-hooks'], {}, undefined, true],
    ['CHRYS_PROJECT_HOOKS=1', [], { CHRYS_PROJECT_HOOKS: '1' }, undefined, true],
    ['settings project.hooks_enabled: true', [], {}, 'project:\n  hooks_enabled: true\n', true],
    ['settings.json', [], {}, '{"project": {"hooks_enabled": true}}', true],
    ['--no-project-hooks over the environment', ['--no-project-hooks'], { CHRYS_PROJECT_HOOKS: '1' }, undefined, false],
    ['CHRYS_PROJECT_HOOKS=0 over the settings', [], { CHRYS_PROJECT_HOOKS: '0' }, 'project:\n  hooks_enabled: true\n', false],
    ['settings false', [], {}, 'project:\n  hooks_enabled: false\n', false],
  ])('trust: %s', async (_name, args, env, settings, trusted) => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${tracer('p')}\n`);
    if (settings) s.write(join(s.configDir, settings.startsWith('{') ? 'settings.json' : 'settings.yaml'), settings);
    const { decision } = await s.fire(EDIT, args, { env });
    expect(decision.hooks.map((h: any) => h.id)).toEqual(trusted ? ['p'] : []);
    expect(decision.warnings.map((w: any) => w.code)).toEqual(trusted ? [] : ['project_hooks_dormant']);
  });

  it('cannot be trusted from inside the project file', async () => {
    const s = sandbox();
    s.projectHooks(`project:\n  hooks_enabled: true\nhooks:\n${tracer('p')}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision.hooks).toEqual([]);
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

  it('disables only the invalid file: the other layer still runs', async () => {
    const s = sandbox();
    const global = s.globalHooks(`hooks:\n  - id: broken\n    event: before_tool_call\n    timeout: 3\n`);
    s.projectHooks(`hooks:\n${tracer('p')}\n`);
    const { decision } = await s.fire(EDIT, ['--project-hooks']);
    expect(decision.hooks.map((h: any) => h.id)).toEqual(['p']);
    expect(decision.warnings).toEqual([expect.objectContaining({ code: 'hooks_config_invalid', path: global, message: expect.stringContaining('2:5 [missing_field] hooks[0].run is required (and 1 more)') })]);

    s.globalHooks(`hooks:\n${tracer('g')}\n`);
    const project = s.projectHooks('hooks:\n\t- id: tabbed\n');
    const second = await s.fire(EDIT, ['--project-hooks']);
    expect(second.decision.hooks.map((h: any) => h.id)).toEqual(['g']);
    expect(second.decision.warnings).toEqual([expect.objectContaining({ code: 'project_hooks_config_invalid', path: project })]);
  });

  it('reports hook_skipped for a hook whose regex cannot be translated, and runs the rest', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bad-re', run: 'type: command\nargv: ["true"]', match: "args:\n  path: { regex: '(?<' }" })}\n${tracer('good')}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision.hooks.map((h: any) => h.id)).toEqual(['good']);
    expect(decision.warnings).toMatchObject([{ code: 'hook_skipped', hook: 'bad-re' }]);
  });

  it('does not report another event\'s load warnings', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bad-re', event: 'after_tool_call', run: 'type: command\nargv: ["true"]', match: "args:\n  path: { regex: '(?<' }" })}\n`);
    expect((await s.fire(EDIT)).decision.warnings).toEqual([]);
  });
});

describe('fire: the blocking chain across layers', () => {
  it('runs project hooks first, and a project block ends the chain before any global hook', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'guard', run: `type: shell\nshell: 'echo guard >> ../ran.log; echo "{\\"action\\":\\"block\\",\\"reason\\":\\"nope\\"}" > "$CHRYS_HOOK_RESULT"'`, match: 'tool_name: edit_file' })}\n${tracer('p-after')}\n`);
    s.globalHooks(`hooks:\n${tracer('g1')}\n${hookYaml({ id: 'g-async', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file', execution: 'mode: async' })}\n`);
    const { decision, result } = await s.fire(EDIT, ['--project-hooks', '--exit-code']);
    expect(result.exitCode).toBe(2);
    expect(decision).toMatchObject({ blocked: true, reason: 'nope', blocked_by: { id: 'guard', source: 'project' } });
    expect(decision.hooks.map((h: any) => [h.id, h.status])).toEqual([
      ['guard', 'blocked'],
      ['p-after', 'not_run'],
      ['g1', 'not_run'],
      ['g-async', 'not_run'],
    ]);
    expect(decision.hooks[1].reason).toContain('guard');
    expect(ranLog(s)).toEqual(['guard']);
  });

  it('does not let a block stop a Chrys conversation_done: the follow-ups still start', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'no-stop', event: 'conversation_done', run: `type: shell\nshell: 'echo "{\\"action\\":\\"block\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n${hookYaml({ id: 'follow-up', event: 'conversation_done', run: 'type: command\nargv: ["true"]', execution: 'mode: async' })}\n`);
    const { decision } = await s.fire({ event: 'conversation_done' });
    expect(decision).toMatchObject({ blocked: false, blocked_by: null });
    expect(decision.hooks.map((h: any) => [h.id, h.status])).toEqual([['no-stop', 'ok'], ['follow-up', 'started']]);
    expect(decision.warnings).toMatchObject([{ code: 'decision_ignored', hook: 'no-stop' }]);
  });

  it('exits 0 on a block without --exit-code', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'guard', run: `type: shell\nshell: 'echo "{\\"action\\":\\"block\\"}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const { decision, result } = await s.fire(EDIT);
    expect(result.exitCode).toBe(0);
    expect(decision).toMatchObject({ blocked: true, reason: 'blocked by hook "guard"' });
  });

  it('shows global hooks the args a project hook rewrote, and matches on them', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${hookYaml({ id: 'rewrite', run: `type: shell\nshell: 'echo "{\\"action\\":\\"modify\\",\\"args_override\\":{\\"path\\":\\"safe/b.ts\\"}}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    s.globalHooks(`hooks:\n${hookYaml({
      id: 'sees-safe',
      match: "args:\n  path: { regex: '^safe/' }",
      run: `type: shell\nshell: 'cp "$CHRYS_HOOK_PAYLOAD_FILE" ../seen.json'`,
    })}\n${hookYaml({ id: 'wants-old', match: "args:\n  path: { equals: 'src/a.ts' }", run: 'type: command\nargv: ["true"]' })}\n`);
    const { decision } = await s.fire(EDIT, ['--project-hooks']);
    expect(decision.hooks.map((h: any) => h.id)).toEqual(['rewrite', 'sees-safe']);
    expect(decision.args).toEqual({ path: 'safe/b.ts' });
    expect(decision.args_override).toEqual({ path: 'safe/b.ts' });
    expect(JSON.parse(readFileSync(join(s.root, 'seen.json'), 'utf8')).tool.args).toEqual({ path: 'safe/b.ts' });
  });

  it('runs both hooks when project and global share an id, with duplicate_hook_id', async () => {
    const s = sandbox();
    const p = s.projectHooks(`hooks:\n${tracer('same')}\n`);
    const g = s.globalHooks(`hooks:\n${tracer('same')}\n`);
    const { decision } = await s.fire(EDIT, ['--project-hooks']);
    expect(decision.hooks.map((h: any) => `${h.id}/${h.source}`)).toEqual(['same/project', 'same/global']);
    expect(decision.warnings).toEqual([expect.objectContaining({ code: 'duplicate_hook_id', message: expect.stringContaining(p) })]);
    expect(decision.warnings[0].message).toContain(g);
    expect(ranLog(s)).toEqual(['same', 'same']);
  });

  it('ignores the result file of a failed blocking hook', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'fails', run: `type: shell\nshell: 'echo "{\\"action\\":\\"block\\"}" > "$CHRYS_HOOK_RESULT"; echo oops >&2; exit 3'` })}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision.blocked).toBe(false);
    expect(decision.hooks).toMatchObject([{ id: 'fails', status: 'failed', exit_code: 3, reason: 'exited with status 3' }]);
    expect(decision.warnings).toMatchObject([{ code: 'hook_failed', hook: 'fails' }]);
  });

  it('blocks on failure with on_error: block, with the stderr tail in the reason', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'strict', run: `type: shell\nshell: 'echo "policy server down" >&2; exit 1'`, execution: 'mode: blocking\non_error: block' })}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision).toMatchObject({ blocked: true, blocked_by: { id: 'strict', source: 'global' } });
    expect(decision.reason).toContain('policy server down');
    expect(decision.hooks).toMatchObject([{ status: 'failed' }]);
  });

  it('lists skipped hooks with the reason, and omits non-matching and disabled ones', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:
${hookYaml({ id: 'interactive-only', run: 'type: command\nargv: ["true"]', match: 'session_kinds: [interactive]' })}
${hookYaml({ id: 'small-only', run: 'type: command\nargv: ["true"]', match: 'max_context_tokens: 1000' })}
${hookYaml({ id: 'other-tool', run: 'type: command\nargv: ["true"]', match: 'tool_name: write_file' })}
${hookYaml({ id: 'off', run: 'type: command\nargv: ["true"]', match: 'tool_name: edit_file', extra: '    enabled: false' })}
`);
    const { decision } = await s.fire({ ...EDIT, session_kind: 'cron', context_tokens: 5000 });
    expect(decision.hooks).toMatchObject([
      { id: 'interactive-only', status: 'skipped', reason: expect.stringContaining('cron') },
      { id: 'small-only', status: 'skipped', reason: expect.stringContaining('5000') },
    ]);
  });

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
