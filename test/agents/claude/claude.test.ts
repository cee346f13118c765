// Claude Code 2.1.328 itself, headless (`claude -p`), wired by `chrys-hooks
// install --agent claude --user`, against a scripted model on loopback: each
// scenario checks what the agent did (a file kept, made or rewritten) and what
// it sent the model next (the reason, the context, the replaced output).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireAgent } from '../common/agents.js';
import { ClaudeSession, describeRun, notices, toolUseResults } from './claude-session.js';
import { requestText, resultText, toolResults } from './mock-anthropic.js';

const DENY_RM = '#!/bin/bash\nprintf \'{"action": "block", "reason": "GUARD: rm -rf is not allowed in this workspace"}\' > "$CHRYS_HOOK_RESULT"\n';
const guardYaml = (script: string) => `version: 1
hooks:
  - id: no-rm-rf
    event: before_tool_call
    match:
      command:
        - program: rm
          flags: [-r, -f]
    run: { type: script, path: scripts/${script} }
    execution: { mode: blocking, on_error: block }
`;

let s: ClaudeSession;

beforeAll(() => {
  // Not skipped when missing: the suite exists to run the real agent.
  requireAgent('claude');
});

beforeEach(async () => {
  s = new ClaudeSession();
  await s.install();
});

afterEach(() => s.remove());

/** A directory with a file in it, for a command to delete. */
function sentinel(): string {
  const dir = join(s.workspace, 'keep');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sentinel.txt'), 'still here\n');
  return join(dir, 'sentinel.txt');
}

