// doctor and install look programs up on PATH: only in absolute entries.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPath } from '../../src/engine/self-command.js';

describe('onPath', () => {
  it('finds a program in an absolute entry and never in a relative one', () => {
    const root = mkdtempSync(join(tmpdir(), 'chrys-onpath-'));
    const bin = join(root, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    // The same directory spelt relative to this process's cwd: found only when spelt absolute.
    const relativeBin = relative(process.cwd(), bin);
    expect(onPath('codex', { PATH: relativeBin })).toBeUndefined();
    expect(onPath('codex', { PATH: `.:${relativeBin}:${bin}` })).toBe(join(bin, 'codex'));
  });
});
