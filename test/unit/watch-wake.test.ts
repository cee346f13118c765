// A wake that arrives while a Watcher pass is running must not be lost: the
// sleep after that pass returns at once and another pass looks again.
//
// Deterministic, without sleeps: the watcher's timers are fake, so its wake
// fires exactly when the test says, and the test says so from inside a pass
// (a job report made during the pass). The file events and the outbox are real.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobReport } from '../../src/outbox/summary.js';
import { Watcher } from '../../src/outbox/watch.js';
import { type Sandbox, hookYaml, outbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const realSetTimeout = globalThis.setTimeout;
afterEach(() => {
  vi.useRealTimers();
});

/** Writes a pending job as a writer does, a temp file then a rename. */
function pendingJob(s: Sandbox, id: string, fields: Record<string, unknown> = {}): void {
  const dir = outbox(s, 'pending');
  const job = {
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' },
    created_at: new Date().toISOString(), hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    due_at: new Date(Date.now() + 3600_000).toISOString(), ...fields,
  };
  writeFileSync(join(dir, `${id}.json.1.tmp`), JSON.stringify(job));
  renameSync(join(dir, `${id}.json.1.tmp`), join(dir, `${id}.json`));
}

const realDelay = (ms: number): Promise<void> => new Promise((r) => realSetTimeout(r, ms));

/** Resolves true once `check` holds, false after 10 s (real time); `step` runs before each look. */
async function until(check: () => boolean, step: () => void = () => {}): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await realDelay(20)) {
    step();
    if (check()) return true;
  }
  return false;
}

/**
 * A watcher whose first pass sees a-later (not due) and z-spent (out of
 * retries). While it reports a-later, c-new is written to pending/; its file
 * event is read while the pass files z-spent under failed/ (a lock and several
 * file operations, one after another), and when z-spent is reported, still in
 * the pass, the watcher's settle timer is made to fire.
 */
function wokenDuringFirstPass(): { s: Sandbox; watcher: Watcher; done: Promise<number>; reports: JobReport[]; wakesPendingInPass: () => number } {
  const s = sandbox();
  s.globalHooks(`settings:\n  outbox_max_retries: 1\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: async\ndelivery: durable' })}\n`);
  s.write(join(outbox(s, 'pending'), '.keep'), '');
  pendingJob(s, 'a-later');
  pendingJob(s, 'z-spent', { due_at: null, retries: 5 });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const reports: JobReport[] = [];
  let pending = -1;
  const watcher = new Watcher({
    configDir: s.configDir, cwd: s.workspace, intervalSeconds: 3600,
    onJob: (r) => {
      reports.push(r);
      if (r.job_id === 'a-later' && reports.length === 1) pendingJob(s, 'c-new');
      if (r.job_id === 'z-spent') {
        pending = vi.getTimerCount();
        vi.advanceTimersByTime(100); // SETTLE_MS
      }
    },
  });
  return { s, watcher, done: watcher.run(), reports, wakesPendingInPass: () => pending };
}

const seen = (reports: JobReport[], id: string): boolean => reports.some((r) => r.job_id === id);
const outcomes = (reports: JobReport[]): string[][] => reports.map((r) => [r.job_id, r.outcome]);

describe('Watcher wake during a pass', () => {
  it('looks again after a pass during which a job file arrived and its wake fired', async () => {
    const { watcher, done, reports, wakesPendingInPass } = wokenDuringFirstPass();
    const second = await until(() => seen(reports, 'c-new'));
    watcher.stop();
    expect(await done).toBe(0);
    // The file event had come, so the wake was pending in the pass, and fired there.
    expect(wakesPendingInPass()).toBe(1);
    expect(second).toBe(true);
    expect(outcomes(reports)).toEqual([['a-later', 'not_due'], ['z-spent', 'max_retries'], ['a-later', 'not_due'], ['c-new', 'not_due']]);
  });

  it('still wakes on the next file event after that', async () => {
    const { s, watcher, done, reports } = wokenDuringFirstPass();
    expect(await until(() => seen(reports, 'c-new'))).toBe(true);
    pendingJob(s, 'd-next');
    // Fake time moves on in settle-sized steps until the pass that sees d-next.
    const third = await until(() => seen(reports, 'd-next'), () => vi.advanceTimersByTime(100));
    watcher.stop();
    expect(await done).toBe(0);
    expect(third).toBe(true);
    expect(outcomes(reports).slice(4)).toEqual([['a-later', 'not_due'], ['c-new', 'not_due'], ['d-next', 'not_due']]);
  });
});
