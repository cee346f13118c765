// The settings merge and limits of the normalised configuration (core/config.ts).
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, MAX_PARALLEL_HOOKS, clampParallel, mergeSettings, settingValues } from '../../src/core/config.js';

describe('mergeSettings', () => {
  it('takes each field from the project, else the global file, else the default, and says which', () => {
    const merged = mergeSettings({ max_parallel_hooks: 2 }, { max_parallel_hooks: 8, outbox_max_retries: 0 });
    expect(merged).toEqual({
      shutdown_grace_seconds: { value: 5, origin: 'default' },
      max_parallel_hooks: { value: 2, origin: 'project' },
      outbox_retry_age_seconds: { value: 60, origin: 'default' },
      outbox_max_retries: { value: 0, origin: 'global' },
      outbox_retry_delay_seconds: { value: 60, origin: 'default' },
    });
  });

  it('falls back to the defaults without either file', () => {
    const merged = mergeSettings(undefined, undefined);
    expect(settingValues(merged)).toEqual(DEFAULT_SETTINGS);
    expect(Object.values(merged).every((s) => s.origin === 'default')).toBe(true);
  });

  it('keeps a project value of 0 over the global one', () => {
    expect(mergeSettings({ shutdown_grace_seconds: 0 }, { shutdown_grace_seconds: 9 }).shutdown_grace_seconds).toEqual({ value: 0, origin: 'project' });
    expect(mergeSettings({}, { shutdown_grace_seconds: 9 }).shutdown_grace_seconds).toEqual({ value: 9, origin: 'global' });
  });

  it('gives the plain values back', () => {
    expect(settingValues(mergeSettings({ outbox_retry_delay_seconds: 1 }, { outbox_retry_age_seconds: 2 }))).toEqual({ ...DEFAULT_SETTINGS, outbox_retry_delay_seconds: 1, outbox_retry_age_seconds: 2 });
  });

  it('has the documented defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({ shutdown_grace_seconds: 5, max_parallel_hooks: 4, outbox_retry_age_seconds: 60, outbox_max_retries: 3, outbox_retry_delay_seconds: 60 });
  });

  // DEFAULT_SETTINGS and clampParallel are built when the module loads, and
  // mutation testing switches a mutant on only after this file's own imports
  // ran: only a module loaded inside the test tells them apart.
  it('has the documented defaults and limits in a module loaded afresh', async () => {
    vi.resetModules();
    const fresh = await import('../../src/core/config.js');
    expect(fresh.DEFAULT_SETTINGS).toEqual({ shutdown_grace_seconds: 5, max_parallel_hooks: 4, outbox_retry_age_seconds: 60, outbox_max_retries: 3, outbox_retry_delay_seconds: 60 });
    expect([0, 2.9, 65, Number.NaN].map(fresh.clampParallel)).toEqual([1, 2, 64, 1]);
  });
});

describe('clampParallel', () => {
  it.each<[number, number]>([
    [4, 4],
    [1, 1],
    [0, 1],
    [-3, 1],
    [2.9, 2],
    [MAX_PARALLEL_HOOKS, 64],
    [65, 64],
    [1e9, 64],
    [Number.NaN, 1],
    [Number.POSITIVE_INFINITY, 1],
  ])('runs %d as %d at a time', (n, expected) => {
    expect(clampParallel(n)).toBe(expected);
  });
});
