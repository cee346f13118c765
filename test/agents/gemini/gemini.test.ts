// The real Gemini CLI 0.61.0, headless (`gemini -p`, yolo), wired by
// `chrys-hooks install --agent gemini --user`, talking to a scripted mock
// model on loopback: what the agent itself did (which command ran, what it
// sent the model next, what it showed the user) under each kind of hook.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sent, toolResults } from './mock-model.js';
import { requireAgent } from '../common/agents.js';
import { type AgentRun, GeminiRig } from './rig.js';

const shell = (command: string) => ({ call: 'run_shell_command', args: { command } });
const say = (text: string) => ({ text });

// A Chrys hook script that writes its decision to the result file.
const decide = (decision: object) => `#!/bin/bash\ncat > /dev/null\necho '${JSON.stringify(decision)}' > "$CHRYS_HOOK_RESULT"\n`;

const RM_GUARD = `version: 1
hooks:
  - id: no-recursive-rm
    event: before_tool_call
    match:
      command:
        - program: rm
          flags: [-r, -f]
    run: { type: script, path: scripts/block.sh }
    execution: { mode: blocking, on_error: block }
`;
const RM_REASON = 'recursive deletes are not allowed here; list the files instead';

beforeAll(() => {
  // Never skipped quietly: a missing agent is a broken set-up, said as such.
  requireAgent('gemini');
});

const rigs: GeminiRig[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((r) => r.dispose()));
});
async function rig(): Promise<GeminiRig> {
  const r = new GeminiRig();
  rigs.push(r);
  await r.install();
  return r;
}

/** The run went through: the agent exited 0 and the model was asked exactly `turns` times. */
function expectTurns(run: AgentRun, turns: number): void {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.model.requests.length, run.stderr).toBe(turns);
}

