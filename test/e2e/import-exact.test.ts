// `import` never widens a hook: a matcher or event with no exact Chrys
// equivalent is translated exactly (match.fields on the input field the agent
// tests) or imported `enabled: false`, said in a comment and on stderr. Each
// imported hook is then fired through `fire --protocol` on the inputs the
// agent would (and would not) have run it for. And portable argument names:
// `args.path` matches Claude Code's Write, which sends `file_path`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, lines, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

type Groups = Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;

/** One settings file whose every hook appends its tag to ran.log; imported with --write. */
async function importInto(s: Sandbox, from: 'claude' | 'codex' | 'gemini', groups: Record<string, [string | undefined, string][]>) {
  const log = join(s.root, 'ran.log');
  const hooks: Groups = {};
  for (const [event, entries] of Object.entries(groups)) {
    hooks[event] = entries.map(([matcher, tag]) => ({ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: `echo ${tag} >> '${log}'` }] }));
  }
  const file = { claude: '.claude/settings.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json' }[from];
  s.write(join(s.workspace, file), JSON.stringify({ hooks }));
  const printed = await s.run(['import', '--from', from]);
  expect(printed.exitCode, printed.stderr).toBe(0);
  const written = await s.run(['import', '--from', from, '--write']);
  expect(written.exitCode, written.stderr).toBe(0);
  const v = await s.run(['validate', join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), '--format', 'json']);
  expect(JSON.parse(v.stdout), v.stdout).toMatchObject({ errors: 0 });
  return { yaml: printed.stdout, stderr: printed.stderr, writeStderr: written.stderr, ran: () => lines(log) };
}

async function fireAs(s: Sandbox, protocol: string, event: string, extra: object): Promise<void> {
  const input = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: s.workspace, hook_event_name: event, ...extra });
  const r = await s.run(['fire', '--protocol', protocol, '--project-hooks'], { input });
  expect(r.exitCode, r.stderr).toBe(0);
}

describe('import never widens a hook', () => {
  it('Claude Notification: event other kept to Notification (it fired on PostCompact), and its notification_type matcher carried over', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'claude', { Notification: [[undefined, 'any-note'], ['permission_prompt', 'perm-note']] });
    expect(imp.yaml).toContain('"hook_event_name": ["Notification"]');
    await fireAs(s, 'claude', 'PostCompact', { trigger: 'auto' });
    expect(imp.ran()).toEqual([]);
    await fireAs(s, 'claude', 'Notification', { notification_type: 'idle_prompt', message: 'idle' });
    expect(imp.ran()).toEqual(['any-note']);
    await fireAs(s, 'claude', 'Notification', { notification_type: 'permission_prompt', message: 'ok?' });
    expect(imp.ran()).toEqual(['any-note', 'any-note', 'perm-note']);
  });

  it('Claude SessionStart startup / resume|clear / compact match the session start source exactly', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'claude', { SessionStart: [['startup', 'startup'], ['resume|clear', 'resume-clear'], ['compact', 'compact']] });
    expect(imp.yaml).toContain('"source": ["startup"]');
    expect(imp.yaml).not.toContain('was not carried over');
    for (const source of ['resume', 'startup', 'clear', 'compact']) await fireAs(s, 'claude', 'SessionStart', { source });
    expect(imp.ran()).toEqual(['resume-clear', 'startup', 'resume-clear', 'compact']);
  });

  it('Claude PreCompact manual, and a regex matcher on SessionStart imported enabled: false with a comment and a stderr line', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'claude', { PreCompact: [['manual', 'manual']], SessionStart: [['^(startup|resume)$', 'regex']] });
    expect(imp.yaml).toMatch(/# imported disabled: matcher "\^\(startup\|resume\)\$" on SessionStart is a regex on source[^\n]*\n {2}- id: "claude-sessionstart-1-1"\n.*\n.*\n {4}enabled: false/);
    for (const stderr of [imp.stderr, imp.writeStderr]) expect(stderr).toContain('hook "claude-sessionstart-1-1" is imported with enabled: false: matcher "^(startup|resume)$" on SessionStart is a regex');
    await fireAs(s, 'claude', 'PreCompact', { trigger: 'auto' });
    await fireAs(s, 'claude', 'SessionStart', { source: 'startup' });
    expect(imp.ran()).toEqual([]);
    await fireAs(s, 'claude', 'PreCompact', { trigger: 'manual' });
    expect(imp.ran()).toEqual(['manual']);
  });

  it('a matcher whose field chrys-hooks does not know is imported disabled, never live on every event', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'claude', { Setup: [['init', 'setup']], InstructionsLoaded: [['session_start', 'loaded']] });
    expect(imp.stderr).toContain('"claude-setup-1-1" is imported with enabled: false');
    expect(imp.stderr).toContain('"claude-instructionsloaded-1-1" is imported with enabled: false');
    await fireAs(s, 'claude', 'Setup', { trigger: 'maintenance' });
    await fireAs(s, 'claude', 'InstructionsLoaded', { load_reason: 'nested' });
    expect(imp.ran()).toEqual([]);
  });

  it('a tool matcher on an event without a tool (PermissionDenied Bash, a regex on Read) matches tool_name exactly or is off', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'claude', { PermissionDenied: [['Bash', 'denied-bash'], ['^Re', 'denied-re']], PreToolUse: [['^Re.*', 'pre-re']] });
    expect(imp.stderr).toContain('"claude-permissiondenied-2-1" is imported with enabled: false');
    await fireAs(s, 'claude', 'PermissionDenied', { tool_name: 'Write', tool_input: { file_path: 'a' } });
    await fireAs(s, 'claude', 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'a' } });
    expect(imp.ran()).toEqual([]);
    await fireAs(s, 'claude', 'PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    await fireAs(s, 'claude', 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } });
    expect(imp.ran()).toEqual(['denied-bash', 'pre-re']);
  });

  it('Codex SessionStart and PreCompact matchers; Write also names apply_patch; a Rust-only regex is off', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'codex', { SessionStart: [['startup', 'startup']], PreCompact: [['auto', 'auto']], PreToolUse: [['Write', 'write'], ['(?i)bash', 'rust-regex']] });
    expect(imp.stderr).toContain('"codex-pretooluse-2-1" is imported with enabled: false');
    await fireAs(s, 'codex', 'SessionStart', { source: 'resume' });
    await fireAs(s, 'codex', 'PreCompact', { trigger: 'manual' });
    await fireAs(s, 'codex', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(imp.ran()).toEqual([]);
    await fireAs(s, 'codex', 'SessionStart', { source: 'startup' });
    await fireAs(s, 'codex', 'PreToolUse', { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch' } });
    expect(imp.ran()).toEqual(['startup', 'write']);
  });

  it('Gemini SessionStart and PreCompress matchers are exact strings; Notification stays Notification', async () => {
    const s = sandbox();
    const imp = await importInto(s, 'gemini', { SessionStart: [['startup', 'startup'], ['startup|resume', 'literal']], PreCompress: [['manual', 'manual']], Notification: [[undefined, 'note']] });
    const gemini = (event: string, extra: object) => fireAs(s, 'gemini', event, { timestamp: 't', ...extra });
    await gemini('SessionStart', { source: 'resume' });
    await gemini('PreCompress', { trigger: 'auto' });
    await gemini('BeforeModel', { llm_request: {} });
    expect(imp.ran()).toEqual([]);
    await gemini('SessionStart', { source: 'startup' });
    await gemini('Notification', { notification_type: 'ToolPermission', message: 'm', details: {} });
    expect(imp.ran()).toEqual(['startup', 'note']);
  });
});

