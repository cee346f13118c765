import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enclosingTrustedWorkspace } from '../../src/config/enclosing-workspace.js';
import { agentToEnvelope } from '../../src/core/protocols/inbound.js';
import { envelopeToAgentInput } from '../../src/core/protocols/foreign-input.js';
import { projectDirFromEnv, projectRootOf } from '../../src/core/protocols/project-root.js';
import { readSessionRoot, recordSessionRoot } from '../../src/state/session-root.js';

describe('projectDirFromEnv', () => {
  it.each([
    ['claude', { CLAUDE_PROJECT_DIR: '/p', GEMINI_PROJECT_DIR: '/g' }, '/p'],
    ['claude', { GEMINI_PROJECT_DIR: '/g' }, undefined],
    ['gemini', { CLAUDE_PROJECT_DIR: '/p', GEMINI_PROJECT_DIR: '/g' }, '/g'],
    ['gemini', { CLAUDE_PROJECT_DIR: '/p' }, '/p'],
    // Codex exports no root; a CLAUDE_PROJECT_DIR it inherits belongs to another session.
    ['codex', { CLAUDE_PROJECT_DIR: '/p' }, undefined],
    ['claude', { CLAUDE_PROJECT_DIR: 'relative/dir' }, undefined],
    ['claude', { CLAUDE_PROJECT_DIR: '' }, undefined],
  ] as const)('%s with %j names %s', (protocol, env, expected) => {
    expect(projectDirFromEnv(protocol, env)?.path).toBe(expected);
  });
});

describe('projectDirFromEnv: the variable named, for resolve and --explain', () => {
  it.each([
    ['claude', { CLAUDE_PROJECT_DIR: '/p' }, 'CLAUDE_PROJECT_DIR', '/p'],
    ['gemini', { GEMINI_PROJECT_DIR: '/g', CLAUDE_PROJECT_DIR: '/p' }, 'GEMINI_PROJECT_DIR', '/g'],
    // Gemini CLI and Cursor set CLAUDE_PROJECT_DIR as an alias for Claude-style scripts.
    ['gemini', { CLAUDE_PROJECT_DIR: '/p' }, 'CLAUDE_PROJECT_DIR', '/p'],
    ['cursor', { CURSOR_PROJECT_DIR: '/c', CLAUDE_PROJECT_DIR: '/p' }, 'CURSOR_PROJECT_DIR', '/c'],
    ['cursor', { CLAUDE_PROJECT_DIR: '/p' }, 'CLAUDE_PROJECT_DIR', '/p'],
    // a relative first choice is passed over for the alias
    ['gemini', { GEMINI_PROJECT_DIR: 'rel', CLAUDE_PROJECT_DIR: '/p' }, 'CLAUDE_PROJECT_DIR', '/p'],
  ] as const)('%s with %j: %s', (protocol, env, name, path) => {
    expect(projectDirFromEnv(protocol, env)).toEqual({ path, source: 'env', detail: name });
  });

  it('Copilot CLI names no root, whatever it inherits', () => {
    expect(projectDirFromEnv('copilot', { CLAUDE_PROJECT_DIR: '/p', GEMINI_PROJECT_DIR: '/g', CURSOR_PROJECT_DIR: '/c' })).toBeUndefined();
  });
});

describe('projectRootOf', () => {
  it('says where a root that is no variable came from', () => {
    expect(projectRootOf(undefined, '/rec', '/in')).toEqual({ path: '/rec', source: 'session_start', detail: 'the cwd the session started in' });
    expect(projectRootOf(undefined, undefined, '/in')).toEqual({ path: '/in', source: 'input_cwd', detail: 'the input cwd' });
    expect(projectRootOf(undefined, '', '/in')).toMatchObject({ source: 'input_cwd' });
    expect(projectRootOf(undefined, undefined, '')).toBeUndefined();
  });

  const env = { path: '/env', source: 'env' as const, detail: 'CLAUDE_PROJECT_DIR' };
  it('prefers the variable, then the recorded start, then the input cwd', () => {
    expect(projectRootOf(env, '/rec', '/in')).toBe(env);
    expect(projectRootOf(undefined, '/rec', '/in')).toMatchObject({ path: '/rec', source: 'session_start' });
    expect(projectRootOf(undefined, undefined, '/in')).toMatchObject({ path: '/in', source: 'input_cwd' });
    expect(projectRootOf(undefined, undefined, undefined)).toBeUndefined();
  });
});

