// Hook temp files: owner-only files under <config_dir>/hooks/tmp/, the OS
// temp dir (loudly) when that cannot be used, and the sweep of temp files
// whose writer is gone. ensureDir's guards are in runtime-tree.test.ts.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STALE_TEMP_MS, TempFiles, fileStamp, fileStampOrGone, sweepStaleTemp } from '../../src/run/runtime.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-runtime-'));
const NAME = new RegExp(`^payload-${process.pid}-[0-9a-f]{12}\\.json$`);

describe('TempFiles', () => {
  it('creates owner-only files of that content in hooks/tmp, each with a fresh name', () => {
    const config = temp();
    const files = new TempFiles(config);
    const a = files.create('payload', '{"a":1}');
    const b = files.create('payload', Buffer.from('b'));
    expect(dirname(a)).toBe(join(config, 'hooks', 'tmp'));
    expect(a.split('/').at(-1)).toMatch(NAME);
    expect(a).not.toBe(b);
    expect(readFileSync(a, 'utf8')).toBe('{"a":1}');
    expect(readFileSync(b, 'utf8')).toBe('b');
    expect(statSync(a).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'hooks', 'tmp')).mode & 0o777).toBe(0o700);
    expect(files.warnings).toEqual([]);
    expect(readdirSync(join(config, 'hooks', 'tmp')).sort()).toEqual([a, b].map((p) => p.split('/').at(-1)).sort());
  });

  it('puts a lasting file next to the others, and cleanup leaves hooks/tmp alone', () => {
    const config = temp();
    const files = new TempFiles(config);
    const lasting = files.createLasting('job', 'x');
    const plain = files.create('payload', 'y');
    expect(dirname(lasting)).toBe(join(config, 'hooks', 'tmp'));
    files.cleanup();
    expect(existsSync(lasting) && existsSync(plain)).toBe(true);
  });

  it('cleanup removes the firing\'s directory: its files, one already gone, and a file a hook left there', () => {
    const config = temp();
    const files = new TempFiles(config);
    const payload = files.firingFile('payload', '{}', true);
    const result = files.firingFile('result', '');
    const firing = dirname(payload);
    expect(firing.split('/').at(-1)).toMatch(new RegExp(`^firing-${process.pid}-[0-9a-f]{12}$`));
    expect(statSync(payload).mode & 0o777).toBe(0o400);
    rmSync(result); // the run removed it already
    files.cleanup();
    expect(existsSync(firing)).toBe(false);
    const next = files.firingFile('payload', '{}', true); // a new firing gets a new directory
    expect(dirname(next)).not.toBe(firing);
    writeFileSync(join(dirname(next), 'stray.log'), 'a hook wrote this');
    files.cleanup();
    expect(existsSync(dirname(next))).toBe(false);
    expect(readdirSync(join(config, 'hooks', 'tmp'))).toEqual([]);
  });

  it('falls back to the OS temp dir, once and with a warning, when hooks/tmp cannot be used', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), 'a file');
    const files = new TempFiles(config);
    const a = files.create('payload', 'x');
    const b = files.create('result', '');
    const fallback = dirname(a);
    expect(dirname(b)).toBe(fallback);
    expect(dirname(fallback)).toBe(tmpdir());
    expect(fallback.split('/').at(-1)).toMatch(/^chrys-hooks-/);
    const wanted = join(config, 'hooks', 'tmp');
    expect(files.warnings).toEqual([{
      code: 'runtime_dir_unwritable',
      path: wanted,
      message: `cannot write to ${wanted} (EEXIST); hook temp files went to ${fallback}. Fix the permissions of ${config}.`,
    }]);
    expect(readFileSync(join(config, 'hooks', 'tmp'), 'utf8')).toBe('a file');
  });

  it('never writes through a symlinked hooks/tmp', () => {
    const config = temp();
    const elsewhere = temp();
    mkdirSync(join(config, 'hooks'));
    symlinkSync(elsewhere, join(config, 'hooks', 'tmp'));
    const files = new TempFiles(config);
    const path = files.create('payload', 'x');
    expect(dirname(dirname(path))).toBe(tmpdir());
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(files.warnings[0]?.message).toContain('(ESYMLINK)');
  });

  it('in the fallback, cleanup deletes its files but a lasting file outlives it', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), '');
    const files = new TempFiles(config);
    const plain = files.create('payload', 'x');
    const lasting = files.createLasting('job', 'y');
    expect(dirname(lasting)).toBe(tmpdir());
    files.cleanup();
    expect(existsSync(plain) || existsSync(dirname(plain))).toBe(false);
    expect(readFileSync(lasting, 'utf8')).toBe('y');
    rmSync(lasting);
  });

  it('throws when a file cannot be written, and leaves no file behind', () => {
    const config = temp();
    const files = new TempFiles(config);
    files.create('payload', 'x');
    rmSync(join(config, 'hooks', 'tmp'), { recursive: true });
    expect(() => files.create('payload', 'y')).toThrow(/ENOENT/);
    expect(existsSync(join(config, 'hooks', 'tmp'))).toBe(false);
  });
});

