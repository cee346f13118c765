// The throw-away directories of one real-agent run: a home for the agent,
// a Chrys config dir (CHRYS_HOME) with its global hooks, and a workspace
// with its project hooks; and the built chrys-hooks run there as a user
// runs it, `install --agent X --user` included.

import { execa } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AgentName } from './agents.js';

export const CHRYS = resolve('bin/chrys-hooks');

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Writes a file (parents created) with `mode`; returns its absolute path. */
export function writeFile(path: string, content: string, mode = 0o644): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

/** A new empty temp dir, `chrys-PREFIX-XXXXXX`: the root of one rig's files. */
export const tempRoot = (prefix: string): string => mkdtempSync(join(tmpdir(), `chrys-${prefix}-`));

/** A Chrys config dir and a workspace: where a scenario's hooks live. */
export class HookDirs {
  constructor(
    readonly chrysHome: string,
    readonly workspace: string,
  ) {
    mkdirSync(join(chrysHome, 'hooks'), { recursive: true });
    mkdirSync(workspace, { recursive: true });
  }

  globalHooks(yaml: string): string {
    return writeFile(join(this.chrysHome, 'hooks', 'hooks.yaml'), yaml);
  }

  globalScript(name: string, body: string): string {
    return writeFile(join(this.chrysHome, 'hooks', 'scripts', name), body, 0o755);
  }

  projectHooks(yaml: string): string {
    return writeFile(join(this.workspace, '.chrys', 'hooks', 'hooks.yaml'), yaml);
  }

  projectScript(name: string, body: string): string {
    return writeFile(join(this.workspace, '.chrys', 'hooks', 'scripts', name), body, 0o755);
  }
}

/** The built chrys-hooks with exactly `env`, in `cwd`, stdin empty. */
export async function chrys(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  const r = await execa(process.execPath, [CHRYS, ...args], { env, extendEnv: false, reject: false, cwd, input: '' });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** `chrys-hooks install --agent AGENT --user [extra]`, as the README wires it; throws when install fails. */
export async function installFor(agent: AgentName, env: Record<string, string>, cwd: string, extra: string[] = []): Promise<Run> {
  const r = await chrys(['install', '--agent', agent, '--user', ...extra], env, cwd);
  if (r.exitCode !== 0) throw new Error(`chrys-hooks install --agent ${agent} failed (exit ${r.exitCode}): ${r.stderr}${r.stdout}`);
  return r;
}

/** A temp root holding `home`, `chrys` (CHRYS_HOME) and `work` (the workspace). */
export class AgentSandbox extends HookDirs {
  readonly root: string;
  readonly home: string;

  constructor(prefix: string) {
    const root = tempRoot(prefix);
    super(join(root, 'chrys'), join(root, 'work'));
    this.root = root;
    this.home = join(root, 'home');
    mkdirSync(this.home, { recursive: true });
  }

  /** Writes a file under the root (a relative path) or anywhere (an absolute one). */
  write(path: string, content: string, mode = 0o644): string {
    return writeFile(resolve(this.root, path), content, mode);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
