// coveredPaths for a run.argv whose program is a path: argv[0] is what runs,
// so trust covers it wherever it lies, resolved from the hook's cwd as the
// runner resolves it. Real files in a temp workspace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coveredPaths } from '../../src/config/trust-files.js';
import type { Hook } from '../../src/core/config.js';
import { testHook } from '../helpers/hook.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function covered(argv: string[], cwd = ''): { root: string; ws: string; paths: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'chrys-trust-argv-'));
  roots.push(root);
  const ws = join(root, 'work');
  mkdirSync(join(ws, '.chrys', 'hooks'), { recursive: true });
  mkdirSync(join(ws, 'sub'));
  mkdirSync(join(root, 'tools'));
  writeFileSync(join(root, 'tools', 'guard'), '#!/bin/sh\n');
  const hooksFile = join(ws, '.chrys', 'hooks', 'hooks.yaml');
  writeFileSync(hooksFile, '');
  const hook = testHook({ source: 'project', file: hooksFile, run: { type: 'command', argv, args: [], env: {}, cwd } as Hook['run'] });
  const { paths } = coveredPaths(hooksFile, [hook], { configDir: join(root, 'config'), workspace: ws });
  return { root, ws, paths: paths.slice(1) };
}

describe('coveredPaths: a path-like run.argv[0]', () => {
  it('covers a relative argv[0] that leads out of the workspace', () => {
    const { root, paths } = covered(['../tools/guard', '--check']);
    expect(paths).toEqual([join(root, 'tools', 'guard')]);
  });

  it("resolves a relative argv[0] from the hook's run.cwd", () => {
    const { root, paths } = covered(['../../tools/guard'], 'sub');
    expect(paths).toEqual([join(root, 'tools', 'guard')]);
  });

  it('covers an absolute argv[0] outside the workspace', () => {
    expect(covered(['/usr/bin/env', 'true']).paths).toEqual(['/usr/bin/env']);
  });

  it('covers nothing for a bare program name, which PATH finds', () => {
    expect(covered(['guard', 'README.md']).paths).toEqual([]);
  });
});
