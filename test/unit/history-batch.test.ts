// A drain's history: appended per hook in batches, and never later than a second after a run.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { HistoryBatch } from '../../src/outbox/history-batch.js';
import { historyPath, readRuns, recordRunsOfHooks } from '../../src/state/history.js';
import { eventually } from '../helpers/sandbox.js';

const hookA = { id: 'a', source: 'global', file: '/x/hooks.yaml' } as Hook;
const hookB = { id: 'b', source: 'global', file: '/x/hooks.yaml' } as Hook;
const entry = (n: number) => ({ status: 'ok' as const, session_id: 's', exit_code: 0, duration_ms: n });
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'chrys-history-batch-'));

describe('HistoryBatch', () => {
  it('writes nothing until flushed, then each hook\'s runs in order, stamped with when they were added', () => {
    const configDir = tempDir();
    const batch = new HistoryBatch(configDir);
    const before = Date.now();
    batch.add(hookA, entry(1));
    batch.add(hookB, entry(2));
    batch.add(hookA, entry(3));
    expect(readRuns(configDir, hookA)).toEqual([]);
    batch.flush();
    expect(readRuns(configDir, hookA).map((r) => r.duration_ms)).toEqual([1, 3]);
    expect(readRuns(configDir, hookB).map((r) => r.duration_ms)).toEqual([2]);
    expect(Date.parse(readRuns(configDir, hookA)[0]!.at)).toBeGreaterThanOrEqual(before - 1000);
    batch.flush();
    expect(readRuns(configDir, hookA)).toHaveLength(2);
  });

  it('flushes by itself once 64 runs are waiting', () => {
    const configDir = tempDir();
    const batch = new HistoryBatch(configDir);
    for (let i = 0; i < 63; i++) batch.add(hookA, entry(i));
    expect(readRuns(configDir, hookA)).toEqual([]);
    batch.add(hookA, entry(63));
    expect(readRuns(configDir, hookA)).toHaveLength(64);
    batch.add(hookA, entry(64));
    expect(readRuns(configDir, hookA)).toHaveLength(64);
    batch.flush();
  });

  it('writes what a quiet watcher ran without being flushed', async () => {
    const configDir = tempDir();
    const batch = new HistoryBatch(configDir);
    batch.add(hookA, entry(1));
    batch.add(hookA, entry(2));
    const runs = await eventually(() => readRuns(configDir, hookA).length > 0 && readRuns(configDir, hookA), 10_000, 'the batch to be written');
    expect(runs.map((r) => r.duration_ms)).toEqual([1, 2]);
  });

  it('without its timer (a firing\'s batch) writes nothing until flushed, then every hook\'s runs, the history dir made once', () => {
    const configDir = tempDir();
    const batch = new HistoryBatch(configDir, false);
    batch.add(hookA, entry(1));
    batch.add(hookB, entry(2));
    batch.add(hookA, entry(3));
    expect(existsSync(join(configDir, 'hooks', 'state', 'history'))).toBe(false);
    batch.flush();
    expect(readRuns(configDir, hookA).map((r) => r.duration_ms)).toEqual([1, 3]);
    expect(readRuns(configDir, hookB).map((r) => r.duration_ms)).toEqual([2]);
    batch.flush();
    expect(readRuns(configDir, hookA)).toHaveLength(2);
  });
});

describe('recordRunsOfHooks', () => {
  it('never throws and never writes through a symlink at a history file', () => {
    const configDir = tempDir();
    const dir = join(configDir, 'hooks', 'state', 'history');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(configDir, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, historyPath(configDir, hookA));
    expect(() => recordRunsOfHooks(configDir, [[hookA, [{ ...entry(1), at: new Date() }]], [hookB, [{ ...entry(2), at: new Date() }]]])).not.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(readRuns(configDir, hookB).map((r) => r.duration_ms)).toEqual([2]);
  });
});
