import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { HISTORY_KEEP, lastRun, readRuns, recordRun } from '../../src/state/history.js';

const hook = { id: 'h', source: 'global', file: '/x/hooks.yaml' } as Hook;

describe('run history', () => {
  it('keeps the latest runs, cut back to the last 200 once a file grows past ~400', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-history-'));
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 1000; i++) recordRun(dir, hook, { status: 'ok', session_id: 's', exit_code: 0, duration_ms: i }, new Date(start + i * 1000));
    const runs = readRuns(dir, hook);
    expect(runs.length).toBeGreaterThanOrEqual(HISTORY_KEEP);
    expect(runs.length).toBeLessThanOrEqual(HISTORY_KEEP * 3);
    expect(lastRun(dir, hook)).toMatchObject({ at: new Date(start + 999_000).toISOString(), duration_ms: 999 });
    expect(runs.map((r) => r.duration_ms)).toEqual([...runs.map((r) => r.duration_ms)].sort((a, b) => a! - b!));
  });

  it('reads nothing for a hook that never ran', () => {
    expect(lastRun(mkdtempSync(join(tmpdir(), 'chrys-history-')), hook)).toBeUndefined();
  });
});
