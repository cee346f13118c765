// Every example in README.md and docs/*.md is run, so the pages cannot rot.
//
// Per page, in order, in one throw-away HOME with this checkout's bin/ first
// on PATH (so `chrys-hooks` is the built binary):
//
// - a ```sh / ```bash / ```shell block runs as one `bash -e -o pipefail`
//   process; it must exit 0 (or N under `<!-- doc-test: exit N -->`). The
//   first block of a page starts in HOME and each next one where the
//   previous one ended (`cd` carries over, as in one terminal). A block
//   that starts with `#!` is a script to save, not commands to type: it is
//   checked with `bash -n`. `<!-- doc-test: in-checkout -->` starts the
//   block in a copy of the checkout's examples/ (as `./examples`).
// - a ```yaml block must parse; one that is a hooks file (a mapping with
//   `version` or `hooks`, or a list of hooks to add to one) is written out
//   and must pass `chrys-hooks validate --allow-missing` (its scripts live
//   elsewhere), or fail it under `<!-- doc-test: invalid -->`.
//   `<!-- doc-test: file PATH -->` / `append PATH` write or append the block
//   to PATH (`~` is the page's HOME) as the reader is told to, and a hooks
//   file there is validated in place, scripts and all.
// - a ```json block must parse (one value or several in a row);
//   `<!-- output -->` above it means it shows what the shell block before it
//   printed on stdout, compared by `differences()` in test/helpers/doc-blocks.ts:
//   `"..."` stands for any value (or, as a key, for keys not shown), and
//   timings, times, ids and log paths need only the right type.
// - a ```python block must parse.
// - `<!-- doc-test: skip (why) -->` leaves a block out; only a block that
//   needs a real agent or the network may, and the why must say so.
// - every relative link must name a file of the repository, and every
//   `#anchor` a heading of its page (GitHub's slug).
import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Block, differences, parseJsonSequence, parsePage } from '../helpers/doc-blocks.js';

const REPO = resolve('.');
const PAGES = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const SHELL = new Set(['sh', 'bash', 'shell']);
// sql: docs/outbox-postgres.md's grants, run against a real server by test/e2e/outbox-postgres.test.ts.
const KNOWN = new Set([...SHELL, 'yaml', 'yml', 'json', 'jsonc', 'python', 'js', 'ts', 'text', 'ini', 'xml', 'crontab', 'diff', 'sql', '']);
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const marker = (b: Block, name: string): string | undefined =>
  b.markers.map((m) => (m.startsWith(`doc-test:${name}`) ? m.slice(`doc-test:${name}`.length).trim() : undefined)).find((m) => m !== undefined);
const where = (page: string, b: Block): string => `${page}:${b.line} (\`\`\`${b.lang})`;

/** A hooks file, or a list of hooks a page says to add to one. */
function hooksFileOf(value: unknown): string | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value) && ('hooks' in value || 'version' in value)) return JSON.stringify(value);
  if (Array.isArray(value) && value.length > 0 && value.every((h) => h && typeof h === 'object' && 'id' in h && 'event' in h)) return JSON.stringify({ version: 1, hooks: value });
  return undefined;
}

class PageRun {
  readonly root = mkdtempSync(join(tmpdir(), 'chrys-doc-'));
  readonly home = join(this.root, 'home');
  private cwd = this.home;
  private readonly cwdFile = join(this.root, 'cwd');
  lastStdout: string | undefined;

  constructor(readonly page: string) {
    roots.push(this.root);
    mkdirSync(this.home, { recursive: true });
  }

