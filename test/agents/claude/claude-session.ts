// One headless Claude Code run as a user would have it: a throw-away home,
// Claude's config dir (CLAUDE_CONFIG_DIR) wired by `chrys-hooks install
// --agent claude --user`, a Chrys config dir (CHRYS_HOME) and a workspace,
// with the model played by MockAnthropic on loopback. Telemetry, updates and
// every non-essential request are off, so the run needs no network but lo.

import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../common/agents.js';
import { AgentSandbox, type Run, chrys, installFor } from '../common/sandbox.js';
import { MockAnthropic, type Step } from './mock-anthropic.js';

export const CLAUDE = agentBin('claude');

/** One line of `--output-format stream-json`. */
export type StreamEvent = Record<string, any>;

export interface ClaudeRun {
  exitCode: number;
  events: StreamEvent[];
  stderr: string;
  /** The run's final `result` line. */
  result: StreamEvent | undefined;
}

export class ClaudeSession extends AgentSandbox {
  readonly claudeDir = join(this.root, 'claude-config');

  constructor() {
    super('claude');
    mkdirSync(this.claudeDir);
  }

  env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      CLAUDE_CONFIG_DIR: this.claudeDir,
      CHRYS_HOME: this.chrysHome,
      NO_COLOR: '1',
      ANTHROPIC_API_KEY: 'sk-ant-mock',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      // Root may skip permission prompts only in a sandbox (the CI runs as root).
      IS_SANDBOX: '1',
    };
  }

  /** chrys-hooks as the user would run it in the workspace. */
  chrys(args: string[]): Promise<Run> {
    return chrys(args, this.env(), this.workspace);
  }

  /** `chrys-hooks install --agent claude --user`, as the README says. */
  async install(): Promise<void> {
    await installFor('claude', this.env(), this.workspace);
  }

  /** `claude -p PROMPT` in the workspace against a mock model scripted with `steps`. */
  async run(prompt: string, steps: Step[]): Promise<{ run: ClaudeRun; model: MockAnthropic }> {
    const model = new MockAnthropic(steps);
    const baseUrl = await model.start();
    try {
      const r = await execa(CLAUDE, ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'], {
        env: { ...this.env(), ANTHROPIC_BASE_URL: baseUrl },
        extendEnv: false,
        reject: false,
        cwd: this.workspace,
        input: '',
        timeout: 150_000,
      });
      const events = String(r.stdout).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as StreamEvent);
      const run = { exitCode: r.exitCode ?? -1, events, stderr: String(r.stderr), result: events.find((e) => e.type === 'result') };
      return { run, model };
    } finally {
      await model.close();
    }
  }

}

/** What a run did, for a failure message. */
export const describeRun = (run: ClaudeRun): string => `exit ${run.exitCode}\nstderr: ${run.stderr.slice(-2000)}\nstream: ${JSON.stringify(run.events.filter((e) => e.type !== 'system' || e.subtype !== 'init')).slice(0, 6000)}`;

/** The tool results Claude recorded (`tool_use_result`), in order. */
export const toolUseResults = (run: ClaudeRun): unknown[] => run.events.filter((e) => e.type === 'user' && e.tool_use_result !== undefined).map((e) => e.tool_use_result);

/** What Claude showed the user from hooks' systemMessage (stream-json system notices). */
export const notices = (run: ClaudeRun): string[] => run.events.filter((e) => e.type === 'system' && typeof e.content === 'string').map((e) => e.content as string);
