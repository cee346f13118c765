// Regression tests for the adversarial review (issue 9) in the runtime tree
// and the outbox: the config cache on coarse-timestamp filesystems and with
// bad entries, drains that are signalled or killed, a full disk, a FIFO in
// pending/, and symlinks or loose modes in <config_dir>/hooks/.
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Sandbox, eventually, hookYaml, isAlive, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file', args: { path: 'a' } } };
const read = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');
const hooksDir = (s: Sandbox): string => join(s.configDir, 'hooks');
const ls = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
const CONTEXT = (text: string): string => `type: shell\nshell: 'echo {\\"context\\":[{\\"text\\":\\"${text}\\"}]} > "$CHRYS_HOOK_RESULT"'`;

/** Mounts a filesystem at `dir` (root only); undefined when this machine does not allow it. */
async function mount(args: string[], dir: string): Promise<(() => Promise<void>) | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  mkdirSync(dir, { recursive: true });
  const r = await execa('mount', [...args, dir], { reject: false });
  if (r.exitCode !== 0) return undefined;
  return async () => void (await execa('umount', ['-l', dir], { reject: false }));
}

describe('finding 2: the config cache on a filesystem with 1-second timestamps', () => {
  it('sees trust revoked by a same-size edit within the same second (ext4 with 128-byte inodes)', async (t) => {
    const s = sandbox();
    const image = join(s.root, 'ext4.img');
    await execa('truncate', ['-s', '8M', image]);
    const mkfs = await execa('mkfs.ext4', ['-q', '-F', '-I', '128', image], { reject: false });
    const unmount = mkfs.exitCode === 0 ? await mount(['-o', 'loop', image], join(s.root, 'coarse')) : undefined;
    if (!unmount) return t.skip('needs root, mkfs.ext4 and loop mounts to make a filesystem with 1-second timestamps');
    try {
      const configDir = join(s.root, 'coarse');
      s.projectHooks(`hooks:\n${hookYaml({ id: 'project-guard', run: CONTEXT('p') })}\n`);
      const settings = join(configDir, 'settings.yaml');
      const fire = async () => JSON.parse((await s.runRaw(['fire', '--config-dir', configDir, '--cwd', s.workspace], { input: JSON.stringify(EDIT) })).stdout);
      // Start at the top of a second, so the edit below lands in the same second on a machine that is not overloaded.
      while (Date.now() % 1000 > 10);
      writeFileSync(settings, 'project:\n  hooks_enabled: true \n');
      const first = fire();
      // Edit as soon as the first firing has cached the trust setting, well within the same second.
      await eventually(() => ls(join(configDir, 'hooks', 'state', 'cache')).some((f) => f.endsWith('.json')), 10_000, 'the settings to be cached');
      const before = statSync(settings);
      expect(before.mtimeMs % 1000).toBe(0); // really whole seconds here
      writeFileSync(settings, 'project:\n  hooks_enabled: false\n');
      utimesSync(settings, before.atime, before.mtime); // an edit in the same second, as far as the inode can tell
      expect((await first).hooks.map((h: any) => h.id)).toEqual(['project-guard']);
      const after = await fire();
      expect(after.hooks).toEqual([]);
      expect(after.warnings.map((w: any) => w.code)).toEqual(['project_hooks_dormant']);
    } finally {
      await unmount();
    }
  });
});

describe('finding 13: a cache entry of the wrong shape is rebuilt', () => {
  it('runs the hooks of the file when the cached entry is damaged or of another version', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'guard', run: CONTEXT('g') })}\n`);
    expect((await s.fire(EDIT)).decision.hooks.map((h: any) => h.id)).toEqual(['guard']);
    const cache = join(hooksDir(s), 'state', 'cache');
    const [entry] = ls(cache);
    const original = JSON.parse(read(join(cache, entry!)));
    for (const damage of [
      (e: any) => ({ ...e, value: { ...e.value, raw: { hooks: 'x' } } }),
      (e: any) => ({ ...e, value: { ...e.value, raw: { hooks: [{ id: 5 }] } } }),
      (e: any) => ({ ...e, value: { raw: e.value.raw } }),
      (e: any) => ({ ...e, version: '0.0.0', value: { ...e.value, raw: { hooks: [] } } }),
    ]) {
      writeFileSync(join(cache, entry!), JSON.stringify(damage(original)));
      const { decision, result } = await s.fire(EDIT);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(decision.hooks.map((h: any) => h.id)).toEqual(['guard']);
    }
  });
});

const JOB_HOOK = (s: Sandbox, log: string): string =>
  `settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: 'echo "start $$" >> ${log}; sleep 60; echo end >> ${log}'`, execution: 'mode: async\ndelivery: durable' })}\n`;