const ENV_GUARD = hookYaml({
  id: 'protect-env',
  match: "tool_kind: filesystem.write\nargs:\n  path: { regex: '(^|/)\\.env$' }",
  run: `type: shell\nshell: 'echo "{\\"action\\": \\"block\\", \\"reason\\": \\"no .env\\"}" > "$CHRYS_HOOK_RESULT"'`,
});

describe('portable argument names', () => {
  it('args.path matches Claude Write and Edit (file_path), Gemini write_file, and a tool that sends path; tool.canonical_args is in the envelope', async () => {
    const s = sandbox();
    const seen = join(s.root, 'envelope.json');
    s.projectHooks(`hooks:\n${hookYaml({ id: 'dump', match: 'tool_name: Write', run: `type: shell\nshell: 'cat "$CHRYS_HOOK_PAYLOAD_FILE" > ${seen}'` })}\n${ENV_GUARD}\n`);
    const pre = (protocol: string, tool_name: string, tool_input: object) =>
      s.run(['fire', '--protocol', protocol, '--project-hooks'], { input: JSON.stringify({ session_id: 's', cwd: s.workspace, hook_event_name: protocol === 'gemini' ? 'BeforeTool' : 'PreToolUse', tool_name, tool_input }) });
    for (const [tool, args] of [['Write', { file_path: 'app/.env', content: 'X=1' }], ['Edit', { file_path: '/w/.env', old_string: 'a', new_string: 'b' }]] as const) {
      const r = await pre('claude', tool, args);
      expect(JSON.parse(r.stdout), `${tool}: ${r.stderr}`).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no .env' } });
    }
    const envelope = JSON.parse(readFileSync(seen, 'utf8'));
    expect(envelope.tool).toMatchObject({ name: 'Write', kind: 'filesystem.write', args: { file_path: 'app/.env', content: 'X=1' }, canonical_args: { path: 'app/.env', content: 'X=1' } });
    expect(JSON.parse((await pre('claude', 'Write', { file_path: 'app/.envrc', content: '' })).stdout)).toEqual({});
    const gemini = await pre('gemini', 'write_file', { file_path: '.env', content: '' });
    expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny' });
    const copilotStyle = await pre('claude', 'create', { path: '.env', file_text: '' });
    expect(JSON.parse(copilotStyle.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('validate warns when tool_name is one agent\'s tool and an args key another agent\'s argument', async () => {
    const s = sandbox();
    const file = s.write('hooks.yaml', `version: 1\nhooks:\n${hookYaml({ id: 'mixed', match: "tool_name: Write\nargs:\n  path: { regex: '\\.env$' }", run: 'type: shell\nshell: "true"' })}\n${hookYaml({ id: 'cmd', match: 'tool_names: [Bash]\nargs:\n  cmd: { contains: rm }', run: 'type: shell\nshell: "true"' })}\n${hookYaml({ id: 'fine', match: "tool_name: Write\nargs:\n  file_path: { regex: '\\.env$' }", run: 'type: shell\nshell: "true"' })}\n`);
    const r = await s.run(['validate', file, '--format', 'json']);
    const warnings = JSON.parse(r.stdout).diagnostics.filter((d: any) => d.code === 'args_other_agent');
    expect(warnings.map((w: any) => w.hook)).toEqual(['mixed', 'cmd']);
    expect(warnings[0].message).toContain('Write (claude) has no argument "path"');
    expect(warnings[0].message).toContain('canonical view (file_path)');
    expect(warnings[0].hint).toContain('write args.file_path');
    expect(warnings[1].message).toContain('it never matches');
  });
});
