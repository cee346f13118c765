// The starter shell guard end to end: `init --protocol claude` writes it, and
// Claude Code's hook input for each line of the dodge corpus, answered as
// `fire --protocol claude` answers it, is denied or let through as the corpus
// says. The whole corpus goes through one `serve --stdio` process (its answer
// is fire's, byte for byte: test/e2e/serve.test.ts); a line of each kind also
// goes through `fire --protocol claude` itself, held to the same answer.

import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/command-corpus.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ServeProcess } from '../helpers/serve.js';

describe('the starter guard through fire --protocol claude', () => {
  const sandbox = useSandbox();
  it('denies every dangerous line of the corpus and allows every safe twin', { timeout: 240_000 }, async () => {
    const s = sandbox();
    expect((await s.run(['init', '--global', '--protocol', 'claude'])).exitCode).toBe(0);
    const input = (line: string): object => ({ session_id: 's', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: line } });
    const serve = new ServeProcess(s);
    for (const c of CORPUS) serve.send({ protocol: 'claude', envelope: input(c.line) });
    const answers = await Promise.all(CORPUS.map(() => serve.next()));
    serve.end();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    const results = CORPUS.map((c, i) => {
      const out = JSON.parse(answers[i]!);
      return { c, exitCode: out.exit_code, denied: out.hookSpecificOutput?.permissionDecision === 'deny', reason: out.hookSpecificOutput?.permissionDecisionReason as string | undefined };
    });
    const wrong = results.filter((r) => r.exitCode !== 0 || r.denied !== (r.c.verdict === 'block')).map((r) => `${r.c.verdict} ${JSON.stringify(r.c.line)}: exit ${r.exitCode}, denied ${r.denied}`);
    expect(wrong).toEqual([]);
    expect(results.find((r) => r.denied)?.reason).toContain('this command destroys work');
    // fire --protocol claude gives the same answers: a blocked line, a fail-closed one and a safe twin.
    const samples = [CORPUS.findIndex((c) => c.verdict === 'block' && !c.failClosed), CORPUS.findIndex((c) => c.failClosed), CORPUS.findIndex((c) => c.verdict === 'allow')];
    for (const i of samples) {
      const fired = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify(input(CORPUS[i]!.line)) });
      expect(fired.exitCode, fired.stderr).toBe(0);
      expect(answers[i], CORPUS[i]!.line).toBe(`${fired.stdout.replace(/\n$/, '').replace(/^\{\}$/, '{').replace(/\}$/, ',')}"exit_code":0,"stderr":""}`);
    }
  });

  it('shows the parsed commands and the one that matched in resolve and fire --explain', async () => {
    const s = sandbox();
    await s.run(['init', '--global']);
    const envelope = JSON.stringify({ event: 'before_tool_call', tool: { name: 'run_shell', args: { command: 'cd /tmp && sudo rm -r -f /' } } });
    const plan = JSON.parse((await s.run(['resolve', '--json'], { input: envelope })).stdout).plan;
    expect(plan.hooks.find((h: any) => h.id === 'no-destructive-commands')).toMatchObject({
      verdict: 'run',
      command: { simple_commands: ['cd /tmp', 'sudo rm -r -f /', 'rm -r -f / (in sudo)'], matched: 'rm -r -f / (in sudo)', fail_closed: null },
    });
    const text = (await s.run(['resolve'], { input: envelope })).stdout;
    expect(text).toContain('commands: cd /tmp | sudo rm -r -f / | rm -r -f / (in sudo)  <- matched');
    const explained = await s.fire(JSON.parse(envelope), ['--explain']);
    expect(explained.decision.blocked).toBe(true);
    expect(explained.result.stderr).toContain('command: `rm -r -f / (in sudo)` matches (simple commands: `cd /tmp`, `sudo rm -r -f /`, `rm -r -f / (in sudo)`)');
    const safe = await s.fire({ event: 'before_tool_call', tool: { name: 'run_shell', args: { command: 'rm -rf node_modules' } } }, ['--explain']);
    expect(safe.decision.blocked).toBe(false);
    expect(safe.result.stderr).toContain('no match: command: no command matches (simple commands: `rm -rf node_modules`)');
    const closed = JSON.parse((await s.run(['resolve', '--json'], { input: JSON.stringify({ event: 'before_tool_call', tool: { name: 'run_shell', args: { command: "echo 'x" } } }) })).stdout).plan;
    expect(closed.hooks.find((h: any) => h.id === 'no-destructive-commands').command.fail_closed).toContain('cannot be parsed');
  });
});
