// The starter guard (init's no-destructive-commands) against the corpus of
// dodges: every dangerous line blocked, every safe twin let through, and the
// lines that cannot be seen into blocked with a fail-closed reason.

import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { CORPUS } from '../helpers/command-corpus.js';
import { checkHooksFile } from '../../src/core/schema.js';
import { normaliseHooksFile } from '../../src/core/normalise.js';
import { matchHook } from '../../src/core/match.js';
import { starterHooksFile } from '../../src/engine/starter.js';
import { starterClaudeHooksFile } from '../../src/engine/starter-claude.js';
import type { Hook } from '../../src/core/config.js';

function guardOf(text: string): Hook {
  const checked = checkHooksFile(load(text));
  expect(checked.findings).toEqual([]);
  const file = normaliseHooksFile(checked.value, 'project', '/x/hooks.yaml');
  expect(file.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return file.hooks.find((h) => h.id === 'no-destructive-commands')!;
}

const chrys = guardOf(starterHooksFile('schema.json'));
const claude = guardOf(starterClaudeHooksFile('schema.json'));

const fire = (hook: Hook, tool: string, command: string) => matchHook(hook, { event: 'before_tool_call', tool: { name: tool, args: { command } } });

describe('the dodge corpus against the starter guard', () => {
  it('holds at least 150 lines, dangerous and safe', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(CORPUS.filter((c) => c.verdict === 'allow').length).toBeGreaterThanOrEqual(60);
    expect(new Set(CORPUS.map((c) => c.line)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [c.verdict, JSON.stringify(c.line), c] as const))('%s %s', (_v, _l, c) => {
    const v = fire(chrys, 'run_shell', c.line);
    const reason = v.verdict === 'run' ? v.command?.reason : v.verdict === 'no_match' ? v.reason : `${v.verdict}`;
    expect(v.verdict, reason).toBe(c.verdict === 'block' ? 'run' : 'no_match');
    if (v.verdict === 'run') {
      expect(Boolean(v.command?.failClosed), reason).toBe(Boolean(c.failClosed));
      expect(v.command?.reason).toMatch(c.failClosed ? /^fails closed: / : /matches/);
    }
    // The Claude starter has the same guard on the same clauses.
    expect(fire(claude, 'Bash', c.line).verdict).toBe(v.verdict);
  });
});
