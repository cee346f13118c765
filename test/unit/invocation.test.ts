// Templates in run.env / run.cwd (finding 12), the interpreter choice for
// global hooks (finding 1), and what exactly a hook runs: argv, cwd and the
// environment it gets, where the logic lives.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { hookDir, resolveFromHookFile } from '../../src/core/hook-paths.js';
import { expandTemplate } from '../../src/core/hook-template.js';
import { addedEnv, hookProcessEnv, resolveInvocation } from '../../src/run/invocation.js';
import { interpreterFor, which } from '../../src/base/interpreter.js';
import { testHook } from '../helpers/hook.js';
import { asPlatform } from '../helpers/platform.js';

const ctx = (sessionId: string, profile = 'Code') => ({ configDir: '/home/u/.chrys', workspace: '/w', sessionId, profile });

describe('expandTemplate', () => {
  it('substitutes in one pass, literally', () => {
    expect(expandTemplate('pre-${session_id}', ctx('$`'))).toBe('pre-$`');
    expect(expandTemplate('pre-${session_id}', ctx("$&$'$$"))).toBe("pre-$&$'$$");
    expect(expandTemplate('${session_id}|${profile}', ctx('${profile}', 'P'))).toBe('${profile}|P');
    expect(expandTemplate('${workspace_cwd}/${chrys_home}/${nope}', ctx(''))).toBe('/w//home/u/.chrys/${nope}');
  });
});

describe('interpreterFor a global or project hook', () => {
  const bin = mkdtempSync(join(tmpdir(), 'chrys-interp-'));
  const exe = (dir: string, name: string): string => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
    return join(dir, name);
  };
  const npx = exe(bin, 'npx');
  const python = exe(bin, 'python3');
  const uv = exe(bin, 'uv');

  it('never uses npx; tsx comes from the global hooks dir, else PATH', () => {
    const hooksDir = join(bin, 'hooks');
    expect(interpreterFor('/x/a.ts', hooksDir, bin)).toEqual({ ok: false, wanted: expect.stringContaining('npx is never used') });
    const local = exe(join(hooksDir, 'node_modules', '.bin'), 'tsx');
    expect(interpreterFor('/x/a.ts', hooksDir, bin)).toEqual({ ok: true, argv: [local] });
    // A project script gets the same program: the workspace's node_modules/.bin never counts.
    expect(interpreterFor('/w/.chrys/hooks/a.ts', hooksDir, bin)).toEqual({ ok: true, argv: [local] });
    expect(JSON.stringify(interpreterFor('/w/.chrys/hooks/a.ts', hooksDir, bin))).not.toContain(npx);
  });

  it('runs uv in script mode with the PATH python, ignoring any project; python alone without uv', () => {
    expect(interpreterFor('/x/a.py', '/x', bin)).toEqual({ ok: true, argv: [uv, 'run', '--no-project', '--no-config', '--python', python, '--script'] });
    expect(interpreterFor('/x/a', '/x', bin).ok && interpreterFor('/x/a', '/x', bin)).toMatchObject({ argv: [uv, 'run', '--no-project', '--no-config', '--python', python, '--script'] });
    expect(interpreterFor('/w/.chrys/hooks/a.py', '/x', bin)).toEqual({ ok: true, argv: [uv, 'run', '--no-project', '--no-config', '--python', python, '--script'] });
    const noUv = mkdtempSync(join(tmpdir(), 'chrys-interp-'));
    const onlyPython = exe(noUv, 'python3');
    expect(interpreterFor('/x/a.py', '/x', noUv)).toEqual({ ok: true, argv: [onlyPython] });
  });
});

describe('addedEnv', () => {
  const context = { configDir: '/home/u/.chrys', workspace: '/w', sessionId: 's1', profile: 'P' };

  it('gives the contract variables and UTF-8 for Python', () => {
    const hook = testHook({ id: 'fmt', event: 'after_tool_call', source: 'project' });
    expect({ ...addedEnv(hook, context) }).toEqual({
      CHRYS_HOOK_ID: 'fmt', CHRYS_HOOK_EVENT: 'after_tool_call', CHRYS_HOOK_SOURCE: 'project', CHRYS_HOME: '/home/u/.chrys', CHRYS_WORKSPACE: '/w', PYTHONUTF8: '1', PYTHONIOENCODING: 'utf-8',
    });
  });

  it("adds the agent's own variables for a foreign hook", () => {
    const hook = testHook({ run: { type: 'command', argv: ['true'], args: [], env: {}, cwd: '', protocol: 'gemini' } });
    expect(addedEnv(hook, context)).toMatchObject({ GEMINI_PROJECT_DIR: '/w', GEMINI_SESSION_ID: 's1', CLAUDE_PROJECT_DIR: '/w' });
    expect(addedEnv(testHook(), context).CLAUDE_PROJECT_DIR).toBeUndefined();
  });

  it('puts run.env last, templates expanded, so it overrides; any name is passed through', () => {
    const env = { PYTHONUTF8: '0', WHERE: '${workspace_cwd}/${session_id}', ['__proto__']: 'x' };
    const added = addedEnv(testHook({ run: { type: 'command', argv: ['true'], args: [], env, cwd: '' } }), context);
    expect(added.PYTHONUTF8).toBe('0');
    expect(added.WHERE).toBe('/w/s1');
    expect(Object.keys(added)).toContain('__proto__');
    expect(added.__proto__).toBe('x');
  });
});

