// `fire --fail-closed` and a guard whose result file cannot be read: a guard
// that gave no readable answer blocks, as one that fails does; without
// --fail-closed it is no opinion (CONTRACT §4, result_invalid).
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const CALL = { event: 'before_tool_call', tool: { name: 'bash', kind: 'shell', args: { command: 'ls' } } };

// A guard that meant to block, but whose answer arrives broken in one of the ways a hook breaks it.
const BROKEN: Record<string, string> = {
  'not JSON': `printf '{"action": "block", "reason": "no"' > "$CHRYS_HOOK_RESULT"`,
  'not an object': `echo '["block"]' > "$CHRYS_HOOK_RESULT"`,
  'a directory': `rm -f "$CHRYS_HOOK_RESULT"; mkdir "$CHRYS_HOOK_RESULT"`,
};

const guardFile = (shell: string, extra = ''): string =>
  `hooks:\n  - id: guard\n    event: before_tool_call\n    run:\n      type: command\n      argv: [bash, -c, ${JSON.stringify(shell)}]\n    execution:\n      mode: blocking\n${extra}`;

describe('fire --fail-closed: a guard whose result file cannot be read', () => {
  it.each(Object.keys(BROKEN))('blocks when the result is %s, naming result_invalid and the hook', async (how) => {
    const s = sandbox();
    s.globalHooks(guardFile(BROKEN[how]!));
    const { decision, result } = await s.fire(CALL, ['--fail-closed']);
    expect(result.exitCode).toBe(0);
    expect(decision).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed', source: 'global' }, hooks: [{ id: 'guard', status: 'ok' }] });
    expect(decision.reason).toMatch(/^chrys-hooks fails closed: \[result_invalid\] hook "guard": /);
    expect(decision.warnings.map((w: { code: string }) => w.code)).toEqual(['result_invalid', 'fail_closed']);
    expect(decision.warnings[0].message).toMatch(/a guard with no readable answer$/);
  });

  it('is no opinion without --fail-closed, and with an explicit on_error: ignore', async () => {
    const s = sandbox();
    s.globalHooks(guardFile(BROKEN['not JSON']!));
    const plain = await s.fire(CALL);
    expect(plain.decision).toMatchObject({ blocked: false, warnings: [{ code: 'result_invalid', hook: 'guard' }] });
    s.globalHooks(guardFile(BROKEN['not JSON']!, '      on_error: ignore\n'));
    expect((await s.fire(CALL, ['--fail-closed'])).decision.blocked).toBe(false);
  });

  it("is the agent's deny under --protocol claude", async () => {
    const s = sandbox();
    s.globalHooks(guardFile(BROKEN['a directory']!));
    const input = { hook_event_name: 'PreToolUse', session_id: 's1', cwd: s.workspace, tool_name: 'Bash', tool_input: { command: 'ls' } };
    const { decision, result } = await s.fire(input, ['--protocol', 'claude', '--fail-closed']);
    expect(result.exitCode).toBe(0);
    expect(decision.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^chrys-hooks fails closed: \[result_invalid\] hook "guard"/) });
    expect(decision.systemMessage).not.toMatch(/no opinion/);
  });
});

describe('fire --fail-closed: a guard whose decision key has the wrong type or value', () => {
  const PERMISSION = { event: 'permission_request', tool: { name: 'bash', kind: 'shell', args: { command: 'ls' } } };
  const LOST: Record<string, [object, string, string]> = {
    'action "deny"': [CALL, 'before_tool_call', `echo '{"action": "deny", "reason": "no"}' > "$CHRYS_HOOK_RESULT"`],
    'action 5': [CALL, 'before_tool_call', `echo '{"action": 5}' > "$CHRYS_HOOK_RESULT"`],
    'action "Block"': [CALL, 'before_tool_call', `echo '{"action": "Block", "reason": "no"}' > "$CHRYS_HOOK_RESULT"`],
    'permission "denied"': [PERMISSION, 'permission_request', `echo '{"permission": "denied"}' > "$CHRYS_HOOK_RESULT"`],
  };
  const guardOn = (event: string, shell: string): string => guardFile(shell).replace('event: before_tool_call', `event: ${event}`);

  it.each(Object.keys(LOST))('blocks on %s, which a plain firing skips', async (how) => {
    const [envelope, event, shell] = LOST[how]!;
    const s = sandbox();
    s.globalHooks(guardOn(event, shell));
    expect((await s.fire(envelope)).decision).toMatchObject({ blocked: false, warnings: [{ code: 'result_invalid', hook: 'guard' }] });
    const { decision } = await s.fire(envelope, ['--fail-closed']);
    expect(decision).toMatchObject({ blocked: true, blocked_by: { id: 'fail-closed' } });
    expect(decision.reason).toMatch(/^chrys-hooks fails closed: \[result_invalid\] hook "guard": (action|permission) must be /);
  });

  it('lets a wrong context through: only gating keys make an answer unreadable', async () => {
    const s = sandbox();
    s.globalHooks(guardFile(`echo '{"context": 5}' > "$CHRYS_HOOK_RESULT"`));
    const { decision } = await s.fire(CALL, ['--fail-closed']);
    expect(decision).toMatchObject({ blocked: false, warnings: [{ code: 'result_invalid', hook: 'guard' }] });
  });
});