describe('Gemini CLI 0.61.0 wired by chrys-hooks install', () => {
  it('guard: a match.command guard blocks rm -rf, the directory survives, and the model is told why', async () => {
    const r = await rig();
    r.globalHooks(RM_GUARD);
    r.globalScript('block.sh', decide({ action: 'block', reason: RM_REASON }));
    mkdirSync(join(r.workspace, 'victim'));
    writeFileSync(join(r.workspace, 'victim', 'sentinel'), 'keep me');
    const run = await r.run('clean up the victim directory', [shell('rm -rf victim'), say('I will not delete it.')]);
    expectTurns(run, 2);
    expect(readFileSync(join(r.workspace, 'victim', 'sentinel'), 'utf8')).toBe('keep me');
    const [result] = toolResults(run.model.requests[1]!);
    expect(result?.name).toBe('run_shell_command');
    expect(result?.response).toEqual({ error: `Tool execution blocked: ${RM_REASON}` });
    expect(run.stderr).toContain(`Tool execution blocked: ${RM_REASON}`);
    expect(run.response).toBe('I will not delete it.');
  });

  it('allow: a command the guard does not match runs, and a hook that allows it saw it first', async () => {
    const r = await rig();
    r.globalHooks(`${RM_GUARD}  - id: audit
    event: before_tool_call
    match: { tool_kind: process.exec }
    run: { type: script, path: scripts/audit.sh }
    execution: { mode: blocking }
`);
    r.globalScript('block.sh', decide({ action: 'block', reason: RM_REASON }));
    r.globalScript('audit.sh', `#!/bin/bash\ncat "$CHRYS_HOOK_PAYLOAD_FILE" >> "$CHRYS_WORKSPACE/audit.log"\necho '{"action":"allow"}' > "$CHRYS_HOOK_RESULT"\n`);
    const run = await r.run('write a file', [shell('echo allowed > allowed.txt && rm -f allowed.tmp'), say('written')]);
    expectTurns(run, 2);
    expect(readFileSync(join(r.workspace, 'audit.log'), 'utf8')).toContain('echo allowed > allowed.txt');
    expect(readFileSync(join(r.workspace, 'allowed.txt'), 'utf8')).toBe('allowed\n');
    expect(JSON.stringify(toolResults(run.model.requests[1]!))).not.toContain(RM_REASON);
    expect(run.response).toBe('written');
  });

  it('prompt context: a user_prompt_submit reminder reaches the model with the prompt', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: house-rules
    event: user_prompt_submit
    run: { type: script, path: scripts/remind.sh }
    execution: { mode: blocking }
`);
    r.globalScript('remind.sh', decide({ system_reminder: 'house rule 7: answer in French' }));
    const run = await r.run('say hello', [say('bonjour')]);
    expectTurns(run, 1);
    const first = sent(run.model.requests[0]!);
    expect(first).toContain('<hook_context>house rule 7: answer in French</hook_context>');
    expect(first).toContain('say hello');
  });

  it('rewrite: the hook rewrites the command, and the rewritten command is what ran', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: no-touch
    event: before_tool_call
    match:
      command:
        - program: touch
    run: { type: script, path: scripts/rewrite.sh }
    execution: { mode: blocking }
`);
    r.globalScript('rewrite.sh', decide({ action: 'modify', args_override: { command: 'echo rewritten > rewritten.txt' } }));
    const run = await r.run('make a file', [shell('touch original.txt'), say('made')]);
    expectTurns(run, 2);
    expect(existsSync(join(r.workspace, 'original.txt'))).toBe(false);
    expect(readFileSync(join(r.workspace, 'rewritten.txt'), 'utf8')).toBe('rewritten\n');
    expect(JSON.stringify(toolResults(run.model.requests[1]!))).not.toContain('blocked');
  });

  it('stop gate: a conversation_done hook blocks the first stop; the agent goes on with the reason as the next request', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: tests-first
    event: conversation_done
    run: { type: script, path: scripts/gate.sh }
    execution: { mode: blocking, once_per_session: true }
`);
    r.globalScript('gate.sh', decide({ action: 'block', reason: 'run the test suite before you stop' }));
    const run = await r.run('fix the bug', [say('fixed, I think'), say('tests pass now')]);
    expectTurns(run, 2);
    expect(sent(run.model.requests[1]!)).toContain('run the test suite before you stop');
    expect(run.response).toContain('tests pass now');
    expect(run.warnings).toContain('Agent execution blocked: run the test suite before you stop');
  });

  it('failing hook: a hook that exits 1 does not block, and the agent goes on', async () => {
    const r = await rig();
    // Under install's --fail-closed a failing blocking guard of a tool call blocks
    // unless it says on_error: ignore; after a tool, nothing is gated.
    r.globalHooks(`version: 1
hooks:
  - id: flaky-guard
    event: before_tool_call
    match: { tool_kind: process.exec }
    run: { type: script, path: scripts/fail.sh }
    execution: { mode: blocking, on_error: ignore }
  - id: flaky-lint
    event: after_tool_call
    run: { type: script, path: scripts/fail.sh }
    execution: { mode: blocking }
`);
    r.globalScript('fail.sh', '#!/bin/bash\necho "$CHRYS_HOOK_ID" >> "$CHRYS_WORKSPACE/failures.log"\necho "crashed" >&2\nexit 1\n');
    const run = await r.run('write a file', [shell('echo ran > ran.txt'), say('all done')]);
    expectTurns(run, 2);
    expect(readFileSync(join(r.workspace, 'failures.log'), 'utf8')).toBe('flaky-guard\nflaky-lint\n');
    expect(readFileSync(join(r.workspace, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(JSON.stringify(toolResults(run.model.requests[1]!))).not.toContain('blocked');
    expect(run.response).toBe('all done');
  });

  it('extra_context: an after_tool_call hook adds context to the tool result the model reads next', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: coverage-note
    event: after_tool_call
    run: { type: script, path: scripts/note.sh }
    execution: { mode: blocking }
`);
    r.globalScript('note.sh', decide({ extra_context: 'coverage dropped to 41%' }));
    const run = await r.run('run the tests', [shell('echo ok'), say('noted')]);
    expectTurns(run, 2);
    const [result] = toolResults(run.model.requests[1]!);
    expect(JSON.stringify(result?.response)).toContain('coverage dropped to 41%');
  });

  it('session_start context reaches the model with the first prompt', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: onboarding
    event: session_start
    run: { type: script, path: scripts/context.sh }
    execution: { mode: blocking }
`);
    r.globalScript('context.sh', decide({ context: [{ text: 'this repository deploys on Fridays only' }] }));
    const run = await r.run('what should I know?', [say('Fridays')]);
    expectTurns(run, 1);
    expect(sent(run.model.requests[0]!)).toContain('this repository deploys on Fridays only');
  });

  it('trust: an untrusted project\'s hooks do not run; after chrys-hooks trust they do', async () => {
    const r = await rig();
    r.projectHooks(`version: 1
hooks:
  - id: no-touch
    event: before_tool_call
    match:
      command:
        - program: touch
    run: { type: script, path: scripts/block.sh }
    execution: { mode: blocking }
`);
    r.projectScript('block.sh', decide({ action: 'block', reason: 'this project forbids touch' }));
    const untrusted = await r.run('make a file', [shell('touch before-trust'), say('made')]);
    expectTurns(untrusted, 2);
    expect(existsSync(join(r.workspace, 'before-trust'))).toBe(true);
    expect(untrusted.stderr).toContain('project_hooks_dormant');

    const trust = await r.chrys(['trust', '--yes']);
    expect(trust.exitCode, trust.stderr).toBe(0);
    const trusted = await r.run('make a file', [shell('touch after-trust'), say('refused')]);
    expectTurns(trusted, 2);
    expect(existsSync(join(r.workspace, 'after-trust'))).toBe(false);
    expect(JSON.stringify(toolResults(trusted.model.requests[1]!))).toContain('this project forbids touch');
  });

  it('fail-closed: a guard whose script is missing blocks the tool call under the --fail-closed install set', async () => {
    const r = await rig();
    r.globalHooks(`version: 1
hooks:
  - id: vanished-guard
    event: before_tool_call
    match: { tool_kind: process.exec }
    run: { type: script, path: scripts/missing.sh }
    execution: { mode: blocking }
`);
    const run = await r.run('write a file', [shell('echo x > out.txt'), say('blocked')]);
    expectTurns(run, 2);
    expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    const [result] = toolResults(run.model.requests[1]!);
    expect(JSON.stringify(result?.response)).toContain('vanished-guard');
    expect(JSON.stringify(result?.response)).toContain('script not found');

    // The same guard wired with --no-fail-closed fails open: it is the flag that blocked.
    await r.install(['--no-fail-closed']);
    const open = await r.run('write a file', [shell('echo x > out.txt'), say('written')]);
    expectTurns(open, 2);
    expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8')).toBe('x\n');
  });
});

describe('Gemini CLI shows the block reason, not chrys-hooks\' warnings', () => {
  const PROMPT_GATE = `version: 1
hooks:
  - id: frozen
    event: user_prompt_submit
    run: { type: script, path: scripts/block.sh }
    execution: { mode: blocking }
`;

  it('a blocked prompt next to an untrusted project shows the reason first, and never reaches the model', async () => {
    const r = new GeminiRig();
    rigs.push(r);
    // Only the gates wired: no SessionStart to have said the dormant layer already.
    await r.install(['--events', 'BeforeTool,BeforeAgent']);
    r.globalHooks(PROMPT_GATE);
    r.globalScript('block.sh', decide({ action: 'block', reason: 'the repository is frozen for the release' }));
    r.projectHooks('version: 1\nhooks: []\n');
    const run = await r.run('refactor everything', []);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.model.requests).toHaveLength(0);
    const [shown] = run.warnings;
    expect(shown?.split('\n')[0]).toBe('Agent execution blocked: the repository is frozen for the release');
    expect(shown).toContain('project_hooks_dormant');
  });

  it('a prompt blocked by fail-closed shows the failed guard first', async () => {
    const r = await rig();
    r.globalHooks(PROMPT_GATE);
    const run = await r.run('refactor everything', []);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.model.requests).toHaveLength(0);
    const [shown] = run.warnings;
    expect(shown?.split('\n')[0]).toMatch(/^Agent execution blocked: hook "frozen" failed \(script not found: /);
    expect(shown).toContain('chrys-hooks fail_closed');
  });
});
