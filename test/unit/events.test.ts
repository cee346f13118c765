import { describe, expect, it } from 'vitest';
import { EVENT_ALIASES, EVENT_NAMES, closest, eventSpec, eventSpecFor, lookupEvent } from '../../src/core/events.js';

describe('events', () => {
  it.each([
    ['PreToolUse', 'before_tool_call'],
    ['BeforeTool', 'before_tool_call'],
    ['preToolUse', 'before_tool_call'],
    ['PostToolUse', 'after_tool_call'],
    ['UserPromptSubmit', 'user_prompt_submit'],
    ['pre_prompt', 'user_prompt_submit'],
    ['Stop', 'conversation_done'],
    ['conversation-done', 'conversation_done'],
    ['SubagentStop', 'sub_agent_end'],
    ['compact', 'pre_compact'],
    ['startup', 'session_start'],
    ['OnError', 'error'],
  ])('alias %s is %s', (alias, canonical) => {
    expect(lookupEvent(alias)).toEqual({ ok: true, event: canonical, alias: true });
  });

  it('resolves every canonical name to itself', () => {
    for (const name of EVENT_NAMES) expect(lookupEvent(name)).toEqual({ ok: true, event: name, alias: false });
  });

  it('is case-sensitive and suggests the nearest name', () => {
    expect(lookupEvent('pretooluse')).toEqual({ ok: false, suggestion: 'PreToolUse' });
    expect(lookupEvent('before_tool_cal')).toEqual({ ok: false, suggestion: 'before_tool_call' });
    expect(lookupEvent('zzzzzzzzzz')).toEqual({ ok: false, suggestion: undefined });
  });

  it('maps every alias onto a canonical event', () => {
    for (const target of Object.values(EVENT_ALIASES)) expect(EVENT_NAMES).toContain(target);
  });

  it('gates exactly the events that can block (a blocked stop keeps the agent going)', () => {
    expect(EVENT_NAMES.filter((e) => eventSpec(e).gated).sort()).toEqual(['before_tool_call', 'permission_request', 'user_prompt_submit']);
    expect(EVENT_NAMES.filter((e) => eventSpecFor(e, 'claude').gated).sort()).toEqual(['before_tool_call', 'conversation_done', 'permission_request', 'sub_agent_end', 'user_prompt_submit']);
    expect(eventSpecFor('conversation_done', 'claude').keys).toContain('action:block');
    expect(eventSpecFor('conversation_done', undefined).keys).not.toContain('action:block');
  });
});

describe('eventSpecFor', () => {
  it('gates an agent stop with action:block only when a protocol brought it in', () => {
    expect(eventSpecFor('sub_agent_end', 'codex')).toMatchObject({ gated: true, keys: ['action:block', 'context'] });
    expect(eventSpecFor('sub_agent_end', undefined)).toMatchObject({ gated: false, keys: ['context'] });
    expect(eventSpecFor('session_start', 'claude')).toBe(eventSpec('session_start'));
    expect(eventSpecFor('before_tool_call', 'claude').keys).toEqual(['action:block', 'action:modify', 'context']);
  });
});

describe('closest', () => {
  it('allows two edits, or a third of the word when that is more', () => {
    expect(closest('ab', ['xy'])).toBe('xy');
    expect(closest('abc', ['xyz'])).toBeUndefined();
    expect(closest('abcdef', ['abcxyz'])).toBeUndefined();
    expect(closest('abcdefghi', ['abcdefxyz'])).toBe('abcdefxyz');
    expect(closest('sitting', ['kitten'])).toBeUndefined();
  });

  it('counts insertions, deletions and substitutions, ignoring case, and keeps the first of equals', () => {
    expect(closest('kitten', ['sitting', 'kitchen'])).toBe('kitchen');
    expect(closest('abc', ['ABC'])).toBe('ABC');
    expect(closest('abcd', ['abd', 'abxd'])).toBe('abd');
    expect(closest('abd', ['abcd'])).toBe('abcd');
    expect(closest('ab', ['ax', 'ay'])).toBe('ax');
    expect(closest('anything', [])).toBeUndefined();
  });

  it('also compares with the first word of a snake_case name, one edit dearer', () => {
    expect(closest('timout', ['timeout_seconds'])).toBe('timeout_seconds');
    expect(closest('before', ['befort', 'before_x'])).toBe('befort');
    expect(closest('befor', ['xx_yy', 'before_tool_call'])).toBe('before_tool_call');
  });
});
