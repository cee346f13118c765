// Which file events wake drain-outbox --watch, when, and what it leaves behind.
//
// Deterministic, without sleeps: the watcher's timers are fake, so a wake
// fires only when the test moves fake time on. The file events and the outbox
// are real; the test watches the same directory itself, so it knows when an
// event has been delivered (fs.watch handles on one directory are told in one
// go). "Asleep" is the watcher waiting on its one timer; each pass reports the
// not-due job a-later, so its reports count the passes.
import { type FSWatcher, mkdirSync, renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Warning } from '../../src/core/diagnostics.js';
import type { JobReport } from '../../src/outbox/summary.js';
import { type WatchOptions, Watcher } from '../../src/outbox/watch.js';
import { type Sandbox, hookYaml, outbox, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const realSetTimeout = globalThis.setTimeout;
const own: FSWatcher[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const w of own.splice(0)) w.close();
});

const SETTLE_MS = 100;
const HOUR_MS = 3600_000;

/** Resolves true once `check` holds, false after 10 s (real time); `step` runs before each look. */
async function until(check: () => boolean, step: () => void = () => {}): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => realSetTimeout(r, 20))) {
    step();
    if (check()) return true;
  }
  return false;
}

/** A pending job, due in an hour, written as a writer does: a temp file, then a rename. */
function pendingJob(s: Sandbox, id: string): void {
  const dir = outbox(s, 'pending');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.json.1.tmp`), JSON.stringify({
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' },
    created_at: new Date().toISOString(), hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    due_at: new Date(Date.now() + HOUR_MS).toISOString(),
  }));
  renameSync(join(dir, `${id}.json.1.tmp`), join(dir, `${id}.json`));
}

/** Names the test's own watch on `dir` has seen. */
function seenIn(dir: string): Set<string> {
  const seen = new Set<string>();
  own.push(watch(dir, { persistent: false }, (_e, name) => seen.add(String(name))));
  return seen;
}

/** Waits until `name` is seen, then until the rest of that batch of file events has been handed out. */
async function delivered(seen: Set<string>, name: string): Promise<void> {
  expect(await until(() => seen.has(name))).toBe(true);
  await new Promise((r) => setImmediate(r));
}

interface Watching {
  watcher: Watcher;
  done: Promise<number>;
  reports: JobReport[];
  warnings: Warning[];
  errors: Error[];
  readies: number;
}

/** A watcher (hourly interval) over a sandbox with one not-due job unless `job` is false, once its first pass is done. */
async function watching(s: Sandbox, opts: Partial<WatchOptions> = {}, job = true): Promise<Watching> {
  s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: async\ndelivery: durable' })}\n`);
  if (job) pendingJob(s, 'a-later');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  const w: Watching = { watcher: undefined as unknown as Watcher, done: Promise.resolve(0), reports: [], warnings: [], errors: [], readies: 0 };
  w.watcher = new Watcher({
    configDir: s.configDir, cwd: s.workspace, intervalSeconds: 3600,
    onJob: (r) => w.reports.push(r), onWarning: (x) => w.warnings.push(x), onPassError: (e) => w.errors.push(e),
    onReady: () => {
      w.readies++;
      ready();
    },
    ...opts,
  });
  w.done = w.watcher.run();
  await readyP;
  return w;
}

const passes = (w: Watching): number => w.reports.filter((r) => r.job_id === 'a-later').length;

/** Moves fake time on by `ms`, then waits until the watcher is asleep again; returns how many passes it has made. */
async function after(w: Watching, ms: number): Promise<number> {
  vi.advanceTimersByTime(ms);
  expect(await until(() => vi.getTimerCount() === 1)).toBe(true);
  return passes(w);
}

/** Moves fake time on a settle at a time until there have been `n` passes. */
const passed = (w: Watching, n: number): Promise<boolean> => until(() => passes(w) >= n, () => vi.advanceTimersByTime(SETTLE_MS));

