// The tables three core modules build when they load, each module imported
// afresh in each case (a mutation of a table shows only in a module loaded
// inside the test): what printable() writes for each control character,
// which events and load problems --fail-closed guards, which hook statuses
// it blames on itself, and the words the kill switch CHRYS_HOOKS reads.
import { describe, expect, it, vi } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { type Decision, type HookReport, emptyDecision } from '../../src/core/decide.js';
import type { Warning } from '../../src/core/diagnostics.js';
import type { EventName } from '../../src/core/events.js';
import { testHook } from '../helpers/hook.js';

const fresh = async <T>(load: () => Promise<T>): Promise<T> => {
  vi.resetModules();
  return load();
};
const printableModule = () => fresh(() => import('../../src/core/printable.js'));
const failClosed = () => fresh(() => import('../../src/core/fail-closed.js'));
const killSwitch = () => fresh(() => import('../../src/core/kill-switch.js'));

describe('printable', () => {
  it.each([
    ['\n', '\\n'],
    ['\r', '\\r'],
    ['\t', '\\t'],
    ['\u001b', '\\e'],
    ['\u0000', '\\x00'],
    ['\u0007', '\\x07'],
    ['\u001f', '\\x1f'],
    ['\u007f', '\\x7f'],
    ['\u0085', '\\x85'],
    ['\u009f', '\\x9f'],
    ['\u2028', '\\u2028'],
    ['\u2029', '\\u2029'],
  ])('writes %j as %s', async (c, shown) => {
    const { printable } = await printableModule();
    expect(printable(`a${c}b`)).toBe(`a${shown}b`);
    expect(printable(c)).toBe(shown);
  });

  it('leaves printable text alone, the blanks and letters beyond ASCII too', async () => {
    const { printable } = await printableModule();
    for (const s of ['', 'plain text', 'é ü 中 😀', '\u00a0nbsp', '\u2027\u202a', '~ #!$']) expect(printable(s)).toBe(s);
  });

  it('printableLines keeps the line breaks of a text of many lines and escapes the rest', async () => {
    const { printableLines } = await printableModule();
    expect(printableLines('one\u001b[2J\ntwo\tthree\r\n\n')).toBe('one\\e[2J\ntwo\\tthree\\r\n\n');
  });

  it('escapes every control character of a string, not only the first', async () => {
    const { printable } = await printableModule();
    expect(printable('\u001b[2J\n\u001b]0;t\u0007')).toBe('\\e[2J\\n\\e]0;t\\x07');
  });
});

