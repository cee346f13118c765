// The drain (outbox/drain.ts) and how it finds a job's hook again
// (outbox/find-hook.ts), in-process on temp directories, with real hook
// processes and the real loader and trust decisions.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planTrust, recordTrustPlan } from '../../src/engine/trust.js';
import { historyPath } from '../../src/state/history.js';
import { type DrainOptions, Drainer, drainOutbox, shellWord } from '../../src/outbox/drain.js';
import { HookFinder, projectWorkspace } from '../../src/outbox/find-hook.js';
import type { Job } from '../../src/outbox/job.js';
import { Sandbox, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const others: Sandbox[] = [];
/** A second sandbox in the same test. */
const another = (): Sandbox => {
  const s = new Sandbox();
  others.push(s);
  return s;
};
afterEach(() => {
  for (const s of others.splice(0)) s.cleanup();
});
const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();
let savedSwitch: string | undefined;
beforeEach(() => {
  savedSwitch = process.env.CHRYS_PROJECT_HOOKS;
  delete process.env.CHRYS_PROJECT_HOOKS;
});
afterEach(() => {
  if (savedSwitch === undefined) delete process.env.CHRYS_PROJECT_HOOKS;
  else process.env.CHRYS_PROJECT_HOOKS = savedSwitch;
});

const pendingDir = (s: Sandbox): string => join(s.configDir, 'hooks', 'outbox', 'pending');
const folder = (s: Sandbox, name: string): string[] => {
  const dir = join(s.configDir, 'hooks', 'outbox', name);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
};
const filed = (s: Sandbox, name: string, id: string): Job => JSON.parse(readFileSync(join(s.configDir, 'hooks', 'outbox', name, `${id}.json`), 'utf8'));

function job(s: Sandbox, id: string, fields: Record<string, unknown> = {}): Job {
  return {
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: 'sess', cwd: s.workspace },
    created_at: HOUR_AGO, hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    ...fields,
  } as Job;
}

function pending(s: Sandbox, id: string, fields: Record<string, unknown> = {}): void {
  mkdirSync(pendingDir(s), { recursive: true });
  writeFileSync(join(pendingDir(s), `${id}.json`), JSON.stringify(job(s, id, fields)));
}

