import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, killGroup, processAlive } from '../../src/run/process-group.js';
import { eventually, isAlive } from '../helpers/sandbox.js';
import { asPlatform } from '../helpers/platform.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.pid) try { process.kill(-c.pid, 'SIGKILL'); } catch { /* already gone */ }
});


describe('killGroup', () => {
  it('reaches a grandchild of the group leader, and says sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-pgroup-'));
    const pidFile = join(dir, 'grandchild.pid');
    const leader = spawn('bash', ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], { detached: true, stdio: 'ignore' });
    await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 10_000, 'the grandchild pid');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(killGroup(leader.pid!, 'SIGKILL')).toBe('sent');
    await new Promise((r) => leader.once('exit', r));
    await eventually(() => !processAlive(grandchild), 10_000, 'the grandchild to die');
    expect(groupAlive(leader.pid!)).toBe(false);
  });

  it('signals the leader alone on Windows, which has no process groups', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-pgroup-'));
    const pidFile = join(dir, 'grandchild.pid');
    const leader = spawn('bash', ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], { detached: true, stdio: 'ignore' });
    children.push(leader);
    await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 10_000, 'the grandchild pid');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    const exited = new Promise((r) => leader.once('exit', (_code, signal) => r(signal)));
    expect(asPlatform('win32', () => killGroup(leader.pid!, 'SIGKILL'))).toBe('sent');
    expect(await exited).toBe('SIGKILL');
    expect(isAlive(grandchild)).toBe(true);
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

describe('groupAlive', () => {
  it('sees a running group, and not one that has ended', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    children.push(child);
    await new Promise((r) => child.once('spawn', r));
    expect(groupAlive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await eventually(() => !isAlive(child.pid!), 10_000, 'the group to end');
    expect(groupAlive(child.pid!)).toBe(false);
  });

  it('sees a group whose leader has gone while another member runs on', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'chrys-group-'));
    const leader = spawn('sh', ['-c', `sleep 30 & echo $! > ${marks}/member`], { detached: true, stdio: 'ignore' });
    children.push(leader);
    await new Promise((r) => leader.once('exit', r));
    const member = Number(await eventually(() => existsSync(join(marks, 'member')) && readFileSync(join(marks, 'member'), 'utf8').trim(), 10_000, 'the member pid'));
    expect(isAlive(member)).toBe(true);
    expect(groupAlive(leader.pid!)).toBe(true);
  });

  it('does not count a group whose only process is a zombie leader', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'chrys-group-'));
    const gate = join(marks, 'gate');
    execFileSync('mkfifo', [gate]);
    // The leader exits under a parent (exec'd into sleep) that never reaps it. It waits at the gate until the
    // parent is sleep: had it exited while the parent was still bash, bash would have reaped it.
    const parent = spawn('bash', ['-c', `setsid sh -c 'echo $$ > ${marks}/leader; read go < ${gate}' & exec sleep 30`], { detached: true, stdio: 'ignore' });
    children.push(parent);
    const leader = Number(await eventually(() => existsSync(join(marks, 'leader')) && readFileSync(join(marks, 'leader'), 'utf8').trim(), 10_000, 'the leader pid'));
    try {
      await eventually(() => { try { return readFileSync(`/proc/${parent.pid!}/comm`, 'utf8') === 'sleep\n'; } catch { return false; } }, 10_000, 'the parent to be sleep');
      await writeFile(gate, 'go\n');
      await eventually(() => { try { return readFileSync(`/proc/${leader}/stat`, 'utf8').includes(') Z'); } catch { return false; } }, 10_000, 'the leader to be a zombie');
      expect(groupAlive(leader)).toBe(false);
    } finally {
      // A leader still at the gate (the test failed) would wait there for ever; a zombie still holds its pid.
      try { process.kill(-leader, 'SIGKILL'); } catch { /* a zombie's group, or gone */ }
    }
  });
});
