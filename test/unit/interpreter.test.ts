// The PATH lookup and the interpreter chosen by a script's extension
// (CONTRACT §2); the npx / uv / tsx rules are in invocation.test.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { asPlatform } from '../helpers/platform.js';
import { interpreterFor, isPythonScript, which } from '../../src/base/interpreter.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'chrys-which-'));
const file = (dir: string, name: string, mode = 0o755): string => {
  writeFileSync(join(dir, name), '#!/bin/sh\n', { mode });
  return join(dir, name);
};
/** A PATH of fresh directories holding executables of these names, one directory each. */
const pathWith = (...names: string[]): { path: string; at: Record<string, string> } => {
  const at: Record<string, string> = {};
  const dirs = names.map((name) => {
    const dir = temp();
    at[name] = file(dir, name);
    return dir;
  });
  return { path: dirs.join(':'), at };
};

describe('which', () => {
  it('finds the first executable of that name along PATH', () => {
    const first = temp();
    const second = temp();
    file(second, 'tool');
    expect(which('tool', `${first}:${second}`)).toBe(join(second, 'tool'));
    file(first, 'tool');
    expect(which('tool', `${first}:${second}`)).toBe(join(first, 'tool'));
  });

  it('passes over a file that is not executable and a directory of that name', () => {
    const plain = temp();
    const withDir = temp();
    const good = temp();
    file(plain, 'tool', 0o644);
    mkdirSync(join(withDir, 'tool'), { mode: 0o755 });
    file(good, 'tool');
    expect(which('tool', `${plain}:${withDir}:${good}`)).toBe(join(good, 'tool'));
    expect(which('tool', `${plain}:${withDir}`)).toBeUndefined();
  });

  it('never reads an empty PATH entry as the current directory', () => {
    // A name that resolves, from the current directory, to an executable (workers cannot chdir);
    // the PATH directory is deep enough that the same name does not resolve from there.
    const fromCwd = relative(process.cwd(), file(temp(), 'tool'));
    const deep = join(temp(), ...'abcdefghijklmnop'.split(''));
    mkdirSync(deep, { recursive: true });
    expect(which(fromCwd, `:${deep}:`)).toBeUndefined();
    expect(which(fromCwd, '')).toBeUndefined();
  });

  it('skips a relative PATH entry, which would resolve against the workspace', () => {
    // Relative to the current directory, an entry that holds an executable `tool`.
    const dir = temp();
    file(dir, 'tool');
    const rel = relative(process.cwd(), dir);
    expect(rel.startsWith('/')).toBe(false);
    expect(which('tool', rel)).toBeUndefined();
    expect(which('tool', `./${rel}:${rel}`)).toBeUndefined();
    expect(which('tool', `${rel}:${dir}`)).toBe(join(dir, 'tool'));
  });

  it('reads process.env.PATH when no path is given', () => {
    const { path, at } = pathWith('chrys-which-probe');
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      expect(which('chrys-which-probe')).toBe(at['chrys-which-probe']);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('which on Windows', () => {
  it('tries the PATHEXT extensions in their order, .EXE;.CMD;.BAT when PATHEXT is unset', () => {
    const dir = temp();
    for (const name of ['tool.CMD', 'tool.BAT', 'tool.COM']) file(dir, name);
    try {
      asPlatform('win32', () => {
        vi.stubEnv('PATHEXT', '.BAT;.CMD');
        expect(which('tool', dir)).toBe(join(dir, 'tool.BAT'));
        vi.stubEnv('PATHEXT', '.COM');
        expect(which('tool', dir)).toBe(join(dir, 'tool.COM'));
        vi.stubEnv('PATHEXT', undefined);
        expect(which('tool', dir)).toBe(join(dir, 'tool.CMD'));
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('isPythonScript', () => {
  it('holds for .py and for any extension without an interpreter of its own, not for TypeScript or the others', () => {
    for (const script of ['/x/a.py', '/x/a.PY', '/x/a.txt', '/x/noext']) expect(isPythonScript(script)).toBe(true);
    for (const script of ['/x/a.ts', '/x/a.TS', '/x/a.sh', '/x/a.js', '/x/a.rb', '/x/a.pl', '/x/a.ps1']) expect(isPythonScript(script)).toBe(false);
  });
});

describe('interpreterFor by extension', () => {
  it('runs shell scripts with bash, else sh, whatever the case of the extension', () => {
    const both = pathWith('bash', 'sh');
    const onlySh = pathWith('sh');
    for (const script of ['/x/a.sh', '/x/a.bash', '/x/a.zsh', '/x/A.SH']) {
      expect(interpreterFor(script, '/x', both.path)).toEqual({ ok: true, argv: [both.at.bash] });
      expect(interpreterFor(script, '/x', onlySh.path)).toEqual({ ok: true, argv: [onlySh.at.sh] });
    }
    expect(interpreterFor('/x/a.sh', '/x', pathWith('python3').path)).toEqual({ ok: false, wanted: 'bash or sh' });
  });

  it('runs JavaScript with node, Ruby with ruby, Perl with perl', () => {
    const { path, at } = pathWith('node', 'ruby', 'perl', 'python3');
    expect(interpreterFor('/x/a.js', '/x', path)).toEqual({ ok: true, argv: [at.node] });
    expect(interpreterFor('/x/a.mjs', '/x', path)).toEqual({ ok: true, argv: [at.node] });
    expect(interpreterFor('/x/a.rb', '/x', path)).toEqual({ ok: true, argv: [at.ruby] });
    expect(interpreterFor('/x/a.pl', '/x', path)).toEqual({ ok: true, argv: [at.perl] });
    const none = pathWith('python3').path;
    expect(interpreterFor('/x/a.js', '/x', none)).toEqual({ ok: false, wanted: 'node' });
    expect(interpreterFor('/x/a.mjs', '/x', none)).toEqual({ ok: false, wanted: 'node' });
    expect(interpreterFor('/x/a.rb', '/x', none)).toEqual({ ok: false, wanted: 'ruby' });
    expect(interpreterFor('/x/a.pl', '/x', none)).toEqual({ ok: false, wanted: 'perl' });
  });

  it('runs PowerShell with pwsh, else powershell, without a profile', () => {
    const both = pathWith('pwsh', 'powershell');
    expect(interpreterFor('/x/a.ps1', '/x', both.path)).toEqual({ ok: true, argv: [both.at.pwsh, '-NoProfile', '-File'] });
    const old = pathWith('powershell');
    expect(interpreterFor('/x/a.ps1', '/x', old.path)).toEqual({ ok: true, argv: [old.at.powershell, '-NoProfile', '-File'] });
    expect(interpreterFor('/x/a.ps1', '/x', pathWith('sh').path)).toEqual({ ok: false, wanted: 'pwsh or powershell' });
  });

  it('runs Python, and any other extension, with python3, else python', () => {
    const three = pathWith('python3', 'python');
    const plain = pathWith('python');
    for (const script of ['/x/a.py', '/x/a.txt', '/x/noext', '/x/a.PY']) {
      expect(interpreterFor(script, '/x', three.path)).toEqual({ ok: true, argv: [three.at.python3] });
      expect(interpreterFor(script, '/x', plain.path)).toEqual({ ok: true, argv: [plain.at.python] });
    }
    expect(interpreterFor('/x/a.py', '/x', pathWith('node').path)).toEqual({ ok: false, wanted: 'python3 or python' });
  });

  it('runs TypeScript with tsx from PATH when the global hooks directory has none', () => {
    const { path, at } = pathWith('tsx');
    expect(interpreterFor('/x/a.ts', temp(), path)).toEqual({ ok: true, argv: [at.tsx] });
    expect(interpreterFor('/x/a.TS', temp(), path)).toEqual({ ok: true, argv: [at.tsx] });
  });
});
