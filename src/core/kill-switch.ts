// The kill switches, never silent: CHRYS_HOOKS=0 turns every hook off and
// CHRYS_HOOKS_SKIP=id1,id2 skips those hooks; a global hook marked
// `locked: true` (a guard a team must keep) runs whatever either says.
// Pure: the environment is passed in.

import type { Hook } from './config.js';
import type { Warning } from './diagnostics.js';

export interface KillSwitches {
  /** CHRYS_HOOKS is 0 / false / no / off. */
  off: boolean;
  /** The ids named in CHRYS_HOOKS_SKIP. */
  skip: string[];
}

const OFF_WORDS = new Set(['0', 'false', 'no', 'off']);

export function killSwitchesFrom(env: Record<string, string | undefined>): KillSwitches {
  const off = OFF_WORDS.has((env.CHRYS_HOOKS ?? '').trim().toLowerCase());
  const skip = (env.CHRYS_HOOKS_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return { off, skip };
}

const isLocked = (hook: Hook): boolean => hook.locked === true && hook.source === 'global';

/** CHRYS_HOOKS=0 removes the hook from this firing altogether. */
export const switchedOff = (hook: Hook, s: KillSwitches): boolean => s.off && !isLocked(hook);

/** The `skipped` reason when CHRYS_HOOKS_SKIP names the hook. */
export const skipReason = (hook: Hook, s: KillSwitches): string | undefined =>
  s.skip.includes(hook.id) && !isLocked(hook) ? 'skipped by CHRYS_HOOKS_SKIP' : undefined;

export function hooksDisabledWarning(lockedIds: readonly string[]): Warning {
  const kept = lockedIds.length ? `; locked global hooks still run: ${lockedIds.join(', ')}` : '';
  return { code: 'hooks_disabled', message: `CHRYS_HOOKS=0: every hook is turned off${kept}` };
}

/** The warnings the switches earn against the loaded hooks (all events). */
export function killSwitchWarnings(s: KillSwitches, hooks: readonly Hook[]): Warning[] {
  const warnings: Warning[] = [];
  if (s.off) warnings.push(hooksDisabledWarning([...new Set(hooks.filter(isLocked).map((h) => h.id))]));
  const ids = new Set(hooks.map((h) => h.id));
  for (const id of s.skip) {
    if (!ids.has(id)) warnings.push({ code: 'skip_unknown_hook', hook: id, message: `CHRYS_HOOKS_SKIP names "${id}", which is no loaded hook; nothing was skipped for it` });
  }
  for (const hook of hooks) {
    if (isLocked(hook) && (s.off || s.skip.includes(hook.id))) {
      warnings.push({ code: 'hook_locked', hook: hook.id, event: hook.event, message: `hook "${hook.id}" is locked in ${hook.file}: ${s.skip.includes(hook.id) ? 'CHRYS_HOOKS_SKIP' : 'CHRYS_HOOKS=0'} cannot turn it off` });
    }
  }
  return warnings;
}