const durable = (id: string, shell: string, execution = ''): string =>
  hookYaml({ id, event: 'after_tool_call', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable${execution}` });
const hooksFile = (settings: string, ...hooks: string[]): string => `settings:\n  outbox_retry_age_seconds: 0\n${settings}hooks:\n${hooks.join('\n')}\n`;

const drain = (s: Sandbox, opts: Partial<DrainOptions> = {}) => drainOutbox({ configDir: s.configDir, cwd: s.workspace, ...opts });
// In job order: a failure is reported at once, a run when it ends.
const outcomes = (summary: { jobs: { job_id: string; outcome: string }[] }): [string, string][] => summary.jobs.map((j): [string, string] => [j.job_id, j.outcome]).sort((a, b) => a[0].localeCompare(b[0]));
const ran = (s: Sandbox): string[] => (existsSync(join(s.root, 'ran')) ? readFileSync(join(s.root, 'ran'), 'utf8').split('\n').filter(Boolean) : []);

/** A project file with hook `deliver`, and a project job naming it. */
function projectJob(s: Sandbox, content = hooksFile('', durable('deliver', 'echo project >> ../ran'))): string {
  s.globalHooks(hooksFile(''));
  const path = s.projectHooks(content);
  pending(s, 'p', { hook_source: 'project', hook_source_path: path });
  return path;
}

describe('drainOutbox: running jobs', () => {
  it('runs a due global job in its workspace, files it done, and counts it', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'pwd >> ../ran')));
    pending(s, 'g');
    const progress: [number, number][] = [];
    const out = await drain(s, { onProgress: (d, t) => progress.push([d, t]) });
    expect(outcomes(out)).toEqual([['g', 'done']]);
    expect(out).toMatchObject({ considered: 1, ran: 1, done: 1, failed: 0 });
    expect(out.jobs[0]!.log_path).toMatch(/deliver\.log$/);
    expect(ran(s)).toEqual([s.workspace]);
    expect(progress).toEqual([[1, 1]]);
    expect(filed(s, 'done', 'g')).toMatchObject({ state: 'done', retries: 1, exit_code: 0 });
  });

  it('hands the hook its session and profile, keeps stderr_tail for failures only, and records the run in the history', async () => {
    const s = sandbox();
    const file = s.globalHooks(hooksFile('', hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'echo \"$S $P\" >> ../ran; echo noise >&2'\nenv:\n  S: '${session_id}'\n  P: '${profile}'", execution: 'mode: async\ndelivery: durable' })));
    pending(s, 'g', { payload: { event: 'after_tool_call', session_id: 'sess-1', profile: 'prof', cwd: s.workspace } });
    const out = await drain(s);
    expect(out.jobs).toEqual([{ job_id: 'g', hook_id: 'deliver', outcome: 'done', log_path: expect.any(String) }]);
    expect(ran(s)).toEqual(['sess-1 prof']);
    const history = readFileSync(historyPath(s.configDir, { source: 'global', file, id: 'deliver' }), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(history).toMatchObject([{ hook_id: 'deliver', status: 'ok', session_id: 'sess-1', exit_code: 0 }]);
  });

  it('defers a job whose hook says "not yet", with its due time, and tells the watcher when', async () => {
    const s = sandbox();
    const file = s.globalHooks(hooksFile('  outbox_retry_delay_seconds: 30\n', durable('deliver', 'exit 75')));
    pending(s, 'g');
    const drainer = new Drainer({ configDir: s.configDir, cwd: s.workspace });
    const told: number[] = [];
    drainer.onDeferred = (at) => told.push(at);
    await drainer.pass();
    await drainer.idle();
    drainer.close();
    const [report] = drainer.tally.summary.jobs;
    expect(report).toMatchObject({ job_id: 'g', outcome: 'deferred' });
    expect(report!.stderr_tail).toBeUndefined();
    expect(told).toEqual([Date.parse(report!.due_at!)]);
    expect(Date.parse(report!.due_at!)).toBeGreaterThan(Date.now() + 20_000);
    expect(drainer.tally.summary.deferred).toBe(1);
    const history = readFileSync(historyPath(s.configDir, { source: 'global', file, id: 'deliver' }), 'utf8');
    expect(JSON.parse(history)).toMatchObject({ status: 'deferred', exit_code: 75 });
    expect(folder(s, 'pending')).toEqual(['g.json']);
  });

  it('defers a job in a one-shot drain too, with no watcher to tell', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  outbox_retry_delay_seconds: 30\n', durable('deliver', 'exit 75')));
    pending(s, 'g');
    const out = await drain(s);
    expect(out.jobs).toMatchObject([{ job_id: 'g', outcome: 'deferred', due_at: expect.any(String) }]);
    expect(filed(s, 'pending', 'g')).toMatchObject({ error: 'deferred', due_at: out.jobs[0]!.due_at });
  });

  it('reports a job not due yet with its due time and nothing more, and runs it not', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo ran >> ../ran')));
    const dueAt = new Date(Date.now() + 3600_000).toISOString();
    pending(s, 'g', { due_at: dueAt });
    const out = await drain(s);
    expect(out.jobs).toEqual([{ job_id: 'g', hook_id: 'deliver', outcome: 'not_due', due_at: dueAt }]);
    expect(ran(s)).toEqual([]);
  });

  it('reports a queued job finished by someone else before its turn as claimed', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', `rm -f ${join(pendingDir(s), 'b.json')}`)));
    pending(s, 'a');
    pending(s, 'b');
    const out = await drain(s);
    expect(outcomes(out)).toEqual([['a', 'done'], ['b', 'claimed']]);
    expect(out.jobs.find((j) => j.job_id === 'b')).toEqual({ job_id: 'b', hook_id: 'deliver', outcome: 'claimed' });
  });

  it('leaves a queued job whose file is no longer a job by its turn pending, saying why, for the next pass', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', `echo garbage > ${join(pendingDir(s), 'b.json')}`)));
    pending(s, 'a');
    pending(s, 'b');
    const out = await drain(s);
    expect(outcomes(out)).toEqual([['a', 'done'], ['b', 'pending']]);
    expect(out.jobs.find((j) => j.job_id === 'b')).toEqual({ job_id: 'b', hook_id: 'deliver', outcome: 'pending', error: expect.stringMatching(/^could not run: not valid JSON: /) });
    expect(folder(s, 'pending')).toEqual(['b.json']);
  });

  it('warns that the outbox is unavailable when a job cannot be filed or read, and counts only the one it started as run', async () => {
    const s = sandbox();
    const pendingPath = pendingDir(s);
    const file = s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', `rm -rf ${pendingPath} && echo x > ${pendingPath}`)));
    pending(s, 'a');
    pending(s, 'b');
    const out = await drain(s);
    expect(out.jobs).toMatchObject([
      { job_id: 'a', outcome: 'pending', error: expect.stringMatching(/^ran, but cannot file the job \(\w+\); it stays pending$/) },
      { job_id: 'b', outcome: 'pending', error: `cannot read the outbox at ${join(pendingPath, 'b.json')} (ENOTDIR); not started` },
    ]);
    expect(out.warnings).toEqual(out.jobs.map((j) => ({ code: 'outbox_unavailable', hook: 'deliver', message: `job ${j.job_id}: ${j.error}` })));
    expect(out).toMatchObject({ considered: 2, ran: 1, pending: 2 });
    // Only the run that happened is in the hook's history.
    const history = readFileSync(historyPath(s.configDir, { source: 'global', file, id: 'deliver' }), 'utf8').split('\n').filter(Boolean);
    expect(history.map((line) => JSON.parse(line).exit_code)).toEqual([0]);
  });

  it('counts a detached job as run once it is launched', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', hookYaml({ id: 'deliver', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: fire_and_forget\ndelivery: durable\ndetach: true' })));
    pending(s, 'g');
    const out = await drain(s);
    expect(outcomes(out)).toEqual([['g', 'done']]);
    expect(out).toMatchObject({ considered: 1, ran: 1, done: 1 });
  });

  it('gives no warning for a job that ran and was filed', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'true')));
    pending(s, 'g');
    const out = await drain(s);
    expect(outcomes(out)).toEqual([['g', 'done']]);
    expect(out.warnings).toEqual([]);
  });

  it('counts every job in the progress total while others still run', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  max_parallel_hooks: 2\n', durable('deliver', 'true')));
    for (const id of ['a', 'b', 'c']) pending(s, id);
    const progress: [number, number][] = [];
    await drain(s, { onProgress: (d, t) => progress.push([d, t]) });
    expect(progress).toEqual([[1, 3], [2, 3], [3, 3]]);
  });

  it('gives a job that ran to the end no due time, and tells the watcher of no wake-up', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'true')));
    pending(s, 'g', { due_at: new Date(Date.now() - 1000).toISOString() });
    const drainer = new Drainer({ configDir: s.configDir, cwd: s.workspace });
    const told: number[] = [];
    drainer.onDeferred = (at) => told.push(at);
    await drainer.pass();
    await drainer.idle();
    drainer.close();
    const [report] = drainer.tally.summary.jobs;
    expect(report).toMatchObject({ job_id: 'g', outcome: 'done' });
    expect(report).not.toHaveProperty('due_at');
    expect(told).toEqual([]);
  });

  it('reports progress as jobs end, and sweeps stale temp files and old logs unless it is a dry run', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', 'true')));
    pending(s, 'a');
    pending(s, 'b');
    const old = new Date(Date.now() - 8 * 86_400_000);
    const staleTmp = s.write(join(pendingDir(s), 'x.json.999999999.abcdef.tmp'), '');
    const oldLog = s.write(join(s.configDir, 'hooks', 'logs', 'mx0aaaaa-0123abcd-old.log'), 'old');
    for (const f of [staleTmp, oldLog]) utimesSync(f, old, old);
    expect(outcomes(await drain(s, { dryRun: true }))).toEqual([['a', 'would_run'], ['b', 'would_run']]);
    expect([existsSync(staleTmp), existsSync(oldLog)]).toEqual([true, true]);
    const progress: [number, number][] = [];
    await drain(s, { onProgress: (d, t) => progress.push([d, t]) });
    expect(progress).toEqual([[1, 2], [2, 2]]);
    expect([existsSync(staleTmp), existsSync(oldLog)]).toEqual([false, false]);
  });

  it('leaves a job pending, saying why, when it cannot be moved to failed/', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile(''));
    pending(s, 'g');
    s.write(join(s.configDir, 'hooks', 'outbox', 'failed'), 'a file where the folder should be');
    const out = await drain(s);
    expect(out.jobs).toMatchObject([{ job_id: 'g', outcome: 'pending', error: expect.stringContaining('; could not move it to failed/: ') }]);
    expect(folder(s, 'pending')).toEqual(['g.json']);
  });

  it('runs a job in the workspace its event came from, not in --cwd', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'pwd >> ../ran')));
    const from = join(s.root, 'from');
    mkdirSync(from);
    pending(s, 'g', { payload: { event: 'after_tool_call', cwd: from } });
    await drain(s);
    expect(ran(s)).toEqual([from]);
  });

  it('sweeps what a firing that is gone left in hooks/tmp: its directory and its payload file', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile(''));
    const tmp = join(s.configDir, 'hooks', 'tmp');
    const firing = join(tmp, 'firing-999999999-0123456789ab');
    const payload = s.write(join(tmp, 'payload-999999999-abcdef.json'), '{}');
    s.write(join(firing, 'payload.json'), '{}');
    const old = new Date(Date.now() - 86_400_000);
    for (const f of [payload, firing]) utimesSync(f, old, old);
    await drain(s);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('runs a job whose payload cwd is gone in --cwd', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'pwd >> ../ran')));
    pending(s, 'g', { payload: { event: 'after_tool_call', cwd: join(s.root, 'gone') } });
    await drain(s);
    expect(ran(s)).toEqual([s.workspace]);
  });

  it('files a failing job in failed/ with its stderr tail and log', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo said-no >&2; exit 3')));
    pending(s, 'g');
    const out = await drain(s);
    expect(out.jobs).toMatchObject([{ job_id: 'g', outcome: 'failed', error: 'exited with status 3' }]);
    expect(out.jobs[0]!.stderr_tail).toContain('said-no');
    expect(out.jobs[0]!.log_path).toBeDefined();
    expect(out.failed).toBe(1);
    expect(folder(s, 'failed')).toEqual(['g.json']);
  });

  it('takes settings from the global file only, not the project file', async () => {
    const s = sandbox();
    s.globalHooks('settings:\n  outbox_retry_age_seconds: 0\n  outbox_max_retries: 1\nhooks:\n' + durable('deliver', 'echo g >> ../ran') + '\n');
    s.projectHooks('settings:\n  outbox_max_retries: 9\nhooks: []\n');
    pending(s, 'tired', { retries: 1 });
    pending(s, 'fresh', { created_at: new Date().toISOString() });
    const out = await drain(s, { projectHooks: true });
    expect(outcomes(out)).toEqual([['fresh', 'done'], ['tired', 'max_retries']]);
    // Without a global file, the defaults: a job started just now is too young (outbox_retry_age_seconds 60).
    const t = another();
    pending(t, 'restarted', { retries: 1, last_started_at: new Date().toISOString() });
    expect(outcomes(await drain(t))).toEqual([['restarted', 'young']]);
  });

  it('moves an invalid job file to failed/, and says what a dry run would do without moving anything', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran')));
    mkdirSync(pendingDir(s), { recursive: true });
    writeFileSync(join(pendingDir(s), 'a-junk.json'), 'hello');
    pending(s, 'b-gone-hook', { hook_id: 'renamed' });
    pending(s, 'c-good');
    const dry = await drain(s, { dryRun: true });
    expect(outcomes(dry)).toEqual([['a-junk', 'invalid_job'], ['b-gone-hook', 'stale_source'], ['c-good', 'would_run']]);
    expect(dry.jobs.find((j) => j.job_id === 'a-junk')!.hook_id).toBe('');
    expect(dry).toMatchObject({ would_fail: 2, would_run: 1, failed: 0, ran: 0 });
    expect(dry.jobs[0]!.error).toMatch(/would move to failed\/$/);
    expect(folder(s, 'pending')).toHaveLength(3);
    expect(ran(s)).toEqual([]);
    const out = await drain(s);
    expect(outcomes(out)).toEqual([['a-junk', 'invalid_job'], ['b-gone-hook', 'stale_source'], ['c-good', 'done']]);
    expect(out.jobs[0]!.error).toMatch(/moved to failed\/$/);
    expect(out.jobs[1]!.error).toBe('hook "renamed" is no longer in ' + join(s.configDir, 'hooks', 'hooks.yaml') + ' (or is disabled)');
    expect(folder(s, 'failed')).toEqual(['a-junk.json', 'b-gone-hook.json']);
    expect(filed(s, 'failed', 'b-gone-hook')).toMatchObject({ state: 'failed', error: 'stale_source' });
  });

  it('runs at most --limit jobs', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran')));
    for (const id of ['j1', 'j2', 'j3']) pending(s, id);
    const out = await drain(s, { limit: 1 });
    expect(outcomes(out)).toEqual([['j1', 'done'], ['j2', 'limit'], ['j3', 'limit']]);
  });

  it('refuses a second once_per_session run in the session into failed/', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran', '\nonce_per_session: true')));
    pending(s, 'first');
    await drain(s);
    pending(s, 'second');
    const out = await drain(s);
    expect(out.jobs).toMatchObject([{ job_id: 'second', outcome: 'failed', error: 'once_per_session: already ran in session sess' }]);
    expect(ran(s)).toEqual(['g']);
  });

  it('keeps no job reports when asked not to, but still tells them one by one', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'true')));
    pending(s, 'g');
    const told: string[] = [];
    const out = await drain(s, { keepJobs: false, onJob: (r) => told.push(`${r.job_id}:${r.outcome}`) });
    expect(out.jobs).toEqual([]);
    expect(out.done).toBe(1);
    expect(told).toEqual(['g:done']);
  });
});

describe('drainOutbox: trust, decided as the loader decides it', () => {
  it('leaves an untrusted project job pending and names the trust command; runs it once trusted', async () => {
    const s = sandbox();
    projectJob(s);
    const untrusted = await drain(s);
    expect(untrusted.jobs).toMatchObject([{ job_id: 'p', outcome: 'untrusted', command: `chrys-hooks trust --cwd ${s.workspace} --config-dir ${s.configDir}` }]);
    expect(untrusted.skipped.untrusted).toBe(1);
    expect(folder(s, 'pending')).toEqual(['p.json']);
    expect(ran(s)).toEqual([]);
    const off = await drain(s, { projectHooks: false });
    expect(off.jobs).toMatchObject([{ outcome: 'untrusted', command: `chrys-hooks drain-outbox --project-hooks --config-dir ${s.configDir}` }]);
    expect(outcomes(await drain(s, { projectHooks: true }))).toEqual([['p', 'done']]);
    expect(ran(s)).toEqual(['project']);
  });

  it('trusts by CHRYS_PROJECT_HOOKS, by project.hooks_enabled, and by the trust record until the file changes', async () => {
    const s = sandbox();
    projectJob(s);
    process.env.CHRYS_PROJECT_HOOKS = '0';
    expect((await drain(s)).jobs).toMatchObject([{ outcome: 'untrusted', command: expect.stringContaining('drain-outbox --project-hooks') }]);
    process.env.CHRYS_PROJECT_HOOKS = '1';
    expect(outcomes(await drain(s, { dryRun: true }))).toEqual([['p', 'would_run']]);
    delete process.env.CHRYS_PROJECT_HOOKS;
    writeFileSync(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: true\n');
    expect(outcomes(await drain(s, { dryRun: true }))).toEqual([['p', 'would_run']]);
    writeFileSync(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: maybe\n');
    const badSettings = await drain(s, { dryRun: true });
    expect(outcomes(badSettings)).toEqual([['p', 'untrusted']]);
    expect(badSettings.warnings).toMatchObject([{ code: 'settings_invalid' }]);

    recordTrustPlan(await planTrust({ configDir: s.configDir, cwd: s.workspace }));
    expect(outcomes(await drain(s, { dryRun: true }))).toEqual([['p', 'would_run']]);
    s.projectHooks(hooksFile('', durable('deliver', 'echo changed >> ../ran')));
    const changed = await drain(s, { dryRun: true });
    expect(outcomes(changed)).toEqual([['p', 'untrusted']]);
    expect(changed.warnings.map((w) => w.code)).toEqual(['settings_invalid', 'project_hooks_changed']);
  });

  it('fails a trusted project job whose file is invalid, without running anything from it', async () => {
    const s = sandbox();
    const path = projectJob(s, hooksFile('', durable('deliver', 'echo project >> ../ran')) + 'nonsense_key: 1\n');
    const out = await drain(s, { projectHooks: true });
    expect(out.jobs).toMatchObject([{ job_id: 'p', outcome: 'stale_source', error: `project hooks file ${path} is invalid` }]);
    expect(ran(s)).toEqual([]);
    expect(folder(s, 'failed')).toEqual(['p.json']);
  });

  it('fails a project job whose file is gone, or is not the file the loader would load there', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile(''));
    s.projectHooks(hooksFile('', durable('deliver', 'echo yaml >> ../ran')));
    const shadowed = s.projectHooks(hooksFile('', durable('deliver', 'echo yml >> ../ran')), 'hooks.yml');
    pending(s, 'a-shadowed', { hook_source: 'project', hook_source_path: shadowed });
    pending(s, 'b-gone', { hook_source: 'project', hook_source_path: join(s.root, 'elsewhere', '.chrys', 'hooks', 'hooks.yaml') });
    pending(s, 'c-no-path', { hook_source: 'project', hook_source_path: null });
    pending(s, 'd-disabled', { hook_source: 'project', hook_source_path: join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), hook_id: 'other' });
    const out = await drain(s, { projectHooks: true });
    expect(outcomes(out)).toEqual([['a-shadowed', 'stale_source'], ['b-gone', 'stale_source'], ['c-no-path', 'stale_source'], ['d-disabled', 'stale_source']]);
    expect(out.jobs[0]!.error).toBe(`project hooks file ${shadowed} is gone, or is no longer the project file of its workspace`);
    expect(out.jobs[2]!.error).toBe('the job names no hook_source_path');
    expect(out.jobs[3]!.error).toContain('hook "other" is no longer in');
    expect(ran(s)).toEqual([]);
  });

  it('fails a trusted project job whose file is a dangling symlink as gone', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile(''));
    const path = join(s.workspace, '.chrys', 'hooks', 'hooks.yaml');
    mkdirSync(join(s.workspace, '.chrys', 'hooks'), { recursive: true });
    symlinkSync(join(s.root, 'nowhere.yaml'), path);
    pending(s, 'p', { hook_source: 'project', hook_source_path: path });
    expect((await drain(s, { projectHooks: true })).jobs).toMatchObject([{ outcome: 'stale_source', error: `project hooks file ${path} is gone, or is no longer the project file of its workspace` }]);
  });

  it('fails a global job whose file is not the loaded global file, or is invalid', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran')));
    pending(s, 'other-file', { hook_source_path: join(s.root, 'other', 'hooks.yaml') });
    pending(s, 'no-path', { hook_source_path: null });
    expect(outcomes(await drain(s))).toEqual([['no-path', 'stale_source'], ['other-file', 'stale_source']]);
    const t = another();
    t.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran')) + 'nonsense_key: 1\n');
    pending(t, 'g');
    expect((await drain(t)).jobs).toMatchObject([{ outcome: 'stale_source', error: expect.stringContaining('is not the loaded global file, or is invalid') }]);
    expect(ran(t)).toEqual([]);
  });

  it('quotes a workspace path in the trust command so it can be pasted', async () => {
    expect(shellWord('/a/b-c_d.e')).toBe('/a/b-c_d.e');
    expect(shellWord("/it's here")).toBe(`'/it'\\''s here'`);
  });
});

