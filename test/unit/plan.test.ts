// The planner (core/plan.ts): which hooks of an event are candidates, in
// which phase, in the order they were loaded.
import { describe, expect, it } from 'vitest';
import { testHook } from '../helpers/hook.js';
import type { Hook, Mode } from '../../src/core/config.js';
import { planEvent } from '../../src/core/plan.js';

const hook = (id: string, mode: Mode, enabled = true, event: Hook['event'] = 'before_tool_call'): Hook => testHook({ id, event, enabled, execution: { mode } });
const ids = (hooks: Hook[]): string[] => hooks.map((h) => h.id);

describe('planEvent', () => {
  it('splits the enabled hooks of the event into blocking and non-blocking, keeping their order', () => {
    const hooks = [hook('b1', 'blocking'), hook('a1', 'async'), hook('f1', 'fire_and_forget'), hook('b2', 'blocking'), hook('a2', 'async')];
    const plan = planEvent(hooks, 'before_tool_call');
    expect(ids(plan.blocking)).toEqual(['b1', 'b2']);
    expect(ids(plan.nonBlocking)).toEqual(['a1', 'f1', 'a2']);
    expect(plan.disabled).toEqual([]);
  });

  it('puts disabled hooks aside whatever their mode, and leaves other events out', () => {
    const hooks = [hook('off-b', 'blocking', false), hook('off-a', 'async', false), hook('other', 'blocking', true, 'session_start'), hook('other-off', 'blocking', false, 'session_start'), hook('on', 'blocking')];
    const plan = planEvent(hooks, 'before_tool_call');
    expect(ids(plan.disabled)).toEqual(['off-b', 'off-a']);
    expect(ids(plan.blocking)).toEqual(['on']);
    expect(plan.nonBlocking).toEqual([]);
    expect(ids(planEvent(hooks, 'session_start').blocking)).toEqual(['other']);
    expect(planEvent(hooks, 'after_turn')).toEqual({ blocking: [], nonBlocking: [], disabled: [] });
  });
});
