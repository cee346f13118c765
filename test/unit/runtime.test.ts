// Hook temp files: owner-only files under <config_dir>/hooks/tmp/, the OS
// temp dir (loudly) when that cannot be used, and the sweep of temp files
// whose writer is gone. ensureDir's guards are in runtime-tree.test.ts.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STALE_TEMP_MS, TempFiles, sweepStaleTemp } from '../../src/run/runtime.js';

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
