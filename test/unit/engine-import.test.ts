// importConfig: finds an agent's hook config in a real temp workspace, reads
// and converts it, and with `write` writes hooks.yaml where it belongs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHooksFile } from '../../src/config/load.js';
import { ChrysError } from '../../src/core/errors.js';
import { type ImportOptions, importConfig } from '../../src/engine/import.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function dirs(): { ws: string; configDir: string; put: (rel: string, text: string) => string } {
  const root = mkdtempSync(join(tmpdir(), 'chrys-engine-import-'));
  roots.push(root);
  const ws = join(root, 'work');
  const configDir = join(root, 'config');
  mkdirSync(ws);
  const put = (rel: string, text: string): string => {
    const path = join(ws, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return { ws, configDir, put };
}

const stop = (command: string): string => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
const refusal = (opts: ImportOptions): ChrysError => {
  try {
    importConfig(opts);
  } catch (e) {
    if (e instanceof ChrysError) return e;
    throw e;
  }
  throw new Error('importConfig did not refuse');
};

describe('importConfig', () => {
  it("reads both of Claude's settings files, in order, and prints without writing", () => {
    const { ws, configDir, put } = dirs();
    const shared = put('.claude/settings.json', stop('one'));
    const local = put('.claude/settings.local.json', stop('two'));
    const r = importConfig({ from: 'claude', cwd: ws, configDir });
    expect(r.files).toEqual([shared, local]);
    expect(r.plan.hooks.map((h) => h.run)).toEqual([{ type: 'shell', shell: 'one' }, { type: 'shell', shell: 'two' }]);
    expect(r.yaml).toContain(`# Imported by \`chrys-hooks import --from claude\` from ${shared}, ${local}.`);
    expect(r.written).toBeUndefined();
  });

  it('says where it looked when there is nothing to import', () => {
    const { ws, configDir } = dirs();
    expect(refusal({ from: 'codex', cwd: ws, configDir })).toMatchObject({ code: 'input_unreadable', message: `no .codex/hooks.json in ${ws}` });
    expect(refusal({ from: 'copilot', cwd: ws, configDir }).message).toBe(`no .github/hooks/*.json in ${ws}`);
  });

  it('reads every .github/hooks/*.json for Copilot, in name order, but not its own install file', () => {
    const { ws, configDir, put } = dirs();
    const file = JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: 'command', bash: 'x' }] } });
    // Written out of name order.
    const names = ['m', 'b', 'y', 'a', 'q', 'c'];
    for (const n of names) put(`.github/hooks/${n}.json`, file);
    put('.github/hooks/chrys-hooks.json', file);
    put('.github/hooks/notes.txt', 'x');
    expect(importConfig({ from: 'copilot', cwd: ws, configDir }).files).toEqual([...names].sort().map((n) => join(ws, '.github', 'hooks', `${n}.json`)));
  });

  it('names the line and column of invalid JSON, and refuses a file that is not an object', () => {
    const { ws, configDir, put } = dirs();
    const bad = put('bad.json', '{\n  "hooks": ,\n}');
    expect(refusal({ from: 'claude', file: bad, cwd: ws, configDir })).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(new RegExp(`^${bad}:2:12: not valid JSON`)) });
    const list = put('list.json', '[]');
    expect(refusal({ from: 'claude', file: list, cwd: ws, configDir })).toMatchObject({ code: 'not_an_object', message: `${list}:1:1: the settings file must be a JSON object` });
    expect(refusal({ from: 'claude', file: join(ws, 'missing.json'), cwd: ws, configDir }).code).toBe('input_unreadable');
  });

  it('writes the project hooks.yaml, refuses to overwrite it without force, and replaces it with force', async () => {
    const { ws, configDir, put } = dirs();
    put('.claude/settings.json', stop('one'));
    const r = importConfig({ from: 'claude', cwd: ws, configDir, write: true });
    expect(r.written).toBe(join(ws, '.chrys', 'hooks', 'hooks.yaml'));
    expect(readFileSync(r.written!, 'utf8')).toBe(r.yaml);
    const load = await loadHooksFile(r.written!, 'project');
    expect(load.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(refusal({ from: 'claude', cwd: ws, configDir, write: true })).toMatchObject({ code: 'file_exists', message: `${r.written} already exists; not overwritten` });
    put('.claude/settings.json', stop('two'));
    const again = importConfig({ from: 'claude', cwd: ws, configDir, write: true, force: true });
    expect(readFileSync(r.written!, 'utf8')).toContain('"two"');
    expect([again.written, again.shadowed]).toEqual([r.written, undefined]);
  });

  it('writes the global file with --global, and says which hooks.json the new hooks.yaml shadows', () => {
    const { ws, configDir, put } = dirs();
    put('.claude/settings.json', stop('one'));
    mkdirSync(join(configDir, 'hooks'), { recursive: true });
    writeFileSync(join(configDir, 'hooks', 'hooks.json'), '{"version":1,"hooks":[]}');
    const r = importConfig({ from: 'claude', cwd: ws, configDir, write: true, global: true, force: true });
    expect([r.written, r.shadowed]).toEqual([join(configDir, 'hooks', 'hooks.yaml'), join(configDir, 'hooks', 'hooks.json')]);
  });

  it('never writes through a symbolic link', () => {
    const { ws, configDir, put } = dirs();
    put('.claude/settings.json', stop('one'));
    const elsewhere = join(dirname(ws), 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(ws, '.chrys'));
    expect(refusal({ from: 'claude', cwd: ws, configDir, write: true })).toMatchObject({ code: 'file_exists', message: `${join(ws, '.chrys')} is a symbolic link; chrys-hooks does not write through links` });
  });

  // Three Copilot files with the same handler once gave two hooks one id, and
  // the written file failed validation.
  it('writes a file that validates from three Copilot files with the same handler', async () => {
    const { ws, configDir, put } = dirs();
    for (const n of ['a', 'b', 'c']) put(`.github/hooks/${n}.json`, JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'check' }] } }));
    const r = importConfig({ from: 'copilot', cwd: ws, configDir, write: true });
    const load = await loadHooksFile(r.written!, 'project');
    expect(load.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