describe('drainOutbox: legacy jobs (no hook_source)', () => {
  const legacy = (s: Sandbox, id: string, hookId: string, cwd: string = s.workspace): void =>
    pending(s, id, { hook_id: hookId, hook_source: undefined, hook_source_path: undefined, payload: { event: 'after_tool_call', cwd } });

  it('runs the one hook of that id, and fails an id that is in both layers as ambiguous', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('both', 'echo g-both >> ../ran'), durable('only-global', 'echo g >> ../ran')));
    s.projectHooks(hooksFile('', durable('both', 'echo p-both >> ../ran'), durable('only-project', 'echo p >> ../ran')));
    legacy(s, 'a', 'both');
    legacy(s, 'b', 'only-global');
    legacy(s, 'c', 'only-project');
    legacy(s, 'd', 'nowhere');
    const out = await drain(s, { projectHooks: true });
    expect(outcomes(out)).toEqual([['a', 'ambiguous_hook'], ['b', 'done'], ['c', 'done'], ['d', 'stale_source']]);
    expect(ran(s).sort()).toEqual(['g', 'p']);
  });

  it('finds a legacy job without a cwd in the global file, and never a disabled hook', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo g >> ../ran'), durable('off', 'echo off >> ../ran') + '\n    enabled: false'));
    pending(s, 'a', { hook_source: undefined, hook_source_path: undefined, payload: { event: 'after_tool_call' } });
    pending(s, 'b', { hook_source: undefined, hook_source_path: undefined, hook_id: 'off', payload: { event: 'after_tool_call' } });
    pending(s, 'c', { hook_id: 'off' });
    expect(outcomes(await drain(s))).toEqual([['a', 'done'], ['b', 'stale_source'], ['c', 'stale_source']]);
    expect(ran(s)).toEqual(['g']);
  });

  it('reads an untrusted project layer as absent', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('both', 'echo g >> ../ran')));
    s.projectHooks(hooksFile('', durable('both', 'echo p >> ../ran'), durable('only-project', 'echo p >> ../ran')));
    legacy(s, 'a', 'both');
    legacy(s, 'b', 'only-project');
    expect(outcomes(await drain(s))).toEqual([['a', 'done'], ['b', 'stale_source']]);
    expect(ran(s)).toEqual(['g']);
  });

  it('counts a project file that is the global file itself once, as global', async () => {
    const s = sandbox();
    const global = s.globalHooks(hooksFile('', durable('both', 'echo g >> ../ran')));
    mkdirSync(join(s.workspace, '.chrys', 'hooks'), { recursive: true });
    symlinkSync(global, join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'));
    legacy(s, 'a', 'both');
    pending(s, 'b', { hook_source: 'project', hook_source_path: join(s.workspace, '.chrys', 'hooks', 'hooks.yaml'), hook_id: 'both' });
    expect(outcomes(await drain(s, { projectHooks: true }))).toEqual([['a', 'done'], ['b', 'stale_source']]);
  });
});