describe('addedEnv for Python', () => {
  const context = { configDir: '/home/u/.chrys', workspace: '/w', sessionId: 's1', profile: 'P' };
  const safePath = (run: Record<string, unknown>): string | undefined => addedEnv(testHook({ run: { args: [], env: {}, cwd: '', ...run } as unknown as Hook['run'] }), context).PYTHONSAFEPATH;

  it("keeps the directory of a Python hook's code off sys.path (PYTHONSAFEPATH), a script, a command or a shell line alike", () => {
    expect(safePath({ type: 'script', path: 'guard.py' })).toBe('1');
    expect(safePath({ type: 'script', path: 'guard' })).toBe('1');
    expect(safePath({ type: 'command', argv: ['python3', 'guard.py'] })).toBe('1');
    expect(safePath({ type: 'shell', shell: 'python3 -c "import json"' })).toBe('1');
  });

  it('leaves sys.path alone for `python -m`, which finds its module from the cwd, and for other languages', () => {
    expect(safePath({ type: 'command', argv: ['python3', '-m', 'tool'] })).toBeUndefined();
    expect(safePath({ type: 'shell', shell: 'python3 -m tool' })).toBeUndefined();
    expect(safePath({ type: 'script', path: 'guard.sh' })).toBeUndefined();
    expect(safePath({ type: 'command', argv: ['node', 'guard.js'] })).toBeUndefined();
  });
});

