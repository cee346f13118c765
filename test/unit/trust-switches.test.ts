// The pure parts of trust by content, the kill switches and the run statistics.
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { hooksDisabledWarning, killSwitchValueWarnings, killSwitchWarnings, killSwitchesFrom, skipReason, switchedOff } from '../../src/core/kill-switch.js';
import { type TrustedFile, describeDiff, diffManifests, diffTrusted, isEmptyDiff, parseTrustRecord } from '../../src/core/trust.js';
import { statsOf } from '../../src/state/stats.js';

const file = (path: string, sha256: string | null, real: string | null = sha256 ? path : null): TrustedFile => ({ path, sha256, real, outside: false });

describe('diffTrusted', () => {
  const NOW: Record<string, { real: string; sha256: string }> = {
    '/w/same': { real: '/w/same', sha256: '1' },
    '/w/edited': { real: '/w/edited', sha256: 'X' },
    '/w/appeared': { real: '/w/appeared', sha256: '3' },
    '/w/link': { real: '/w/y', sha256: '5' },
  };
  const now = (f: TrustedFile) => NOW[f.path] ?? null;

  it('names changed, added and removed files, and a retargeted link', () => {
    const files = [file('/w/same', '1'), file('/w/edited', '2'), file('/w/appeared', null), file('/w/gone', '4'), file('/w/still-missing', null), file('/w/link', '5', '/w/x')];
    expect(diffTrusted(files, now)).toEqual({ changed: ['/w/edited', '/w/link'], added: ['/w/appeared'], removed: ['/w/gone'] });
  });

  it('is empty when nothing changed, and isEmptyDiff says so', () => {
    const d = diffTrusted([file('/w/same', '1'), file('/w/still-missing', null)], now);
    expect(d).toEqual({ changed: [], added: [], removed: [] });
    expect(isEmptyDiff(d)).toBe(true);
    for (const key of ['changed', 'added', 'removed'] as const) expect(isEmptyDiff({ changed: [], added: [], removed: [], [key]: ['/x'] })).toBe(false);
    expect(isEmptyDiff({ changed: ['/a'], added: ['/b'], removed: [] })).toBe(false);
    expect(isEmptyDiff({ changed: [], added: ['/b'], removed: ['/c'] })).toBe(false);
  });
});

describe('diffManifests', () => {
  it('compares what was trusted with what would be', () => {
    const before = [file('/same', '1'), file('/edited', '2'), file('/gone', '3'), file('/appears', null), file('/vanishes', '5'), file('/was-missing', null), file('/relinked', '7', '/t1'), file('/still-missing', null)];
    const after = [file('/same', '1'), file('/edited', '9'), file('/new', '4'), file('/appears', '6'), file('/vanishes', null), file('/missing-new', null), file('/relinked', '7', '/t2'), file('/still-missing', null)];
    expect(diffManifests(before, after)).toEqual({ changed: ['/edited', '/relinked'], added: ['/new', '/appears', '/missing-new'], removed: ['/vanishes', '/gone'] });
  });

  it('describes a diff, each part only when it has files', () => {
    expect(describeDiff({ changed: ['/b', '/c'], added: ['/new'], removed: ['/gone'] }, (p) => p.slice(1))).toBe('changed: b, c; added: new; removed: gone');
    expect(describeDiff({ changed: [], added: ['/n', '/m'], removed: ['/x', '/y'] })).toBe('added: /n, /m; removed: /x, /y');
    expect(describeDiff({ changed: [], added: [], removed: [] })).toBe('');
  });
});

