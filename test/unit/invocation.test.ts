// Templates in run.env / run.cwd (finding 12) and the interpreter choice for
// global hooks (finding 1), where the logic lives.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTemplate } from '../../src/run/invocation.js';
import { interpreterFor } from '../../src/run/interpreter.js';

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