describe('--fail-closed', () => {
  const withWarnings = (event: EventName, ...warnings: Warning[]): Decision => ({ ...emptyDecision(event), warnings });
  const report = (status: HookReport['status'], reason?: string): HookReport => ({ id: 'guard', source: 'global', mode: 'blocking', status, exit_code: null, duration_ms: 1, ...(reason ? { reason } : {}) });
  const blockedBy = (id: string): Decision => ({ ...emptyDecision('before_tool_call'), blocked: true, blocked_by: { id, source: 'global' } });

  it('guards before_tool_call, user_prompt_submit and permission_request, and no other event', async () => {
    const { FAIL_CLOSED_EVENTS, failClosedDecision } = await failClosed();
    expect(FAIL_CLOSED_EVENTS).toEqual(['before_tool_call', 'user_prompt_submit', 'permission_request']);
    for (const event of FAIL_CLOSED_EVENTS) expect(failClosedDecision(event, 'boom')?.blocked).toBe(true);
    expect(failClosedDecision('after_tool_call', 'boom')).toBeUndefined();
  });

  it.each<[Warning['code'], Warning['source'], 'global' | 'project']>([
    ['hooks_config_invalid', undefined, 'global'],
    ['project_hooks_config_invalid', undefined, 'project'],
    ['project_hooks_changed', undefined, 'project'],
    ['enclosing_workspace_not_loaded', undefined, 'project'],
    ['hook_skipped', undefined, 'global'],
    ['hook_skipped', 'project', 'project'],
  ])('a guard lost to %s (source %s) blocks, blamed on the %s layer', async (code, source, layer) => {
    const { applyFailClosed } = await failClosed();
    const d = applyFailClosed(withWarnings('before_tool_call', { code, message: 'gone', ...(source ? { source } : {}) }));
    expect(d.blocked).toBe(true);
    expect(d.blocked_by).toEqual({ id: 'fail-closed', source: layer });
  });

  it('a workspace not found, a trust record that could not be read or a lint warning is no guard lost', async () => {
    const { applyFailClosed } = await failClosed();
    for (const code of ['workspace_not_found', 'trust_record_invalid', 'broad_match', 'event_alias'] as const) {
      expect(applyFailClosed(withWarnings('before_tool_call', { code, message: 'm' })).blocked).toBe(false);
    }
  });

  it('is on for the flag itself or CHRYS_HOOKS_FAIL_CLOSED=1, nothing else', async () => {
    const { failClosedFrom } = await failClosed();
    expect(failClosedFrom(true, {})).toBe(true);
    expect(failClosedFrom(undefined, { CHRYS_HOOKS_FAIL_CLOSED: '1' })).toBe(true);
    for (const [flag, value] of [[undefined, undefined], ['true', undefined], [1, undefined], [false, '0'], [undefined, 'true'], [undefined, 'yes']] as const) {
      expect(failClosedFrom(flag, value === undefined ? {} : { CHRYS_HOOKS_FAIL_CLOSED: value })).toBe(false);
    }
  });

  it('runs a failing guard of a guarded event with on_error block, unless the file wrote on_error: ignore', async () => {
    const { failClosedHook } = await failClosed();
    const warn = testHook({ execution: { on_error: 'warn' } });
    expect(failClosedHook(warn, 'before_tool_call').execution.on_error).toBe('block');
    expect(failClosedHook(testHook({ execution: { on_error: 'ignore' } }), 'permission_request').execution.on_error).toBe('block');
    const explicit = testHook({ execution: { on_error: 'ignore', on_error_explicit: true } as Partial<Hook['execution']> });
    expect(failClosedHook(explicit, 'before_tool_call')).toBe(explicit);
    expect(failClosedHook(warn, 'after_tool_call')).toBe(warn);
    const observer = testHook({ execution: { mode: 'async', on_error: 'warn' } });
    expect(failClosedHook(observer, 'before_tool_call')).toBe(observer);
  });

  it.each(['failed', 'timeout', 'launch_error'] as const)('says a block of a guard that ended %s came from --fail-closed', async (status) => {
    const { failClosedHook, noteFailClosedBlock } = await failClosed();
    const hook = testHook({ id: 'guard' });
    const d = blockedBy('guard');
    noteFailClosedBlock(d, hook, failClosedHook(hook, 'before_tool_call'), report(status, status === 'failed' ? 'exited with status 3' : undefined));
    expect(d.warnings).toEqual([{
      code: 'fail_closed',
      hook: 'guard',
      message: `blocked because --fail-closed is on: hook "guard" ${status === 'failed' ? 'exited with status 3' : status}; a guard that fails blocks (write on_error: ignore on the hook to let its failures through)`,
    }]);
  });

  it('says nothing of a guard that blocked on its own, that --fail-closed did not change, or that another hook\'s block followed', async () => {
    const { failClosedHook, noteFailClosedBlock } = await failClosed();
    const hook = testHook({ id: 'guard' });
    const ran = failClosedHook(hook, 'before_tool_call');
    for (const [d, runAs, r] of [
      [blockedBy('guard'), ran, report('ok')],
      [blockedBy('guard'), hook, report('failed')],
      [blockedBy('other'), ran, report('failed')],
      [emptyDecision('before_tool_call'), ran, report('timeout')],
    ] as const) {
      noteFailClosedBlock(d, hook, runAs, r);
      expect(d.warnings).toEqual([]);
    }
  });
});

describe('the kill switch', () => {
  it.each(['0', 'false', 'no', 'off', 'OFF', ' No '])('CHRYS_HOOKS=%j turns every hook off, and warns of no odd value', async (value) => {
    const { killSwitchesFrom, killSwitchValueWarnings } = await killSwitch();
    const s = killSwitchesFrom({ CHRYS_HOOKS: value });
    expect(s.off).toBe(true);
    expect(killSwitchValueWarnings(s)).toEqual([]);
  });

  it.each(['1', 'true', 'yes', 'on', 'ON', ''])('CHRYS_HOOKS=%j keeps hooks on, and warns of no odd value', async (value) => {
    const { killSwitchesFrom, killSwitchValueWarnings } = await killSwitch();
    const s = killSwitchesFrom({ CHRYS_HOOKS: value });
    expect(s.off).toBe(false);
    expect(killSwitchValueWarnings(s)).toEqual([]);
  });

  it.each(['2', 'disable', 'n', 'nope'])('CHRYS_HOOKS=%j keeps hooks on and says it is not understood', async (value) => {
    const { killSwitchesFrom, killSwitchValueWarnings } = await killSwitch();
    const s = killSwitchesFrom({ CHRYS_HOOKS: value });
    expect(s.off).toBe(false);
    expect(killSwitchValueWarnings(s).map((w) => w.code)).toEqual(['kill_switch_invalid']);
  });
});