describe('hookProcessEnv', () => {
  it("is the parent's environment without PYTHONHOME and PYTHONPATH, then the files, then the added variables", () => {
    const saved = { ...process.env };
    Object.assign(process.env, { PYTHONHOME: '/py', PYTHONPATH: '/pp', CHRYS_TEST_KEEP: 'parent', CHRYS_TEST_FILE: 'parent' });
    try {
      const env = hookProcessEnv({ CHRYS_TEST_FILE: 'file', CHRYS_HOOK_RESULT: '/r' }, { CHRYS_HOOK_RESULT: 'added', CHRYS_HOOK_ID: 'h' });
      expect(env.PYTHONHOME).toBeUndefined();
      expect(env.PYTHONPATH).toBeUndefined();
      expect(env).toMatchObject({ CHRYS_TEST_KEEP: 'parent', CHRYS_TEST_FILE: 'file', CHRYS_HOOK_RESULT: 'added', CHRYS_HOOK_ID: 'h', PATH: process.env.PATH });
      expect(process.env.PYTHONPATH).toBe('/pp'); // the parent's own environment is left alone
    } finally {
      for (const k of ['PYTHONHOME', 'PYTHONPATH', 'CHRYS_TEST_KEEP', 'CHRYS_TEST_FILE']) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});

describe('resolveInvocation', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'chrys-inv-'));
  const hooksDir = join(workspace, '.chrys');
  mkdirSync(join(workspace, 'sub'));
  mkdirSync(hooksDir);
  writeFileSync(join(hooksDir, 'fmt.sh'), 'exit 0\n');
  writeFileSync(join(workspace, 'plain-file'), '');
  const context = { configDir: join(workspace, 'config'), workspace, sessionId: 's1', profile: 'P' };
  const hookWith = (run: Record<string, unknown>): Hook => testHook({ file: join(hooksDir, 'hooks.yaml'), run: { args: [], env: {}, cwd: '', ...run } as unknown as Hook['run'] });
  const withEnv = <T>(vars: Record<string, string | undefined>, body: () => T): T => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    const apply = (v: Record<string, string | undefined>) => { for (const [k, x] of Object.entries(v)) if (x === undefined) delete process.env[k]; else process.env[k] = x; };
    apply(vars);
    try {
      return body();
    } finally {
      apply(saved);
    }
  };

  it('runs a script found from its hooks file with the interpreter of its extension, then its args', () => {
    const inv = resolveInvocation(hookWith({ type: 'script', path: 'fmt.sh', args: ['--fix', '${session_id}'] }), context);
    expect(inv).toEqual({ ok: true, argv: [which('bash'), join(hooksDir, 'fmt.sh'), '--fix', '${session_id}'], cwd: workspace, env: addedEnv(hookWith({ type: 'script', path: 'fmt.sh' }), context), scriptIndex: 1 });
  });

  it('says a script is missing, with the argv it would have run', () => {
    const inv = resolveInvocation(hookWith({ type: 'script', path: 'gone.sh', args: ['a'] }), context);
    expect(inv).toMatchObject({ ok: false, error: `script not found: ${join(hooksDir, 'gone.sh')}`, argv: [which('bash'), join(hooksDir, 'gone.sh'), 'a'], cwd: workspace });
  });

  it('says which interpreter is not on PATH', () => {
    const inv = withEnv({ PATH: mkdtempSync(join(tmpdir(), 'chrys-inv-')) }, () => resolveInvocation(hookWith({ type: 'script', path: 'fmt.py', args: ['a'] }), context));
    expect(inv).toMatchObject({ ok: false, error: `no interpreter for ${join(hooksDir, 'fmt.py')}: python3 or python not found on PATH`, argv: [join(hooksDir, 'fmt.py'), 'a'] });
  });

  it('looks for tsx in the hooks directory of the config dir', () => {
    const bin = join(context.configDir, 'hooks', 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'tsx'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(hooksDir, 'a.ts'), '');
    const inv = withEnv({ PATH: '' }, () => resolveInvocation(hookWith({ type: 'script', path: 'a.ts' }), context));
    expect(inv).toMatchObject({ ok: true, argv: [join(bin, 'tsx'), join(hooksDir, 'a.ts')] });
  });

  it('runs a command as its argv, then its args, untouched', () => {
    expect(resolveInvocation(hookWith({ type: 'command', argv: ['echo', '${profile}'], args: ['x'] }), context)).toMatchObject({ ok: true, argv: ['echo', '${profile}', 'x'] });
  });

  it('runs a shell line with $SHELL -c, else /bin/sh', () => {
    const hook = hookWith({ type: 'shell', shell: 'echo "$HOME" | wc' });
    expect(withEnv({ SHELL: '/bin/bash' }, () => resolveInvocation(hook, context))).toMatchObject({ ok: true, argv: ['/bin/bash', '-c', 'echo "$HOME" | wc'] });
    expect(withEnv({ SHELL: undefined }, () => resolveInvocation(hook, context))).toMatchObject({ ok: true, argv: ['/bin/sh', '-c', 'echo "$HOME" | wc'] });
    expect(withEnv({ SHELL: '' }, () => resolveInvocation(hook, context))).toMatchObject({ argv: ['/bin/sh', '-c', 'echo "$HOME" | wc'] });
  });

  it('runs a shell line with %ComSpec% /c on Windows, else cmd.exe', () => {
    const hook = hookWith({ type: 'shell', shell: 'echo %USERNAME%' });
    const onWindows = (comSpec: string | undefined) => withEnv({ ComSpec: comSpec }, () => asPlatform('win32', () => resolveInvocation(hook, context)));
    expect(onWindows('C:\\Windows\\system32\\cmd.exe')).toMatchObject({ ok: true, argv: ['C:\\Windows\\system32\\cmd.exe', '/c', 'echo %USERNAME%'] });
    expect(onWindows(undefined)).toMatchObject({ ok: true, argv: ['cmd.exe', '/c', 'echo %USERNAME%'] });
    expect(onWindows('')).toMatchObject({ ok: true, argv: ['cmd.exe', '/c', 'echo %USERNAME%'] });
  });

  it('runs in the workspace, or in run.cwd expanded and resolved against it', () => {
    const at = (cwd: string) => resolveInvocation(hookWith({ type: 'command', argv: ['true'], cwd }), context);
    expect(at('')).toMatchObject({ ok: true, cwd: workspace });
    expect(at('sub')).toMatchObject({ ok: true, cwd: join(workspace, 'sub') });
    expect(at('${workspace_cwd}/sub')).toMatchObject({ ok: true, cwd: join(workspace, 'sub') });
    expect(at(tmpdir())).toMatchObject({ ok: true, cwd: tmpdir() });
  });

  it('refuses a working directory that is missing or not a directory', () => {
    const hook = (cwd: string) => hookWith({ type: 'command', argv: ['true'], cwd });
    expect(resolveInvocation(hook('nope'), context)).toMatchObject({ ok: false, error: `working directory does not exist: ${join(workspace, 'nope')}`, argv: ['true'], cwd: join(workspace, 'nope') });
    expect(resolveInvocation(hook('plain-file'), context)).toMatchObject({ ok: false, error: `working directory does not exist: ${join(workspace, 'plain-file')}` });
  });
});

describe('paths relative to the hooks file', () => {
  it('resolves a relative path from the directory of the hooks file and keeps an absolute one', () => {
    const hook = testHook({ file: '/p/.chrys/hooks.yaml' });
    expect(hookDir(hook)).toBe('/p/.chrys');
    expect(resolveFromHookFile(hook, 'a/b.sh')).toBe('/p/.chrys/a/b.sh');
    expect(resolveFromHookFile(hook, '../c.sh')).toBe('/p/c.sh');
    expect(resolveFromHookFile(hook, '/abs/d.sh')).toBe('/abs/d.sh');
  });
});