describe('Claude Code with chrys-hooks', () => {
  it('install wires PreToolUse fail-closed in the settings Claude reads', () => {
    const settings = JSON.parse(readFileSync(join(s.claudeDir, 'settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toMatch(/chrys-hooks fire --protocol claude --fail-closed$/);
    expect(settings.hooks.PostToolUse[0].hooks[0].command).toMatch(/chrys-hooks fire --protocol claude$/);
  });

  it('guard: a match.command guard blocks rm -rf, the sentinel survives, and the model is told why', async () => {
    s.globalScript('deny.sh', DENY_RM);
    s.globalHooks(guardYaml('deny.sh'));
    const file = sentinel();
    const { run, model } = await s.run('clean up', [{ tool: 'Bash', input: { command: 'rm -rf keep', description: 'remove keep' } }, { text: 'understood' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(existsSync(file)).toBe(true);
    expect(model.requests).toHaveLength(2);
    const [blocked] = toolResults(model.requests[1]!);
    expect(blocked?.is_error).toBe(true);
    expect(resultText(blocked!)).toContain('GUARD: rm -rf is not allowed in this workspace');
  });

  it('allow: a command the guard does not match runs, and its output reaches the model', async () => {
    s.globalScript('deny.sh', DENY_RM);
    s.globalHooks(guardYaml('deny.sh'));
    const { run, model } = await s.run('make a file', [{ tool: 'Bash', input: { command: 'touch allowed.txt && echo made-it', description: 'touch' } }, { text: 'done' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(existsSync(join(s.workspace, 'allowed.txt'))).toBe(true);
    const [ran] = toolResults(model.requests[1]!);
    expect(ran?.is_error).toBe(false);
    expect(resultText(ran!)).toContain('made-it');
  });

  it('prompt context: a user_prompt_submit reminder is in the first model request', async () => {
    s.globalScript('remind.py', 'import json, os\njson.dump({"system_reminder": "PROMPT-CONTEXT: answer in French"}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))\n');
    s.globalHooks('hooks:\n  - id: remind\n    event: user_prompt_submit\n    run: { type: script, path: scripts/remind.py }\n    execution: { mode: blocking }\n');
    const { run, model } = await s.run('hello', [{ text: 'bonjour' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(requestText(model.requests[0]!)).toContain('PROMPT-CONTEXT: answer in French');
  });

  it('rewrite: a hook rewrites the command, and the rewritten command is what ran', async () => {
    s.globalScript('rewrite.js', `const fs = require('fs');
const env = JSON.parse(fs.readFileSync(process.env.CHRYS_HOOK_PAYLOAD_FILE, 'utf8'));
if (env.tool.args.command.includes('original')) {
  fs.writeFileSync(process.env.CHRYS_HOOK_RESULT, JSON.stringify({ action: 'modify', args_override: { command: 'echo rewritten > out.txt' } }));
}
`);
    s.globalHooks('hooks:\n  - id: rewrite\n    event: before_tool_call\n    match: { tool_kind: process.exec }\n    run: { type: script, path: scripts/rewrite.js }\n    execution: { mode: blocking }\n');
    const { run } = await s.run('write it', [{ tool: 'Bash', input: { command: 'echo original > out.txt', description: 'write' } }, { text: 'done' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(readFileSync(join(s.workspace, 'out.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('stop gate: a stop hook blocks once, the agent goes on, and the model sees the reason', async () => {
    s.globalScript('gate.py', `import json, os
env = json.load(open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"]))
if not env.get("stop_hook_active"):
    json.dump({"action": "block", "reason": "STOP-GATE: run the tests before you finish"}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))
`);
    s.globalHooks('hooks:\n  - id: gate\n    event: conversation_done\n    run: { type: script, path: scripts/gate.py }\n    execution: { mode: blocking }\n');
    const { run, model } = await s.run('finish up', [{ text: 'finished' }, { text: 'tests ran; finished now' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(model.requests).toHaveLength(2);
    expect(requestText(model.requests[0]!)).not.toContain('STOP-GATE');
    expect(requestText(model.requests[1]!)).toContain('STOP-GATE: run the tests before you finish');
    expect(run.result?.result).toBe('tests ran; finished now');
  });

  it('failing hook: hooks that exit 1 do not block, and the agent goes on', async () => {
    const marks = join(s.root, 'marks');
    mkdirSync(marks);
    s.globalScript('fail.sh', `#!/bin/bash\ntouch "${marks}/$CHRYS_HOOK_ID"\necho "boom from $CHRYS_HOOK_ID" >&2\nexit 1\n`);
    // Under --fail-closed a failing PreToolUse hook blocks unless its file says on_error: ignore.
    s.globalHooks(`hooks:
  - id: pre-fails
    event: before_tool_call
    match: { tool_kind: process.exec }
    run: { type: script, path: scripts/fail.sh }
    execution: { mode: blocking, on_error: ignore }
  - id: post-fails
    event: after_tool_call
    run: { type: script, path: scripts/fail.sh }
    execution: { mode: blocking, on_error: warn }
`);
    const { run, model } = await s.run('go', [{ tool: 'Bash', input: { command: 'touch ran.txt && echo still-going', description: 'touch' } }, { text: 'done' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(existsSync(join(marks, 'pre-fails')) && existsSync(join(marks, 'post-fails'))).toBe(true);
    expect(existsSync(join(s.workspace, 'ran.txt'))).toBe(true);
    expect(resultText(toolResults(model.requests[1]!)[0]!)).toContain('still-going');
    expect(model.requests).toHaveLength(2);
    // Not silent: the user is told the after-tool hook failed.
    expect(notices(run).join('\n')).toMatch(/hook_failed: .*post-fails/);
  });

  it('extra_context: an after_tool_call hook\'s context is in the next model request', async () => {
    s.globalScript('lint.sh', '#!/bin/bash\nprintf \'{"extra_context": "EXTRA-CONTEXT: lint found 2 warnings"}\' > "$CHRYS_HOOK_RESULT"\n');
    s.globalHooks('hooks:\n  - id: lint\n    event: after_tool_call\n    run: { type: script, path: scripts/lint.sh }\n    execution: { mode: blocking }\n');
    const { run, model } = await s.run('go', [{ tool: 'Bash', input: { command: 'echo hi', description: 'echo' } }, { text: 'done' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(requestText(model.requests[0]!)).not.toContain('EXTRA-CONTEXT');
    expect(requestText(model.requests[1]!)).toContain('EXTRA-CONTEXT: lint found 2 warnings');
  });

  it('session_start context is in the first model request', async () => {
    s.globalScript('start.py', 'import json, os\njson.dump({"context": [{"text": "SESSION-CONTEXT: the build is red"}]}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))\n');
    s.globalHooks('hooks:\n  - id: start\n    event: session_start\n    run: { type: script, path: scripts/start.py }\n    execution: { mode: blocking }\n');
    const { run, model } = await s.run('hello', [{ text: 'hi' }]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(requestText(model.requests[0]!)).toContain('SESSION-CONTEXT: the build is red');
  });

  it('trust: an untrusted project\'s guard does not run; after chrys-hooks trust it does', async () => {
    s.projectScript('deny.sh', DENY_RM);
    s.projectHooks(guardYaml('deny.sh'));
    const steps = () => [{ tool: 'Bash', input: { command: 'rm -rf keep', description: 'remove keep' } }, { text: 'ok' }];
    const file = sentinel();
    const untrusted = await s.run('clean up', steps());
    expect(untrusted.run.result?.subtype, describeRun(untrusted.run)).toBe('success');
    expect(existsSync(file)).toBe(false);
    expect(requestText(untrusted.model.requests[1]!)).not.toContain('GUARD');
    // chrys-hooks says so once per session, at SessionStart (Claude records that hook's answer in the stream).
    const started = untrusted.run.events.find((e) => e.type === 'system' && e.subtype === 'hook_response' && e.hook_event === 'SessionStart');
    expect(JSON.parse(started?.stdout ?? '{}').systemMessage).toContain('project_hooks_dormant');

    const trust = await s.chrys(['trust', '--yes']);
    expect(trust.exitCode, trust.stderr).toBe(0);
    sentinel();
    const trusted = await s.run('clean up', steps());
    expect(trusted.run.result?.subtype, describeRun(trusted.run)).toBe('success');
    expect(existsSync(file)).toBe(true);
    expect(resultText(toolResults(trusted.model.requests[1]!)[0]!)).toContain('GUARD: rm -rf is not allowed in this workspace');
  });

  it('fail-closed: a guard whose script is missing blocks the call, because install set --fail-closed', async () => {
    s.globalHooks(guardYaml('missing.sh').replace('on_error: block', 'on_error: warn'));
    const steps = () => [{ tool: 'Bash', input: { command: 'rm -rf keep', description: 'remove keep' } }, { text: 'ok' }];
    const file = sentinel();
    const { run, model } = await s.run('clean up', steps());
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(existsSync(file)).toBe(true);
    const [blocked] = toolResults(model.requests[1]!);
    expect(blocked?.is_error).toBe(true);
    expect(resultText(blocked!)).toMatch(/hook "no-rm-rf" failed \(script not found: .*missing\.sh\)/);
    // The user is told why (systemMessage), as a notice in the stream.
    expect(notices(run).join('\n')).toContain('chrys-hooks fail_closed: blocked because --fail-closed is on');

    // The same set-up wired with --no-fail-closed fails open: the guard's failure is only a warning.
    const open = await s.chrys(['install', '--agent', 'claude', '--user', '--no-fail-closed']);
    expect(open.exitCode, open.stderr).toBe(0);
    const unguarded = await s.run('clean up', steps());
    expect(unguarded.run.result?.subtype, describeRun(unguarded.run)).toBe('success');
    expect(existsSync(file)).toBe(false);
  });

  it('replace_result: the model gets the replacement instead of the Bash or Read output, not beside it', async () => {
    s.globalScript('redact.py', 'import json, os\njson.dump({"replace_result": "[redacted by chrys]"}, open(os.environ["CHRYS_HOOK_RESULT"], "w"))\n');
    s.globalHooks('hooks:\n  - id: redact\n    event: after_tool_call\n    run: { type: script, path: scripts/redact.py }\n    execution: { mode: blocking }\n');
    writeFileSync(join(s.workspace, 'creds.txt'), 'TOKEN=abc123\n');
    // The command does not spell its output, so the output can only reach the model as the result.
    const { run, model } = await s.run('show me', [
      { tool: 'Bash', input: { command: 'echo SECRET-$((40 + 2))', description: 'echo' } },
      { tool: 'Read', input: { file_path: join(s.workspace, 'creds.txt') } },
      { text: 'done' },
    ]);
    expect(run.result?.subtype, describeRun(run)).toBe('success');
    expect(toolUseResults(run)[0]).toMatchObject({ stdout: '[redacted by chrys]' });
    expect(resultText(toolResults(model.requests[1]!)[0]!)).toBe('[redacted by chrys]');
    expect(requestText(model.requests[1]!)).not.toContain('SECRET-42');
    expect(resultText(toolResults(model.requests[2]!)[0]!)).toContain('[redacted by chrys]');
    expect(requestText(model.requests[2]!)).not.toContain('abc123');
  });
});