describe('HookFinder', () => {
  it('finds the workspace of a project file, and loads each file once a pass', async () => {
    expect(projectWorkspace('/w/.chrys/hooks/hooks.yaml')).toBe('/w');
    const s = sandbox();
    const global = s.globalHooks(hooksFile('', durable('deliver', 'true')));
    const finder = new HookFinder({ configDir: s.configDir }, []);
    const first = await finder.global();
    expect(first?.path).toBe(global);
    expect(await finder.global()).toBe(first);
    expect(finder.find(job(s, 'g'))).toMatchObject({ hook: { id: 'deliver' } });
  });

  it('keeps a loaded file across passes while it is unchanged, and reloads it once edited', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'true')));
    const memo = new Map();
    const a = await new HookFinder({ configDir: s.configDir }, [], memo).global();
    expect(await new HookFinder({ configDir: s.configDir }, [], memo).global()).toBe(a);
    s.globalHooks(hooksFile('', durable('renamed', 'true')));
    const b = new HookFinder({ configDir: s.configDir }, [], memo);
    expect((await b.global())?.hooks.map((h) => h.id)).toEqual(['renamed']);
    expect(b.find(job(s, 'g'))).toMatchObject({ error: 'stale_source' });
  });

  it('does not even parse a project file it may not load', async () => {
    const s = sandbox();
    const path = s.projectHooks(hooksFile('', durable('deliver', 'true')));
    const memo = new Map();
    const projectJob = job(s, 'p', { hook_source: 'project', hook_source_path: path });
    const untrusted = new HookFinder({ configDir: s.configDir }, [], memo);
    await untrusted.preload([projectJob]);
    expect([...memo.keys()]).toEqual([]);
    expect(untrusted.find(projectJob)).toMatchObject({ error: 'untrusted' });
    const trusted = new HookFinder({ configDir: s.configDir, projectHooks: true }, [], memo);
    await trusted.preload([projectJob]);
    expect([...memo.keys()]).toEqual([`project\0${path}`]);
    expect(trusted.find(projectJob)).toMatchObject({ hook: { id: 'deliver', source: 'project' } });
  });

  it('asks the user settings once a pass, however many workspaces the jobs name', async () => {
    const s = sandbox();
    writeFileSync(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: maybe\n');
    const other = join(s.root, 'other');
    for (const w of [s.workspace, other]) s.write(join(w, '.chrys', 'hooks', 'hooks.yaml'), hooksFile('', durable('deliver', 'true')));
    const warnings: never[] = [];
    const finder = new HookFinder({ configDir: s.configDir }, warnings);
    await finder.preload([
      job(s, 'a', { hook_source: 'project', hook_source_path: join(s.workspace, '.chrys', 'hooks', 'hooks.yaml') }),
      job(s, 'b', { hook_source: 'project', hook_source_path: join(other, '.chrys', 'hooks', 'hooks.yaml') }),
    ]);
    expect(warnings).toMatchObject([{ code: 'settings_invalid' }]);
  });
});

