// The fast YAML path (js-yaml, no positions) against the positioned one
// (`yaml`): over every YAML fixture of the suite and a generated corpus, a
// file the fast path accepts must give the same data, and loading it either
// way must give the same hooks, settings and diagnostics, so `fire` and
// `validate` see the same config whichever parser read it.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastYamlData } from '../../src/config/fast-yaml.js';
import { loadHooksFile } from '../../src/config/load.js';
import { parseConfigText } from '../../src/config/read.js';

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === '.git' || name === 'dist') return [];
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(name) ? [path] : [];
  });
}

/** The YAML files of the repository and the interpolation-free YAML literals of the test files. */
function suiteFixtures(): string[] {
  const files = filesUnder('.', (n) => /\.ya?ml$/.test(n)).map((p) => readFileSync(p, 'utf8'));
  const literals = filesUnder('test', (n) => n.endsWith('.ts')).flatMap((p) =>
    [...readFileSync(p, 'utf8').matchAll(/`((?:hooks|settings|version|project):[^`$]*)`/g)].map((m) => m[1]!.replace(/\\n/g, '\n').replace(/\\\\/g, '\\')));
  return [...files, ...literals];
}

// Small deterministic PRNG, so a failure names a reproducible case.
function rng(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

const SCALARS = [
  'yes', 'no', 'on', 'off', 'y', 'n', 'True', 'FALSE', 'Yes', 'NO', 'true', 'false',
  '014', '0o14', '0x1f', '1_000', '1e3', '1.5e-3', '.5', '+1', '-.inf', '.NaN', '.inf', '12345678901234567890', '0', '-0', '1.0',
  '~', 'null', 'Null', 'NULL', '', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30:45',
  "'single ''quoted'''", '"double \\"quoted\\" \\t \\u00e9"', '"tab\\there"', 'plain # comment', 'a:b', 'http://x.y/z', "'#not a comment'",
  '!!str 5', '!custom value', '"<<"', 'é ünïcödé', "'multi\n  line'", '[a, b, {c: d}]', '{a: 1, b: [2, 3]}', '{}', '[]',
];
const BLOCKS = ['|\n      line one\n      line two\n', '>\n      folded\n      text\n', '|-\n      stripped\n', '>+\n      kept\n\n', '|2\n       indented\n'];
const KEYS = ['description', '"description"', "'description'", '"quoted key"', 'plain key', '__proto__', '"<<"'];

function generatedCorpus(): string[] {
  const rand = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hook = (i: number, extra: string): string =>
    `  - id: h${i}\n    event: before_tool_call\n    match: { tool_name: edit_file }\n    run:\n      type: command\n      argv: [/bin/true]\n      env:\n        V: "x"\n${extra}`;
  const out: string[] = [];
  for (const s of SCALARS) out.push(`hooks:\n${hook(0, `    description: ${s}\n`)}`, `hooks:\n${hook(0, `    enabled: ${s}\n`)}`, `hooks:\n${hook(0, `      timeout_seconds: ${s}\n`)}`, `settings:\n  max_parallel_hooks: ${s}\nhooks: []\n`);
  for (const b of BLOCKS) out.push(`hooks:\n${hook(0, `    description: ${b}`)}`);
  for (const k of KEYS) out.push(`hooks:\n${hook(0, `    ${k}: x\n`)}`);
  out.push(
    // anchors, aliases and merge keys
    `defaults: &d\n  mode: blocking\nhooks:\n${hook(0, '    execution:\n      <<: *d\n      timeout_seconds: 3\n')}`,
    `hooks:\n${hook(0, '    execution:\n      <<: { mode: blocking }\n      timeout_seconds: 3\n')}`,
    `hooks:\n${hook(0, '    execution:\n      <<: [{ mode: blocking }, { on_error: block }]\n')}`,
    `hooks:\n  - &h\n    id: a\n    event: before_tool_call\n    run: { type: command, argv: [/bin/true] }\n  - *h\n`,
    `x: &a [1, 2]\nhooks:\n${hook(0, '    description: *a\n')}`,
    // tabs, duplicates, documents, line endings
    `hooks:\n\t- id: a\n`, `hooks:\n${hook(0, '    description: "a\tb"\n')}`, `hooks:\n${hook(0, '    description: a\tb\n')}`,
    `hooks:\n${hook(0, '    description: a\n    description: b\n')}`, `hooks: []\nhooks: []\n`, `"hooks": []\nhooks: []\n`,
    `hooks: []\n---\nhooks: []\n`, `---\nhooks: []\n...\n`, `hooks: []\r\nsettings: {}\r\n`, `\uFEFFhooks: []\n`,
    `# only comments\n# here\n`, ``, `   \n`, `[1, 2]\n`, `just a string\n`, `42\n`, `hooks:\n  - [nested, list]\n`, `hooks: {a: 1}\n`,
    `hooks:\n${hook(0, '    run: { type: shell, shell: "echo \\"$X\\" | tr a-z A-Z" }\n')}`, `%YAML 1.1\n---\nhooks: []\n`,
    // a lone CR, NEL, LS and PS inside a comment and a scalar: line breaks to one parser, text to the other?
    `version: 1\n# note \rsettings:\r  max_parallel_hooks: 7\r#\nhooks: []\n`, `hooks: []\rsettings: {}\r`,
    ...['\u0085', '\u2028', '\u2029'].flatMap((c) => [`version: 1\n# note ${c}settings: {max_parallel_hooks: 7}\nhooks: []\n`, `hooks:\n${hook(0, `    description: a${c}b\n`)}`]),
  );
  for (let i = 0; i < 300; i++) {
    const hooks = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, j) => hook(j, `    ${pick(KEYS)}: ${pick(SCALARS)}\n    description: ${rand() < 0.3 ? pick(BLOCKS) : `${pick(SCALARS)}\n`}`));
    out.push(`${rand() < 0.3 ? `settings:\n  max_parallel_hooks: ${pick(SCALARS)}\n` : ''}hooks:\n${hooks.join('')}`);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'chrys-fast-yaml-'));

describe('the fast YAML path agrees with the positioned one', () => {
  const corpus = [...suiteFixtures(), ...generatedCorpus()];

  it('has a corpus that exercises both paths', async () => {
    expect(suiteFixtures().length).toBeGreaterThan(10);
    const accepted = (await Promise.all(corpus.map(fastYamlData))).filter(Boolean).length;
    expect(accepted).toBeGreaterThan(corpus.length / 4);
    expect(accepted).toBeLessThan(corpus.length);
  });

  it('reads every file it accepts to the same data, and accepts none with a syntax error', async () => {
    for (const [i, text] of corpus.entries()) {
      const fast = await fastYamlData(text);
      if (!fast) continue;
      const slow = await parseConfigText('x.yaml', text);
      expect(slow.syntaxErrors, `case ${i}: ${JSON.stringify(text)}`).toEqual([]);
      expect(fast.data, `case ${i}: ${JSON.stringify(text)}`).toEqual(slow.data);
    }
  });

  it('loads every file to the same hooks, settings and diagnostics either way', async () => {
    for (const [i, text] of corpus.entries()) {
      const path = join(dir, `c${i}.yaml`);
      writeFileSync(path, text);
      const fast = await loadHooksFile(path, 'global');
      const slow = await loadHooksFile(path, 'global', { positioned: true });
      const seen = (r: typeof fast) => ({ valid: r.valid, hooks: r.hooks, lintHooks: r.lintHooks, settings: r.settings, diagnostics: r.diagnostics });
      expect(seen(fast), `case ${i}: ${JSON.stringify(text)}`).toEqual(seen(slow));
    }
  });
});
