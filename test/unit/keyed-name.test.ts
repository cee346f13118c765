import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { cacheDir, writeCache } from '../../src/config/cache.js';
import { historyPath } from '../../src/state/history.js';
import { onceStampPath } from '../../src/state/once.js';
import { sessionDir } from '../../src/state/sessions.js';
import { keyedName } from '../../src/base/keyed-name.js';

// The names below were computed by the code before the four copies became one
// helper: stamps, history and session dirs already on users' disks must still be found.
const hook = { id: 'fmt', source: 'global', file: '/c/hooks.yaml' } as Hook;

describe('keyed state file names', () => {
  it('names a hook history file as it always has', () => {
    expect(basename(historyPath('/cfg', hook))).toBe('433103db7c510d52003ed2d918471506.jsonl');
  });

  it('names a once-per-session stamp as it always has', () => {
    expect(basename(onceStampPath('/cfg', hook, 'sess-1'))).toBe('2544a81fc015db8b681d7fd4a4d9634e.stamp');
  });

  it('names a session directory as it always has', () => {
    expect(basename(sessionDir('/cfg', 'sess-1'))).toBe('abe633f3a47a2758174eabe9160daf36');
  });

  it('names a cache entry as it always has', () => {
    const dir = cacheDir(mkdtempSync(join(tmpdir(), 'chrys-keyed-')));
    writeCache(dir, '/home/u/.config/hooks.yaml', 'global', 'c', { raw: null, diagnostics: [] });
    expect(existsSync(join(dir, '21cde57c84112100474e667363610c8d.json'))).toBe(true);
  });

  it('is node:crypto\'s SHA-256 for any key: every length across the block edges, non-ASCII, lone surrogates', () => {
    const viaNode = (...parts: string[]): string => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
    const alphabet = ['a', 'Z', '/', '\0', 'é', '€', '𝄞', '\ud800', '\udfff', '\n'];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let length = 0; length < 300; length++) {
      const text = Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
      expect(keyedName(text), JSON.stringify(text)).toBe(viaNode(text));
      expect(keyedName('global', text, 'id')).toBe(viaNode('global', text, 'id'));
    }
    expect(keyedName('x'.repeat(100_000))).toBe(viaNode('x'.repeat(100_000)));
  });
});