describe('the mapped envelope', () => {
  const input = { session_id: 's', cwd: '/ws/src', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
  it('holds the project root as cwd and the input cwd as agent_cwd; a foreign hook gets the input back', () => {
    const inbound = agentToEnvelope('claude', input, 'PreToolUse', '/ws');
    if (!inbound.ok) throw new Error('not mapped');
    expect(inbound.envelope).toMatchObject({ cwd: '/ws', agent_cwd: '/ws/src' });
    expect(envelopeToAgentInput('claude', inbound.envelope, 'before_tool_call')).toEqual(input);
    const gemini = envelopeToAgentInput('gemini', inbound.envelope, 'before_tool_call');
    expect(gemini.cwd).toBe('/ws/src');
  });
  it('without a root keeps the input as it is', () => {
    const inbound = agentToEnvelope('claude', input, 'PreToolUse');
    if (!inbound.ok) throw new Error('not mapped');
    expect(inbound.envelope.cwd).toBe('/ws/src');
    expect(inbound.envelope).not.toHaveProperty('agent_cwd');
  });
});

describe('the session root record', () => {
  it('keeps the first absolute cwd of a session', () => {
    const config = mkdtempSync(join(tmpdir(), 'chrys-root-'));
    expect(readSessionRoot(config, 's')).toBeUndefined();
    recordSessionRoot(config, 's', 'relative');
    expect(readSessionRoot(config, 's')).toBeUndefined();
    recordSessionRoot(config, 's', '/ws');
    recordSessionRoot(config, 's', '/ws/src');
    expect(readSessionRoot(config, 's')).toBe('/ws');
    expect(readSessionRoot(config, 'other')).toBeUndefined();
  });
});

describe('enclosingTrustedWorkspace', () => {
  function tree(): { root: string; config: string; ws: string; src: string } {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'chrys-encl-')));
    const config = join(root, 'config');
    const ws = join(root, 'ws');
    const src = join(ws, 'src', 'deep');
    mkdirSync(join(ws, '.chrys', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.chrys', 'hooks', 'hooks.yaml'), 'hooks: []\n');
    mkdirSync(src, { recursive: true });
    mkdirSync(config, { recursive: true });
    return { root, config, ws, src };
  }
  const no = async () => false;
  const yes = async () => true;

  it('finds a workspace above the cwd that the settings trust, unless it is the firing workspace', async () => {
    const t = tree();
    expect(await enclosingTrustedWorkspace({}, { configDir: t.config, workspace: t.src, cwd: t.src, settingsEnabled: yes })).toMatchObject({ workspace: t.ws, projectPath: join(t.ws, '.chrys', 'hooks', 'hooks.yaml') });
    expect(await enclosingTrustedWorkspace({}, { configDir: t.config, workspace: t.ws, cwd: t.src, settingsEnabled: yes })).toBeUndefined();
  });

  it('an untrusted enclosing workspace is no lost guard; --no-project-hooks turns the check off, --project-hooks trusts all', async () => {
    const t = tree();
    expect(await enclosingTrustedWorkspace({}, { configDir: t.config, workspace: t.src, cwd: t.src, settingsEnabled: no })).toBeUndefined();
    expect(await enclosingTrustedWorkspace({ projectHooks: false }, { configDir: t.config, workspace: t.src, cwd: t.src, settingsEnabled: yes })).toBeUndefined();
    expect(await enclosingTrustedWorkspace({ projectHooks: true }, { configDir: t.config, workspace: t.src, cwd: t.src, settingsEnabled: no })).toMatchObject({ workspace: t.ws, trustedBy: '--project-hooks' });
  });

  it('the trust record trusts by the workspace real path', async () => {
    const t = tree();
    mkdirSync(join(t.config, 'hooks', 'state'), { recursive: true });
    writeFileSync(join(t.config, 'hooks', 'state', 'trust.json'), JSON.stringify({ version: 1, workspaces: { [t.ws]: { trusted_at: 'x', hooks_file: join(t.ws, '.chrys/hooks/hooks.yaml'), files: [] } } }));
    expect(await enclosingTrustedWorkspace({}, { configDir: t.config, workspace: t.src, cwd: t.src, settingsEnabled: no })).toMatchObject({ workspace: t.ws, trustedBy: '`chrys-hooks trust`' });
  });

  it('the global hooks dir (~/.chrys/hooks) above the cwd is not a workspace', async () => {
    const t = tree();
    const config = join(t.ws, '.chrys');
    expect(await enclosingTrustedWorkspace({}, { configDir: config, workspace: t.src, cwd: t.src, settingsEnabled: yes })).toBeUndefined();
  });
});
