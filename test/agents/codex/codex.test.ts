// chrys-hooks inside the real Codex CLI 0.169.0: `codex exec` headless
// against the scripted mock model on loopback, chrys-hooks wired by
// `install --agent codex --user`, and what is checked is Codex's own
// behaviour: the file on disk, the command that ran, what the next model
// request carries.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText, toolOutput } from './mock-responses.js';
import { CodexRig, type Scenario } from './rig.js';

const EVENTS = ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionStart', 'PreCompact'];

const hook = (id: string, event: string, run: string, extra = ''): string =>
  `  - id: ${id}\n    event: ${event}\n${extra}    run: ${run}\n    execution: { mode: blocking }\n`;
const script = (path: string): string => `{ type: script, path: ${path} }`;
const RM_RF = '    match:\n      command: { program: rm, flags: [-r, -f] }\n';

/** A workspace directory holding a sentinel file, for a `rm -rf` to aim at. */
function victim(s: Scenario): string {
  mkdirSync(join(s.workspace, 'victim'));
  writeFileSync(join(s.workspace, 'victim', 'sentinel'), 'keep me\n');
  return join(s.workspace, 'victim', 'sentinel');
}

const BLOCK_SH = `#!/usr/bin/env bash
printf '%s' '{"action":"block","reason":"GUARD-7: rm -rf is not allowed in this workspace"}' > "$CHRYS_HOOK_RESULT"
`;

describe('Codex hook trust (install, then Codex\'s own review)', () => {
  const rig = new CodexRig();
  afterAll(() => rig.remove());

  it('skips the installed entries until the user trusts them, doctor says so, and after the review they run', async () => {
    const s = rig.scenario(`hooks:\n${hook('mark', 'session_start', script('scripts/mark.sh'))}`);
    const marker = join(s.workspace, 'session-started');
    s.globalScript('mark.sh', `#!/usr/bin/env bash\necho ran >> ${marker}\n`);
    const install = await rig.chrys(['install', '--agent', 'codex', '--user'], s);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain(`created ${join(rig.codexHome, 'hooks.json')}`);
    expect(install.stdout).toContain('next: Codex runs none of these entries until you trust them');
    expect(install.stdout).toContain('"Trust all and continue" at "Hooks need review"');

    // Before the review: codex exec runs none of them, and says nothing.
    const before = await rig.exec(s, 'hello', [{ text: 'hi' }]);
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stderr).not.toContain('hook: SessionStart');
    expect(existsSync(marker)).toBe(false);

    const unreviewed = await rig.chrys(['doctor'], s);
    expect(unreviewed.exitCode, unreviewed.stdout).toBe(1);
    const problems = unreviewed.stdout.split('\n').filter((l) => l.startsWith('problem: '));
    expect(problems).toEqual(EVENTS.map((e) => `problem: Codex does not trust ${e} in ${join(rig.codexHome, 'hooks.json')} (new, never reviewed): it skips the entry, so the event runs no hooks; fix: run \`codex\` in a terminal and choose "Trust all and continue" at "Hooks need review" (or open \`/hooks\` there and press t)`));

    await rig.trustHooks();
    expect(rig.trustRecord()).toContain(`[hooks.state."${join(rig.codexHome, 'hooks.json')}:pre_tool_use:0:0"]`);

    const reviewed = await rig.chrys(['doctor', '--json'], s);
    expect(reviewed.exitCode, reviewed.stdout).toBe(0);
    const codex = JSON.parse(reviewed.stdout).agents.find((a: { agent: string }) => a.agent === 'codex');
    expect(codex.wired.map((w: { codex_trust: string }) => w.codex_trust)).toEqual(EVENTS.map(() => 'trusted'));

    const after = await rig.exec(s, 'hello', [{ text: 'hi' }]);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  });
});

