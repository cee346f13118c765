// The pieces the author tools add to shared code: what a result applied (for
// --explain and `test`), `locked`, and the runner keeping the result text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../src/core/config.js';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { type Chain, type Outcome, applyOutcome, emptyDecision } from '../../src/core/decide.js';
import { type JsonObject, parseJson } from '../../src/core/json.js';
import { resolveInvocation } from '../../src/run/invocation.js';
import { TempFiles } from '../../src/run/runtime.js';
import { runHook } from '../../src/run/spawn.js';

describe('what a result applied (for --explain and test)', () => {
  const blocking = (id: string): Hook =>
    ({ id, event: 'before_tool_call', source: 'global', file: '/g/hooks.yaml', execution: { mode: 'blocking', on_error: 'warn' } }) as unknown as Hook;
  const ran = (value: object): Outcome => ({ status: 'ok', exitCode: 0, signal: null, durationMs: 1, stderrTail: '', result: { kind: 'json', value: parseJson(JSON.stringify(value)) as JsonObject } });

  it('lists the keys that took effect, not ignored ones, and reason only with the block it made', () => {
    const c: Chain = { decision: emptyDecision('before_tool_call'), args: undefined, argsModified: false, applied: [] };
    applyOutcome(c, blocking('a'), ran({ action: 'modify', args_override: { x: 1 }, system_reminder: 'r', reason: 'unused', context: 'c' }));
    expect(c.applied).toEqual(['args_override', 'context', 'action']);
    c.applied = [];
    applyOutcome(c, blocking('b'), ran({ action: 'block', reason: 'no' }));
    expect(c.applied).toEqual(['action', 'reason']);
  });

  it('leaves a chain without the collector alone', () => {
    const c: Chain = { decision: emptyDecision('before_tool_call'), args: undefined, argsModified: false };
    applyOutcome(c, blocking('a'), ran({ action: 'block', reason: 'no' }));
    expect(c).not.toHaveProperty('applied');
  });
});

describe('locked', () => {
  const raw = (locked: boolean | undefined) => ({ hooks: [{ id: 'g', event: 'session_start', run: { type: 'command' as const, argv: ['true'] }, ...(locked === undefined ? {} : { locked }) }] });

  it('marks a global hook locked, and is an error in a project file', () => {
    expect(normaliseHooksFile(raw(true), 'global', '/g/hooks.yaml').hooks[0]).toMatchObject({ id: 'g', locked: true });
    expect(normaliseHooksFile(raw(false), 'global', '/g/hooks.yaml').hooks[0]).not.toHaveProperty('locked');
    expect(normaliseHooksFile(raw(undefined), 'global', '/g/hooks.yaml').findings).toEqual([]);
    for (const value of [true, false]) {
      const p = normaliseHooksFile(raw(value), 'project', '/p/hooks.yaml');
      expect(p.findings).toEqual([expect.objectContaining({ severity: 'error', code: 'locked_in_project', path: ['hooks', 0, 'locked'], hook: 'g' })]);
      expect(p.hooks[0]).not.toHaveProperty('locked');
    }
  });
});

describe('runHook keepResultText', () => {
  it('keeps the result file as written, also when the hook failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrys-unit-'));
    try {
      const h = { id: 'w', event: 'session_start', source: 'global', file: join(dir, 'hooks.yaml'), run: { type: 'shell', shell: 'printf "not json" > "$CHRYS_HOOK_RESULT"; exit 1', env: {}, cwd: '' }, execution: { mode: 'blocking', timeout_seconds: 30, on_error: 'warn' } } as unknown as Hook;
      const ctx = { configDir: dir, workspace: dir, sessionId: '', profile: '' };
      const temp = new TempFiles(dir);
      const kept = await runHook(h, ctx, resolveInvocation(h, ctx), '{}', temp, { keepResultText: true });
      expect(kept).toMatchObject({ status: 'failed', resultText: 'not json', result: { kind: 'none' } });
      const plain = await runHook(h, ctx, resolveInvocation(h, ctx), '{}', temp, {});
      expect(plain.resultText).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