  env(): Record<string, string> {
    return { HOME: this.home, PATH: `${join(REPO, 'bin')}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, NO_COLOR: '1', LANG: 'C.UTF-8', TMPDIR: tmpdir() };
  }

  path(p: string): string {
    if (p === '~' || p.startsWith('~/')) return join(this.home, p.slice(1));
    return isAbsolute(p) ? p : join(this.cwd, p);
  }

  async shell(b: Block): Promise<void> {
    if (marker(b, 'in-checkout') !== undefined) {
      const checkout = join(this.root, 'checkout');
      if (!existsSync(checkout)) cpSync(join(REPO, 'examples'), join(checkout, 'examples'), { recursive: true, filter: (src) => !/[\\/]hooks[\\/](tmp|state|logs|outbox)$/.test(src) });
      this.cwd = checkout;
    }
    const script = `cd ${JSON.stringify(this.cwd)}\ntrap 'pwd > ${JSON.stringify(this.cwdFile)}' EXIT\n${b.body}`;
    const r = await execa('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], { env: this.env(), extendEnv: false, reject: false, input: '', cwd: this.home });
    const want = Number(marker(b, 'exit') ?? 0);
    expect(r.exitCode, `${where(this.page, b)} exited ${r.exitCode}, expected ${want}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(want);
    if (existsSync(this.cwdFile)) this.cwd = readFileSync(this.cwdFile, 'utf8').trim();
    this.lastStdout = r.stdout;
  }

  async yaml(b: Block): Promise<void> {
    const file = marker(b, 'file');
    const append = marker(b, 'append');
    if (file || append) {
      const target = this.path((file || append)!);
      mkdirSync(dirname(target), { recursive: true });
      if (file) writeFileSync(target, b.body);
      else appendFileSync(target, b.body);
      const docs = parseAllDocuments(readFileSync(target, 'utf8'));
      for (const d of docs) expect(d.errors.map(String), `${where(this.page, b)}: ${target}`).toEqual([]);
      if (hooksFileOf(docs[0]?.toJS()) === undefined) return;
      await this.validate(b, [target], this.cwd);
      return;
    }
    const docs = parseAllDocuments(b.body);
    for (const d of docs) expect(d.errors.map(String), where(this.page, b)).toEqual([]);
    const hooks = hooksFileOf(docs[0]?.toJS());
    if (hooks === undefined) {
      expect(marker(b, 'invalid'), `${where(this.page, b)} is marked invalid but is no hooks file`).toBeUndefined();
      return;
    }
    const dir = mkdtempSync(join(this.root, 'yaml-'));
    const path = join(dir, 'hooks.yaml');
    writeFileSync(path, b.body.trimStart().startsWith('-') ? `version: 1\nhooks:\n${b.body.replace(/^/gm, '  ')}` : b.body);
    await this.validate(b, [path, '--allow-missing'], dir);
  }

  private async validate(b: Block, args: string[], cwd: string): Promise<void> {
    const r = await execa(join(REPO, 'bin', 'chrys-hooks'), ['validate', '--format', 'json', ...args], { env: this.env(), extendEnv: false, reject: false, input: '', cwd });
    const invalid = marker(b, 'invalid') !== undefined;
    expect(r.exitCode, `${where(this.page, b)}: validate ${invalid ? 'should fail' : 'failed'}:\n${r.stdout}\n${r.stderr}`).toBe(invalid ? 1 : 0);
    if (!invalid) expect(JSON.parse(r.stdout).errors, where(this.page, b)).toBe(0);
  }

  json(b: Block): void {
    let values: unknown[] = [];
    expect(() => (values = parseJsonSequence(b.body)), `${where(this.page, b)} is not JSON`).not.toThrow();
    if (!b.markers.includes('output')) return;
    expect(this.lastStdout, `${where(this.page, b)}: an output block with no shell block before it`).toBeDefined();
    let printed: unknown[] = [];
    expect(() => (printed = parseJsonSequence(this.lastStdout!)), `${where(this.page, b)}: the block before printed no JSON:\n${this.lastStdout}`).not.toThrow();
    expect(differences(values, printed), `${where(this.page, b)} differs from what was printed:\n${this.lastStdout}`).toEqual([]);
  }

  async python(b: Block): Promise<void> {
    const r = await execa('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: b.body, reject: false });
    expect(r.exitCode, `${where(this.page, b)}: ${r.stderr}`).toBe(0);
  }
}

describe('the examples in README.md and docs/', () => {
  const parsed = new Map(PAGES.map((p) => [p, parsePage(readFileSync(p, 'utf8'))]));

  it.each(PAGES)('%s: every link and anchor resolves', (page) => {
    const bad: string[] = [];
    for (const { target, line } of parsed.get(page)!.links) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto: — no network here
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file === '' ? page : join(dirname(page), decodeURIComponent(file));
      if (!existsSync(path)) bad.push(`${page}:${line}: ${target}: no file ${path}`);
      else if (anchor !== undefined && path.endsWith('.md') && !(parsed.get(path) ?? parsePage(readFileSync(path, 'utf8'))).anchors.has(anchor)) bad.push(`${page}:${line}: ${target}: ${path} has no heading #${anchor}`);
    }
    expect(bad).toEqual([]);
  });

  it.each(PAGES)('%s: every example runs as shown', async (page) => {
    const run = new PageRun(page);
    for (const b of parsed.get(page)!.blocks) {
      expect(KNOWN.has(b.lang), `${where(page, b)}: a block language this test does not know; add it to KNOWN and say what is checked`).toBe(true);
      const skip = marker(b, 'skip');
      if (skip !== undefined) {
        expect(skip, `${where(page, b)}: a skip must say why, and only a real agent or the network is a reason`).toMatch(/real agent|network/);
        continue;
      }
      if (SHELL.has(b.lang)) {
        if (b.body.startsWith('#!')) {
          const r = await execa('bash', ['-n'], { input: b.body, reject: false });
          expect(r.exitCode, `${where(page, b)}: ${r.stderr}`).toBe(0);
        } else await run.shell(b);
      } else if (b.lang === 'yaml' || b.lang === 'yml') await run.yaml(b);
      else if (b.lang === 'json') run.json(b);
      else if (b.lang === 'python') await run.python(b);
      else expect(b.markers, `${where(page, b)}: markers on a block that is not run`).toEqual([]);
    }
  });
});
