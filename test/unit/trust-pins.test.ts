// The `ignored` part of the trust record (core/trust.ts): the workspaces
// `untrust --ignore` silenced (docs/cli.md, key `ignored` of
// `<config_dir>/hooks/state/trust.json`), each with its `ignored_at`. A
// record whose `ignored` has any other shape is a corrupt record.
import { describe, expect, it } from 'vitest';
import { parseTrustRecord } from '../../src/core/trust.js';

const withIgnored = (ignored: unknown) => ({ version: 1, workspaces: {}, ignored });

describe('parseTrustRecord: ignored', () => {
  it('accepts a record whose ignored workspaces each say when', () => {
    const one = withIgnored({ '/w': { ignored_at: '2026-01-01T00:00:00Z' } });
    expect(parseTrustRecord(one)).toBe(one);
    const two = withIgnored({ '/w': { ignored_at: 'a' }, '/v': { ignored_at: 'b' } });
    expect(parseTrustRecord(two)).toBe(two);
    const none = withIgnored({});
    expect(parseTrustRecord(none)).toBe(none);
  });

  it.each<[string, unknown]>([
    ['ignored a list', []],
    ['ignored a string', 'x'],
    ['ignored null', null],
    ['an ignored entry that is null', { '/w': null }],
    ['an ignored entry without ignored_at', { '/w': {} }],
    ['an ignored entry whose ignored_at is a number', { '/w': { ignored_at: 1 } }],
    ['one bad ignored entry among good ones', { '/w': { ignored_at: 'a' }, '/v': { ignored_at: 2 } }],
  ])('rejects %s', (_name, ignored) => {
    expect(parseTrustRecord(withIgnored(ignored))).toBeUndefined();
  });
});
