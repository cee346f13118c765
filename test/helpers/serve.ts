// A `chrys-hooks serve --stdio` child for tests: write request lines, await
// answer lines as they arrive, and watch how the process ends.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { BIN, type Sandbox } from './sandbox.js';

export class ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  stderr = '';
  private closed = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(sandbox: Sandbox, args: string[] = [], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [BIN, 'serve', '--stdio', '--config-dir', sandbox.configDir, '--cwd', sandbox.workspace, ...args], {
      cwd: sandbox.workspace,
      env: sandbox.env(env),
    });
    this.child.stdout.on('data', (c: Buffer) => {
      this.buffered += c.toString('utf8');
      for (let nl = this.buffered.indexOf('\n'); nl !== -1; nl = this.buffered.indexOf('\n')) {
        this.lines.push(this.buffered.slice(0, nl));
        this.buffered = this.buffered.slice(nl + 1);
      }
      this.wake();
    });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString('utf8')));
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => {
      this.closed = true;
      this.wake();
      resolve({ code, signal });
    }));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  send(request: object | string): void {
    this.child.stdin.write(`${typeof request === 'string' ? request : JSON.stringify(request)}\n`);
  }

  /** The next answer line; fails if the server exits first. */
  async next(): Promise<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.closed) throw new Error(`serve exited (${this.child.exitCode ?? this.child.signalCode}) with no answer; stderr: ${this.stderr}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  async ask(request: object | string): Promise<any> {
    this.send(request);
    return JSON.parse(await this.next());
  }

  /** Answers not yet taken with next(). */
  get unread(): readonly string[] {
    return this.lines;
  }

  end(): void {
    this.child.stdin.end();
  }
}
