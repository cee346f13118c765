// Bad input to `fire`: a clear error object, the right exit code, never a stack trace (CONTRACT §4, §7).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('fire: bad input', () => {
  it.each<[string, string, string[], number, string]>([
    ['invalid JSON', '{"event": ', [], 65, 'invalid_json'],
    ['a JSON array', '[{"event":"session_start"}]', [], 65, 'not_an_object'],
    ['a JSON string', '"session_start"', [], 65, 'not_an_object'],
    ['an unknown event', '{"event":"before_tool_cal"}', [], 65, 'unknown_event'],
    ['a wrong-case alias', '{"event":"pretooluse"}', [], 65, 'unknown_event'],
    ['an unknown --event', '{}', ['--event', 'nope'], 65, 'unknown_event'],
    ['no event at all', '{"tool":{}}', [], 65, 'missing_event'],
    ['empty stdin without --event', '', [], 65, 'missing_event'],
    ['an unknown option', '{}', ['--frobnicate'], 64, 'usage'],
  ])('rejects %s', async (_name, input, args, exitCode, code) => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'must-not-run', event: 'session_start', run: "type: shell\nshell: 'touch ran'" })}\n`);
    const r = await s.run(['fire', ...args], { input });
    expect(r.exitCode).toBe(exitCode);
    const out = JSON.parse(String(r.stdout));
    expect(out.error.code).toBe(code);
    expect(out.error.message).toEqual(expect.any(String));
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(s.workspace)).toEqual([]);
  });

  it('suggests the nearest event name', async () => {
    const r = await sandbox().run(['fire'], { input: '{"event":"before_tool_cal"}' });
    expect(JSON.parse(String(r.stdout)).error.hint).toBe('did you mean "before_tool_call"?');
  });

  it('lets --event win over the envelope, and reads empty stdin as {}', async () => {
    const s = sandbox();
    expect((await s.fire('{"event":"session_start"}', ['--event', 'Stop'])).decision.event).toBe('conversation_done');
    expect((await s.fire('', ['--event', 'SessionStart'])).decision.event).toBe('session_start');
  });

  it('reads the envelope from --input', async () => {
    const s = sandbox();
    const file = s.write('env.json', '{"event":"compact"}');
    const r = await s.run(['fire', '--input', file]);
    expect(JSON.parse(String(r.stdout)).event).toBe('pre_compact');
    const missing = await s.run(['fire', '--input', join(s.root, 'nope.json')]);
    expect(missing.exitCode).toBe(65);
    expect(JSON.parse(String(missing.stdout)).error.code).toBe('input_unreadable');
  });

  it('handles an envelope of tens of MiB', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'size', event: 'after_tool_call', run: `type: shell\nshell: 'printf "{\\"extra_context\\": \\"%s\\"}" $(wc -c < "$CHRYS_HOOK_PAYLOAD_FILE") > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const big = JSON.stringify({ event: 'after_tool_call', tool: { name: 'read' }, result: { text: 'x'.repeat(30 * 1024 * 1024) } });
    const { decision, result } = await s.fire(big);
    expect(result.exitCode).toBe(0);
    expect(Number(decision.extra_context[0])).toBeGreaterThan(30 * 1024 * 1024);
  });

  it('refuses an envelope over 64 MiB with input_too_large', async () => {
    const r = await sandbox().run(['fire'], { input: '{"event":"other","x":"' + 'x'.repeat(65 * 1024 * 1024) + '"}' });
    expect(r.exitCode).toBe(65);
    expect(JSON.parse(String(r.stdout)).error.code).toBe('input_too_large');
  });

  it('prints its version and help', async () => {
    const s = sandbox();
    const v = await s.runRaw(['--version']);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const h = await s.runRaw(['fire', '--help']);
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toContain('--exit-code');
    expect(h.stdout).toContain('Examples:');
  });
});
