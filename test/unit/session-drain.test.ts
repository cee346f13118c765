import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killGroup, processAlive } from '../../src/run/process-group.js';
import { endSession, waitForTurn } from '../../src/state/session-drain.js';
import { finishRun, isCancelled, registerRun, sessionDir } from '../../src/state/sessions.js';

// A session's async run as a worker registers it: this test process plays the
// worker (alive), a real child process group plays the hook.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.pid && c.exitCode === null && c.signalCode === null) killGroup(c.pid, 'SIGKILL');
});

interface Exit {
  signal: NodeJS.Signals | null;
  code: number | null;
  at: number;
}

async function startRun(dir: string, runId: string, seconds: number, event = 'before_tool_call'): Promise<{ child: ChildProcess; exited: Promise<Exit> }> {
  const child = spawn('sleep', [String(seconds)], { detached: true, stdio: 'ignore' });
  children.push(child);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  await new Promise((r) => child.once('spawn', r));
  registerRun(dir, { run_id: runId, hook_id: `hook-${runId}`, event, worker_pid: process.pid, pid: child.pid!, started_at: new Date().toISOString() });
  return { child, exited };
}

const freshSession = (): string => sessionDir(mkdtempSync(join(tmpdir(), 'chrys-drain-')), 'session-1');

describe('endSession (session_end)', () => {
  it('kills a run that outlives the grace after the grace, not before and not after 5 s', async () => {
    const dir = freshSession();
    const { exited } = await startRun(dir, 'r1', 30);
    const started = Date.now();
    const killed = await endSession(dir, 300);
    expect(killed.map((r) => r.run_id)).toEqual(['r1']);
    expect(isCancelled(dir, 'r1')).toBe(true);
    const exit = await exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(exit.at - started).toBeGreaterThanOrEqual(300);
    expect(exit.at - started).toBeLessThan(5000);
  });

  it('does not kill a run that ends within the grace', async () => {
    const dir = freshSession();
    const { exited } = await startRun(dir, 'r2', 0.2);
    void exited.then(() => finishRun(dir, 'r2')); // what the worker does when its hook ends
    const killed = await endSession(dir, 10_000);
    expect(killed).toEqual([]);
    expect(await exited).toMatchObject({ code: 0, signal: null });
    expect(isCancelled(dir, 'r2')).toBe(false);
  });

  it('forgets a run whose worker is gone without killing anything', async () => {
    const dir = freshSession();
    const worker = spawn('true', [], { stdio: 'ignore' });
    await new Promise((r) => worker.once('exit', r));
    registerRun(dir, { run_id: 'r3', hook_id: 'h', event: 'before_tool_call', worker_pid: worker.pid!, pid: null, started_at: new Date().toISOString() });
    expect(await endSession(dir, 10_000)).toEqual([]);
  });
});

describe('waitForTurn (after_turn)', () => {
  it('returns at its bound with the runs still running, and leaves them running', async () => {
    const dir = freshSession();
    const { child } = await startRun(dir, 'r4', 30);
    const left = await waitForTurn(dir, 300);
    expect(left.map((r) => r.run_id)).toEqual(['r4']);
    expect(processAlive(child.pid!)).toBe(true);
    expect(isCancelled(dir, 'r4')).toBe(false);
  });

  it('waits for a run that ends, and not for those of user_interrupt', async () => {
    const dir = freshSession();
    const { exited } = await startRun(dir, 'r5', 0.2);
    void exited.then(() => finishRun(dir, 'r5'));
    await startRun(dir, 'r6', 30, 'user_interrupt');
    expect(await waitForTurn(dir, 10_000)).toEqual([]);
    expect(await exited).toMatchObject({ code: 0, signal: null });
  });
});
