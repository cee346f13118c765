// YAML syntax errors point at the root cause: one error per mistake, the tab
// hint only where a tab is involved, unclosed quotes where they open.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHooksFile } from '../../src/config/load.js';

const GOOD = 'version: 1\nhooks:\n  - id: a\n    event: session_start\n    run:\n      type: shell\n      shell: x\n    execution:\n      mode: blocking\n  - id: b\n    event: session_start\n    run:\n      type: shell\n      shell: y\n';

async function errorsOf(text: string): Promise<string[]> {
  const path = join(mkdtempSync(join(tmpdir(), 'chrys-yaml-')), 'hooks.yaml');
  writeFileSync(path, text);
  const r = await loadHooksFile(path, 'global');
  return r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}${d.hint ? ` (${d.hint})` : ''}`);
}

const withLine = (n: number, f: (line: string) => string): string => GOOD.split('\n').map((l, i) => (i === n - 1 ? f(l) : l)).join('\n');

describe('YAML syntax errors', () => {
  it.each([3, 4, 5, 6, 7, 8, 9, 10, 11])('a tab starting line %i is one error on that line, with the tab hint', async (n) => {
    expect(await errorsOf(withLine(n, (l) => '\t' + l.trimStart()))).toEqual([`${n}:1 syntax_error a tab in the indentation (YAML indents with spaces, never tabs)`]);
  });

  it('a tab after spaces in the indentation is found too', async () => {
    expect(await errorsOf(withLine(4, (l) => l.replace(/^ {2}/, '\t')))).toEqual(['4:1 syntax_error a tab in the indentation (YAML indents with spaces, never tabs)']);
  });

  it('a tab inside a value is not blamed', async () => {
    expect(await errorsOf(GOOD.replace('shell: x', 'shell: "a\tb"'))).toEqual([]);
  });

  it('an unclosed quote is reported where it opens, without the tab hint', async () => {
    expect(await errorsOf(GOOD.replace('id: a', 'id: "a'))).toEqual(['3:9 syntax_error Missing closing "quote']);
  });

  it('an unclosed flow mapping is reported where it opens', async () => {
    expect(await errorsOf(GOOD.replace('    run:\n      type: shell\n      shell: x\n', '    run: {type: shell, shell: x\n'))).toEqual([expect.stringMatching(/^5:10 syntax_error Flow map/)]);
  });

  it('independent mistakes are each reported once', async () => {
    const r = await errorsOf(GOOD.replace('    event: session_start\n', '    event: session_start\n    event: after_turn\n').replace('shell: y', 'shell: y\n      shell: z'));
    expect(r).toEqual([expect.stringMatching(/^5:5 syntax_error Map keys must be unique/), expect.stringMatching(/^16:7 syntax_error Map keys must be unique/)]);
  });
});