describe('Watcher file events', () => {
  it('takes no notice of a temp file in pending/, and runs a pass once the rename that follows has settled', async () => {
    const s = sandbox();
    const w = await watching(s);
    expect(w.reports).toHaveLength(1);
    const pending = outbox(s, 'pending');
    const seen = seenIn(pending);
    writeFileSync(join(pending, 'b-new.json.1.tmp'), '{}');
    await delivered(seen, 'b-new.json.1.tmp');
    expect(await after(w, SETTLE_MS)).toBe(1);
    renameSync(join(pending, 'b-new.json.1.tmp'), join(pending, 'b-new.json'));
    await delivered(seen, 'b-new.json');
    // One pass per burst: not before the burst has had SETTLE_MS to settle...
    expect(await after(w, SETTLE_MS / 2)).toBe(1);
    // ...and then at once, not at the interval.
    expect(await passed(w, 2)).toBe(true);
    w.watcher.stop();
    expect(await w.done).toBe(0);
    expect(w.reports.map((r) => r.job_id).slice(0, 3)).toEqual(['a-later', 'a-later', 'b-new']);
  });

  it('wakes for state/ appearing in hooks/ (the hooks files there are in watch.test.ts), not for other files there, and warns of no directory it cannot watch', async () => {
    const s = sandbox();
    const w = await watching(s);
    const hooks = join(s.configDir, 'hooks');
    const seen = seenIn(hooks);
    writeFileSync(join(hooks, 'notes.md'), 'not a hooks file');
    mkdirSync(join(hooks, 'scripts'));
    await delivered(seen, 'scripts');
    expect(await after(w, SETTLE_MS)).toBe(1);
    // state/ appearing: the next pass watches the trust record in it.
    mkdirSync(join(hooks, 'state'));
    await delivered(seen, 'state');
    expect(await passed(w, 2)).toBe(true);
    w.watcher.stop();
    expect(await w.done).toBe(0);
    // hooks/state did not exist for the first pass: nothing to warn about.
    expect(w.warnings).toEqual([]);
  });

  it('wakes for the trust record in hooks/state/, not for other files there', async () => {
    const s = sandbox();
    const state = join(s.configDir, 'hooks', 'state');
    mkdirSync(state, { recursive: true });
    const w = await watching(s);
    const seen = seenIn(state);
    writeFileSync(join(state, 'other.json'), '{}');
    await delivered(seen, 'other.json');
    expect(await after(w, SETTLE_MS)).toBe(1);
    writeFileSync(join(state, 'trust.json'), '{}');
    await delivered(seen, 'trust.json');
    expect(await passed(w, 2)).toBe(true);
    w.watcher.stop();
    expect(await w.done).toBe(0);
  });
});

describe('Watcher passes and warnings', () => {
  it('warns once that it cannot create the outbox, tells each failed pass, and is ready once', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'outbox'), 'a file in the way');
    const w = await watching(s, {}, false);
    for (let pass = 2; pass <= 3; pass++) {
      vi.advanceTimersByTime(HOUR_MS);
      expect(await until(() => w.errors.length === pass)).toBe(true);
    }
    w.watcher.stop();
    expect(await w.done).toBe(0);
    const pending = outbox(s, 'pending');
    expect(w.warnings).toEqual([{ code: 'outbox_watch_unavailable', path: pending, message: `cannot create ${pending} (ENOTDIR); trying again every 3600 s` }]);
    expect(w.errors.map((e) => (e as { code?: string }).code)).toEqual(['outbox_unreadable', 'outbox_unreadable', 'outbox_unreadable']);
    expect(w.readies).toBe(1);
  });

  it('keeps going without an onWarning to tell', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'outbox'), 'a file in the way');
    const w = await watching(s, { onWarning: undefined }, false);
    vi.advanceTimersByTime(HOUR_MS);
    expect(await until(() => w.errors.length === 2)).toBe(true);
    w.watcher.stop();
    expect(await w.done).toBe(0);
  });

  it('can be stopped during a pass: the watch ends after it, without an error', async () => {
    const s = sandbox();
    let during: Watcher | undefined;
    let stoppedInPass = 0;
    const w = await watching(s, {
      onJob: () => {
        if (!during) return;
        during.stop();
        stoppedInPass++;
      },
    });
    const seen = seenIn(outbox(s, 'pending'));
    pendingJob(s, 'b-new');
    await delivered(seen, 'b-new.json');
    during = w.watcher;
    vi.advanceTimersByTime(SETTLE_MS);
    expect(await w.done).toBe(0);
    expect(stoppedInPass).toBeGreaterThan(0);
    expect(w.errors).toEqual([]);
  });

  it('leaves no timer and no watch behind once it has stopped', async () => {
    const s = sandbox();
    const w = await watching(s);
    w.watcher.stop();
    expect(await w.done).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const pending = outbox(s, 'pending');
    const seen = seenIn(pending);
    pendingJob(s, 'b-late');
    await delivered(seen, 'b-late.json');
    expect(vi.getTimerCount()).toBe(0);
  });
});
