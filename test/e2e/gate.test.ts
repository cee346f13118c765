// The three disagreements on "does this hook run, and if not, why" that
// core/gate.ts ended: fire, resolve and test now give the same answer.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'a.txt' } } };
const TRUE = 'type: command\nargv: ["true"]';
// Two hooks that match the edit: one plain, one for cron sessions only (so interactive firings skip it).
const TWO = `hooks:\n${hookYaml({ id: 'plain', run: TRUE, match: 'tool_name: edit_file' })}\n${hookYaml({ id: 'cron-only', run: TRUE, match: 'tool_name: edit_file\nsession_kinds: [cron]' })}\n`;

/** fire's hooks[] and resolve's plan for the same envelope and environment, as (id, status, reason). */
async function bothWays(s: Sandbox, env: Record<string, string>, args: string[] = []): Promise<{ fire: unknown[]; resolve: unknown[] }> {
  const fired = (await s.fire(EDIT, args, { env })).decision;
  const resolved = JSON.parse((await s.run(['resolve', '--json', ...args], { input: JSON.stringify(EDIT), env })).stdout);
  return {
    fire: fired.hooks.map((h: any) => ({ id: h.id, status: h.status, reason: h.reason ?? null })),
    resolve: resolved.plan.hooks.map((h: any) => ({ id: h.id, status: h.verdict, reason: h.reason })),
  };
}

describe('fire, resolve and test agree on whether a hook runs', () => {
  it('CHRYS_HOOKS=0: both list every matching hook skipped, turned off, before any session_kind rule', async () => {
    const s = sandbox();
    s.globalHooks(TWO);
    const off = { status: 'skipped', reason: 'turned off by CHRYS_HOOKS=0' };
    const expected = [{ id: 'plain', ...off }, { id: 'cron-only', ...off }];
    expect(await bothWays(s, { CHRYS_HOOKS: '0' })).toEqual({ fire: expected, resolve: expected });
  });

  it('CHRYS_HOOKS=0 with only a project hooks file: fire lists its hooks as resolve does', async () => {
    const s = sandbox();
    s.projectHooks(TWO);
    const off = { status: 'skipped', reason: 'turned off by CHRYS_HOOKS=0' };
    const expected = [{ id: 'plain', ...off }, { id: 'cron-only', ...off }];
    expect(await bothWays(s, { CHRYS_HOOKS: '0' }, ['--project-hooks'])).toEqual({ fire: expected, resolve: expected });
  });

  it('CHRYS_HOOKS_SKIP: resolve gives the reason fire gives, the switch before the session_kind rule', async () => {
    const s = sandbox();
    s.globalHooks(TWO);
    const expected = [{ id: 'plain', status: 'ok', reason: null }, { id: 'cron-only', status: 'skipped', reason: 'skipped by CHRYS_HOOKS_SKIP' }];
    const got = await bothWays(s, { CHRYS_HOOKS_SKIP: 'cron-only' });
    expect(got.fire).toEqual(expected);
    expect(got.resolve).toEqual([{ ...expected[0], status: 'run' }, expected[1]]);
  });

  it('a Stop hook that blocks: test --protocol claude applies the block as fire --protocol claude does', async () => {
    const s = sandbox();
    s.globalScript('stopper.py', 'import json, os\nopen(os.environ["CHRYS_HOOK_RESULT"], "w").write(json.dumps({"action": "block", "reason": "tests are still red"}))\n');
    s.globalHooks(`hooks:\n${hookYaml({ id: 'stopper', event: 'Stop', run: 'type: script\npath: scripts/stopper.py' })}\n`);
    const stop = { session_id: 's1', transcript_path: '/t', cwd: s.workspace, hook_event_name: 'Stop', stop_hook_active: false };
    const fired = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify(stop) });
    expect(JSON.parse(fired.stdout), fired.stderr).toMatchObject({ decision: 'block', reason: 'tests are still red' });
    s.write('stop.json', JSON.stringify(stop));
    const tested = await s.run(['test', 'stopper', '--protocol', 'claude', '--input', join(s.root, 'stop.json'), '--json']);
    const out = JSON.parse(tested.stdout);
    expect(out.applied).toEqual(['action', 'reason']);
    expect(out.ignored).toEqual([]);
    expect(out.decision).toMatchObject({ blocked: true, reason: 'tests are still red', blocked_by: { id: 'stopper' } });
  });
});
