// Property: for the same hooks files, envelope, kill switches and
// once-per-session stamps, `resolve --json`'s plan and `fire`'s hooks[] give
// each hook the same status and reason (both ask core/gate.ts). Generated
// from a fixed seed; the hooks never block or modify, so resolve's "nothing
// has run yet" is fire's chain too. Runs the engine functions in-process.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { KillSwitches } from '../../src/core/kill-switch.js';
import { fire } from '../../src/engine/fire.js';
import { resolvePlan } from '../../src/engine/inspect.js';
import { OnceGuard } from '../../src/state/once.js';

const SEED = 0x5eed18;
const CASES = 120;

/** mulberry32: small, seeded, good enough to spread cases. */
function rng(seed: number): { next: () => number; pick: <T>(xs: readonly T[]) => T; chance: (p: number) => boolean } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: (xs) => xs[Math.floor(next() * xs.length)]!, chance: (p) => next() < p };
}

type R = ReturnType<typeof rng>;
const IDS = ['a', 'b', 'c', 'd', 'e'];
const EVENTS = ['before_tool_call', 'after_tool_call'];

function hookYaml(r: R, id: string, layer: 'global' | 'project'): string {
  const match: string[] = [];
  if (r.chance(0.4)) match.push(`tool_name: ${r.pick(['edit_file', 'run_shell'])}`);
  if (r.chance(0.25)) match.push(`profiles: [${r.pick(['Code', 'QA', 'Code, QA'])}]`);
  if (r.chance(0.35)) match.push(`session_kinds: [${r.pick(['interactive', 'cron', 'cron, sub_agent'])}]`);
  if (r.chance(0.25)) match.push('max_context_tokens: 1000');
  if (r.chance(0.2)) match.push('args:\n        path: { contains: "src/" }');
  const blocking = r.chance(0.6);
  const execution = blocking
    ? ['mode: blocking']
    : // Durable with a delay: queued to the outbox, so no worker process is started.
      [`mode: ${r.pick(['async', 'fire_and_forget'])}`, 'delivery: durable', 'delay_seconds: 600'];
  if (r.chance(0.4)) execution.push('once_per_session: true');
  return [
    `  - id: ${id}`,
    `    event: ${r.pick(EVENTS)}`,
    ...(r.chance(0.15) ? ['    enabled: false'] : []),
    ...(layer === 'global' && r.chance(0.2) ? ['    locked: true'] : []),
    ...(match.length ? ['    match:', ...match.map((m) => `      ${m}`)] : []),
    '    run: { type: command, argv: ["true"] }',
    '    execution:',
    ...execution.map((e) => `      ${e}`),
  ].join('\n');
}

function hooksFile(r: R, layer: 'global' | 'project'): string | undefined {
  if (r.chance(0.15)) return undefined;
  const ids = IDS.filter(() => r.chance(0.5));
  return `hooks:\n${ids.map((id) => hookYaml(r, id, layer)).join('\n')}\n`;
}

function envelope(r: R): Record<string, unknown> {
  const e: Record<string, unknown> = { event: r.pick(EVENTS), tool: { name: r.pick(['edit_file', 'run_shell']), args: { path: r.pick(['src/a.ts', 'b.txt']) } } };
  if (r.chance(0.6)) e.session_id = 's1';
  if (r.chance(0.5)) e.profile = r.pick(['Code', 'QA', 'Other']);
  if (r.chance(0.5)) e.session_kind = r.pick(['interactive', 'cron', 'sub_agent']);
  if (r.chance(0.5)) e.context_tokens = r.pick([500, 5000]);
  return e;
}

const switchesOf = (r: R): KillSwitches => ({ off: r.chance(0.2), skip: IDS.filter(() => r.chance(0.2)) });

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
});

type Line = { id: string; source: string; status: string; reason: string | null };
// What ran in fire, or would run in resolve, is "run"; fire lists no non-matching or disabled hook.
const RAN = new Set(['ok', 'started', 'queued']);

describe('resolve and fire agree (generated hook sets and envelopes)', () => {
  it(`gives the same status and reason for every hook, ${CASES} cases from seed ${SEED}`, async () => {
    const r = rng(SEED);
    const seen = new Set<string>();
    for (let n = 0; n < CASES; n++) {
      const root = mkdtempSync(join(tmpdir(), 'chrys-gate-'));
      roots.push(root);
      const configDir = join(root, 'config');
      const cwd = join(root, 'work');
      mkdirSync(join(configDir, 'hooks'), { recursive: true });
      mkdirSync(join(cwd, '.chrys', 'hooks'), { recursive: true });
      const global = hooksFile(r, 'global');
      const project = hooksFile(r, 'project');
      if (global) writeFileSync(join(configDir, 'hooks', 'hooks.yaml'), global);
      if (project) writeFileSync(join(cwd, '.chrys', 'hooks', 'hooks.yaml'), project);
      const env = envelope(r);
      const switches = switchesOf(r);
      const opts = { configDir, cwd, projectHooks: true, switches };
      // Some once_per_session hooks already ran this session.
      const sessionId = typeof env.session_id === 'string' ? env.session_id : '';
      if (sessionId) {
        const once = new OnceGuard(configDir, sessionId);
        for (const hook of (await loadConfig({ ...opts, workspace: cwd })).hooks) if (hook.execution.once_per_session && r.chance(0.5)) once.claim(hook);
      }
      const input = JSON.stringify(env);
      const resolved = await resolvePlan(input, opts);
      const fired = await fire(input, opts);
      const fromResolve: Line[] = resolved.plan!.hooks
        .filter((h) => h.verdict !== 'no_match' && h.verdict !== 'disabled')
        .map((h) => ({ id: h.id, source: h.source, status: h.verdict, reason: h.verdict === 'run' ? null : h.reason }));
      const fromFire: Line[] = fired.hooks.map((h) => ({ id: h.id, source: h.source, status: RAN.has(h.status) ? 'run' : h.status, reason: RAN.has(h.status) ? null : (h.reason ?? null) }));
      expect(fromFire, `case ${n}: ${input}\nswitches ${JSON.stringify(switches)}\nglobal:\n${global}\nproject:\n${project}`).toEqual(fromResolve);
      for (const l of fromFire) seen.add(l.reason === null ? l.status : `${l.status}: ${l.reason.replace(/ (is|in) .*/, '')}`);
    }
    // The generator must reach every rule fire and resolve can both meet, not just empty plans.
    expect([...seen].sort()).toEqual([
      'run',
      'skipped: context_tokens 5000',
      'skipped: once_per_session: already ran',
      'skipped: session_kind',
      'skipped: skipped by CHRYS_HOOKS_SKIP',
      'skipped: turned off by CHRYS_HOOKS=0',
    ]);
  });
});
