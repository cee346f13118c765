// One real Gemini CLI set-up per test: a temp HOME whose ~/.gemini/settings.json
// chrys-hooks `install` wires, a temp CHRYS_HOME for the global hooks, a
// workspace the agent starts in, and a run of `gemini -p` headless against
// a scripted mock model on loopback.

import { execa } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { MockModel, type Reply } from './mock-model.js';

// The pinned package's binary, where scripts/agents/install.mjs (an untyped script) put it.
const INSTALLER: string = '../../../scripts/agents/install.mjs';
const { agentBin } = (await import(INSTALLER)) as { agentBin: (name: string) => string };
export const GEMINI = agentBin('gemini');
const CHRYS = resolve('bin/chrys-hooks');
// Pinned, so no routing classifier picks one: every main-loop request is the model's.
const MODEL = 'gemini-2.5-flash';

/** What one headless run of the agent left behind. */
export interface AgentRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** `--output-format json`: the final `response` and the `warnings` the agent listed. */
  response: string;
  warnings: string[];
  model: MockModel;
}

export class GeminiRig {
  readonly root = mkdtempSync(join(tmpdir(), 'chrys-gemini-'));
  readonly home = join(this.root, 'home');
  readonly chrysHome = join(this.root, 'chrys');
  readonly workspace = join(this.root, 'work');
  private readonly models: MockModel[] = [];

  constructor() {
    for (const d of [this.home, this.chrysHome, this.workspace]) mkdirSync(d, { recursive: true });
    // What a headless, offline user sets: API-key auth (the base URL alone selects
    // "gateway" auth, which -p refuses), no telemetry, no usage stats, no update check.
    this.write(join(this.home, '.gemini', 'settings.json'), JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    }, null, 2));
  }

  write(path: string, content: string, mode = 0o644): string {
    const full = resolve(this.root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    chmodSync(full, mode);
    return full;
  }

  globalHooks(yaml: string): void {
    this.write(join(this.chrysHome, 'hooks', 'hooks.yaml'), yaml);
  }

  globalScript(name: string, body: string): void {
    this.write(join(this.chrysHome, 'hooks', 'scripts', name), body, 0o755);
  }

  projectHooks(yaml: string): void {
    this.write(join(this.workspace, '.chrys', 'hooks', 'hooks.yaml'), yaml);
  }

  projectScript(name: string, body: string): void {
    this.write(join(this.workspace, '.chrys', 'hooks', 'scripts', name), body, 0o755);
  }

  private env(extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, CHRYS_HOME: this.chrysHome, NO_COLOR: '1', ...extra };
  }

  /** chrys-hooks itself, as the user would run it in the workspace. */
  async chrys(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const r = await execa(process.execPath, [CHRYS, ...args], { env: this.env(), extendEnv: false, reject: false, cwd: this.workspace, input: '' });
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  }

  /** `install --agent gemini --user`, as the README wires it; fails the test if install does. */
  async install(extra: string[] = []): Promise<void> {
    const r = await this.chrys(['install', '--agent', 'gemini', '--user', ...extra]);
    if (r.exitCode !== 0) throw new Error(`chrys-hooks install failed (${r.exitCode}): ${r.stderr}`);
  }

  /** `gemini -p PROMPT` headless, yolo, against a fresh mock model playing `script`. */
  async run(prompt: string, script: Reply[]): Promise<AgentRun> {
    const model = await MockModel.start(script);
    this.models.push(model);
    const args = ['-p', prompt, '-m', MODEL, '--approval-mode', 'yolo', '--skip-trust', '--output-format', 'json'];
    const r = await execa(GEMINI, args, {
      env: this.env({ GEMINI_API_KEY: 'test-key-not-real', GOOGLE_GEMINI_BASE_URL: model.url }),
      extendEnv: false,
      reject: false,
      cwd: this.workspace,
      stdin: 'ignore',
      timeout: 150_000,
    });
    const stdout = String(r.stdout);
    let parsed: { response?: string; warnings?: string[] } = {};
    try {
      parsed = JSON.parse(stdout);
    } catch {
      // Left empty: the assertions on exitCode and stderr say what went wrong.
    }
    return { exitCode: r.exitCode ?? -1, stdout, stderr: String(r.stderr), response: parsed.response ?? '', warnings: parsed.warnings ?? [], model };
  }

  async dispose(): Promise<void> {
    await Promise.all(this.models.map((m) => m.close()));
    rmSync(this.root, { recursive: true, force: true });
  }
}