describe('sweepStaleTemp', () => {
  const DEAD = 99_999_999;
  const setUp = (names: string[], mtime: number): string => {
    const dir = temp();
    for (const n of names) {
      writeFileSync(join(dir, n), '');
      utimesSync(join(dir, n), mtime / 1000, mtime / 1000);
    }
    return dir;
  };

  it('with .json, removes old payload-style files of dead writers and nothing else', () => {
    const old = Date.now() - 2 * STALE_TEMP_MS;
    const names = [`payload-${DEAD}-abc123.json`, `result-${process.pid}-abc123.json`, `a.json.${DEAD}.abcd.tmp`, 'notes.json', `payload-${DEAD}-xyz.json`, `payload-${DEAD}-abc123.json.bak`];
    const dir = setUp(names, old);
    sweepStaleTemp(dir, '.json');
    expect(readdirSync(dir).sort()).toEqual(names.slice(1).sort());
  });

  it('keeps a file exactly as old as the stale time and removes one a millisecond older', () => {
    const mtime = Math.floor(Date.now() / 1000) * 1000 - 3600_000;
    const dir = setUp([`a.json.${DEAD}.ab.tmp`], mtime);
    sweepStaleTemp(dir, '.tmp', mtime + STALE_TEMP_MS);
    expect(readdirSync(dir)).toEqual([`a.json.${DEAD}.ab.tmp`]);
    sweepStaleTemp(dir, '.tmp', mtime + STALE_TEMP_MS + 1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps what only looks like a stale temp file: a directory, a symlink', () => {
    const old = Date.now() - 2 * STALE_TEMP_MS;
    const dir = temp();
    mkdirSync(join(dir, `payload-${DEAD}-ab.json`));
    symlinkSync(join(dir, 'nowhere'), join(dir, `result-${DEAD}-ab.json`));
    utimesSync(join(dir, `payload-${DEAD}-ab.json`), old / 1000, old / 1000);
    sweepStaleTemp(dir, '.json');
    expect(readdirSync(dir).sort()).toEqual([`payload-${DEAD}-ab.json`, `result-${DEAD}-ab.json`]);
    expect(lstatSync(join(dir, `result-${DEAD}-ab.json`)).isSymbolicLink()).toBe(true);
  });

  it('does nothing when the directory is missing', () => {
    expect(() => sweepStaleTemp(join(temp(), 'missing'), '.tmp')).not.toThrow();
  });
});

describe('TempFiles, a firing\'s files', () => {
  it('puts all the files of one firing in one directory: the shared payload read-only, the others writable by the hook', () => {
    const config = temp();
    const files = new TempFiles(config);
    const payload = files.firingFile('payload', '{"p":1}', true);
    const result = files.firingFile('result', '');
    const prompt = files.firingFile('prompt', Buffer.from('body'));
    expect(new Set([payload, result, prompt].map((f) => dirname(f))).size).toBe(1);
    expect(dirname(dirname(payload))).toBe(join(config, 'hooks', 'tmp'));
    expect(new Set([payload, result, prompt]).size).toBe(3);
    expect(statSync(result).mode & 0o777).toBe(0o600);
    expect(statSync(prompt).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(payload)).mode & 0o777).toBe(0o700);
    expect([readFileSync(payload, 'utf8'), readFileSync(result, 'utf8'), readFileSync(prompt, 'utf8')]).toEqual(['{"p":1}', '', 'body']);
  });

  it('makes the firing\'s directory in hooks/tmp beside the files made before it', () => {
    const config = temp();
    const files = new TempFiles(config);
    const plain = files.create('payload', 'x');
    const firing = files.firingFile('result', '');
    expect(dirname(dirname(firing))).toBe(dirname(plain));
    expect(files.warnings).toEqual([]);
  });

  it('makes the firing\'s directory in the OS temp fallback when hooks/tmp cannot be used, with one warning, and cleanup removes it', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), 'a file');
    const files = new TempFiles(config);
    const payload = files.firingFile('payload', '{}', true);
    const result = files.firingFile('result', '');
    const fallback = dirname(dirname(payload));
    expect(dirname(result)).toBe(dirname(payload));
    expect(dirname(fallback)).toBe(tmpdir());
    expect(fallback.split('/').at(-1)).toMatch(/^chrys-hooks-/);
    expect(files.warnings).toHaveLength(1);
    expect(files.warnings[0]).toMatchObject({ code: 'runtime_dir_unwritable', path: join(config, 'hooks', 'tmp') });
    files.cleanup();
    expect(existsSync(fallback)).toBe(false);
  });

  it('falls back once for the whole process, a firing after other files included', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), 'a file');
    const files = new TempFiles(config);
    const plain = files.create('payload', 'x');
    const firing = files.firingFile('result', '');
    expect(dirname(dirname(firing))).toBe(dirname(plain));
    expect(files.warnings).toHaveLength(1);
    files.cleanup();
  });

  it('throws the write\'s own error when a firing file cannot be written', () => {
    const config = temp();
    const files = new TempFiles(config);
    const first = files.firingFile('payload', '{}', true);
    rmSync(dirname(first), { recursive: true });
    expect(() => files.firingFile('result', '')).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'open' }));
  });

  it('throws the write\'s own error when a plain file cannot be written', () => {
    const config = temp();
    const files = new TempFiles(config);
    files.create('payload', 'x');
    rmSync(join(config, 'hooks', 'tmp'), { recursive: true });
    expect(() => files.create('payload', 'y')).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'open' }));
  });

  it('cleanup removes the firing\'s directory even when a hook left a directory of its own in it', () => {
    const config = temp();
    const files = new TempFiles(config);
    const payload = files.firingFile('payload', '{}', true);
    mkdirSync(join(dirname(payload), 'cache', 'deep'), { recursive: true });
    writeFileSync(join(dirname(payload), 'cache', 'deep', 'f'), 'x');
    files.cleanup();
    expect(existsSync(dirname(payload))).toBe(false);
    expect(readdirSync(join(config, 'hooks', 'tmp'))).toEqual([]);
  });

  it('can clean up again, after the firing\'s directory and the fallback are gone', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), 'a file');
    const files = new TempFiles(config);
    files.firingFile('payload', '{}', true);
    files.cleanup();
    expect(() => files.cleanup()).not.toThrow();
  });
});

