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
  /** CHRYS_HOOKS as set (trimmed), when it is set. */
  value?: string;
}

const OFF_WORDS = new Set(['0', 'false', 'no', 'off']);
const ON_WORDS = new Set(['1', 'true', 'yes', 'on']);

export function killSwitchesFrom(env: Record<string, string | undefined>): KillSwitches {
  const value = (env.CHRYS_HOOKS ?? '').trim();
  const off = OFF_WORDS.has(value.toLowerCase());
  const skip = (env.CHRYS_HOOKS_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return value === '' ? { off, skip } : { off, skip, value };
}

/** A CHRYS_HOOKS value that is neither on nor off leaves hooks on, and says so. */
export function killSwitchValueWarnings(s: KillSwitches): Warning[] {
  if (s.value === undefined || s.off || ON_WORDS.has(s.value.toLowerCase())) return [];
  return [{ code: 'kill_switch_invalid', message: `CHRYS_HOOKS=${s.value} is not understood, so hooks stay on: use 0, false, no or off to turn them off (1, true, yes, on or unset keeps them on)` }];
}

const isLocked = (hook: Hook): boolean => hook.locked === true && hook.source === 'global';

/** CHRYS_HOOKS=0 removes the hook from this firing altogether. */
export const switchedOff = (hook: Hook, s: KillSwitches): boolean => s.off && !isLocked(hook);

/** The `skipped` reason when CHRYS_HOOKS_SKIP names the hook. */
export const skipReason = (hook: Hook, s: KillSwitches): string | undefined =>
  s.skip.includes(hook.id) && !isLocked(hook) ? 'skipped by CHRYS_HOOKS_SKIP' : undefined;

export function hooksDisabledWarning(lockedIds: readonly string[], value = '0'): Warning {
  const kept = lockedIds.length ? `; locked global hooks still run: ${lockedIds.join(', ')}` : '';
  return { code: 'hooks_disabled', message: `CHRYS_HOOKS=${value}: every hook is turned off${kept}` };
}

/** The warnings the switches earn against the loaded hooks (all events). */
export function killSwitchWarnings(s: KillSwitches, hooks: readonly Hook[]): Warning[] {
  const warnings: Warning[] = killSwitchValueWarnings(s);
  if (s.off) warnings.push(hooksDisabledWarning([...new Set(hooks.filter(isLocked).map((h) => h.id))], s.value));
  const ids = new Set(hooks.map((h) => h.id));
  for (const id of s.skip) {
    if (!ids.has(id)) warnings.push({ code: 'skip_unknown_hook', hook: id, message: `CHRYS_HOOKS_SKIP names "${id}", which is no loaded hook; nothing was skipped for it` });
  }
  for (const hook of hooks) {
    if (isLocked(hook) && (s.off || s.skip.includes(hook.id))) {
      warnings.push({ code: 'hook_locked', hook: hook.id, event: hook.event, message: `hook "${hook.id}" is locked in ${hook.file}: ${s.skip.includes(hook.id) ? 'CHRYS_HOOKS_SKIP' : `CHRYS_HOOKS=${s.value ?? '0'}`} cannot turn it off` });
    }
  }
  return warnings;
}
