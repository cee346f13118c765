// Differential test of the Python-regex translation against python3 itself
// (present on CI): a generated corpus of patterns, each searched in a set of
// strings by both `re.search` and the translated RegExp. Python's verdict is
// the truth: same match or not, and what Python rejects we reject.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compilePythonRegex } from '../../src/core/pyregex.js';
import { PYTHON_CASES } from '../helpers/pyregex-cases.js';

const FLAGS = ['', '(?i)', '(?a)', '(?ai)', '(?s)', '(?m)'];
const ATOMS = [
  'a', 'k', 'K', 'i', 'I', '\u0130', '\u0131', 's', '\u00e9', ' ', '.', '\\s', '\\S', '\\w', '\\W', '\\d', '\\D', '\\b',
  '[\\S]', '[^\\s]', '[\\s]', '[a-k]', '[^a-k]', '[\\w\\s]', '[^\\W\\d]', '[K-k]', '[i]', '[\\Sa]', '^', '$', '\\A', '\\Z',
  '(?:a|k)', '(ab|\\s)',
  // Python's special case folds (Lib/re/_casefix.py), as characters and as escapes
  '\u017f', '\u212a', '\u03c2', '\u03a3', '\u03c3', '\u00b5', '\u0345', '\u1e9e', '\u1e61', '\u03d1', '\u2126',
  '\\u0130', '\\x49', '\\u0131', '\\U0000212a', '\\x73', '[\\u0130]', '[\\x48-\\x49]', '[\u0130-\u0131]', '[\u03c2]', '[^\u03c3]',
  '[\u0100-\u017f]', '[h-j]', '[r-t]', '[^\\x4b]', '\u019b', '[\u0190-\u019f]', '[\u0190-\ua7ff]',
];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{2}', '{1,2}'];
const LOOKBEHINDS = ['(?<=a)', '(?<=a+)', '(?<=ab|c)', '(?<=ab|cd)', '(?<=a{2})', '(?<=a{1,2})', '(?<!\\s)', '(?<=a?)', '(?<=(ab|cd))', '(?<=\\bk)'];
const STRINGS = [
  '', 'a', 'k', 'K', '\u212a', 'i', 'I', '\u0130', '\u0131', 's', 'S', '\u017f', '\u00e9', '\u00c9', ' ', '\n', '\t',
  '\ufeff', '\u001c', '\u001f', '\u0085', '\u00a0', '\u2003', '\u200b', '1', '\u0661', '_', '!', 'ab', 'aak', 'a\n', 'ka b', 'xaab', 'cdk',
  '\u03c2', '\u03a3', '\u03c3', '\u00b5', '\u03bc', '\u039c', '\u0399', '\u03b9', '\u1fbe', '\u1e9e', '\u00df', 'ss',
  '\u1e61', '\u1e9b', '\u03b8', '\u03d1', '\u03f4', '\u2126', '\u03c9', '\u212b', '\u00e5', '\u019b', '\u0264', 'h', 'j', 'r', 't',
];

/** A small deterministic PRNG (mulberry32), so the corpus is the same on every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function corpus(): string[] {
  const next = rng(20261201);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const patterns = new Set<string>();
  for (const flag of FLAGS) for (const atom of ATOMS) patterns.add(flag + atom);
  for (const lb of LOOKBEHINDS) patterns.add(`${lb}k`);
  while (patterns.size < 900) {
    let p = pick(FLAGS);
    const n = 1 + Math.floor(next() * 3);
    for (let j = 0; j < n; j++) {
      const atom = pick(ATOMS);
      const q = /^[\^$]|^\\[bAZ]$/.test(atom) ? '' : pick(QUANTIFIERS);
      p += atom + q;
    }
    if (next() < 0.1) p = pick(LOOKBEHINDS) + p.replace(/^\(\?\w+\)/, '');
    patterns.add(p);
  }
  return [...patterns];
}

const PYTHON = `
import json, re, sys
out = []
for p in json.load(sys.stdin)["patterns"]:
    try:
        r = re.compile(p)
    except re.error:
        out.append(None)
        continue
    out.append([r.search(s) is not None for s in json.loads(sys.argv[1])])
json.dump(out, sys.stdout)
`;

describe('the Python regex translation, against python3', () => {
  it('agrees with re.search on a generated corpus, and rejects what Python rejects', () => {
    const patterns = corpus();
    const python = JSON.parse(execFileSync('python3', ['-c', PYTHON, JSON.stringify(STRINGS)], { input: JSON.stringify({ patterns }), encoding: 'utf8' })) as (boolean[] | null)[];
    const differences: string[] = [];
    patterns.forEach((p, n) => {
      const ours = compilePythonRegex(p);
      const truth = python[n] ?? null;
      if (truth === null) {
        if (ours.ok) differences.push(`${JSON.stringify(p)}: Python rejects it, we accept it`);
        return;
      }
      if (!ours.ok) return; // rejecting what cannot be translated is allowed (reported as hook_skipped)
      STRINGS.forEach((s, k) => {
        if (ours.regex.test(s) !== truth[k]) differences.push(`${JSON.stringify(p)} on ${JSON.stringify(s)}: Python ${truth[k]}, we ${!truth[k]}`);
      });
    });
    expect(differences).toEqual([]);
  });

  it('covers the cases the review found', () => {
    const cases: [string, string, boolean][] = [
      ['\\s', '\ufeff', false],
      ['[\\S]', '\u001c', false],
      ['(?ai)k', '\u212a', false],
      ['(?i)\u0130', 'i', true],
      ['(?i)\\u0130', 'i', true],
      ['(?i)\\x49', '\u0131', true],
      ['(?i)[\\x48-\\x49]', '\u0131', true],
      ['(?ai)\\x4b', 'k', true],
      ['(?i)\u03c2', '\u03a3', true],
    ];
    for (const [p, s, expected] of cases) {
      const r = compilePythonRegex(p);
      expect(r.ok && r.regex.test(s), `${p} on ${JSON.stringify(s)}`).toBe(expected);
    }
    expect(compilePythonRegex('(?<=a+)b').ok).toBe(false);
    // A letter whose case pair is newer than Python 3.11's Unicode data is refused under (?i) only.
    expect(compilePythonRegex('(?i)\u019b')).toMatchObject({ ok: false, unsupported: true });
    expect(compilePythonRegex('(?i)[\u0190-\u019f]')).toMatchObject({ ok: false, unsupported: true });
    expect(compilePythonRegex('(?i)[\u0190-\ua7ff]').ok).toBe(true);
    expect(compilePythonRegex('\u019b').ok).toBe(true);
  });
});

describe('the targeted cases of pyregex.test.ts', () => {
  it('hold CPython\'s own verdicts', () => {
    const script = `
import json, re, sys
out = []
for p, strings in json.load(sys.stdin):
    try:
        r = re.compile(p)
    except re.error:
        out.append(None)
        continue
    out.append([[s, r.search(s) is not None] for s in strings])
json.dump(out, sys.stdout)
`;
    const input = PYTHON_CASES.map(([p, verdicts]) => [p, verdicts === 'invalid' ? [] : verdicts.map(([text]) => text)]);
    const python = JSON.parse(execFileSync('python3', ['-W', 'ignore', '-c', script], { input: JSON.stringify(input), encoding: 'utf8' })) as ([string, boolean][] | null)[];
    expect(python.map((v) => v ?? 'invalid')).toEqual(PYTHON_CASES.map(([, verdicts]) => verdicts));
  });
});
