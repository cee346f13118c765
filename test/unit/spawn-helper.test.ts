// The runner through the spawning helper (run/spawn-helper.ts): every case of
// spawn.test.ts again with the helper on, which must record each ending as the
// direct spawn does; then the helper's own failures: one that cannot start,
// one that dies before it reported a job (the job is spawned directly, once),
// one that dies between reporting a job and being told to start it (the job
// never runs), and one that dies while a job runs (its group is killed, the run ends as one
// killed from outside: a durable job stays pending).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hook, Run } from '../../src/core/config.js';
import type { HookContext } from '../../src/core/hook-template.js';
import { resolveInvocation } from '../../src/run/invocation.js';
import { groupAlive } from '../../src/run/process-group.js';
import { TempFiles } from '../../src/run/runtime.js';
import { spawnHelper, stopSpawnHelper, useSpawnHelper } from '../../src/run/spawn-helper.js';
import { runHook } from '../../src/run/spawn.js';
import { testHook } from '../helpers/hook.js';
import { eventually } from '../helpers/sandbox.js';

useSpawnHelper();
await import('./spawn.test.js');

function setup(script: string): { hook: Hook; ctx: HookContext; temp: TempFiles; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-helper-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const ctx: HookContext = { configDir: join(dir, 'config'), workspace, sessionId: 's1', profile: 'Code' };
  const hook = testHook({ file: join(dir, 'hooks.yaml'), run: { type: 'command', argv: ['bash', '-c', script], args: [], env: {}, cwd: '' } as Run });
  return { hook, ctx, temp: new TempFiles(ctx.configDir), dir };
}

const runIn = (s: ReturnType<typeof setup>, opts: Parameters<typeof runHook>[5] = {}) => runHook(s.hook, s.ctx, resolveInvocation(s.hook, s.ctx), '{"p":1}', s.temp, opts);

/** A stand-in for python3 that runs `body` (sh) instead of the helper's program. */
function fakePython(dir: string, body: string): string {
  const path = join(dir, 'fake-python');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the spawning helper', () => {
  afterEach(() => {
    stopSpawnHelper();
    delete process.env.CHRYS_SPAWN_HELPER_PYTHON;
    useSpawnHelper();
  });

  it('starts the hook as its child, the leader of its own group, and relays stdin, output and the exit', async () => {
    const s = setup('cat; echo " $(cat /proc/$PPID/comm) $(($$ == $(cut -d" " -f5 /proc/$$/stat)))"; echo err >&2; exit 3');
    const record = await runIn(s);
    expect(record.stdout).toMatch(/^\{"p":1\} python3\S* 1\n$/);
    expect(record.stderr).toBe('err\n');
    expect(record.exitCode).toBe(3);
    expect(spawnHelper()?.alive).toBe(true);
  });

  it('falls back to a direct spawn when the helper cannot start, and records the same run', async () => {
    process.env.CHRYS_SPAWN_HELPER_PYTHON = '/nonexistent/python3';
    stopSpawnHelper();
    const s = setup('echo "$(cat /proc/$PPID/comm)"; exit 4');
    const record = await runIn(s);
    expect(record.stdout).toBe('node\n');
    expect(record.exitCode).toBe(4);
    expect(record.status).toBe((await runIn(s)).status);
  });

  it('spawns a job directly, once, when the helper dies before it reported it', async () => {
    const s = setup('echo started >> "$CHRYS_WORKSPACE/starts"; exit 0');
    process.env.CHRYS_SPAWN_HELPER_PYTHON = fakePython(s.dir, 'read line; exit 0'); // takes the request, dies without starting it
    stopSpawnHelper();
    const record = await runIn(s);
    expect(record.exitCode).toBe(0);
    expect(record.status).toBe('ok');
    expect(readFileSync(join(s.ctx.workspace, 'starts'), 'utf8')).toBe('started\n');
  });

  it('never runs a job whose helper died after reporting its pid but before it was told to go', async () => {
    const s = setup('echo started >> "$CHRYS_WORKSPACE/starts"');
    let pid = 0;
    let seen = '';
    const helper = spawnHelper()!;
    const record = await runIn(s, {
      onSpawn: (p) => {
        pid = p;
        seen = readFileSync(`/proc/${p}/stat`, 'utf8');
        process.kill(helper.pid!, 'SIGKILL'); // before the runner's "go" reaches it
      },
    });
    // When its pid was told, the job was the helper's stopped fork, not yet the hook.
    expect(seen).toMatch(/^\d+ \(python3[^)]*\) T /);
    expect(record.signal).toBe('SIGKILL');
    expect(record.disposition).toBe('pending');
    await eventually(() => !groupAlive(pid), 10_000, 'the stopped job to die with its helper');
    expect(existsSync(join(s.ctx.workspace, 'starts'))).toBe(false);
  });

  it('kills the group of a job whose helper died while it ran, and records it killed from outside', async () => {
    // The hook kills its parent, the helper, then would run on (with a child of its own).
    const s = setup('sleep 60 & echo $! > "$CHRYS_WORKSPACE/child"; kill -9 $PPID; sleep 60');
    let pid = 0;
    const record = await runIn(s, { onSpawn: (p) => (pid = p) });
    expect(record.signal).toBe('SIGKILL');
    expect(record.disposition).toBe('pending');
    expect(record.outcome.errorAfterSpawn).toMatch(/spawn helper died/);
    await eventually(() => !groupAlive(pid), 10_000, 'the group to be gone');
    // The next hook is spawned directly.
    const next = await runIn(setup('echo "$(cat /proc/$PPID/comm)"'));
    expect(next.stdout).toBe('node\n');
  });
});
