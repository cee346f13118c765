// A throw-away home, config dir and workspace, and a runner for the built
// binary with a scrubbed environment (no CHRYS_* leaking in from the host).

import { execa } from 'execa';
import { chmodSync, cpSync, watch, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type TestContext, afterEach } from 'vitest';

export const BIN = resolve('bin/chrys-hooks');

/** What a run of the binary produced. */
export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function runBinary(args: string[], env: Record<string, string>, opts: RunOptions): Promise<Run> {
  const r = await execa(process.execPath, [BIN, ...args], {
    input: opts.input ?? '',
    env,
    extendEnv: false,
    reject: false,
    cwd: opts.cwd,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
}

/** A copy of the built package (Sandbox.packageCopy); each call starts its bin afresh, against the sandbox. */
export interface PackageCopy {
  dist: string;
  run: (args: string[], input?: string) => Promise<Run>;
  fire: (envelope: object, args?: string[]) => Promise<Run>;
  removeParserChunks: () => string[];
}

export class Sandbox {
  readonly root = mkdtempSync(join(tmpdir(), 'chrys-test-'));
  readonly home = join(this.root, 'home');
  readonly configDir = join(this.root, 'config');
  readonly workspace = join(this.root, 'work');

  constructor() {
    for (const d of [this.home, this.configDir, this.workspace]) mkdirSync(d, { recursive: true });
  }

  /** Writes a file (parents created); `mode` defaults to 0644. */
  write(path: string, content: string, mode = 0o644): string {
    const full = resolve(this.root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    chmodSync(full, mode);
    return full;
  }

  globalHooks(content: string, name = 'hooks.yaml'): string {
    return this.write(join(this.configDir, 'hooks', name), content);
  }

  projectHooks(content: string, name = 'hooks.yaml'): string {
    return this.write(join(this.workspace, '.chrys', 'hooks', name), content);
  }

  /** A hook script next to the global hooks file. */
  globalScript(name: string, content: string): string {
    return this.write(join(this.configDir, 'hooks', 'scripts', name), content, 0o755);
  }

  projectScript(name: string, content: string): string {
    return this.write(join(this.workspace, '.chrys', 'hooks', 'scripts', name), content, 0o755);
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, NO_COLOR: '1', ...extra };
  }

  /** Runs the binary with --config-dir and --cwd pointing into the sandbox. */
  run(args: string[], opts: RunOptions = {}): Promise<Run> {
    return runBinary([...args, '--config-dir', this.configDir, '--cwd', this.workspace], this.env(opts.env), { ...opts, cwd: opts.cwd ?? this.workspace });
  }

  /** Runs the binary with exactly these arguments. */
  runRaw(args: string[], opts: RunOptions = {}): Promise<Run> {
    return runBinary(args, this.env(opts.env), { ...opts, cwd: opts.cwd ?? this.workspace });
  }

  /** `fire` with an envelope object; returns the parsed decision and the process result. */
  async fire(envelope: object | string, args: string[] = [], opts: RunOptions = {}): Promise<{ decision: any; result: Run }> {
    const input = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
    const result = await this.run(['fire', ...args], { ...opts, input });
    let decision: any;
    try {
      decision = JSON.parse(result.stdout);
    } catch {
      throw new Error(`fire printed no JSON (exit ${result.exitCode}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    }
    return { decision, result };
  }

  /**
   * A copy of the built package in the sandbox, without the code caches of
   * the build it came from: its bundles, chunks and caches can be spoilt or
   * deleted (the YAML parsers and zod, to prove that a code path never loads
   * them) without touching the build the other tests run.
   */
  packageCopy(): PackageCopy {
    const copy = join(this.root, 'pkg');
    cpSync(resolve('bin'), join(copy, 'bin'), { recursive: true });
    cpSync(resolve('dist'), join(copy, 'dist'), { recursive: true });
    cpSync(resolve('package.json'), join(copy, 'package.json'));
    rmSync(join(copy, 'dist', '.cache'), { recursive: true, force: true });
    symlinkSync(resolve('node_modules'), join(copy, 'node_modules'));
    const chunks = join(copy, 'dist', 'chunks');
    const run = async (args: string[], input?: string): Promise<Run> => {
      const r = await execa(process.execPath, [join(copy, 'bin', 'chrys-hooks'), ...args, '--config-dir', this.configDir, '--cwd', this.workspace], {
        ...(input !== undefined ? { input } : {}), reject: false, env: this.env(), extendEnv: false,
      });
      return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
    };
    return {
      dist: join(copy, 'dist'),
      run,
      fire: (envelope, args = []) => run(['fire', ...args], JSON.stringify(envelope)),
      removeParserChunks: () => {
        // The ES module CLI's chunks, and the fire path's cold files (scripts/build.mjs).
        const cold = join(copy, 'dist', 'cold');
        const removed = [chunks, cold].flatMap((dir) => readdirSync(dir).map((f) => join(dir, f))).filter((path) => {
          const text = readFileSync(path, 'utf8');
          // graphile-worker (the PostgreSQL outbox) bundles a YAML reader of its own: not one of ours.
          if (text.includes('graphile-worker')) return false;
          return text.includes('Map keys must be unique') || text.includes('$ZodType') || text.includes('YAMLException');
        });
        for (const path of removed) rmSync(path);
        return removed;
      },
    };
  }

  cleanup(): void {
    // A detached worker may still be writing its log or history (slowly, on a loaded
    // machine): try a few times, then leave the temp dir to the OS.
    try {
      rmSync(this.root, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    } catch {
      // a temp dir left behind is harmless; a test sharing it would not be
    }
  }
}

/** A sandbox per test, removed afterwards. */
export function useSandbox(): () => Sandbox {
  let current: Sandbox | undefined;
  afterEach(() => {
    const done = current;
    current = undefined;
    done?.cleanup();
  });
  return () => (current ??= new Sandbox());
}

/**
 * A sandbox of the test whose context `t` is, removed when that test ends. For
 * `it.concurrent` tests: useSandbox's afterEach cannot tell concurrent tests apart.
 */
export function sandboxFor(t: TestContext): Sandbox {
  const s = new Sandbox();
  t.onTestFinished(() => s.cleanup());
  return s;
}

/** A blocking hook entry as YAML, for brevity in tests. */
export function hookYaml(h: { id: string; event?: string; run: string; match?: string; execution?: string; extra?: string }): string {
  const indent = (s: string, n: number): string => s.split('\n').map((l) => ' '.repeat(n) + l).join('\n');
  return [
    `  - id: ${h.id}`,
    `    event: ${h.event ?? 'before_tool_call'}`,
    h.match ? `    match:\n${indent(h.match, 6)}` : '',
    `    run:\n${indent(h.run, 6)}`,
    `    execution:\n${indent(h.execution ?? 'mode: blocking', 6)}`,
    h.extra ?? '',
  ].filter(Boolean).join('\n');
}

/**
 * Resolves once `check` returns a value other than undefined/false, polling the
 * filesystem state it reads; fails after `ms`. For effects of detached processes,
 * which offer no event to wait on but the files they write.
 */
export async function eventually<T>(check: () => T | undefined | false, ms = 30_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Resolves with the first job file (`<id>.json`) in `dir` once there is one,
 * woken by the folder's file events (the folder is made if missing); fails after `ms`.
 */
export function jobFileIn(dir: string, ms = 30_000, what = `a job file in ${dir}`): Promise<string> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return new Promise((done, fail) => {
    const look = (): void => {
      const name = readdirSync(dir).find((f) => f.endsWith('.json') && !f.startsWith('.'));
      if (!name) return;
      finish();
      done(name);
    };
    const watcher = watch(dir, look);
    const timer = setTimeout(() => {
      finish();
      fail(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    const finish = (): void => {
      clearTimeout(timer);
      watcher.close();
    };
    look(); // it may be there already
  });
}

/** Running, and not a zombie waiting for an init that may be slow to reap it. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A file's text, or undefined when it does not exist. */
export const read = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
/** A file's non-empty lines (none when it does not exist). */
export const lines = (path: string): string[] => (read(path) ?? '').split('\n').filter(Boolean);
/** An outbox folder of the sandbox's config dir. */
export const outbox = (s: Sandbox, folder: string): string => join(s.configDir, 'hooks', 'outbox', folder);

/** Writes a pending job for the global hook `deliver` as Chrys would, an hour old (due, and never young); `raw` may spoil its text. */
export function pendingJob(s: Sandbox, id: string, fields: Record<string, unknown> = {}, raw: (text: string) => string = (t) => t): string {
  mkdirSync(outbox(s, 'pending'), { recursive: true });
  const path = join(outbox(s, 'pending'), `${id}.json`);
  const job = {
    job_id: id, hook_id: 'deliver', event: 'after_tool_call', payload: { event: 'after_tool_call', n: 1, session_id: '' },
    created_at: new Date(Date.now() - 3600_000).toISOString(), hook_source: 'global', hook_source_path: join(s.configDir, 'hooks', 'hooks.yaml'),
    state: 'pending', retries: 0, last_started_at: null, last_finished_at: null, exit_code: null, error: null, stderr_tail: null,
    ...fields,
  };
  writeFileSync(path, raw(JSON.stringify(job)));
  return path;
}
/** The job files of an outbox folder, parsed, in file-name order. */
export const jobs = (s: Sandbox, folder: string): any[] =>
  existsSync(outbox(s, folder)) ? readdirSync(outbox(s, folder)).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(outbox(s, folder), f), 'utf8'))) : [];
