// The worked example of docs/agents.md, "A worked example" (examples/claude/):
// the command Claude Code runs from settings.json, in the project directory with
// CLAUDE_PROJECT_DIR set, a Claude hook input on stdin: a Chrys project hook and
// a Claude-style script both block; a harmless call is allowed.
import { execa } from 'execa';
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('examples/claude', () => {
  it('blocks a .env write (Chrys hook) and rm -rf (Claude-style script) as Claude Code sees it', async () => {
    const s = sandbox();
    const project = join(s.root, 'project');
    cpSync(resolve('examples/claude/project'), project, { recursive: true });
    const settings = JSON.parse(readFileSync(resolve('examples/claude/settings.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    expect(command).toBe('chrys-hooks fire --protocol claude --fail-closed');
    // As Claude Code runs a command hook: `sh -c COMMAND` in the project, CLAUDE_PROJECT_DIR set.
    const claude = async (input: string) => {
      const text = readFileSync(resolve('examples/claude/inputs', input), 'utf8').replaceAll('PROJECT', project);
      const r = await execa('sh', ['-c', command], {
        cwd: project, input: text, reject: false, extendEnv: false,
        env: { ...s.env({ CHRYS_HOME: s.configDir, CHRYS_PROJECT_HOOKS: '1', CLAUDE_PROJECT_DIR: project }), PATH: `${resolve('bin')}:${process.env.PATH}` },
      });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      return JSON.parse(String(r.stdout));
    };
    expect(await claude('write-env.json')).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `${project}/config/.env: .env files hold secrets; use the vault` } });
    expect(await claude('rm-rf.json')).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Blocked: rm -rf is not allowed in this project' } });
    expect(await claude('ls.json')).toEqual({});
  });
});
