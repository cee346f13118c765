// runServe (cli/serve.ts) over real stdio: its own source, bundled once for
// this file, runs in a child process whose stdin and stdout are pipes; the
// hooks it fires are real processes. Every wait is on an event (a line, a
// file, the exit).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/serve.js';
import { ChrysError } from '../../src/core/errors.js';
import { type Sandbox, eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
let dir: string;
let entry: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chrys-cli-serve-'));
  entry = join(dir, 'serve.mjs');
  const contents = `import { runServe } from './src/cli/serve.ts';
const [configDir, cwd] = process.argv.slice(2);
runServe([], { stdio: true }, { configDir, cwd, color: false, readInput: () => '' }).then((r) => { process.stderr.write('served ' + r.exitCode); });`;
  await build({
    stdin: { contents, resolveDir: resolve('.'), loader: 'ts', sourcefile: 'serve-entry.ts' },
    outfile: entry, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  /** What the child says once runServe resolved: "served 0". */
  stderr = '';
  private rest = '';
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  constructor(s: Sandbox) {
    this.child = spawn(process.execPath, [entry, s.configDir, s.workspace], { cwd: s.workspace, env: s.env() });
    this.child.stdout.on('data', (c: Buffer) => {
      const parts = (this.rest + c.toString('utf8')).split('\n');
      this.rest = parts.pop()!;
      this.lines.push(...parts);
    });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString('utf8')));
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((r) => this.child.on('close', (code, signal) => r({ code, signal })));
  }
  send(text: string): void {
    this.child.stdin.write(text);
  }
}

const ctxHook = hookYaml({ id: 'ctx', run: `type: shell\nshell: 'echo "{\\"context\\":[{\\"text\\":\\"hi\\"}]}" > "$CHRYS_HOOK_RESULT"'` });
const request = (id: number): string => `${JSON.stringify({ id, envelope: { event: 'session_start', session_id: 's' } })}\n`;

describe('runServe', () => {
  it('refuses to start without --stdio', async () => {
    await expect(runServe([], {}, { color: false, readInput: () => '' })).rejects.toThrow(ChrysError);
    await expect(runServe([], {}, { color: false, readInput: () => '' })).rejects.toMatchObject({ code: 'usage', message: 'serve needs --stdio (the only transport so far)' });
  });

  it('answers every line in order, the last one without a newline too, and exits 0 at EOF', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctxHook}\n`);
    const server = new Server(s);
    server.send(request(1) + 'not json\n' + request(3).trimEnd());
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([{ id: 1, blocked: false }, { error: { code: 'invalid_json' } }, { id: 3 }]);
    expect(server.stderr).toBe('served 0');
  });

  it('on SIGTERM answers the request in flight, reads no further line, and exits 0', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'slow', event: 'session_start', run: "type: shell\nshell: 'touch ../started; while [ ! -e ../release ]; do sleep 0.02; done'" })}\n`);
    const server = new Server(s);
    server.send(request(1));
    await eventually(() => existsSync(join(s.root, 'started')), 20_000, 'the hook to start');
    server.child.kill('SIGTERM');
    // Sent after the signal, and the hook released after that: the signal is the child's first event.
    server.send(request(2));
    s.write(join(s.root, 'release'), '');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1]);
    expect(server.stderr).toBe('served 0');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s while idle, stops at once with exit 0', async (signal) => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctxHook}\n`);
    const server = new Server(s);
    server.send(request(1));
    await eventually(() => server.lines.length === 1, 20_000, 'the first answer');
    server.child.kill(signal);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr).toBe('served 0');
  });

  it('ends quietly with exit 0 when its reader goes away', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctxHook}\n`);
    const server = new Server(s);
    server.child.stdout.destroy();
    server.send(request(1));
    server.send(request(2));
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr).toBe('served 0');
  });
});