function pendingJob(s: Sandbox, id: string): void {
  const dir = join(hooksDir(s), 'outbox', 'pending');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.json`), JSON.stringify({
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' },
    created_at: new Date(Date.now() - 3600_000).toISOString(), hook_source: 'global', hook_source_path: join(hooksDir(s), 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
  }));
}

const startDrain = (s: Sandbox) => execa(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false });
const starts = (log: string): number[] => read(log).split('\n').filter((l) => l.startsWith('start')).map((l) => Number(l.split(' ')[1]));

describe('finding 8: a job never starts twice at once after its drain dies', () => {
  it('a drain on SIGTERM kills its job before it lets go of the claim; the job stays pending', async () => {
    const s = sandbox();
    const log = join(s.root, 'runs.log');
    s.globalHooks(JOB_HOOK(s, log));
    pendingJob(s, 'job-term');
    const drain = startDrain(s);
    const [pid] = await eventually(() => starts(log).length === 1 && starts(log), 30_000, 'the job to start');
    drain.kill('SIGTERM');
    expect((await drain).exitCode).toBe(143);
    await eventually(() => !isAlive(pid!), 5_000, 'the job to be killed with its drain');
    expect(ls(join(hooksDir(s), 'outbox', 'pending'))).toEqual(['job-term.json']);
  });

  it('a drain taking over the stale claim of a drain killed with -9 does not start the job while it runs on', async () => {
    const s = sandbox();
    const log = join(s.root, 'runs.log');
    s.globalHooks(JOB_HOOK(s, log));
    pendingJob(s, 'job-kill');
    const first = startDrain(s);
    const [pid] = await eventually(() => starts(log).length === 1 && starts(log), 30_000, 'the job to start');
    // The drain notes the hook's process group right after the spawn returns.
    await eventually(() => existsSync(join(hooksDir(s), 'outbox', 'locks', 'job-kill.pgid')), 5_000, 'the process group note');
    try {
      first.kill('SIGKILL');
      await first;
      expect(isAlive(pid!)).toBe(true);
      // Age the dead drain's lock past the 10 s stale time instead of waiting it out.
      const lock = join(hooksDir(s), 'outbox', 'locks', 'job-kill.lock');
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      const second = await s.run(['drain-outbox', '--json']);
      expect(JSON.parse(second.stdout), second.stdout + read(log)).toMatchObject({ ran: 0, skipped: { claimed: 1 } });
      expect(starts(log)).toEqual([pid]);
    } finally {
      try {
        process.kill(-pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });
});

describe('finding 9: a full disk', () => {
  it('fire still prints its decision, says why the non-blocking hooks did not run, and leaves no temp files; drain-outbox still prints its summary', async (t) => {
    const s = sandbox();
    const configDir = join(s.root, 'full');
    const unmount = await mount(['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs'], configDir);
    if (!unmount) return t.skip('needs root and tmpfs mounts to fill a filesystem');
    try {
      writeFileSync(join(s.root, 'noop'), '');
      mkdirSync(join(configDir, 'hooks'), { recursive: true });
      writeFileSync(join(configDir, 'hooks', 'hooks.yaml'), `settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'later', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: async\ndelivery: durable' })}\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: fire_and_forget' })}\n`);
      const job = join(configDir, 'hooks', 'outbox', 'pending');
      mkdirSync(job, { recursive: true });
      writeFileSync(join(job, 'old-job.json'), JSON.stringify({ job_id: 'old-job', hook_id: 'later', event: 'after_tool_call', payload: { event: 'after_tool_call', session_id: '' }, created_at: '2026-01-01T00:00:00.000Z', hook_source: 'global', hook_source_path: join(configDir, 'hooks', 'hooks.yaml'), state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null }, null, 2) + '\n');
      await execa('sh', ['-c', `cat /dev/zero > "${join(configDir, 'filler')}"`], { reject: false }); // fills the filesystem
      const fire = await s.runRaw(['fire', '--config-dir', configDir, '--cwd', s.workspace], { input: '{"event":"after_tool_call","tool":{"name":"x"}}' });
      expect(fire.exitCode, fire.stderr).toBe(0);
      const decision = JSON.parse(fire.stdout);
      expect(decision.warnings.map((w: any) => w.code)).toContain('outbox_unavailable');
      expect(decision.hooks.map((h: any) => [h.id, h.status])).toEqual([['later', 'launch_error'], ['bg', 'launch_error']]);
      const drain = await s.runRaw(['drain-outbox', '--json', '--config-dir', configDir, '--cwd', s.workspace]);
      expect(drain.exitCode, drain.stderr).toBe(0);
      const summary = JSON.parse(drain.stdout);
      expect(summary.jobs).toMatchObject([{ job_id: 'old-job', outcome: 'pending' }]);
      expect(summary.warnings.map((w: any) => w.code)).toContain('outbox_unavailable');
      // nothing half-written is left behind
      expect(ls(job)).toEqual(['old-job.json']);
      expect(ls(join(configDir, 'hooks', 'tmp'))).toEqual([]);
    } finally {
      await unmount();
    }
  });

  it('sweeps temp files left by a dead writer on the next drain', async () => {
    const s = sandbox();
    s.globalHooks('hooks: []\n');
    const pending = join(hooksDir(s), 'outbox', 'pending');
    const tmp = join(hooksDir(s), 'tmp');
    mkdirSync(pending, { recursive: true });
    mkdirSync(tmp, { recursive: true });
    const old = new Date(Date.now() - 3600_000);
    for (const path of [join(pending, 'x.json.99999999.abcd1234.tmp'), join(tmp, 'payload-99999999-abcdef012345.json'), join(tmp, 'payload-1-abcdef012345.json')]) {
      writeFileSync(path, '');
      utimesSync(path, old, old);
    }
    writeFileSync(join(tmp, 'payload-99999998-abcdef012345.json'), ''); // fresh: its writer may still be starting
    await s.run(['drain-outbox', '--json']);
    expect(ls(pending)).toEqual([]);
    expect(ls(tmp)).toEqual(['payload-1-abcdef012345.json', 'payload-99999998-abcdef012345.json']);
  });
});

describe('finding 10: a FIFO in outbox/pending', () => {
  it('is moved aside as invalid_job instead of hanging the drain', async () => {
    const s = sandbox();
    s.globalHooks('hooks: []\n');
    const pending = join(hooksDir(s), 'outbox', 'pending');
    mkdirSync(pending, { recursive: true });
    await execa('mkfifo', [join(pending, 'fifo.json')]);
    const r = await execa(process.execPath, [BIN, 'drain-outbox', '--json', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(), extendEnv: false, reject: false, timeout: 20_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).jobs).toMatchObject([{ job_id: 'fifo', outcome: 'invalid_job' }]);
    expect(ls(pending)).toEqual([]);
    expect(lstatSync(join(hooksDir(s), 'outbox', 'failed', 'fifo.json')).isFIFO()).toBe(true);
  });
});

describe('finding 17: no writes through symlinks, owner-only modes', () => {
  it('does not append history through a symlink at the predictable history path', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${hookYaml({ id: 'h', run: CONTEXT('x') })}\n`);
    const key = createHash('sha256').update(`global\0${file}\0h`).digest('hex').slice(0, 32);
    const history = join(hooksDir(s), 'state', 'history');
    mkdirSync(history, { recursive: true });
    const target = s.write('victim.txt', 'untouched\n');
    symlinkSync(target, join(history, `${key}.jsonl`));
    expect((await s.fire(EDIT)).decision.hooks).toMatchObject([{ id: 'h', status: 'ok' }]);
    expect(read(target)).toBe('untouched\n');
  });

  it('refuses symlinked hooks/tmp and outbox/pending, and tightens existing directories to 0700', async () => {
    const s = sandbox();
    const elsewhere = join(s.root, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(hooksDir(s), 'outbox'), { recursive: true });
    symlinkSync(elsewhere, join(hooksDir(s), 'tmp'));
    symlinkSync(elsewhere, join(hooksDir(s), 'outbox', 'pending'));
    mkdirSync(join(hooksDir(s), 'state'), { recursive: true });
    chmodSync(join(hooksDir(s), 'state'), 0o755);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'h', run: CONTEXT('x') })}\n${hookYaml({ id: 'd', event: 'before_tool_call', run: "type: shell\nshell: 'true'", execution: 'mode: async\ndelivery: durable' })}\n`);
    const { decision } = await s.fire(EDIT);
    expect(decision.hooks).toMatchObject([{ id: 'h', status: 'ok' }, { id: 'd' }]);
    const codes = decision.warnings.map((w: any) => w.code);
    expect(codes).toContain('runtime_dir_unwritable');
    expect(codes).toContain('outbox_unavailable');
    expect(ls(elsewhere)).toEqual([]);
    expect(statSync(join(hooksDir(s), 'state')).mode & 0o777).toBe(0o700);
  });

  it('creates the lock directory of a running job owner-only', async () => {
    const s = sandbox();
    const modeFile = join(s.root, 'lock-mode');
    s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\nhooks:\n${hookYaml({ id: 'deliver', event: 'after_tool_call', run: `type: shell\nshell: 'stat -c %a ${join(hooksDir(s), 'outbox', 'locks', 'job-mode.lock')} > ${modeFile}'`, execution: 'mode: async\ndelivery: durable' })}\n`);
    pendingJob(s, 'job-mode');
    rmSync(modeFile, { force: true });
    await s.run(['drain-outbox', '--json'], { env: { UMASK_NOTE: '022' } });
    expect(read(modeFile).trim()).toBe('700');
  });
});
