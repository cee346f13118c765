// Which trust Codex gives a wired handler, read from its hooks/list answer.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CodexHook, codexTrustOf } from '../../src/engine/codex-trust.js';

const dir = mkdtempSync(join(tmpdir(), 'chrys-codex-trust-'));
const file = join(dir, 'hooks.json');
writeFileSync(file, '{}');
const COMMAND = 'chrys-hooks fire --protocol codex --fail-closed';
const listed = (over: Partial<CodexHook>): CodexHook => ({ key: `${file}:pre_tool_use:0:0`, sourcePath: file, eventName: 'preToolUse', command: COMMAND, trustStatus: 'trusted', ...over });
const entry = { event: 'PreToolUse', file, command: COMMAND };

describe('codexTrustOf', () => {
  it("reads Codex's camelCase event name against the file's PascalCase one", () => {
    expect(codexTrustOf(entry, [listed({})])).toBe('trusted');
    expect(codexTrustOf(entry, [listed({ trustStatus: 'untrusted' })])).toBe('untrusted');
  });

  it('gives the worst status when Codex lists the handler twice (the same entry wired twice)', () => {
    expect(codexTrustOf(entry, [listed({}), listed({ key: `${file}:pre_tool_use:1:0`, trustStatus: 'modified' })])).toBe('modified');
    expect(codexTrustOf(entry, [listed({ trustStatus: 'managed' }), listed({})])).toBe('managed');
  });

  it('is not_loaded when Codex lists no hook of that event, command and file', () => {
    expect(codexTrustOf(entry, [])).toBe('not_loaded');
    expect(codexTrustOf(entry, [listed({ eventName: 'postToolUse' })])).toBe('not_loaded');
    expect(codexTrustOf(entry, [listed({ command: `${COMMAND} --exit-code` })])).toBe('not_loaded');
    expect(codexTrustOf(entry, [listed({ sourcePath: join(dir, 'other.json') })])).toBe('not_loaded');
  });

  it('matches the file whether either side names it through a symbolic link or not', () => {
    const link = join(dir, 'link.json');
    symlinkSync(file, link);
    expect(codexTrustOf({ ...entry, file: link }, [listed({ trustStatus: 'untrusted' })])).toBe('untrusted');
  });
});
