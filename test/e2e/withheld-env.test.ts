// A hook fired by an agent never sees the outbox's database URL.
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

describe('the outbox URL and hooks', () => {
  it('a blocking hook gets no CHRYS_OUTBOX_URL, though fire has it', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'peek', run: `type: shell\nshell: 'printf "{\\"context\\":[{\\"text\\":\\"url=%s\\"}]}" "\${CHRYS_OUTBOX_URL-unset}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const r = await s.run(['fire'], { input: JSON.stringify({ event: 'before_tool_call', tool: { name: 'x' } }), env: { CHRYS_OUTBOX_URL: 'postgres://u:SECRETPW@127.0.0.1:1/db' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contexts).toMatchObject([{ text: 'url=unset' }]);
    expect(r.stdout).not.toContain('SECRETPW');
  });
});
