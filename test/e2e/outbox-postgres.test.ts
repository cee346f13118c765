// The outbox's conformance scenarios against both backends (the file outbox
// and PostgreSQL through graphile-worker), through the built binary, with a
// real throw-away PostgreSQL cluster (test/helpers/postgres.ts); then what
// only the database has: concurrent drainers, kill -9, an unreachable server,
// a wrong password.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type Sandbox, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';
import { PG_AVAILABLE, useCluster } from '../helpers/postgres.js';

const sandbox = useSandbox();
const cluster = useCluster();
type Backend = 'files' | 'postgres';

/** A durable hook due a moment after the firing (queued, for both backends: no worker runs it), logging each start. */
function setup(s: Sandbox, backend: Backend, { shell = 'echo "$CHRYS_HOOK_ID" >> ../runs', execution = '', settings = '' } = {}): Record<string, string> {
  s.globalHooks(`settings:\n  outbox_retry_age_seconds: 0\n${settings}hooks:\n${hookYaml({ id: 'follow-up', event: 'after_turn', run: `type: shell\nshell: '${shell}'`, execution: `mode: async\ndelivery: durable\ndelay_seconds: 0.2\n${execution}` })}\n`);
  if (backend === 'postgres') s.write(join(s.configDir, 'settings.yaml'), 'outbox:\n  backend: postgres\n  url_env: CHRYS_TEST_OUTBOX_URL\n  host_id: test-host\n');
  return backend === 'postgres' ? { CHRYS_TEST_OUTBOX_URL: cluster().newDatabase() } : {};
}

