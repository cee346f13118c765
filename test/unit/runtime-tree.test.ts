// The runtime tree's guards where they live (findings 9, 10, 14, 17): owner-
// only directories that are never symlinks, the sweep of temp files left by
// dead writers, job files that are not regular files, the result file's
// states, and the process-group check behind a stale-claim takeover.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asPlatform } from '../helpers/platform.js';
import { ensureDir } from '../../src/base/runtime-layout.js';
import { sweepStaleTemp } from '../../src/run/runtime.js';
import { readResultFile } from '../../src/run/spawn.js';
import { isOddJobFile, readJobText } from '../../src/outbox/store.js';
import { groupAlive } from '../../src/run/process-group.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-tree-'));

describe('ensureDir in the runtime tree', () => {
  it('creates 0700 directories and tightens existing ones', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks', 'state'), { recursive: true });
    chmodSync(join(config, 'hooks', 'state'), 0o755);
    ensureDir(join(config, 'hooks', 'state', 'history'));
    expect(statSync(join(config, 'hooks', 'state')).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, 'hooks', 'state', 'history')).mode & 0o777).toBe(0o700);
  });

  it('leaves modes alone on Windows, where they mean nothing', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks', 'state'), { recursive: true });
    chmodSync(join(config, 'hooks', 'state'), 0o755);
    asPlatform('win32', () => ensureDir(join(config, 'hooks', 'state', 'history')));
    expect(statSync(join(config, 'hooks', 'state')).mode & 0o777).toBe(0o755);
  });

  it('refuses a symlink anywhere below hooks/, but not the config dir or hooks/ itself', () => {
    const config = temp();
    const elsewhere = temp();
    mkdirSync(join(config, 'hooks'));
    symlinkSync(elsewhere, join(config, 'hooks', 'tmp'));
    expect(() => ensureDir(join(config, 'hooks', 'tmp'))).toThrow(/symlink/);
    const linkedHooks = temp();
    symlinkSync(join(config, 'hooks'), join(linkedHooks, 'hooks'));
    expect(() => ensureDir(join(linkedHooks, 'hooks', 'logs'))).not.toThrow();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('names the symlink it refuses', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    symlinkSync(temp(), join(config, 'hooks', 'logs'));
    expect(() => ensureDir(join(config, 'hooks', 'logs', 'x'))).toThrow(expect.objectContaining({ code: 'ESYMLINK', message: `${join(config, 'hooks', 'logs')} is a symlink; chrys-hooks does not write through it` }));
  });

  it('leaves the modes of directories outside the runtime tree alone', () => {
    const base = temp();
    mkdirSync(join(base, 'shared'), { mode: 0o755 });
    chmodSync(join(base, 'shared'), 0o755);
    ensureDir(join(base, 'shared', 'hooks', 'other'));
    expect(statSync(join(base, 'shared')).mode & 0o777).toBe(0o755);
    expect(statSync(join(base, 'shared', 'hooks', 'other')).mode & 0o777).toBe(0o700);
    chmodSync(join(base, 'shared', 'hooks'), 0o755);
    ensureDir(join(base, 'shared', 'hooks', 'logs'));
    expect(statSync(join(base, 'shared', 'hooks')).mode & 0o777).toBe(0o755);
  });

  it('checks only below the last hooks/<runtime dir> of the path, the config dir may hold one', () => {
    const base = temp();
    const linked = temp();
    mkdirSync(join(base, 'hooks'));
    symlinkSync(linked, join(base, 'hooks', 'tmp'));
    const config = join(base, 'hooks', 'tmp', 'config');
    ensureDir(join(config, 'hooks', 'state'));
    expect(statSync(join(linked, 'config', 'hooks', 'state')).isDirectory()).toBe(true);
    symlinkSync(temp(), join(config, 'hooks', 'logs'));
    expect(() => ensureDir(join(config, 'hooks', 'logs'))).toThrow(/symlink/);
  });
});

describe('sweepStaleTemp', () => {
  it('removes only old temp files of dead writers, with the given suffix', () => {
    const dir = temp();
    const old = new Date(Date.now() - 3600_000);
    const names = ['a.json.99999999.abcd.tmp', `a.json.${process.pid}.abcd.tmp`, 'job-1.json', 'payload-99999999-abcdef.json', 'fresh.json.99999999.abcd.tmp'];
    for (const n of names) {
      writeFileSync(join(dir, n), '');
      if (!n.startsWith('fresh')) utimesSync(join(dir, n), old, old);
    }
    sweepStaleTemp(dir, '.tmp');
    expect(readdirSync(dir).sort()).toEqual([`a.json.${process.pid}.abcd.tmp`, 'fresh.json.99999999.abcd.tmp', 'job-1.json', 'payload-99999999-abcdef.json']);
  });
});

describe('job files that are not regular files', () => {
  it('reads neither a FIFO nor a symlink, and says they are odd', () => {
    const config = temp();
    const pending = join(config, 'hooks', 'outbox', 'pending');
    mkdirSync(pending, { recursive: true });
    execFileSync('mkfifo', [join(pending, 'fifo.json')]);
    writeFileSync(join(config, 'target.json'), '{}');
    symlinkSync(join(config, 'target.json'), join(pending, 'link.json'));
    writeFileSync(join(pending, 'ok.json'), '{"job_id":"ok"}');
    expect(readJobText(config, 'pending', 'fifo')).toBeUndefined();
    expect(readJobText(config, 'pending', 'link')).toBeUndefined();
    expect(readJobText(config, 'pending', 'ok')).toBe('{"job_id":"ok"}');
    expect([isOddJobFile(config, 'pending', 'fifo'), isOddJobFile(config, 'pending', 'link'), isOddJobFile(config, 'pending', 'ok'), isOddJobFile(config, 'pending', 'gone')]).toEqual([true, true, false, false]);
  });
});

describe('readResultFile', () => {
  it('tells every state apart and never follows a symlink', () => {
    const dir = temp();
    const at = (name: string, content?: string): string => {
      const p = join(dir, name);
      if (content !== undefined) writeFileSync(p, content);
      return p;
    };
    expect(readResultFile(at('absent'))).toEqual({ state: 'absent' });
    expect(readResultFile(at('empty', ''))).toEqual({ state: 'empty' });
    expect(readResultFile(at('blank', ' \n'))).toEqual({ state: 'empty' });
    expect(readResultFile(at('json', '{"action":"block"}'))).toEqual({ state: 'json', value: { action: 'block' } });
    expect(readResultFile(at('list', '[1]'))).toMatchObject({ state: 'invalid' });
    expect(readResultFile(at('bad', '{'))).toMatchObject({ state: 'invalid' });
    mkdirSync(join(dir, 'dir'));
    expect(readResultFile(join(dir, 'dir'))).toEqual({ state: 'not_a_file' });
    symlinkSync(at('real', '{"action":"block"}'), join(dir, 'link'));
    expect(readResultFile(join(dir, 'link'))).toEqual({ state: 'not_a_file' });
  });
});

describe('groupAlive', () => {
  it('is true while a process group runs and false once it is gone', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    await new Promise((r) => child.once('spawn', r));
    expect(groupAlive(child.pid!)).toBe(true);
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(groupAlive(child.pid!)).toBe(false);
  });
});
