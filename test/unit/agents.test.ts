// Each agent descriptor against the protocol tables fire --protocol uses:
// every event it wires maps to a Chrys event, the gating ones are the
// fail-closed ones, and the group it writes is the agent's shape.
import { describe, expect, it } from 'vitest';
import { AGENTS, AGENT_IDS } from '../../src/agents/index.js';
import { addEntry, chrysCommandOf, readWiring, removeHandler } from '../../src/agents/wiring.js';
import { FAIL_CLOSED_EVENTS } from '../../src/core/fail-closed.js';
import { chrysEventOf } from '../../src/core/protocols/names.js';

describe.each(AGENT_IDS)('agent descriptor %s', (id) => {
  const d = AGENTS[id];
  it('wires only events that map to a Chrys event, and leaves the "other" ones to --events', () => {
    for (const e of d.events) expect(chrysEventOf(id, e), e).not.toMatch(/^(other)?$/);
    for (const e of d.otherEvents) expect(chrysEventOf(id, e), e).toBe('other');
    expect(new Set(d.events).size).toBe(d.events.length);
  });

  it('gates exactly the events fire --fail-closed guards', () => {
    expect(d.gating.every((e) => d.events.includes(e))).toBe(true);
    expect(d.events.filter((e) => FAIL_CLOSED_EVENTS.includes(chrysEventOf(id, e)!))).toEqual([...d.gating]);
  });

  it('places its files per scope, honouring its own config-dir override', () => {
    const dirs = { configDir: '/h/.agent', workspace: '/w' };
    expect(d.file('user', dirs).startsWith('/h/.agent/')).toBe(true);
    expect(d.file('project', dirs).startsWith('/w/.')).toBe(true);
    const override = ({ claude: 'CLAUDE_CONFIG_DIR', codex: 'CODEX_HOME', gemini: undefined, cursor: undefined, copilot: 'COPILOT_HOME' } as Record<string, string | undefined>)[id];
    if (override) expect(d.configDir({ [override]: '/x' }, '/h')).toBe('/x');
    expect(d.configDir({}, '/h')).toBe(`/h/.${id}`);
    // Gemini's override is a home, not the dir: it reads $GEMINI_CLI_HOME/.gemini/settings.json.
    expect(d.configDir({ GEMINI_CLI_HOME: '/g' }, '/h')).toBe(id === 'gemini' ? '/g/.gemini' : `/h/.${id}`);
  });

  it('writes a group it reads back as its own entry, and removes it again', () => {
    const text = addEntry('{}\n', d, d.events[0]!, 'chrys-hooks fire --protocol ' + id);
    const wired = readWiring(text, d);
    expect(wired).toMatchObject([{ event: d.events[0], chrys: { binary: 'chrys-hooks', protocol: id, failClosed: false } }]);
    const group = d.group(d.events[0]!, 'c') as { hooks?: Record<string, string>[] } & Record<string, unknown>;
    expect(d.flat ? group : group.hooks![0]).toMatchObject({ type: 'command', [d.commandKey ?? 'command']: 'c' });
    expect(removeHandler(text, wired[0]!)).toBe(d.version === undefined ? '{}\n' : `{\n  "version": ${d.version}\n}\n`);
  });
});

describe('chrysCommandOf', () => {
  it('recognises chrys-hooks fire by any path, quoted or not, and nothing else', () => {
    expect(chrysCommandOf("'/opt/my tools/chrys-hooks' fire --protocol=codex --fail-closed")).toEqual({ binary: '/opt/my tools/chrys-hooks', protocol: 'codex', failClosed: true });
    expect(chrysCommandOf('chrys-hooks fire')).toEqual({ binary: 'chrys-hooks', failClosed: false });
    expect(chrysCommandOf('chrys-hooks validate')).toBeUndefined();
    expect(chrysCommandOf('echo chrys-hooks-fire')).toBeUndefined();
  });
});
