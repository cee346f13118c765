// The reference in docs/ against the code: every event, hooks-file key,
// decision key, result key, diagnostic code and exit status the code has is
// documented, and every one a reference table lists exists. All of
// docs/*.md is scanned, so a page another change adds counts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docRegions, fillRegions } from '../../src/cli/docs.js';
import { jsonSchema } from '../../src/cli/generate.js';
import { EXIT_STATUSES } from '../../src/cli/reference.js';
import { RESULT_KEYS, emptyDecision } from '../../src/core/decide.js';
import { ERROR_CODES, WARNING_CODES } from '../../src/core/diagnostics.js';
import { EXIT } from '../../src/core/errors.js';
import { EVENT_ALIASES, EVENT_NAMES } from '../../src/core/events.js';

const pages = readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => ({ name: `docs/${f}`, text: readFileSync(`docs/${f}`, 'utf8') }));
const allDocs = pages.map((p) => p.text).join('\n');

/** The first cells (backticks stripped) of every table whose header starts with `header`. */
function firstColumn(header: string, text = allDocs): string[] {
  const out: string[] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = line.split('|')[1]!.trim();
    if (first === header) inTable = true;
    else if (inTable && !/^-+$/.test(first)) out.push(first.replace(/`/g, ''));
  }
  return out;
}

/** Every key path of the hooks file, from its JSON Schema: `settings.x`, hook keys bare, `match.args.<name>.equals`. */
function schemaKeys(): string[] {
  const keys: string[] = [];
  const walk = (node: any, prefix: string): void => {
    if (node.items) return walk(node.items, prefix);
    for (const [k, v] of Object.entries<any>(node.properties ?? {})) {
      const path = prefix + k;
      keys.push(path);
      walk(v, `${path}.`);
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object' && node.additionalProperties.properties) walk(node.additionalProperties, `${prefix}<name>.`);
  };
  walk(JSON.parse(jsonSchema()), '');
  return keys.map((k) => k.replace(/^hooks\./, ''));
}

describe('docs/ against the code', () => {
  it('every generated region is up to date (run npm run generate)', () => {
    for (const p of [...pages, { name: 'README.md', text: readFileSync('README.md', 'utf8') }]) expect(p.text, p.name).toBe(fillRegions(p.text));
    expect(Object.keys(docRegions())).toContain('events');
  });

  it('documents every event and alias, and no event the code lacks', () => {
    for (const name of [...EVENT_NAMES, ...Object.keys(EVENT_ALIASES)]) expect(allDocs, name).toContain(`\`${name}\``);
    expect(firstColumn('event').sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('documents every hooks-file key with its type, default and an example, and no key the schema lacks', () => {
    const documented = firstColumn('key');
    expect(documented.sort()).toEqual(schemaKeys().sort());
  });

  it('documents every decision key and result-file key, and no other', () => {
    expect(firstColumn('decision key').sort()).toEqual(Object.keys(emptyDecision('other')).sort());
    expect(firstColumn('result key').sort()).toEqual([...RESULT_KEYS].sort());
  });

  it('documents every error and warning code, and lists no code the code lacks', () => {
    for (const code of [...ERROR_CODES, ...WARNING_CODES]) expect(allDocs, code).toContain(`\`${code}\``);
    const listed = firstColumn('code').filter((c) => !/^\d+$/.test(c));
    for (const code of listed) expect([...ERROR_CODES, ...WARNING_CODES], code).toContain(code);
  });

  it('documents every exit status, and no other', () => {
    expect(EXIT_STATUSES.map((e) => e.code).sort()).toEqual(Object.values(EXIT).sort());
    const listed = firstColumn('code').filter((c) => /^\d+$/.test(c)).map(Number);
    expect([...new Set(listed)].sort()).toEqual([...new Set(Object.values(EXIT))].sort());
  });

  it('links nothing outside the repository', () => {
    for (const p of [...pages, { name: 'README.md', text: readFileSync('README.md', 'utf8') }]) {
      expect(p.text, p.name).not.toMatch(/\.\.\/shared/);
      // A relative link may climb out of docs/ (to the README, to bench/), never out of the checkout.
      for (const [, target] of p.text.matchAll(/\]\(([^()\s#]+)[^()\s]*\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        expect(relative(resolve('.'), resolve(dirname(p.name), target!)), `${p.name}: ${target}`).not.toMatch(/^\.\./);
      }
    }
  });
});