describe('TempFiles.dirPath', () => {
  it('names a fresh directory in hooks/tmp for the caller to make, a new name each time', () => {
    const config = temp();
    const files = new TempFiles(config);
    const a = files.dirPath('script');
    const b = files.dirPath('script');
    expect(a).not.toBe(b);
    expect(dirname(a)).toBe(join(config, 'hooks', 'tmp'));
    expect(a.split('/').at(-1)).toMatch(new RegExp(`^script-${process.pid}-[0-9a-f]{12}$`));
    expect(existsSync(a)).toBe(false);
  });

  it('names it in the fallback when hooks/tmp cannot be used, so cleanup removes it with what it holds', () => {
    const config = temp();
    mkdirSync(join(config, 'hooks'));
    writeFileSync(join(config, 'hooks', 'tmp'), 'a file');
    const files = new TempFiles(config);
    const dir = files.dirPath('script');
    expect(dirname(dirname(dir))).toBe(tmpdir());
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'scripts', 'a.sh'), 'x');
    files.cleanup();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('fileStamp', () => {
  it('stays the same while the file is untouched', () => {
    const dir = temp();
    writeFileSync(join(dir, 'f'), 'abc');
    expect(fileStamp(join(dir, 'f'))).toBe(fileStamp(join(dir, 'f')));
  });

  it('changes when the file is rewritten with as many bytes, chmodded, or replaced', () => {
    const dir = temp();
    const f = join(dir, 'f');
    writeFileSync(f, 'abc');
    utimesSync(f, 1_000_000, 1_000_000);
    const original = fileStamp(f);
    writeFileSync(f, 'xyz');
    utimesSync(f, 1_000_000.5, 1_000_000.5); // as many bytes: only the time (to the nanosecond) tells
    const rewritten = fileStamp(f);
    expect(rewritten).not.toBe(original);
    chmodSync(f, 0o640);
    const chmodded = fileStamp(f);
    expect(chmodded).not.toBe(rewritten);
    writeFileSync(join(dir, 'g'), 'xyz');
    chmodSync(join(dir, 'g'), 0o640);
    renameSync(join(dir, 'g'), f);
    expect(fileStamp(f)).not.toBe(chmodded);
  });

  it('is the stamp of a symlink itself, not of the file it leads to', () => {
    const dir = temp();
    writeFileSync(join(dir, 'target'), 'content');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    const link = fileStamp(join(dir, 'link'));
    expect(link).not.toBe(fileStamp(join(dir, 'target')));
    writeFileSync(join(dir, 'target'), 'other content');
    expect(fileStamp(join(dir, 'link'))).toBe(link);
  });

  it('fileStampOrGone is the stamp of a file that is there and undefined for one that is not', () => {
    const dir = temp();
    writeFileSync(join(dir, 'f'), 'abc');
    expect(fileStampOrGone(join(dir, 'f'))).toBe(fileStamp(join(dir, 'f')));
    expect(fileStampOrGone(join(dir, 'missing'))).toBeUndefined();
  });
});

describe('sweepStaleTemp, firing directories', () => {
  const DEAD = 99_999_999;
  const old = (path: string, mtime = Date.now() - 2 * STALE_TEMP_MS): void => utimesSync(path, mtime / 1000, mtime / 1000);
  const firingDir = (dir: string, name: string, mtime?: number): string => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'payload-1.json'), '{}');
    old(join(dir, name), mtime);
    return join(dir, name);
  };

  it('with .json, removes an old firing directory of a dead writer, with what it holds', () => {
    const dir = temp();
    firingDir(dir, `firing-${DEAD}-0123456789ab`);
    firingDir(dir, `firing-${process.pid}-0123456789ab`);
    sweepStaleTemp(dir, '.json');
    expect(readdirSync(dir)).toEqual([`firing-${process.pid}-0123456789ab`]);
  });

  it('keeps what only looks like a firing directory: another name around it, a file of that name', () => {
    const dir = temp();
    const names = [`xfiring-${DEAD}-ab`, `firing-${DEAD}-ab.keep`, `firing-${DEAD}-xyz`];
    for (const n of names) firingDir(dir, n);
    writeFileSync(join(dir, `firing-${DEAD}-cd`), '');
    old(join(dir, `firing-${DEAD}-cd`));
    sweepStaleTemp(dir, '.json');
    expect(readdirSync(dir).sort()).toEqual([...names, `firing-${DEAD}-cd`].sort());
  });

  it('keeps a firing directory exactly as old as the stale time and removes one a millisecond older', () => {
    const dir = temp();
    const mtime = Math.floor(Date.now() / 1000) * 1000 - 3600_000;
    firingDir(dir, `firing-${DEAD}-ab`, mtime);
    sweepStaleTemp(dir, '.json', mtime + STALE_TEMP_MS);
    expect(readdirSync(dir)).toEqual([`firing-${DEAD}-ab`]);
    sweepStaleTemp(dir, '.json', mtime + STALE_TEMP_MS + 1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('with .tmp, leaves firing directories alone', () => {
    const dir = temp();
    firingDir(dir, `firing-${DEAD}-ab`);
    sweepStaleTemp(dir, '.tmp');
    expect(readdirSync(dir)).toEqual([`firing-${DEAD}-ab`]);
  });

  it('keeps a file whose name only holds a temp name before its own ending', () => {
    const dir = temp();
    const name = `payload-${DEAD}-abc.json.keep.tmp`;
    writeFileSync(join(dir, name), '');
    old(join(dir, name));
    sweepStaleTemp(dir, '.tmp');
    expect(readdirSync(dir)).toEqual([name]);
  });
});
