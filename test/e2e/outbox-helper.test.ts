// drain-outbox starts its hooks through the spawning helper (run/spawn-helper.ts).
// A helper killed while a job runs (here by the hook itself, its child): that
// job's group is killed and the job stays pending, as does a job the helper
// held stopped before its exec (it dies with the helper, never having run);
// the other jobs run directly, nothing is lost and no job is started twice.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, hookYaml, jobs, outbox, read, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

function pendingJobs(s: Sandbox, n: number): void {
  mkdirSync(outbox(s, 'pending'), { recursive: true });
  for (let i = 0; i < n; i++) {
    const id = `job-${i}`;
    writeFileSync(join(outbox(s, 'pending'), `${id}.json`), JSON.stringify({
      job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', n: i, session_id: '' },
      created_at: HOUR_AGO, hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
      state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    }));
  }
}

async function drain(s: Sandbox): Promise<any> {
  const r = await s.run(['drain-outbox', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('drain-outbox through the spawning helper', () => {
  it('keeps the job whose helper was killed pending, runs the rest, and starts none twice', async () => {
    const s = sandbox();
    // Each start appends "<n> <parent's name>"; the first hook started by the helper kills it (kill -9 its parent) and would run on.
    const shell = 'p=$(cat /proc/$PPID/comm); n=$(sed -e "s/.*\\"n\\":\\([0-9]*\\).*/\\1/"); echo "$n $p" >> ../starts; case $p in python*) if mkdir ../killed 2>/dev/null; then kill -9 $PPID; sleep 60; fi;; esac';
    s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\n  max_parallel_hooks: 2\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: 'mode: async\ndelivery: durable' })}\n`);
    pendingJobs(s, 6);
    const first = await drain(s);
    const firstStarts = read(join(s.root, 'starts'))!.trim().split('\n');
    expect(firstStarts[0]).toMatch(/ python/);
    const firstRun = firstStarts.map((l) => Number(l.split(' ')[0]));
    expect(new Set(firstRun).size).toBe(firstRun.length); // none started twice
    // The killed one stays pending, and so does the other job the helper held then (two run at once):
    // that one may have been stopped before its exec, so it never ran and died with the helper.
    const kept = jobs(s, 'pending');
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThanOrEqual(2);
    expect(kept.every((j) => j.retries === 1)).toBe(true);
    expect(first).toMatchObject({ ran: 6, done: 6 - kept.length, pending: kept.length });
    expect(jobs(s, 'done')).toHaveLength(6 - kept.length);
    expect(firstRun.length).toBeGreaterThanOrEqual(6 - kept.length + 1); // the done ones and the killer
    // The next drain delivers them (at least once: started again, never while the first start ran).
    expect(await drain(s)).toMatchObject({ ran: kept.length, done: kept.length });
    expect(jobs(s, 'pending')).toEqual([]);
    expect(jobs(s, 'done')).toHaveLength(6);
    const again = read(join(s.root, 'starts'))!.trim().split('\n').slice(firstRun.length).map((l) => Number(l.split(' ')[0]));
    expect(again.sort()).toEqual(kept.map((j) => j.payload.n).sort());
    expect(new Set([...firstRun, ...again])).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });
});
