// One real Gemini CLI set-up per test: a temp HOME whose ~/.gemini/settings.json
// chrys-hooks `install` wires, a temp CHRYS_HOME for the global hooks, a
// workspace the agent starts in, and a run of `gemini -p` headless against
// a scripted mock model on loopback.

import { execa } from 'execa';
import { join } from 'node:path';
import { agentBin } from '../common/agents.js';
import { AgentSandbox, type Run, chrys, installFor } from '../common/sandbox.js';
import { MockModel, type Reply } from './mock-model.js';

export const GEMINI = agentBin('gemini');
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

/** What a headless, offline user puts in ~/.gemini/settings.json before chrys-hooks wires it. */
export const BASE_SETTINGS = {
  // API-key auth: the base URL alone selects "gateway" auth, which -p refuses.
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

export class GeminiRig extends AgentSandbox {
  private readonly models: MockModel[] = [];

  constructor() {
    super('gemini');
    this.write(join(this.home, '.gemini', 'settings.json'), JSON.stringify(BASE_SETTINGS, null, 2));
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.home, CHRYS_HOME: this.chrysHome, NO_COLOR: '1', ...extra };
  }

  /** chrys-hooks itself, as the user would run it in the workspace. */
  chrys(args: string[]): Promise<Run> {
    return chrys(args, this.env(), this.workspace);
  }

  /** `install --agent gemini --user`, as the README wires it; fails the test if install does. */
  async install(extra: string[] = []): Promise<void> {
    await installFor('gemini', this.env(), this.workspace, extra);
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
    this.remove();
  }
}
