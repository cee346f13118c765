// The durable outbox and drain-outbox through the real binary (CONTRACT §9).
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LOCK_STALE_MS } from '../../src/outbox/claim.js';
import { BIN, type Sandbox, eventually, hookYaml, isAlive, jobFileIn, jobs, lines, outbox, pendingJob, read, sandboxFor, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

const DELIVER = (shell: string, extra = ''): string =>
  `settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable${extra}` })}\n`;

async function drain(s: Sandbox, args: string[] = []): Promise<any> {
  const r = await s.run(['drain-outbox', '--json', ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('durable hooks in fire', () => {
  it('writes the job before the process starts and files it in done/ on success', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('ls ../config/hooks/outbox/pending > ../seen-at-start; echo delivered'));
    await s.fire('{"event": "after_tool_call", "session_id": "s", "n": 1.0, "tool": {"name": "x"}}');
    const [job] = await eventually(() => jobs(s, 'done').length === 1 && jobs(s, 'done'), 30_000, 'the job to be done');
    expect(read(join(s.root, 'seen-at-start'))!.trim()).toBe(`${job.job_id}.json`);
    expect(job).toMatchObject({
      hook_id: 'deliver', event: 'after_tool_call', hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
      state: 'done', retries: 1, exit_code: 0, error: null,
    });
    for (const k of ['created_at', 'last_started_at', 'last_finished_at']) expect(Date.parse(job[k])).toBeGreaterThan(0);
    expect(readFileSync(join(outbox(s, 'done'), `${job.job_id}.json`), 'utf8')).toContain('"n": 1.0');
    expect(statSync(join(outbox(s, 'done'), `${job.job_id}.json`)).mode & 0o777).toBe(0o600);
    expect(jobs(s, 'pending')).toEqual([]);
  });

  it('files a failing job in failed/ with the stderr tail', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo "endpoint said 503" >&2; exit 4'));
    await s.fire({ event: 'after_tool_call', tool: { name: 'x' } });
    const [job] = await eventually(() => jobs(s, 'failed').length === 1 && jobs(s, 'failed'), 30_000, 'the job to fail');
    expect(job).toMatchObject({ state: 'failed', exit_code: 4, error: 'exited with status 4', retries: 1 });
    expect(job.stderr_tail).toContain('endpoint said 503');
  });

  it('still prints its decision, with a warning, when the outbox cannot be written', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo ran > ../ran'));
    mkdirSync(join(s.configDir, 'hooks', 'outbox'), { recursive: true });
    writeFileSync(outbox(s, 'pending'), 'not a directory');
    const { decision, result } = await s.fire({ event: 'after_tool_call', tool: { name: 'x' } });
    expect(result.exitCode).toBe(0);
    expect(decision.hooks).toMatchObject([{ id: 'deliver', status: 'started' }]);
    expect(decision.warnings).toMatchObject([{ code: 'outbox_unavailable', hook: 'deliver' }]);
    await eventually(() => read(join(s.root, 'ran')), 30_000, 'the best-effort run');
  });

  it('writes 100 valid job files for 100 concurrent firings', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true', '\ndelay_seconds: 3600'));
    const runs = await Promise.all(Array.from({ length: 100 }, (_, i) => s.fire({ event: 'after_tool_call', session_id: `s${i}`, tool: { name: 'x' } })));
    expect(runs.every((r) => r.decision.hooks[0].status === 'queued')).toBe(true);
    const pending = jobs(s, 'pending');
    expect(pending).toHaveLength(100);
    expect(new Set(pending.map((j) => j.payload.session_id)).size).toBe(100);
    expect(readdirSync(outbox(s, 'pending')).filter((f) => !f.endsWith('.json'))).toEqual([]);
  }, 120_000);
});

describe('drain-outbox', () => {
  it('runs a due job once and reports it', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('cat "$CHRYS_HOOK_PAYLOAD_FILE" >> ../delivered'));
    // JSON.stringify cannot spell these numbers, so they go in as text.
    pendingJob(s, 'job-1', { unknown_field: { keep: ['BIG', 'me'] }, payload: { event: 'after_tool_call', big: 'BIG' } }, (t) => t.replaceAll('"BIG"', '1.50e0').replace('"big":1.50e0', '"big":12345678901234567890123'));
    const out = await drain(s);
    expect(out).toMatchObject({ considered: 1, ran: 1, done: 1, failed: 0, skipped: { young: 0, not_due: 0, claimed: 0, untrusted: 0 }, jobs: [{ job_id: 'job-1', hook_id: 'deliver', outcome: 'done' }] });
    expect(read(join(s.root, 'delivered'))).toContain('12345678901234567890123');
    const done = readFileSync(join(outbox(s, 'done'), 'job-1.json'), 'utf8');
    expect(done).toContain('"unknown_field"');
    expect(done).toContain('1.50e0');
    expect((await drain(s)).considered).toBe(0);
  });

  it('files a job by its file name even when its job_id says otherwise', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo x >> ../ran'));
    pendingJob(s, 'file-name', { job_id: 'something-else' });
    expect((await drain(s)).done).toBe(1);
    expect(readdirSync(outbox(s, 'pending'))).toEqual([]);
    expect(jobs(s, 'done')).toMatchObject([{ job_id: 'something-else', state: 'done' }]);
    expect(readdirSync(outbox(s, 'done'))).toEqual(['file-name.json']);
    expect((await drain(s)).considered).toBe(0);
    expect(lines(join(s.root, 'ran'))).toHaveLength(1);
  });

  it('skips jobs that are young (started recently) or not yet due; a never-started job is gated by due_at only', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true').replace('outbox_retry_age_seconds: 0', 'outbox_retry_age_seconds: 60'));
    pendingJob(s, 'young', { created_at: new Date().toISOString() });
    pendingJob(s, 'retried-recently', { last_started_at: new Date().toISOString(), retries: 1 });
    pendingJob(s, 'never-started', { last_started_at: '', created_at: new Date().toISOString() }); // as Chrys writes it
    pendingJob(s, 'later', { due_at: new Date(Date.now() + 3600_000).toISOString() });
    pendingJob(s, 'due', { due_at: HOUR_AGO });
    const out = await drain(s);
    expect(out.skipped).toEqual({ young: 1, not_due: 1, claimed: 0, untrusted: 0, limit: 0 });
    const outcome = (id: string) => out.jobs.find((j: any) => j.job_id === id).outcome;
    expect(['due', 'young', 'never-started', 'retried-recently', 'later'].map(outcome)).toEqual(['done', 'done', 'done', 'young', 'not_due']);
  });

  it('fails a job started outbox_max_retries times without running it', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('touch ../ran').replace('hooks:', '  outbox_max_retries: 2\nhooks:'));
    pendingJob(s, 'tired', { retries: 2, last_started_at: HOUR_AGO });
    expect((await drain(s)).jobs).toMatchObject([{ job_id: 'tired', outcome: 'max_retries' }]);
    expect(jobs(s, 'failed')).toMatchObject([{ job_id: 'tired', error: 'max_retries', retries: 2 }]);
    expect(existsSync(join(s.root, 'ran'))).toBe(false);
  });

  it('fails never-started jobs when outbox_max_retries is 0', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('touch ../ran').replace('hooks:', '  outbox_max_retries: 0\nhooks:'));
    pendingJob(s, 'never');
    expect((await drain(s)).jobs).toMatchObject([{ outcome: 'max_retries' }]);
  });

  it('fails with stale_source a job whose hook file or hook is gone', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    pendingJob(s, 'gone-file', { hook_source_path: join(s.root, 'old', 'hooks.yaml') });
    pendingJob(s, 'gone-hook', { hook_id: 'renamed' });
    const out = await drain(s);
    expect(out.jobs.map((j: any) => [j.job_id, j.outcome])).toEqual([['gone-file', 'stale_source'], ['gone-hook', 'stale_source']]);
    expect(jobs(s, 'failed').map((j) => j.error)).toEqual(['stale_source', 'stale_source']);
  });

  it('fails a legacy job whose id is in both layers with ambiguous_hook, and runs an unambiguous one', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo global >> ../who'));
    s.projectHooks(`hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'echo project >> ../who'", execution: 'mode: async\ndelivery: durable' })}\n${hookYaml({ id: 'only-project', event: 'after_tool_call', run: "type: shell\nshell: 'echo only >> ../who'", execution: 'mode: async\ndelivery: durable' })}\n`);
    const legacy = { hook_source: undefined, hook_source_path: undefined, payload: { event: 'after_tool_call', cwd: s.workspace } };
    pendingJob(s, 'a-legacy-both', legacy);
    pendingJob(s, 'b-legacy-one', { ...legacy, hook_id: 'only-project' });
    const out = await drain(s, ['--project-hooks']);
    expect(out.jobs.map((j: any) => [j.job_id, j.outcome])).toEqual([['a-legacy-both', 'ambiguous_hook'], ['b-legacy-one', 'done']]);
    expect(lines(join(s.root, 'who'))).toEqual(['only']);
  });

  it('finds a legacy job\'s project file as fire does: a dangling hooks.yaml is that file, not the hooks.json beside it', async () => {
    const s = sandbox();
    s.globalHooks('settings:\n  outbox_retry_age_seconds: 0\nhooks: []\n');
    const json = s.projectHooks(JSON.stringify({ hooks: [{ id: 'only-project', event: 'after_tool_call', run: { type: 'shell', shell: 'echo ran >> ../who' }, execution: { mode: 'async', delivery: 'durable' } }] }), 'hooks.json');
    symlinkSync(join(s.root, 'nowhere.yaml'), join(dirname(json), 'hooks.yaml'));
    pendingJob(s, 'legacy', { hook_id: 'only-project', hook_source: undefined, hook_source_path: undefined, payload: { event: 'after_tool_call', cwd: s.workspace } });
    const out = await drain(s, ['--project-hooks']);
    expect(out.jobs.map((j: any) => [j.job_id, j.outcome])).toEqual([['legacy', 'stale_source']]);
    expect(read(join(s.root, 'who'))).toBeUndefined();
  });

  it('leaves project jobs pending while project hooks are not enabled', async () => {
    const s = sandbox();
    const project = s.projectHooks(`hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'touch ../ran'", execution: 'mode: async\ndelivery: durable' })}\n`);
    s.globalHooks('settings:\n  outbox_retry_age_seconds: 0\nhooks: []\n');
    pendingJob(s, 'proj', { hook_source: 'project', hook_source_path: project });
    expect(await drain(s)).toMatchObject({ skipped: { untrusted: 1 }, ran: 0 });
    expect(jobs(s, 'pending')).toHaveLength(1);
    expect(await drain(s, ['--project-hooks'])).toMatchObject({ done: 1 });
    expect(existsSync(join(s.root, 'ran'))).toBe(true);
  });

  it('moves a truncated or non-JSON job file aside and drains the rest', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    mkdirSync(outbox(s, 'pending'), { recursive: true });
    writeFileSync(join(outbox(s, 'pending'), 'a-truncated.json'), '{"job_id": "a-truncated", "hook_id": "del');
    writeFileSync(join(outbox(s, 'pending'), 'b-garbage.json'), 'hello');
    pendingJob(s, 'c-good');
    const out = await drain(s);
    expect(out.jobs.map((j: any) => [j.job_id, j.outcome])).toEqual([['a-truncated', 'invalid_job'], ['b-garbage', 'invalid_job'], ['c-good', 'done']]);
    expect(readdirSync(outbox(s, 'failed')).sort()).toEqual(['a-truncated.json', 'b-garbage.json']);
    expect(readFileSync(join(outbox(s, 'failed'), 'b-garbage.json'), 'utf8')).toBe('hello');
  });

  it('lists what would run with --dry-run, and runs at most --limit jobs', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo x >> ../ran'));
    for (const id of ['j1', 'j2', 'j3']) pendingJob(s, id);
    const dry = await drain(s, ['--dry-run']);
    expect(dry.jobs.map((j: any) => j.outcome)).toEqual(['would_run', 'would_run', 'would_run']);
    expect(existsSync(join(s.root, 'ran'))).toBe(false);
    expect((await drain(s, ['--limit', '2'])).ran).toBe(2);
    expect(lines(join(s.root, 'ran'))).toHaveLength(2);
    const bad = await s.run(['drain-outbox', '--limit', 'lots']);
    expect(bad.exitCode).toBe(64);
  });

  it('requeues failed jobs and prunes old done ones', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('[ -e ../fixed ] || exit 1'));
    pendingJob(s, 'flaky');
    expect((await drain(s)).failed).toBe(1);
    writeFileSync(join(s.root, 'fixed'), '');
    const r = await s.run(['drain-outbox', '--requeue-failed']);
    expect(r.stdout).toContain('requeued 1 failed job');
    expect(jobs(s, 'pending')).toMatchObject([{ job_id: 'flaky', retries: 0, state: 'pending' }]);
    expect((await drain(s)).done).toBe(1);
    const old = JSON.parse(readFileSync(join(outbox(s, 'done'), 'flaky.json'), 'utf8'));
    writeFileSync(join(outbox(s, 'done'), 'flaky.json'), JSON.stringify({ ...old, last_finished_at: '2020-01-01T00:00:00Z' }));
    pendingJob(s, 'recent');
    await drain(s);
    const pruned = await s.run(['drain-outbox', '--prune-done', '30', '--json']);
    expect(JSON.parse(pruned.stdout).pruned).toEqual(['flaky']);
    expect(jobs(s, 'done').map((j) => j.job_id)).toEqual(['recent']);
  });

  it('launches a detach: true job as the worker does: in a session of its own, not waited for, done once started', async () => {
    const s = sandbox();
    // Runs until the test writes ../go (at most 30 s): a drain that waited for it would only return after ../finished.
    const shell = 'echo $$ > ../pid; ps -o sid= -p $$ > ../sid; echo detached-out; for i in $(seq 1 600); do [ -e ../go ] && break; sleep 0.05; done; echo > ../finished';
    s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })}\n`);
    pendingJob(s, 'job-1');
    const out = await drain(s);
    expect(out).toMatchObject({ considered: 1, ran: 1, done: 1, failed: 0, jobs: [{ job_id: 'job-1', hook_id: 'deliver', outcome: 'done', log_path: expect.any(String) }] });
    const pid = Number(await eventually(() => read(join(s.root, 'pid'))?.trim() || undefined, 30_000, 'the hook to start'));
    expect(existsSync(join(s.root, 'finished'))).toBe(false);
    expect(isAlive(pid)).toBe(true);
    expect(Number(await eventually(() => read(join(s.root, 'sid'))?.trim() || undefined, 30_000, 'its session id'))).toBe(pid);
    expect(jobs(s, 'done')).toMatchObject([{ job_id: 'job-1', state: 'done', retries: 1 }]);
    const list = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(list.hooks.find((h: any) => h.id === 'deliver').last_run).toMatchObject({ status: 'started' });
    writeFileSync(join(s.root, 'go'), '');
    await eventually(() => existsSync(join(s.root, 'finished')), 30_000, 'the hook to finish');
    await eventually(() => read(out.jobs[0].log_path)?.includes('detached-out'), 30_000, 'its output in the log');
  });

  it('prints a human summary', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    pendingJob(s, 'j1');
    const r = await s.run(['drain-outbox']);
    expect(r.stdout).toContain('done           j1  deliver');
    expect(r.stdout).toContain('1 pending considered, ran 1: 1 done, 0 failed');
  });
});

describe('drain-outbox and the folders it finds', () => {
  it('tightens a pre-made 0755 outbox/pending (and done/, failed/, locks/) to 0700 before using it', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    pendingJob(s, 'job-loose');
    for (const f of ['pending', 'done', 'failed', 'locks']) {
      mkdirSync(outbox(s, f), { recursive: true });
      chmodSync(outbox(s, f), 0o755);
    }
    expect((await drain(s)).done).toBe(1);
    for (const f of ['pending', 'done', 'failed', 'locks']) expect(statSync(outbox(s, f)).mode & 0o777, f).toBe(0o700);
  });

  it('leaves a loose pending/ as it is under --dry-run, and creates no outbox when there is none', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    expect((await drain(s)).considered).toBe(0);
    expect(existsSync(join(s.configDir, 'hooks', 'outbox'))).toBe(false);
    pendingJob(s, 'job-dry');
    chmodSync(outbox(s, 'pending'), 0o755);
    expect((await drain(s, ['--dry-run'])).considered).toBe(1);
    expect(statSync(outbox(s, 'pending')).mode & 0o777).toBe(0o755);
  });

  it('refuses a symlinked outbox/pending, naming it, and writes nothing through it', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('true'));
    const elsewhere = join(s.root, 'elsewhere');
    pendingJob(s, 'job-linked');
    renameSync(outbox(s, 'pending'), elsewhere);
    symlinkSync(elsewhere, outbox(s, 'pending'));
    const before = readFileSync(join(elsewhere, 'job-linked.json'), 'utf8');
    const r = await s.run(['drain-outbox']);
    expect(r.exitCode).toBe(74);
    expect(r.stderr).toContain(`cannot read the outbox at ${outbox(s, 'pending')}`);
    expect(r.stderr).toContain('make the outbox folders directories you own');
    expect(readdirSync(elsewhere)).toEqual(['job-linked.json']);
    expect(readFileSync(join(elsewhere, 'job-linked.json'), 'utf8')).toBe(before);
  });
});

describe('faults', () => {
  // The two killed-claimant tests run at once: each waits out a lock's 10 s, and the waits need not take turns.
  it.concurrent('delivers a durable job exactly once more after the worker is killed mid-run', async (t) => {
    const s = sandboxFor(t);
    // First run: record the worker's pid and hang. Later runs: count a delivery and exit 0.
    s.globalHooks(DELIVER('if [ ! -e ../first ]; then echo $PPID > ../first; echo $$ > ../hook.pid; sleep 300; fi; echo delivered >> ../deliveries'));
    await s.fire({ event: 'after_tool_call', tool: { name: 'x' } });
    const workerPid = Number(await eventually(() => read(join(s.root, 'first'))?.trim() || undefined, 30_000, 'the first run'));
    const hookPid = Number(await eventually(() => read(join(s.root, 'hook.pid'))?.trim() || undefined, 5000));
    process.kill(workerPid, 'SIGKILL');
    process.kill(-hookPid, 'SIGKILL'); // the machine "rebooted": the half-done run is gone too
    const running = jobs(s, 'pending');
    expect(running).toMatchObject([{ hook_id: 'deliver', retries: 1, state: 'running' }]);
    // The dead worker's claim goes stale after 10 s; until then drains report it claimed.
    await lockGoesStale(s, running[0].job_id);
    const result = await pollDrain(s, (out) => out.done === 1, 30_000);
    expect(result.jobs).toMatchObject([{ outcome: 'done' }]);
    expect(lines(join(s.root, 'deliveries'))).toEqual(['delivered']);
    expect((await drain(s)).considered).toBe(0);
    expect(jobs(s, 'done')).toMatchObject([{ retries: 2 }]);
  }, 60_000);

  it.concurrent('takes over the claim of a drain-outbox killed while running a job', async (t) => {
    const s = sandboxFor(t);
    s.globalHooks(DELIVER('if [ ! -e ../first ]; then echo $$ > ../first; sleep 300; fi; echo delivered >> ../deliveries'));
    pendingJob(s, 'held');
    const first = execa(process.execPath, [BIN, 'drain-outbox', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false, cwd: s.workspace });
    const hookPid = Number(await eventually(() => read(join(s.root, 'first'))?.trim() || undefined, 30_000, 'the first drain to start the job'));
    first.kill('SIGKILL');
    await first;
    process.kill(-hookPid, 'SIGKILL');
    const immediately = await drain(s);
    expect(immediately.skipped.claimed).toBe(1);
    await lockGoesStale(s, 'held');
    const result = await pollDrain(s, (out) => out.done === 1, 30_000);
    expect(result.jobs).toMatchObject([{ job_id: 'held', outcome: 'done' }]);
    expect(lines(join(s.root, 'deliveries'))).toEqual(['delivered']);
  }, 60_000);

  it('eight concurrent drains over 500 jobs: every job runs, none twice, none lost', async () => {
    const s = sandbox();
    // mkdir is atomic: a second concurrent run of the same job would find its directory taken.
    s.globalHooks(DELIVER('n=$(sed -e "s/.*\\"n\\": *\\([0-9]*\\).*/\\1/" "$CHRYS_HOOK_PAYLOAD_FILE"); mkdir ../running/$n || echo $n >> ../twice; echo $n >> ../ran; rmdir ../running/$n'));
    mkdirSync(join(s.root, 'running'));
    for (let i = 0; i < 500; i++) pendingJob(s, `job-${String(i).padStart(3, '0')}`, { payload: { event: 'after_tool_call', n: i } });
    const drains = await Promise.all(Array.from({ length: 8 }, () => s.run(['drain-outbox', '--json'])));
    for (const d of drains) expect(d.exitCode, d.stderr).toBe(0);
    const ran = lines(join(s.root, 'ran'));
    expect(ran).toHaveLength(500);
    expect(new Set(ran).size).toBe(500);
    expect(existsSync(join(s.root, 'twice'))).toBe(false);
    expect(jobs(s, 'done')).toHaveLength(500);
    expect(jobs(s, 'pending')).toHaveLength(0);
    expect(jobs(s, 'failed')).toHaveLength(0);
    const totalRan = drains.reduce((sum, d) => sum + JSON.parse(d.stdout).ran, 0);
    expect(totalRan).toBe(500);
  }, 180_000);
});

describe('follow-up hooks', () => {
  const FOLLOW_UP = (extra = ''): string => `settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({
    id: 'post-task',
    event: 'Stop',
    match: 'session_kinds: [interactive]\nmax_context_tokens: 60000',
    run: `type: shell\nshell: 'echo "$CHRYS_HOOK_ID $(cat "$CHRYS_HOOK_PROMPT_FILE")" >> ../follow-ups${extra}'\nprompt_file: prompts/post-task.md`,
    execution: 'mode: async\ndelivery: durable\ndelay_seconds: 3600\nonce_per_session: true',
  })}\n`;

  it('queues once per session, runs when due through drain-outbox, and never re-triggers itself', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'prompts', 'post-task.md'), '---\nname: post-task\n---\nTidy up.');
    // The follow-up itself ends a conversation: the loop guard must stop it from queueing another.
    s.globalHooks(FOLLOW_UP(`; echo "{\\"event\\":\\"Stop\\",\\"session_id\\":\\"s1\\"}" | "${process.execPath}" "${BIN}" fire --config-dir "$CHRYS_HOME" > ../inner.json`));
    const first = await s.fire({ event: 'conversation_done', session_id: 's1' });
    expect(first.decision.hooks).toMatchObject([{ id: 'post-task', status: 'queued' }]);
    const second = await s.fire({ event: 'Stop', session_id: 's1' });
    expect(second.decision.hooks).toMatchObject([{ id: 'post-task', status: 'skipped', reason: expect.stringContaining('once_per_session') }]);
    const [job] = jobs(s, 'pending');
    expect(Date.parse(job.due_at) - Date.parse(job.created_at)).toBe(3600_000);
    expect((await drain(s)).skipped.not_due).toBe(1);
    // An hour passes (without making the test wait it).
    writeFileSync(join(outbox(s, 'pending'), `${job.job_id}.json`), JSON.stringify({ ...job, created_at: HOUR_AGO, due_at: HOUR_AGO }));
    expect((await drain(s)).done).toBe(1);
    expect(lines(join(s.root, 'follow-ups'))).toEqual(['post-task Tidy up.']);
    expect(JSON.parse(read(join(s.root, 'inner.json'))!).hooks).toMatchObject([{ id: 'post-task', status: 'skipped' }]);
    expect(jobs(s, 'pending')).toEqual([]);
  }, 60_000);

  it('keeps the once_per_session chance when the job cannot be written, and queues it once the outbox is repaired', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'prompts', 'post-task.md'), 'x');
    s.globalHooks(FOLLOW_UP());
    // A symlinked outbox/pending (root ignores chmod, so a mode would not stop the write).
    mkdirSync(join(s.root, 'elsewhere'));
    mkdirSync(join(s.configDir, 'hooks', 'outbox'), { recursive: true });
    symlinkSync(join(s.root, 'elsewhere'), outbox(s, 'pending'));
    const broken = await s.fire({ event: 'Stop', session_id: 's1' });
    expect(broken.decision.hooks).toMatchObject([{ id: 'post-task', status: 'not_run', reason: expect.stringContaining('outbox unavailable') }]);
    expect(broken.decision.warnings).toMatchObject([{ code: 'outbox_unavailable', hook: 'post-task' }]);
    expect(broken.result.stderr).toContain('warning outbox_unavailable');
    expect(readdirSync(join(s.root, 'elsewhere'))).toEqual([]);
    rmSync(outbox(s, 'pending'));
    const repaired = await s.fire({ event: 'Stop', session_id: 's1' });
    expect(repaired.decision.hooks).toMatchObject([{ id: 'post-task', status: 'queued' }]);
    expect(jobs(s, 'pending')).toMatchObject([{ hook_id: 'post-task' }]);
    const third = await s.fire({ event: 'Stop', session_id: 's1' });
    expect(third.decision.hooks).toMatchObject([{ id: 'post-task', status: 'skipped', reason: expect.stringContaining('once_per_session') }]);
  });

  it('keeps the chance when a file stands where outbox/pending should be', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'prompts', 'post-task.md'), 'x');
    s.globalHooks(FOLLOW_UP());
    s.write(outbox(s, 'pending'), 'not a directory');
    expect((await s.fire({ event: 'Stop', session_id: 's2' })).decision.hooks).toMatchObject([{ status: 'not_run' }]);
    rmSync(outbox(s, 'pending'));
    expect((await s.fire({ event: 'Stop', session_id: 's2' })).decision.hooks).toMatchObject([{ status: 'queued' }]);
    expect(jobs(s, 'pending')).toHaveLength(1);
  });

  it('refuses in drain-outbox a second job for the same hook and session', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'prompts', 'post-task.md'), 'x');
    s.globalHooks(FOLLOW_UP());
    await s.fire({ event: 'Stop', session_id: 's1' });
    const [queued] = jobs(s, 'pending');
    pendingJob(s, 'zz-copy', { hook_id: 'post-task', event: 'conversation_done', payload: { ...queued.payload }, due_at: HOUR_AGO });
    writeFileSync(join(outbox(s, 'pending'), `${queued.job_id}.json`), JSON.stringify({ ...queued, due_at: HOUR_AGO }));
    const out = await drain(s);
    const outcomes = Object.fromEntries(out.jobs.map((j: any) => [j.job_id, j.outcome]));
    expect(outcomes).toEqual({ [queued.job_id]: 'done', 'zz-copy': 'failed' });
    expect(jobs(s, 'failed')).toMatchObject([{ job_id: 'zz-copy', error: expect.stringContaining('once_per_session') }]);
    expect(lines(join(s.root, 'follow-ups'))).toHaveLength(1);
  });

  it('skips cron sessions and over-large conversations, saying why', async () => {
    const s = sandbox();
    s.write(join(s.configDir, 'hooks', 'prompts', 'post-task.md'), 'x');
    s.globalHooks(FOLLOW_UP());
    const cron = await s.fire({ event: 'Stop', session_id: 'c', session_kind: 'cron' });
    const big = await s.fire({ event: 'Stop', session_id: 'b', context_tokens: 90000 });
    expect(cron.decision.hooks).toMatchObject([{ status: 'skipped', reason: expect.stringContaining('cron') }]);
    expect(big.decision.hooks).toMatchObject([{ status: 'skipped', reason: expect.stringContaining('90000') }]);
    expect(jobs(s, 'pending')).toEqual([]);
  });
});

/** Resolves once the job's lock, held by a killed claimant, is older than LOCK_STALE_MS: until then every drain reports it claimed. */
async function lockGoesStale(s: Sandbox, jobId: string): Promise<void> {
  const lock = join(outbox(s, 'locks'), `${jobId}.lock`);
  await eventually(() => !existsSync(lock) || Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS, 30_000, `the lock of ${jobId} to go stale`);
}

/** Runs drain-outbox until `done(summary)` holds; each call is a real drain, so this waits on the outbox's state. */
async function pollDrain(s: Sandbox, done: (summary: any) => boolean, ms: number): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const out = await drain(s);
    if (done(out)) return out;
    if (Date.now() > deadline) throw new Error(`drain-outbox did not get there in ${ms} ms: ${JSON.stringify(out)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A durable hook `deliver` with the default drain settings (outbox_retry_age_seconds 60). */
const DEFAULTS = (shell: string, execution = ''): string =>
  `hooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable${execution}` })}\n`;
const SECONDS_AGO = (n: number): string => new Date(Date.now() - n * 1000).toISOString();

describe('delays run on time (default retry age)', () => {
  it('runs a delay_seconds: 2 follow-up within a second of its due_at under drain-outbox --watch', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('echo ran', '\ndelay_seconds: 2'));
    const watcher = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--json', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false, cwd: s.workspace });
    try {
      let log = '';
      await new Promise<void>((ready) => watcher.stderr!.on('data', (c: Buffer) => ((log += c.toString()), log.includes('"watching"') && ready())));
      const done = jobFileIn(outbox(s, 'done'), 20_000, 'the delayed job in done/');
      const { decision } = await s.fire({ event: 'after_tool_call', session_id: 's', tool: { name: 'x' } });
      expect(decision.hooks).toMatchObject([{ id: 'deliver', status: 'queued' }]);
      const name = await done;
      const job = JSON.parse(readFileSync(join(outbox(s, 'done'), name), 'utf8'));
      const late = Date.parse(job.last_started_at) - Date.parse(job.due_at);
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(1000);
      expect(job).toMatchObject({ state: 'done', retries: 1 });
    } finally {
      watcher.kill('SIGTERM');
      await watcher;
    }
  });

  it('--requeue-failed makes failed jobs due at once: the next drain runs them', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('echo ran >> ../ran'));
    mkdirSync(outbox(s, 'failed'), { recursive: true });
    for (const id of ['a1', 'a2']) {
      writeFileSync(join(outbox(s, 'failed'), `${id}.json`), JSON.stringify({
        job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' },
        created_at: SECONDS_AGO(20), hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
        state: 'failed', retries: 1, last_started_at: SECONDS_AGO(5), last_finished_at: SECONDS_AGO(4), exit_code: 1, error: 'exited with status 1', stderr_tail: null,
      }));
    }
    const requeue = await s.run(['drain-outbox', '--requeue-failed']);
    expect(requeue.stdout).toContain('requeued 2 failed jobs, due at once');
    const out = await drain(s);
    expect(out).toMatchObject({ ran: 2, done: 2, skipped: { young: 0 } });
    expect(lines(join(s.root, 'ran'))).toHaveLength(2);
  });

  it('--dry-run shows each job\'s due time', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('true'));
    const before = Date.now();
    const soon = new Date(before + 600_000).toISOString();
    pendingJob(s, 'soon', { due_at: soon });
    pendingJob(s, 'started', { retries: 1, last_started_at: new Date(before - 30_000).toISOString() });
    pendingJob(s, 'now');
    const r = await s.run(['drain-outbox', '--dry-run']);
    const after = Date.now();
    expect(r.exitCode, r.stderr).toBe(0);
    // "due <time> (in 9m 58s)": the time itself, and what was left of the wait when the drain looked (to the
    // second, between the test's start and the drain's end: a loaded machine may take seconds to start it).
    const shown = (line: RegExp, due: string): void => {
      const m = line.exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();
      expect(m![1]).toBe(due);
      const left = Number(m![2] ?? 0) * 60 + Number(m![3] ?? 0);
      expect(left, m![0]).toBeGreaterThanOrEqual(Math.round((Date.parse(due) - after) / 1000));
      expect(left, m![0]).toBeLessThanOrEqual(Math.round((Date.parse(due) - before) / 1000));
    };
    shown(/not_due +soon +deliver +due (\S+Z) \(in (?:(\d+)m)(?: (\d+)s)?\)/, soon);
    // Started 30 s ago under the default 60 s retry age.
    shown(/young +started +deliver +due (\S+Z) \(in ()(\d+)s\)/, new Date(before + 30_000).toISOString());
    expect(r.stdout).toMatch(/would_run +now +deliver +due now/);
  });

  it('a worker and drains racing on a fresh job never start it twice at once', async () => {
    const s = sandbox();
    const gate = join(s.root, 'gate');
    await execa('mkfifo', [gate]);
    // The hook holds its run open until the test writes to the gate: any second start would overlap it.
    s.globalHooks(DEFAULTS('echo start >> ../starts; read line < ../gate; echo end >> ../starts'));
    await s.fire({ event: 'after_tool_call', session_id: 's', tool: { name: 'x' } });
    const drains = [s.run(['drain-outbox', '--json']), s.run(['drain-outbox', '--json']), s.run(['drain-outbox', '--json'])];
    await eventually(() => lines(join(s.root, 'starts')).length > 0, 30_000, 'the first start');
    const done = jobFileIn(outbox(s, 'done'), 30_000, 'the job in done/');
    await writeFile(gate, 'go\n');
    await done;
    const summaries = (await Promise.all(drains)).map((r) => JSON.parse(r.stdout));
    expect(lines(join(s.root, 'starts'))).toEqual(['start', 'end']);
    expect(jobs(s, 'done')).toMatchObject([{ retries: 1 }]);
    expect(summaries.reduce((n, d) => n + d.ran, 0)).toBeLessThanOrEqual(1);
  });
});

describe('the drain summary names failed jobs', () => {
  it('counts and names the jobs in failed/, in text and in --json (every earlier key kept)', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('exit 3'));
    pendingJob(s, 'bad');
    const out = await drain(s);
    for (const k of ['considered', 'ran', 'done', 'failed', 'deferred', 'pending', 'would_run', 'would_fail', 'skipped', 'jobs', 'warnings']) expect(out).toHaveProperty(k);
    expect(out.failed_jobs).toEqual([{ job_id: 'bad', hook_id: 'deliver', error: 'exited with status 3', failed_at: expect.any(String) }]);
    const text = await s.run(['drain-outbox']);
    expect(text.stdout).toContain('1 failed job in the outbox: bad (deliver: exited with status 3)');
    expect(text.stdout).toContain('chrys-hooks outbox retry --failed');
  });
});

describe('chrys-hooks outbox', () => {
  const outboxCmd = (s: Sandbox, ...args: string[]) => s.run(['outbox', ...args]);
  /** Queues job `id` for a hook running `shell`, which waits at `read line < ../gate` until openGate(), and starts a drain on it. */
  async function drainGatedJob(s: Sandbox, id: string, shell: string): Promise<{ drainer: Promise<any>; openGate: () => Promise<void> }> {
    const gate = join(s.root, 'gate');
    await execa('mkfifo', [gate]);
    s.globalHooks(DELIVER(shell));
    pendingJob(s, id);
    return { drainer: drain(s), openGate: () => writeFile(gate, 'go\n') };
  }
  // s.run waits for the exit; a follower has to be watched while it runs.
  const followLogs = (s: Sandbox, id: string) =>
    execa(process.execPath, [BIN, 'outbox', 'logs', id, '--follow', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false, cwd: s.workspace });

  it('list shows each job with state, due time, attempts and last error; --state filters; --json has the fields', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('true'));
    pendingJob(s, 'p1', { due_at: new Date(Date.now() + 600_000).toISOString(), payload: { event: 'after_tool_call', session_id: 'sess-1' } });
    pendingJob(s, 'd1', { error: 'deferred', due_at: new Date(Date.now() + 60_000).toISOString(), retries: 1, last_started_at: SECONDS_AGO(1) });
    mkdirSync(outbox(s, 'failed'), { recursive: true });
    writeFileSync(join(outbox(s, 'failed'), 'f1.json'), JSON.stringify({ job_id: 'f1', hook_id: 'deliver', event: 'after_tool_call', payload: {}, created_at: HOUR_AGO, state: 'failed', retries: 2, error: 'exited with status 4' }));
    const text = await outboxCmd(s, 'list');
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/p1 +pending +deliver +after_tool_call +sess-1 +in (9m 5\ds|10m) \(\S+Z\) +0 +-/);
    expect(text.stdout).toMatch(/d1 +deferred +deliver .* +1 +deferred/);
    expect(text.stdout).toMatch(/f1 +failed +deliver .* - +2 +exited with status 4/);
    const json = JSON.parse((await outboxCmd(s, 'list', '--json')).stdout);
    expect(json.jobs.map((j: any) => [j.job_id, j.state])).toEqual([['d1', 'deferred'], ['p1', 'pending'], ['f1', 'failed']]);
    expect(json.jobs[1]).toEqual({
      job_id: 'p1', hook_id: 'deliver', event: 'after_tool_call', session_id: 'sess-1', state: 'pending',
      due_at: expect.stringMatching(/Z$/), due_in_seconds: expect.any(Number), attempts: 0, last_error: null, log_path: null, fallen_back: false,
    });
    expect(JSON.parse((await outboxCmd(s, 'list', '--state', 'failed', '--json')).stdout).jobs.map((j: any) => j.job_id)).toEqual(['f1']);
    expect(JSON.parse((await outboxCmd(s, 'list', '--state', 'deferred', '--json')).stdout).jobs.map((j: any) => j.job_id)).toEqual(['d1']);
    expect((await outboxCmd(s, 'list', '--state', 'done')).stdout).toBe('no done jobs');
    expect((await outboxCmd(s, 'list', '--state', 'nope')).exitCode).toBe(64);
  });

  it('show prints the job, its history and its log tail; logs prints the log', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo said-hello; echo went-wrong >&2; exit 5'));
    pendingJob(s, 'j1');
    await drain(s);
    const shown = await outboxCmd(s, 'show', 'j1');
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/state +failed/);
    expect(shown.stdout).toMatch(/history\n .*created by after_tool_call for hook deliver\n .*started \(start 1\)\n .*finished failed, exit 5/);
    expect(shown.stdout).toContain('| said-hello');
    const json = JSON.parse((await outboxCmd(s, 'show', 'j1', '--json')).stdout);
    expect(json).toMatchObject({ job_id: 'j1', state: 'failed', attempts: 1, last_error: 'exited with status 5', job: { job_id: 'j1', exit_code: 5 }, history: expect.any(Array) });
    expect(json.log_tail).toContain('went-wrong');
    const log = await outboxCmd(s, 'logs', 'j1');
    expect(log.stdout).toContain('said-hello');
    expect(log.stdout.trimEnd()).toBe(readFileSync(json.log_path, 'utf8').trimEnd());
  });

  it('an unknown or unsafe job id is a clear error naming the id and outbox list (exit 65)', async () => {
    const s = sandbox();
    for (const args of [['show', 'nope'], ['logs', 'nope'], ['retry', 'nope'], ['drop', 'nope'], ['show', '../../etc/passwd']]) {
      const r = await outboxCmd(s, ...args);
      expect(r.exitCode, args.join(' ')).toBe(65);
      expect(r.stderr).toContain(`no job "${args[1]}" in the outbox`);
      expect(r.stderr).toContain('chrys-hooks outbox list');
    }
    expect((await outboxCmd(s, 'frobnicate')).exitCode).toBe(64);
    expect((await outboxCmd(s, 'show')).exitCode).toBe(64);
  });

  it('an unreadable outbox is outbox_unreadable (exit 74)', async () => {
    const s = sandbox();
    mkdirSync(join(s.configDir, 'hooks', 'outbox'), { recursive: true });
    writeFileSync(outbox(s, 'pending'), 'not a directory');
    const r = await outboxCmd(s, 'list');
    expect(r.exitCode).toBe(74);
    expect(r.stderr).toContain('cannot read the outbox');
  });

  it('retry makes a not-due job due at once and a failed one pending with a fresh count; retry --failed does all', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('echo ran >> ../ran'));
    pendingJob(s, 'later', { due_at: new Date(Date.now() + 3600_000).toISOString() });
    mkdirSync(outbox(s, 'failed'), { recursive: true });
    for (const id of ['f1', 'f2']) writeFileSync(join(outbox(s, 'failed'), `${id}.json`), JSON.stringify({ job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: {}, created_at: HOUR_AGO, hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'), state: 'failed', retries: 3, last_started_at: SECONDS_AGO(2), error: 'max_retries' }));
    const one = await outboxCmd(s, 'retry', 'later');
    expect(one.exitCode, one.stderr).toBe(0);
    expect(one.stdout).toContain('requeued later (was pending): due now');
    const all = JSON.parse((await outboxCmd(s, 'retry', '--failed', '--json')).stdout);
    expect(all).toEqual({ changes: [{ job_id: 'f1', outcome: 'requeued', from: 'failed' }, { job_id: 'f2', outcome: 'requeued', from: 'failed' }] });
    expect(jobs(s, 'pending').map((j) => [j.job_id, j.retries])).toEqual([['f1', 0], ['f2', 0], ['later', 0]]);
    expect(await drain(s)).toMatchObject({ ran: 3, done: 3 });
    expect((await outboxCmd(s, 'retry', 'later')).exitCode).toBe(1); // done: refused
    expect((await outboxCmd(s, 'retry', 'later', '--failed')).exitCode).toBe(64);
  });

  it('drop removes a pending or failed job, but never one that is running (under the drain\'s claim)', async () => {
    const s = sandbox();
    pendingJob(s, 'idle', { due_at: new Date(Date.now() + 3600_000).toISOString() });
    const { drainer, openGate } = await drainGatedJob(s, 'running', 'echo start >> ../starts; read line < ../gate');
    await eventually(() => lines(join(s.root, 'starts')).length > 0, 30_000, 'the run to start');
    const refused = await outboxCmd(s, 'drop', 'running');
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain('job running is running');
    expect(existsSync(join(outbox(s, 'pending'), 'running.json'))).toBe(true);
    const dropped = JSON.parse((await outboxCmd(s, 'drop', 'idle', '--json')).stdout);
    expect(dropped).toEqual({ changes: [{ job_id: 'idle', outcome: 'dropped', from: 'pending' }] });
    expect(existsSync(join(outbox(s, 'pending'), 'idle.json'))).toBe(false);
    await openGate();
    expect(await drainer).toMatchObject({ done: 1 });
    expect((await outboxCmd(s, 'drop', 'running')).exitCode).toBe(1); // done now: refused
  });

  it('logs --follow prints the run\'s output as it comes, then its status, and stops when the job leaves pending', async () => {
    const s = sandbox();
    s.globalHooks(DELIVER('echo followed-output'));
    pendingJob(s, 'f');
    const follow = followLogs(s, 'f');
    await new Promise<void>((ready) => follow.stderr!.on('data', (c: Buffer) => c.toString().includes('following job f') && ready()));
    await drain(s);
    const r = await follow;
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('followed-output');
  });

  it('logs --follow streams a running hook\'s output before the run ends, and prints it once', async () => {
    const s = sandbox();
    const { drainer, openGate } = await drainGatedJob(s, 'live', 'echo first-half; echo to-stderr >&2; read line < ../gate; echo second-half');
    const follow = followLogs(s, 'live');
    let seen = '';
    // The hook is still blocked on its gate: this output can only have come from the live log.
    await new Promise<void>((ready) => follow.stdout!.on('data', (c: Buffer) => (seen += c.toString()).includes('first-half') && ready()));
    expect(seen).not.toContain('second-half');
    await openGate();
    expect(await drainer).toMatchObject({ done: 1 });
    const r = await follow;
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out.match(/first-half/g)).toHaveLength(1);
    expect(out.match(/second-half/g)).toHaveLength(1);
    expect(out).toContain('to-stderr');
    expect(out).toMatch(/\n# hook deliver \(global, after_tool_call\) ok exit=0/);
    expect(out).not.toContain('## stdout'); // the log's copy of the output is not printed again
    expect(readdirSync(join(s.configDir, 'hooks', 'logs', 'live'))).toEqual([]); // gone once the run ended
  });
});

describe('list shows waiting jobs', () => {
  it('list --json shows a queued 10-minute job, and the text lists it', async () => {
    const s = sandbox();
    s.globalHooks(DEFAULTS('true', '\ndelay_seconds: 600'));
    await s.fire({ event: 'after_tool_call', session_id: 's', tool: { name: 'x' } });
    const [job] = jobs(s, 'pending');
    const json = JSON.parse((await s.run(['list', '--json'])).stdout);
    expect(json.queued).toEqual([{ job_id: job.job_id, hook_id: 'deliver', due_at: job.due_at, retries: 0, reason: null }]);
    expect(json.deferred).toEqual([]);
    const text = (await s.run(['list'])).stdout;
    expect(text).toContain('queued jobs');
    expect(text).toContain(job.job_id);
  });
});