describe('parseTrustRecord', () => {
  const entry = { workspace: '/w', hooks_file: '/h', trusted_at: 't', files: [file('/h', 'aa'), file('/s', null)] };
  const record = (e: unknown) => ({ version: 1, workspaces: { '/w': e } });
  it.each<[string, unknown]>([
    ['null', null],
    ['a list', []],
    ['a string', 'x'],
    ['version 2', { version: 2, workspaces: {} }],
    ['no workspaces', { version: 1 }],
    ['workspaces null', { version: 1, workspaces: null }],
    ['workspaces a list', { version: 1, workspaces: [entry] }],
    ['workspaces a number', { version: 1, workspaces: 5 }],
    ['an entry that is null', record(null)],
    ['an entry that is a list', record([])],
    ['an entry without hooks_file', record({ ...entry, hooks_file: 1 })],
    ['an entry without trusted_at', record({ ...entry, trusted_at: undefined })],
    ['an entry whose files are no list', record({ ...entry, files: {} })],
    ['a file that is null', record({ ...entry, files: [null] })],
    ['one bad file among good ones', record({ ...entry, files: [file('/h', 'aa'), { path: 3, sha256: 'bb' }] })],
    ['a file that is a list', record({ ...entry, files: [[]] })],
    ['a file without path', record({ ...entry, files: [{ sha256: 'aa' }] })],
    ['a file whose sha256 is a number', record({ ...entry, files: [{ path: '/h', sha256: 1 }] })],
    ['a file without sha256', record({ ...entry, files: [{ path: '/h' }] })],
  ])('rejects %s', (_name, value) => expect(parseTrustRecord(value)).toBeUndefined());

  it('accepts a record, a missing file (sha256 null) included', () => {
    const r = record(entry);
    expect(parseTrustRecord(r)).toBe(r);
    const empty = { version: 1, workspaces: {} };
    expect(parseTrustRecord(empty)).toBe(empty);
  });
});

const hook = (id: string, source: 'global' | 'project', locked = false, event = 'before_tool_call'): Hook =>
  ({ id, source, locked, event, file: `/${source}/hooks.yaml` }) as unknown as Hook;

