import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupAlive, killGroup, processAlive } from '../../src/run/process-group.js';

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (const deadline = Date.now() + 10_000; !cond(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('killGroup', () => {
  it('reaches a grandchild of the group leader, and says sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-pgroup-'));
    const pidFile = join(dir, 'grandchild.pid');
    const leader = spawn('bash', ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], { detached: true, stdio: 'ignore' });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the grandchild pid');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(killGroup(leader.pid!, 'SIGKILL')).toBe('sent');
    await new Promise((r) => leader.once('exit', r));
    await until(() => !processAlive(grandchild), 'the grandchild to die');
    expect(groupAlive(leader.pid!)).toBe(false);
  });

  it('says gone for a group that no longer exists', async () => {
    const child = spawn('true', [], { detached: true, stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    expect(killGroup(child.pid!, 'SIGTERM')).toBe('gone');
  });
});

describe('processAlive', () => {
  it('is true for this process and false for an exited child', async () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawn('true', [], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    expect(processAlive(child.pid!)).toBe(false);
  });
});

describe('a pid that is not one process', () => {
  it('is never probed as this process group or as every process (0, -1, 1, NaN from a corrupt record)', () => {
    for (const pid of [0, -1, 1, Number.NaN, 2.5]) expect(groupAlive(pid)).toBe(false);
    for (const pid of [0, -1, Number.NaN, 2.5]) expect(processAlive(pid)).toBe(false);
    expect(processAlive(1)).toBe(true); // init: a process, alive
  });

  it('is never signalled as this process group', () => {
    // SIGCONT: harmless to this test's own group should the guard ever fail; 1 and -1 are not tried (every process).
    for (const pid of [0, Number.NaN, 2.5]) expect(killGroup(pid, 'SIGCONT')).toBe('gone');
  });
});