const runs = (s: Sandbox): number => {
  try {
    return readFileSync(join(s.root, 'runs'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

async function cli(s: Sandbox, env: Record<string, string>, args: string[], exit = 0): Promise<any> {
  const r = await s.run(args, { env });
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(exit);
  return args.includes('--json') ? JSON.parse(r.stdout) : r;
}

const fire = async (s: Sandbox, env: Record<string, string>, session = 's1'): Promise<any> => {
  const r = await s.run(['fire'], { env, input: JSON.stringify({ event: 'after_turn', session_id: session }) });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

/** Drains until the job is no longer pending (its due time is a fraction of a second away). */
async function drainUntilFiled(s: Sandbox, env: Record<string, string>): Promise<any> {
  let last: any;
  for (let i = 0; i < 100; i++) {
    last = await cli(s, env, ['drain-outbox', '--json']);
    if (last.done + last.failed + last.deferred > 0) return last;
    await new Promise((r) => setTimeout(r, 100)); // the job's due_at (0.2 s) has to pass: a clock, not an event
  }
  throw new Error(`the job was never filed: ${JSON.stringify(last)}`);
}

const listed = async (s: Sandbox, env: Record<string, string>, state?: string): Promise<any[]> => (await cli(s, env, ['outbox', 'list', '--json', ...(state ? ['--state', state] : [])])).jobs;

for (const backend of ['files', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !PG_AVAILABLE)(`the outbox on ${backend}`, () => {
    it('fire queues a durable job before it prints; list shows it; a drain runs it once and files it done', async () => {
      const s = sandbox();
      const env = setup(s, backend);
      const decision = await fire(s, env);
      expect(decision.hooks).toMatchObject([{ id: 'follow-up', status: 'queued' }]);
      expect(decision.warnings.filter((w: any) => w.code.startsWith('outbox_'))).toEqual([]);
      const pending = await listed(s, env);
      expect(pending).toMatchObject([{ hook_id: 'follow-up', state: 'pending', session_id: 's1' }]);
      const summary = await drainUntilFiled(s, env);
      expect(summary).toMatchObject({ done: 1, failed: 0 });
      expect(runs(s)).toBe(1);
      expect(await listed(s, env, 'done')).toMatchObject([{ job_id: pending[0].job_id, state: 'done' }]);
      expect(await listed(s, env, 'pending')).toEqual([]);
    });

    it('"not yet" (exit 75) defers the job; outbox_max_retries fails it; retry makes it pending with a fresh count; drop removes it', async () => {
      const s = sandbox();
      const env = setup(s, backend, { shell: 'echo x >> ../runs; exit 75', settings: '  outbox_max_retries: 2\n  outbox_retry_delay_seconds: 0.5\n' });
      await fire(s, env);
      expect(await drainUntilFiled(s, env)).toMatchObject({ deferred: 1 });
      expect(await listed(s, env)).toMatchObject([{ state: 'deferred', attempts: 1 }]);
      let failed: any[] = [];
      for (let i = 0; i < 100 && failed.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 200)); // the deferral's due time (1 s) has to pass: a clock, not an event
        await cli(s, env, ['drain-outbox', '--json']);
        failed = await listed(s, env, 'failed');
      }
      expect(failed).toMatchObject([{ state: 'failed', last_error: 'max_retries' }]);
      expect(runs(s)).toBe(2);
      const retried = await cli(s, env, ['outbox', 'retry', failed[0].job_id, '--json']);
      expect(JSON.stringify(retried)).toContain('requeued');
      expect(await listed(s, env, 'pending')).toMatchObject([{ job_id: failed[0].job_id, attempts: 0 }]);
      await cli(s, env, ['outbox', 'drop', failed[0].job_id]);
      expect(await listed(s, env)).toEqual([]);
    });

    it('a once-per-session hook is queued once for a session', async () => {
      const s = sandbox();
      const env = setup(s, backend, { execution: 'once_per_session: true' });
      await fire(s, env, 'same');
      await fire(s, env, 'same');
      await fire(s, env, 'other');
      expect((await listed(s, env)).map((j) => j.session_id).sort()).toEqual(['other', 'same']);
    });
  });
}

describe.skipIf(!PG_AVAILABLE)('only the database', () => {
  it('two drainers at once start each of 40 jobs exactly once', async () => {
    const s = sandbox();
    s.write('count.py', 'import json, os\nprint(json.load(open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"]))["n"], file=open("../runs", "a"))\n');
    const env = setup(s, 'postgres', { shell: 'python3 ../count.py' });
    for (let n = 0; n < 40; n++) {
      const r = await s.run(['fire'], { env, input: JSON.stringify({ event: 'after_turn', session_id: 'c', n }) });
      expect(r.exitCode).toBe(0);
    }
    let done = 0;
    for (let i = 0; i < 100 && done < 40; i++) {
      const [a, b] = await Promise.all([cli(s, env, ['drain-outbox', '--json']), cli(s, env, ['drain-outbox', '--json'])]);
      done += a.done + b.done;
    }
    expect(done).toBe(40);
    const seen = readFileSync(join(s.root, 'runs'), 'utf8').split('\n').filter(Boolean);
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
  }, 180_000); // 40 firings and the drains' process starts: minutes on a loaded 2-core machine

  it('an unreachable database: fire falls back to the file outbox (outbox_fallback, password never shown), the next drain moves the job in and runs it', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres');
    const url = new URL(env.CHRYS_TEST_OUTBOX_URL!);
    const dead = { CHRYS_TEST_OUTBOX_URL: `postgres://chrys:${url.password}@127.0.0.1:1/chrys` };
    const decision = await fire(s, dead);
    const fallback = decision.warnings.find((w: any) => w.code === 'outbox_fallback');
    expect(fallback?.message).toMatch(/went to the file outbox/);
    expect(JSON.stringify(decision)).not.toContain(url.password);
    const down = await s.run(['drain-outbox', '--json'], { env: dead });
    expect(down.exitCode).toBe(69);
    expect(down.stderr).toContain('cannot use the PostgreSQL outbox at postgres://chrys:***@127.0.0.1:1/chrys');
    expect(down.stderr + down.stdout).not.toContain(url.password);
    const summary = await drainUntilFiled(s, env);
    expect(summary.done).toBe(1);
    expect(runs(s)).toBe(1);
  });

  it('a wrong password and a missing database are outbox_unreachable (69), the password redacted; a bad URL is outbox_config_invalid (78)', async () => {
    const s = sandbox();
    setup(s, 'postgres');
    const url = new URL(cluster().url);
    const wrong = `postgres://chrys:Secret-${url.password.slice(0, 4)}-x@127.0.0.1:${url.port}/chrys`;
    for (const [value, exit, text] of [[wrong, 69, 'wrong password'], [`postgres://chrys:${url.password}@127.0.0.1:${url.port}/nope`, 69, 'no such database'], ['postgres://chrys:p@ss@[::1', 78, 'not a valid URL']] as const) {
      const r = await s.run(['outbox', 'list'], { env: { CHRYS_TEST_OUTBOX_URL: value } });
      expect(r.exitCode, r.stderr).toBe(exit);
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toContain(new URL(wrong).password);
      expect(r.stderr).not.toContain(url.password);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('kill -9 of a drainer mid-job loses nothing: the job runs again once its lock is stale', async () => {
    const s = sandbox();
    const env = setup(s, 'postgres', { shell: 'echo start >> ../runs; if [ ! -e ../second ]; then touch ../second; exec sleep 600; fi' });
    await fire(s, env);
    const child = execa(process.execPath, [BIN, 'drain-outbox', '--watch', '--config-dir', s.configDir, '--cwd', s.workspace], { env: s.env(env), extendEnv: false, reject: false, detached: true });
    await eventually(() => runs(s) === 1, 30_000, 'the first start');
    process.kill(-child.pid!, 'SIGKILL'); // the drainer and its hook
    await child;
    expect(await listed(s, env, 'pending')).toHaveLength(1);
    let done = 0;
    for (let i = 0; i < 200 && done === 0; i++) done = (await cli(s, env, ['drain-outbox', '--json'])).done;
    expect(done).toBe(1);
    expect(runs(s)).toBe(2);
  }, 90_000);
});
