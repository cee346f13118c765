// A durable job's live output (run/live-log.ts), what `outbox logs --follow`
// reads while the hook runs: where it is, made on the first chunk, appended
// to, never written through a symlink, given up rather than failing the run,
// and gone once the run ended. Real files in a temp config dir.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveLog, liveLogPath, liveLogsDir } from '../../src/run/live-log.js';
import { heldUnder } from '../helpers/fd.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const config = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'chrys-live-log-'));
  roots.push(dir);
  return dir;
};

describe('liveLogPath', () => {
  it('is <config>/hooks/logs/live/<job id>.log for a plain job id', () => {
    expect(liveLogsDir('/c')).toBe(join('/c', 'hooks', 'logs', 'live'));
    for (const id of ['job-1', 'a.b_c-D', 'v1.', '.hidden', 'x', 'x'.repeat(200)]) expect(liveLogPath('/c', id)).toBe(join('/c', 'hooks', 'logs', 'live', `${id}.log`));
  });

  it('is undefined for an id that cannot name a file of its own there', () => {
    for (const id of ['', '.', '..', '...', 'a/b', '../up', 'a/', '/a', 'with space', 'a\nb', 'tab\t', 'é', 'x'.repeat(201)]) expect(liveLogPath('/c', id)).toBeUndefined();
  });
});

describe('LiveLog', () => {
  it('makes the owner-only file on the first chunk and appends both streams in the order they come', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    const live = new LiveLog(dir, path);
    expect(existsSync(path)).toBe(false);
    live.write('stdout', Buffer.from('one\n'));
    live.write('stderr', Buffer.from('two\n'));
    live.write('stdout', Buffer.from('three\n'));
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(liveLogsDir(dir)).mode & 0o777).toBe(0o700);
    live.close();
  });

  it('costs nothing for a job that prints nothing: no file, not even the directory', () => {
    const dir = config();
    const live = new LiveLog(dir, liveLogPath(dir, 'quiet'));
    live.close();
    expect(existsSync(join(dir, 'hooks'))).toBe(false);
  });

  it('starts over a file an earlier, killed start left', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    mkdirSync(liveLogsDir(dir), { recursive: true });
    writeFileSync(path, 'the output of an earlier start that was killed\n');
    const live = new LiveLog(dir, path);
    live.write('stdout', Buffer.from('this run\n'));
    expect(readFileSync(path, 'utf8')).toBe('this run\n');
    live.close();
  });

  it('removes the live log once the run ended, and closes it', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    const live = new LiveLog(dir, path);
    live.write('stdout', Buffer.from('out\n'));
    expect(heldUnder(dir)).toEqual([path]);
    live.close();
    expect(existsSync(path)).toBe(false);
    expect(heldUnder(dir)).toEqual([]);
  });

  it('removes, at the end of a run that printed nothing, the live log an earlier killed start left', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    mkdirSync(liveLogsDir(dir), { recursive: true });
    writeFileSync(path, 'stale\n');
    new LiveLog(dir, path).close();
    expect(existsSync(path)).toBe(false);
  });

  it('writes nothing anywhere for a job whose id cannot name a file', () => {
    const dir = config();
    const live = new LiveLog(dir, liveLogPath(dir, '../escape'));
    live.write('stdout', Buffer.from('out\n'));
    live.close();
    expect(existsSync(join(dir, 'hooks'))).toBe(false);
  });

  it('never writes through a symlink in its place, and gives up without failing the run', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    const target = join(dir, 'target');
    writeFileSync(target, 'not yours\n');
    mkdirSync(liveLogsDir(dir), { recursive: true });
    symlinkSync(target, path);
    const live = new LiveLog(dir, path);
    expect(() => live.write('stdout', Buffer.from('out\n'))).not.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('not yours\n');
    live.close();
    expect(readFileSync(target, 'utf8')).toBe('not yours\n');
  });

  it('once given up, writes no more of that run, even when the file could be made again', () => {
    const dir = config();
    const path = liveLogPath(dir, 'job-1')!;
    mkdirSync(liveLogsDir(dir), { recursive: true });
    symlinkSync(join(dir, 'nowhere'), path);
    const live = new LiveLog(dir, path);
    live.write('stdout', Buffer.from('first\n'));
    rmSync(path);
    live.write('stdout', Buffer.from('second\n'));
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    live.close();
  });

  it('gives up when the live directory cannot be made', () => {
    const dir = config();
    mkdirSync(join(dir, 'hooks', 'logs'), { recursive: true });
    writeFileSync(liveLogsDir(dir), 'a file, not a directory');
    const live = new LiveLog(dir, liveLogPath(dir, 'job-1'));
    expect(() => live.write('stdout', Buffer.from('out\n'))).not.toThrow();
    expect(() => live.close()).not.toThrow();
    expect(lstatSync(liveLogsDir(dir)).isFile()).toBe(true);
  });
});