describe('kill switches', () => {
  it.each(['0', 'false', 'no', 'off', ' Off '])('CHRYS_HOOKS=%j turns hooks off', (value) => {
    expect(killSwitchesFrom({ CHRYS_HOOKS: value }).off).toBe(true);
  });
  it.each(['1', 'true', '', 'nope'])('CHRYS_HOOKS=%j does not', (value) => {
    expect(killSwitchesFrom({ CHRYS_HOOKS: value }).off).toBe(false);
  });

  it('reads CHRYS_HOOKS_SKIP as a comma list, and nothing from an empty environment', () => {
    expect(killSwitchesFrom({ CHRYS_HOOKS_SKIP: ' a, b,,' })).toEqual({ off: false, skip: ['a', 'b'] });
    expect(killSwitchesFrom({})).toEqual({ off: false, skip: [] });
  });

  it('never turns off a locked global hook; a project hook cannot be locked', () => {
    const s = { off: true, skip: ['g', 'p', 'u'] };
    expect(switchedOff(hook('g', 'global', true), s)).toBe(false);
    expect(switchedOff(hook('u', 'global'), s)).toBe(true);
    expect(switchedOff(hook('p', 'project', true), s)).toBe(true);
    expect(switchedOff(hook('u', 'global'), { off: false, skip: [] })).toBe(false);
    expect(skipReason(hook('g', 'global', true), s)).toBeUndefined();
    expect(skipReason(hook('u', 'global'), s)).toBe('skipped by CHRYS_HOOKS_SKIP');
    expect(skipReason(hook('p', 'project', true), s)).toBe('skipped by CHRYS_HOOKS_SKIP');
    expect(skipReason(hook('other', 'global'), s)).toBeUndefined();
  });

  it('says what CHRYS_HOOKS=0 left running', () => {
    expect(hooksDisabledWarning([])).toEqual({ code: 'hooks_disabled', message: 'CHRYS_HOOKS=0: every hook is turned off' });
    expect(hooksDisabledWarning(['a', 'b']).message).toBe('CHRYS_HOOKS=0: every hook is turned off; locked global hooks still run: a, b');
  });

  it('warns about unknown ids and locked hooks, once per locked id in the off warning', () => {
    const hooks = [hook('g', 'global', true), hook('g', 'global', true, 'session_start'), hook('u', 'global'), hook('p', 'project', true)];
    expect(killSwitchWarnings({ off: false, skip: [] }, hooks)).toEqual([]);
    expect(killSwitchWarnings({ off: false, skip: ['g', 'x', 'u'] }, hooks)).toEqual([
      { code: 'skip_unknown_hook', hook: 'x', message: 'CHRYS_HOOKS_SKIP names "x", which is no loaded hook; nothing was skipped for it' },
      { code: 'hook_locked', hook: 'g', event: 'before_tool_call', message: 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS_SKIP cannot turn it off' },
      { code: 'hook_locked', hook: 'g', event: 'session_start', message: 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS_SKIP cannot turn it off' },
    ]);
    const off = killSwitchWarnings({ off: true, skip: [] }, hooks);
    expect(off[0]).toEqual(hooksDisabledWarning(['g']));
    expect(off.slice(1).map((w) => [w.code, w.event, w.message])).toEqual([
      ['hook_locked', 'before_tool_call', 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS=0 cannot turn it off'],
      ['hook_locked', 'session_start', 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS=0 cannot turn it off'],
    ]);
  });
});

describe('kill switch values', () => {
  it('keeps the value as set, trimmed, and none when unset or blank', () => {
    expect(killSwitchesFrom({ CHRYS_HOOKS: ' Off ' })).toEqual({ off: true, skip: [], value: 'Off' });
    expect(killSwitchesFrom({ CHRYS_HOOKS: '  ' })).toEqual({ off: false, skip: [] });
  });

  it.each(['maybe', '2', 'disable'])('warns that CHRYS_HOOKS=%s is not understood and leaves hooks on', (value) => {
    const s = killSwitchesFrom({ CHRYS_HOOKS: value });
    expect(s.off).toBe(false);
    expect(killSwitchValueWarnings(s)).toEqual([
      { code: 'kill_switch_invalid', message: `CHRYS_HOOKS=${value} is not understood, so hooks stay on: use 0, false, no or off to turn them off (1, true, yes, on or unset keeps them on)` },
    ]);
    expect(killSwitchWarnings(s, []).map((w) => w.code)).toEqual(['kill_switch_invalid']);
  });

  it.each(['0', 'OFF', '1', 'True', 'yes', 'On', ''])('does not warn about CHRYS_HOOKS=%j', (value) => {
    expect(killSwitchValueWarnings(killSwitchesFrom({ CHRYS_HOOKS: value }))).toEqual([]);
  });

  it('quotes the off value as the user wrote it', () => {
    const s = killSwitchesFrom({ CHRYS_HOOKS: 'no' });
    expect(hooksDisabledWarning([], 'no').message).toBe('CHRYS_HOOKS=no: every hook is turned off');
    const w = killSwitchWarnings(s, [hook('g', 'global', true)]);
    expect(w.map((x) => x.message)).toEqual(['CHRYS_HOOKS=no: every hook is turned off; locked global hooks still run: g', 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS=no cannot turn it off']);
  });

  it('names CHRYS_HOOKS_SKIP for a locked hook it names, even while CHRYS_HOOKS is off', () => {
    const w = killSwitchWarnings({ off: true, skip: ['g'], value: '0' }, [hook('g', 'global', true)]);
    expect(w.map((x) => x.message)).toEqual(['CHRYS_HOOKS=0: every hook is turned off; locked global hooks still run: g', 'hook "g" is locked in /global/hooks.yaml: CHRYS_HOOKS_SKIP cannot turn it off']);
  });

  it('does not warn about a skipped hook that is known, nor about an unlocked or project hook', () => {
    expect(killSwitchWarnings({ off: false, skip: ['u', 'p'] }, [hook('u', 'global'), hook('p', 'project', true)])).toEqual([]);
    expect(killSwitchWarnings({ off: true, skip: [] }, [hook('u', 'global'), hook('p', 'project', true)])).toEqual([hooksDisabledWarning([])]);
  });
});

describe('diffTrusted problems', () => {
  it('counts a file that cannot be hashed as changed, with the reason', () => {
    const files = [file('/w/fifo', '1'), file('/w/was-missing', null)];
    const d = diffTrusted(files, (f) => ({ real: f.path, sha256: null, problem: 'not a regular file' }));
    expect(d).toEqual({ changed: ['/w/fifo (not a regular file)', '/w/was-missing (not a regular file)'], added: [], removed: [] });
  });

  it('asks about each file once', () => {
    const asked: string[] = [];
    diffTrusted([file('/a', '1'), file('/b', null)], (f) => (asked.push(f.path), null));
    expect(asked).toEqual(['/a', '/b']);
  });
});

describe('statsOf', () => {
  it('counts and takes nearest-rank percentiles', () => {
    const runs = Array.from({ length: 20 }, (_, i) => ({ status: i === 19 ? 'timeout' : i % 5 === 0 ? 'failed' : 'ok', at: '', session_id: '', duration_ms: i + 1 }));
    expect(statsOf(runs)).toEqual({ runs: 20, failures: 4, timeouts: 1, p50_ms: 10, p95_ms: 19, last_status: 'timeout' });
    expect(statsOf([])).toEqual({ runs: 0, failures: 0, timeouts: 0, p50_ms: null, p95_ms: null, last_status: null });
  });
});