describe('chrys-hooks in codex exec (hooks installed and trusted once)', () => {
  const rig = new CodexRig();
  beforeAll(async () => {
    const install = await rig.chrys(['install', '--agent', 'codex', '--user'], rig.scenario());
    expect(install.exitCode, install.stderr).toBe(0);
    await rig.trustHooks();
  });
  afterAll(() => rig.remove());

  it('guard: a match.command guard blocks rm -rf, the sentinel survives, and the model reads the reason', async () => {
    const s = rig.scenario(`hooks:\n${hook('no-rm-rf', 'before_tool_call', script('scripts/block.sh'), RM_RF)}`);
    s.globalScript('block.sh', BLOCK_SH);
    const sentinel = victim(s);
    const r = await rig.exec(s, 'clean up', [{ shell: 'rm -rf victim' }, { text: 'could not' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(sentinel, 'utf8')).toBe('keep me\n');
    expect(r.requests).toHaveLength(2);
    expect(toolOutput(r.requests[1], 'call_1')).toContain('GUARD-7: rm -rf is not allowed in this workspace');
  });

  it('allow: a command the guard does not match runs', async () => {
    const s = rig.scenario(`hooks:\n${hook('no-rm-rf', 'before_tool_call', script('scripts/block.sh'), RM_RF)}`);
    s.globalScript('block.sh', BLOCK_SH);
    const r = await rig.exec(s, 'write it', [{ shell: 'echo allowed > allowed.txt' }, { text: 'done' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(s.workspace, 'allowed.txt'), 'utf8')).toBe('allowed\n');
    expect(toolOutput(r.requests[1], 'call_1')).not.toContain('GUARD-7');
  });

  it('prompt context: a user_prompt_submit reminder reaches the model with the prompt', async () => {
    const s = rig.scenario(`hooks:\n${hook('remind', 'user_prompt_submit', script('scripts/remind.py'))}`);
    s.globalScript('remind.py', `import json, os\nopen(os.environ['CHRYS_HOOK_RESULT'], 'w').write(json.dumps({'system_reminder': 'PROMPT-CONTEXT-3141: answer in French'}))\n`);
    const r = await rig.exec(s, 'hello there', [{ text: 'bonjour' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(messageText(r.requests[0])).toContain('PROMPT-CONTEXT-3141: answer in French');
    expect(messageText(r.requests[0])).toContain('hello there');
  });

  it('rewrite: the hook rewrites the command, and the rewritten command is what ran', async () => {
    const s = rig.scenario(`hooks:\n${hook('rewrite', 'before_tool_call', script('scripts/rewrite.js'), '    match:\n      command: { program: echo }\n')}`);
    s.globalScript('rewrite.js', `const fs = require('node:fs');\nfs.writeFileSync(process.env.CHRYS_HOOK_RESULT, JSON.stringify({ action: 'modify', args_override: { command: 'echo rewritten > rewritten.txt' } }));\n`);
    const r = await rig.exec(s, 'write it', [{ shell: 'echo original > original.txt' }, { text: 'done' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(s.workspace, 'rewritten.txt'), 'utf8')).toBe('rewritten\n');
    expect(existsSync(join(s.workspace, 'original.txt'))).toBe(false);
  });

  it('stop gate: a stop hook blocks once, Codex goes on with the reason as its next prompt', async () => {
    const s = rig.scenario(`hooks:\n${hook('gate', 'conversation_done', script('scripts/gate.sh'))}`);
    const stamp = join(s.workspace, 'gate-fired');
    s.globalScript('gate.sh', `#!/usr/bin/env bash\n[ -e ${stamp} ] && exit 0\ntouch ${stamp}\nprintf '%s' '{"action":"block","reason":"STOP-GATE-5: run the tests before you stop"}' > "$CHRYS_HOOK_RESULT"\n`);
    const r = await rig.exec(s, 'finish', [{ text: 'all done' }, { text: 'tests ran' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.requests).toHaveLength(2);
    expect(messageText(r.requests[1])).toContain('STOP-GATE-5: run the tests before you stop');
    expect(r.stdout).toContain('tests ran');
  });

  it('failing hook: a hook that exits 1 after the tool call blocks nothing, and the agent goes on', async () => {
    const s = rig.scenario(`hooks:\n${hook('crash', 'after_tool_call', script('scripts/crash.sh'))}`);
    s.globalScript('crash.sh', '#!/usr/bin/env bash\necho "crashed on purpose" >&2\nexit 1\n');
    const r = await rig.exec(s, 'write it', [{ shell: 'echo went-on > went.txt' }, { text: 'finished anyway' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(s.workspace, 'went.txt'), 'utf8')).toBe('went-on\n');
    expect(r.requests).toHaveLength(2);
    expect(r.stdout).toContain('finished anyway');
  });

  it('extra_context after a tool call reaches the model with the tool output', async () => {
    const s = rig.scenario(`hooks:\n${hook('after', 'after_tool_call', script('scripts/after.py'))}`);
    s.globalScript('after.py', `import json, os\nopen(os.environ['CHRYS_HOOK_RESULT'], 'w').write(json.dumps({'extra_context': 'EXTRA-CONTEXT-42: the build is red'}))\n`);
    const r = await rig.exec(s, 'look', [{ shell: 'echo looked' }, { text: 'ok' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(toolOutput(r.requests[1], 'call_1')).toContain('looked');
    expect(messageText(r.requests[1])).toContain('EXTRA-CONTEXT-42: the build is red');
  });

  it('session_start context reaches the first model request', async () => {
    const s = rig.scenario(`hooks:\n${hook('start', 'session_start', script('scripts/start.sh'))}`);
    s.globalScript('start.sh', `#!/usr/bin/env bash\nprintf '%s' '{"context":[{"text":"SESSION-CONTEXT-7: this repo uses pnpm"}]}' > "$CHRYS_HOOK_RESULT"\n`);
    const r = await rig.exec(s, 'hello', [{ text: 'hi' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(messageText(r.requests[0])).toContain('SESSION-CONTEXT-7: this repo uses pnpm');
  });

  it("trust: an untrusted project's hooks do not run; after chrys-hooks trust they do", async () => {
    const s = rig.scenario();
    s.projectHooks(`hooks:\n${hook('project-remind', 'user_prompt_submit', script('scripts/remind.sh'))}`);
    s.projectScript('remind.sh', `#!/usr/bin/env bash\nprintf '%s' '{"system_reminder":"PROJECT-CONTEXT-9"}' > "$CHRYS_HOOK_RESULT"\n`);

    const untrusted = await rig.exec(s, 'hello', [{ text: 'hi' }]);
    expect(untrusted.exitCode, untrusted.stderr).toBe(0);
    expect(untrusted.requests).toHaveLength(1);
    expect(messageText(untrusted.requests[0])).not.toContain('PROJECT-CONTEXT-9');

    const trust = await rig.chrys(['trust', '--yes'], s);
    expect(trust.exitCode, trust.stdout + trust.stderr).toBe(0);
    const trusted = await rig.exec(s, 'hello', [{ text: 'hi' }]);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(messageText(trusted.requests[0])).toContain('PROJECT-CONTEXT-9');
  });

  it('fail-closed: a guard whose script is missing blocks the tool call (install sets --fail-closed on PreToolUse)', async () => {
    const s = rig.scenario(`hooks:\n${hook('guard', 'before_tool_call', script('scripts/missing.sh'), RM_RF)}`);
    const sentinel = victim(s);
    const r = await rig.exec(s, 'clean up', [{ shell: 'rm -rf victim' }, { text: 'could not' }]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(sentinel, 'utf8')).toBe('keep me\n');
    expect(toolOutput(r.requests[1], 'call_1')).toContain('hook "guard" failed (script not found: ');
  });
});
