// What this process has running: stopEverything() kills every tracked hook
// process group and deletes every tracked temp file, and nothing untracked.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopEverything, trackFile, trackGroup, untrackFile, untrackGroup } from '../../src/run/live.js';
import { killGroup } from '../../src/run/process-group.js';
import { eventually, isAlive } from '../helpers/sandbox.js';

/** A process group of `sleep` with a child of its own; resolves with the leader's and the child's pids. */
async function group(): Promise<{ leader: number; child: number; exited: Promise<NodeJS.Signals | null> }> {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-live-'));
  const proc = spawn('bash', ['-c', `sleep 60 & echo $! > ${dir}/child; wait`], { detached: true, stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((r) => proc.once('exit', (_code, signal) => r(signal)));
  const child = await eventually(() => (existsSync(join(dir, 'child')) && Number(readFileSync(join(dir, 'child'), 'utf8'))) || undefined, 10_000, 'the child pid');
  return { leader: proc.pid!, child, exited };
}

describe('stopEverything', () => {
  it('kills the tracked groups and deletes the tracked files, once', async () => {
    const g = await group();
    const dir = mkdtempSync(join(tmpdir(), 'chrys-live-'));
    const file = join(dir, 'payload.json');
    writeFileSync(file, '{}');
    trackGroup(g.leader);
    trackFile(file);
    stopEverything();
    expect(existsSync(file)).toBe(false);
    await g.exited;
    await eventually(() => !isAlive(g.child), 10_000, 'the child to die');
    // Forgotten once stopped: a file of that name written later is left alone.
    writeFileSync(file, '{}');
    stopEverything();
    expect(existsSync(file)).toBe(true);
  });

  it('leaves alone what was untracked', async () => {
    const g = await group();
    const file = join(mkdtempSync(join(tmpdir(), 'chrys-live-')), 'kept.json');
    writeFileSync(file, '{}');
    trackGroup(g.leader);
    trackFile(file);
    untrackGroup(g.leader);
    untrackFile(file);
    stopEverything();
    expect(existsSync(file)).toBe(true);
    // Had stopEverything sent its SIGKILL, the group would die of that, not of this SIGTERM.
    killGroup(g.leader, 'SIGTERM');
    expect(await g.exited).toBe('SIGTERM');
  });

  it('goes on when a tracked file is already gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-live-'));
    const kept = join(dir, 'b.json');
    writeFileSync(kept, '{}');
    trackFile(join(dir, 'a.json'));
    trackFile(kept);
    expect(() => stopEverything()).not.toThrow();
    expect(existsSync(kept)).toBe(false);
  });

  it("deletes a tracked directory (a firing's, a verified script copy) with what it holds", () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chrys-live-')), 'firing-1-ab');
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'scripts', 'a.sh'), 'echo\n');
    trackFile(dir);
    stopEverything();
    expect(existsSync(dir)).toBe(false);
  });
});
