// Run statistics for `list --stats`, from a hook's run history (the last
// 200 to 400 runs): how often it ran, failed and timed out, and how long it
// takes, so a user can see which hook slows their agent down.

import type { Hook } from '../core/config.js';
import { type RunEntry, readRuns } from './history.js';

export interface RunStats {
  runs: number;
  failures: number;
  timeouts: number;
  p50_ms: number | null;
  p95_ms: number | null;
  last_status: string | null;
}

const FAILED = new Set(['failed', 'launch_error']);

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function statsOf(runs: readonly RunEntry[]): RunStats {
  const durations = runs.map((r) => r.duration_ms).filter((d): d is number => typeof d === 'number').sort((a, b) => a - b);
  return {
    runs: runs.length,
    failures: runs.filter((r) => FAILED.has(r.status)).length,
    timeouts: runs.filter((r) => r.status === 'timeout').length,
    p50_ms: percentile(durations, 50),
    p95_ms: percentile(durations, 95),
    last_status: runs.at(-1)?.status ?? null,
  };
}

export const hookStats = (configDir: string, hook: Pick<Hook, 'source' | 'file' | 'id'>): RunStats => statsOf(readRuns(configDir, hook));
