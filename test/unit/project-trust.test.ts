// The one trust decision on a workspace's project layer, over real files: a
// record written by `trust` itself (planTrust + recordTrustPlan), then the
// workspace changed the way a user or an attacker would change it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideProjectLayer, decideProjectTrust, recordTrust, switchTrust, withVerifiedScripts } from '../../src/config/project-trust.js';
import { trustRecordPath } from '../../src/config/trust-record.js';
import type { Warning } from '../../src/core/diagnostics.js';
import { planTrust, recordTrustPlan, untrust } from '../../src/engine/trust.js';
import { testHook } from '../helpers/hook.js';
import { type Sandbox, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const HOOKS = `version: 1\nhooks:\n${hookYaml({ id: 'guard', run: 'type: script\npath: scripts/guard.sh' })}\n`;

/** A workspace with a project hooks file and a script, trusted by `trust`. */
async function trusted(): Promise<{ s: Sandbox; hooksFile: string; script: string }> {
  const s = sandbox();
  const hooksFile = s.projectHooks(HOOKS);
  const script = s.projectScript('guard.sh', '#!/bin/sh\nexit 0\n');
  recordTrustPlan(await planTrust({ configDir: s.configDir, cwd: s.workspace }), new Date('2024-05-01T00:00:00Z'));
  return { s, hooksFile, script };
}

const inputs = (s: Sandbox, projectPath: string) => ({ configDir: s.configDir, workspace: s.workspace, projectPath });

describe('recordTrust', () => {
  it('trusts a recorded workspace while nothing changed, handing over the bytes it hashed', async () => {
    const { s, hooksFile } = await trusted();
    const warnings: Warning[] = [];
    const verdict = recordTrust(inputs(s, hooksFile), warnings);
    expect(verdict.trust).toEqual({ trusted: true, rule: 'trust_record', detail: 'trusted by `chrys-hooks trust` on 2024-05-01T00:00:00.000Z' });
    expect(verdict.verified?.data.toString()).toBe(HOOKS);
    expect(verdict.verified?.treeRoot).toBe(join(s.workspace, '.chrys', 'hooks'));
    expect(warnings).toEqual([]);
  });

  it('notices a project hooks file other than the one trusted, though every recorded file is unchanged', async () => {
    const { s } = await trusted();
    // Present when `trust` ran, so recorded (the tree is covered whole) and unchanged: only the swap differs.
    const other = join(s.workspace, '.chrys', 'hooks', 'scripts', 'other.yaml');
    writeFileSync(other, HOOKS);
    recordTrustPlan(await planTrust({ configDir: s.configDir, cwd: s.workspace }));
    const warnings: Warning[] = [];
    const verdict = recordTrust(inputs(s, other), warnings);
    expect(verdict).toMatchObject({ trust: { trusted: false, rule: 'trust_record' }, changes: { changed: [], added: [other], removed: [] } });
    expect(verdict.verified).toBeUndefined();
    expect(warnings).toMatchObject([{ code: 'project_hooks_changed', message: expect.stringContaining('(added: .chrys/hooks/scripts/other.yaml)') }]);
  });

  it('makes the layer dormant when a trusted script changes, naming it', async () => {
    const { s, hooksFile, script } = await trusted();
    writeFileSync(script, '#!/bin/sh\nexit 1\n');
    const warnings: Warning[] = [];
    const verdict = recordTrust(inputs(s, hooksFile), warnings);
    expect(verdict).toMatchObject({ trust: { trusted: false, detail: 'changed since trusted on 2024-05-01T00:00:00.000Z: changed: .chrys/hooks/scripts/guard.sh' }, changes: { changed: [script] } });
    expect(warnings).toMatchObject([{ code: 'project_hooks_changed', path: hooksFile }]);
  });

  it('makes the layer dormant when a file appears in the .chrys/hooks tree', async () => {
    const { s, hooksFile } = await trusted();
    const added = s.projectScript('lib.sh', 'x');
    expect(recordTrust(inputs(s, hooksFile), []).changes).toEqual({ changed: [], added: [added], removed: [] });
  });

  it('makes the layer dormant when a trusted file is removed', async () => {
    const { s, hooksFile, script } = await trusted();
    writeFileSync(hooksFile, HOOKS); // same bytes: still trusted
    expect(recordTrust(inputs(s, hooksFile), []).trust.trusted).toBe(true);
    rmSync(script);
    expect(recordTrust(inputs(s, hooksFile), []).changes).toEqual({ changed: [], added: [], removed: [script] });
  });

  it('does not trust an entry that holds no hash of its own hooks file (recorded as missing, and missing now)', () => {
    const s = sandbox();
    const hooksFile = join(s.workspace, '.chrys', 'hooks', 'hooks.yaml');
    mkdirSync(join(s.workspace, '.chrys', 'hooks'), { recursive: true });
    const files = [{ path: hooksFile, sha256: null, real: null, outside: false }];
    s.write(trustRecordPath(s.configDir), JSON.stringify({ version: 1, workspaces: { [s.workspace]: { workspace: s.workspace, hooks_file: hooksFile, trusted_at: 't', files } } }));
    expect(recordTrust(inputs(s, hooksFile), [])).toMatchObject({ trust: { trusted: false }, changes: { changed: [hooksFile], added: [], removed: [] } });
  });

  it('ignores an unreadable record with a warning, and trusts nothing', async () => {
    const { s, hooksFile } = await trusted();
    writeFileSync(trustRecordPath(s.configDir), '{not json');
    const warnings: Warning[] = [];
    expect(recordTrust(inputs(s, hooksFile), warnings).trust).toEqual({ trusted: false, rule: 'none', detail: 'this workspace is not trusted' });
    expect(warnings).toMatchObject([{ code: 'trust_record_invalid', path: trustRecordPath(s.configDir), message: expect.stringContaining('it is not valid JSON') }]);
  });

  it('ignores a record that lies inside the workspace, which could ship one trusting itself', async () => {
    const { s, hooksFile } = await trusted();
    const inner = join(s.workspace, 'cfg');
    mkdirSync(join(inner, 'hooks', 'state'), { recursive: true });
    writeFileSync(trustRecordPath(inner), readFileSync(trustRecordPath(s.configDir)));
    const warnings: Warning[] = [];
    expect(recordTrust({ configDir: inner, workspace: s.workspace, projectPath: hooksFile }, warnings).trust.trusted).toBe(false);
    expect(warnings).toMatchObject([{ code: 'trust_record_invalid', message: expect.stringContaining(`ignored (it lies inside the workspace ${s.workspace}): no workspace`) }]);
  });

  it('does not trust a workspace the record does not hold, and says when it was ignored', async () => {
    const s = sandbox();
    const hooksFile = s.projectHooks(HOOKS);
    expect(recordTrust(inputs(s, hooksFile), []).trust).toEqual({ trusted: false, rule: 'none', detail: 'this workspace is not trusted' });
    untrust({ configDir: s.configDir, cwd: s.workspace }, undefined, true, new Date('2024-06-01T00:00:00Z'));
    expect(recordTrust(inputs(s, hooksFile), []).trust).toMatchObject({ trusted: false, ignored_at: '2024-06-01T00:00:00.000Z' });
  });
});

describe('precedence', () => {
  it('takes the flag over the environment, and the environment over nothing', () => {
    expect(switchTrust({ projectHooks: false }, { CHRYS_PROJECT_HOOKS: '1' })).toEqual({ trusted: false, rule: 'cli_flag', detail: '--no-project-hooks' });
    expect(switchTrust({}, { CHRYS_PROJECT_HOOKS: ' yes ' })).toEqual({ trusted: true, rule: 'env', detail: 'CHRYS_PROJECT_HOOKS=yes' });
    expect(switchTrust({}, { CHRYS_PROJECT_HOOKS: 'maybe' })).toBeUndefined();
  });

  it('asks the settings only when no switch decided, and trusts on them without a record', async () => {
    const s = sandbox();
    const hooksFile = s.projectHooks(HOOKS);
    let asked = 0;
    const settingsEnabled = async (): Promise<boolean> => (asked++, true);
    const off = await decideProjectTrust({}, { ...inputs(s, hooksFile), settingsEnabled, env: { CHRYS_PROJECT_HOOKS: '0' } }, []);
    expect([off.trust.rule, off.trust.trusted, asked]).toEqual(['env', false, 0]);
    const on = await decideProjectTrust({}, { ...inputs(s, hooksFile), settingsEnabled, env: {} }, []);
    expect([on.trust.rule, on.trust.trusted, asked]).toEqual(['settings', true, 1]);
  });

  it('falls to the record when neither switch nor settings decide', async () => {
    const { s, hooksFile } = await trusted();
    const verdict = await decideProjectTrust({}, { ...inputs(s, hooksFile), settingsEnabled: async () => false, env: {} }, []);
    expect(verdict.trust.rule).toBe('trust_record');
    expect(verdict.verified?.files.length).toBeGreaterThan(1);
  });
});

describe('decideProjectLayer', () => {
  it('loads a project file that is the global file once, as global: no record is consulted', async () => {
    const s = sandbox();
    const globalPath = s.globalHooks(HOOKS);
    const layer = await decideProjectLayer({}, { configDir: s.configDir, workspace: s.workspace, globalPath, projectPath: globalPath, settingsEnabled: async () => true, env: {} }, []);
    expect(layer).toEqual({ projectPath: globalPath, sameFile: true, trust: { trusted: false, rule: 'none', detail: 'this workspace is not trusted' } });
  });

  it('passes on what the record verified, or what changed', async () => {
    const { s, hooksFile, script } = await trusted();
    const layerNow = () => decideProjectLayer({}, { configDir: s.configDir, workspace: s.workspace, projectPath: hooksFile, settingsEnabled: async () => false, env: {} }, []);
    expect(await layerNow()).toMatchObject({ sameFile: false, trust: { trusted: true }, verified: { treeRoot: join(s.workspace, '.chrys', 'hooks') } });
    writeFileSync(script, 'changed');
    const changed = await layerNow();
    expect([changed.verified, changed.changes?.changed]).toEqual([undefined, [script]]);
  });
});

describe('withVerifiedScripts', () => {
  it("pins a script hook to the hash the record holds for its real path, with the tree's hashes", async () => {
    const { s, hooksFile } = await trusted();
    const verified = recordTrust(inputs(s, hooksFile), []).verified!;
    const script = testHook({ source: 'project', file: hooksFile, run: { type: 'script', path: 'scripts/guard.sh', args: [], env: {}, cwd: '' } });
    const command = testHook({ source: 'project', file: hooksFile });
    const [pinned, untouched] = withVerifiedScripts([script, command], verified);
    const recorded = verified.files.find((f) => f.path.endsWith('guard.sh'))!;
    expect(pinned!.trusted).toMatchObject({ sha256: recorded.sha256, tree: { root: verified.treeRoot, script: 'scripts/guard.sh' } });
    expect(pinned!.trusted?.tree?.files.map((f) => f.path).sort()).toEqual(['hooks.yaml', 'scripts/guard.sh']);
    expect(untouched).toBe(command);
    expect(withVerifiedScripts([script], undefined)[0]).toBe(script);
  });
});