describe('Drainer', () => {
  it('stops a running hook on kill (its job stays pending) and starts nothing queued after stop', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('  max_parallel_hooks: 1\n', durable('deliver', 'echo started >> ../ran; exec sleep 60')));
    pending(s, 'a');
    pending(s, 'b');
    const drainer = new Drainer({ configDir: s.configDir, cwd: s.workspace });
    await drainer.pass();
    expect(drainer.running).toBe(1);
    await eventually(() => ran(s).length > 0, 10_000, 'the hook to start');
    drainer.stop();
    drainer.kill('SIGTERM');
    await drainer.idle();
    drainer.close();
    expect(drainer.running).toBe(0);
    expect(drainer.tally.summary.jobs).toMatchObject([{ job_id: 'a', outcome: 'pending', error: 'cancelled' }]);
    expect(folder(s, 'pending')).toEqual(['a.json', 'b.json']);
    expect(ran(s)).toEqual(['started']);
  });

  it('reports a job another drain is running as claimed, and leaves it to that drain', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo started >> ../ran; for i in $(seq 1 200); do [ -e ../go ] && exit 0; sleep 0.05; done; exit 1')));
    pending(s, 'a');
    const first = new Drainer({ configDir: s.configDir, cwd: s.workspace });
    await first.pass();
    await eventually(() => ran(s).length > 0, 10_000, 'the hook to start');
    const second = await drain(s);
    expect(second.jobs).toEqual([{ job_id: 'a', hook_id: 'deliver', outcome: 'claimed' }]);
    expect(second.skipped.claimed).toBe(1);
    writeFileSync(join(s.root, 'go'), '');
    await first.idle();
    first.close();
    expect(outcomes(first.tally.summary)).toEqual([['a', 'done']]);
    expect(ran(s)).toEqual(['started']);
  });

  it('leaves jobs it is running alone in a later pass', async () => {
    const s = sandbox();
    s.globalHooks(hooksFile('', durable('deliver', 'echo started >> ../ran; for i in $(seq 1 200); do [ -e ../go ] && exit 0; sleep 0.05; done; exit 1')));
    pending(s, 'a');
    const drainer = new Drainer({ configDir: s.configDir, cwd: s.workspace });
    await drainer.pass();
    await drainer.pass();
    writeFileSync(join(s.root, 'go'), '');
    await drainer.idle();
    drainer.close();
    expect(outcomes(drainer.tally.summary)).toEqual([['a', 'done']]);
  });
});
