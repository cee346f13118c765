// A drain's hooks started by the spawn helper (src/run/spawn-helper.ts),
// through the real binary: a helper killed under running jobs loses nothing,
// and each job's hook ends once.
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, eventually, hookYaml, jobs, lines, pendingJob, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

// Each run logs "start N PARENT PPID" and "end N"; the parent is the drain (node) or the helper (python).
// Only a run the drain started ends by itself. One the helper started waits to be killed with its group
// when the helper dies; so does one whose parent is already gone when it looks (the helper killed as it
// was started), which would otherwise end, be killed too late, and end again when run directly.
const LOGGING = (log: string): string => [
  'n=$(grep -o "\\"n\\": *[0-9]*" "$CHRYS_HOOK_PAYLOAD_FILE" | grep -o "[0-9]*$")',
  'parent=$(cat /proc/$PPID/comm)',
  `echo "start $n $parent $PPID" >> ${log}`,
  'case $parent in node*) ;; *) exec sleep 60;; esac',
  `echo "end $n" >> ${log}`,
].join('; ');

const JOBS = 40;

describe('a drain through the spawn helper', () => {
  it('runs every job once; the helper killed under one: its hook is killed and run again directly, nothing lost', async () => {
    const s = sandbox();
    const log = join(s.root, 'runs.log');
    const run = `type: shell\nshell: '${LOGGING(log).replaceAll("'", "''")}'`;
    s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\n  max_parallel_hooks: 2\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run, execution: 'mode: async\ndelivery: durable' })}\n`);
    for (let n = 0; n < JOBS; n++) pendingJob(s, `job-${String(n).padStart(2, '0')}`, { payload: { event: 'after_tool_call', n, session_id: '' } });
    const drain = execa(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false });

    const first = await eventually(() => lines(log).find((l) => / python\S* \d+$/.test(l)), 60_000, 'a run started by the helper');
    const [, n, , helperPid] = first.split(' ');
    process.kill(Number(helperPid), 'SIGKILL');
    const r = await drain;
    expect(r.exitCode, r.stderr).toBe(0);

    expect(JSON.parse(r.stdout)).toMatchObject({ ran: JOBS, done: JOBS, failed: 0, pending: 0 });
    expect(jobs(s, 'done')).toHaveLength(JOBS);
    const runs = lines(log);
    const ended = runs.filter((l) => l.startsWith('end ')).map((l) => Number(l.split(' ')[1])).sort((a, b) => a - b);
    expect(ended).toEqual(Array.from({ length: JOBS }, (_, i) => i));
    // Every run the helper had going was killed with its group and run again from the drain itself, which ended it.
    const ofKilled = runs.filter((l) => l.split(' ')[1] === n);
    expect(ofKilled).toEqual([first, expect.stringMatching(new RegExp(`^start ${n} node \\d+$`)), `end ${n}`]);
    for (const line of runs.filter((l) => / python\S* \d+$/.test(l))) {
      const job = line.split(' ')[1];
      expect(runs.filter((l) => l.split(' ')[1] === job).slice(-2)).toEqual([expect.stringMatching(new RegExp(`^start ${job} node \\d+$`)), `end ${job}`]);
    }
    // The first hooks were started by the drain itself, before it had a helper.
    expect(runs.some((l) => / node \d+$/.test(l))).toBe(true);
  });
});
