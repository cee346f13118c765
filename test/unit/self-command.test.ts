// doctor and install look programs up on PATH: only in absolute entries.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPath } from '../../src/engine/self-command.js';

describe('onPath', () => {
  it('finds a program in an absolute entry and never in a relative one', () => {
    const root = mkdtempSync(join(tmpdir(), 'chrys-onpath-'));
    const bin = join(root, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    const cwd = process.cwd();
    process.chdir(root);
    try {
      expect(onPath('codex', { PATH: 'node_modules/.bin' })).toBeUndefined();
      expect(onPath('codex', { PATH: `.:node_modules/.bin:${bin}` })).toBe(join(bin, 'codex'));
    } finally {
      process.chdir(cwd);
    }
  });
});
