// The real Codex CLI (the pinned package under .cache/agents/), headless, on
// a temp HOME and CODEX_HOME, talking to the mock Responses API on loopback,
// with chrys-hooks wired by `chrys-hooks install --agent codex --user` and
// its hooks trusted the way a user does it: Codex's own "Hooks need review"
// screen (trust-hooks.py).

import { execa } from 'execa';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { requireAgent } from '../common/agents.js';
import { HookDirs, type Run, chrys, tempRoot } from '../common/sandbox.js';
import { MockResponses, type ModelRequest, type Turn } from './mock-responses.js';

const TRUST_HOOKS = resolve('test/agents/codex/trust-hooks.py');

// No update check, no analytics, no plugin or app sync; approvals never and
// no sandbox, so the shell tool runs at once. No app-server daemon: the TUI
// would start one that outlives the test. The provider's base_url is set
// per run (-c).
const CONFIG = `model = "mock-model"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[analytics]
enabled = false

[features]
plugins = false
apps = false
daemon_auto_start = false
`;

/** The session's workspace (codex -C), and the global chrys-hooks dir (CHRYS_HOME) of this scenario. */
export type Scenario = HookDirs;

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Every model request Codex made, in order. */
  requests: ModelRequest[];
}

export class CodexRig {
  readonly root = tempRoot('codex');
  readonly home = join(this.root, 'home');
  readonly codexHome = join(this.home, '.codex');
  readonly config = join(this.codexHome, 'config.toml');
  private readonly pathDir = join(this.root, 'bin');
  private scenarios = 0;

  constructor() {
    mkdirSync(this.codexHome, { recursive: true });
    mkdirSync(this.pathDir);
    symlinkSync(requireAgent('codex'), join(this.pathDir, 'codex'));
    writeFileSync(this.config, CONFIG);
  }

  /** A fresh workspace and global chrys-hooks dir, with `hooks` as the global hooks.yaml when given. */
  scenario(hooks?: string): Scenario {
    const dir = join(this.root, `s${++this.scenarios}`);
    const s = new HookDirs(join(dir, 'chrys'), join(dir, 'work'));
    if (hooks !== undefined) s.globalHooks(hooks);
    return s;
  }

  env(s?: Scenario): Record<string, string> {
    return {
      PATH: `${this.pathDir}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: this.home,
      CODEX_HOME: this.codexHome,
      MOCK_API_KEY: 'mock-key',
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      ...(s ? { CHRYS_HOME: s.chrysHome } : {}),
    };
  }

  /** The built chrys-hooks, as the user runs it. */
  chrys(args: string[], s: Scenario): Promise<Run> {
    return chrys(args, this.env(s), s.workspace);
  }

  /** Codex's own hook review, taken as a user does: "Trust all and continue" in the interactive codex. */
  async trustHooks(): Promise<void> {
    const r = await execa('python3', [TRUST_HOOKS, this.config, join(this.pathDir, 'codex')], {
      env: { ...this.env(), TERM: 'xterm-256color' }, extendEnv: false, reject: false, cwd: this.home, timeout: 120_000,
    });
    if (r.exitCode !== 0) throw new Error(`trusting the hooks in codex failed (exit ${r.exitCode}):\n${r.stderr}`);
  }

  /** `codex exec PROMPT` in the scenario's workspace, its model answering with `turns`. */
  async exec(s: Scenario, prompt: string, turns: Turn[]): Promise<ExecResult> {
    const mock = new MockResponses();
    const url = await mock.start();
    mock.script(turns);
    try {
      const r = await execa(join(this.pathDir, 'codex'), ['exec', '--skip-git-repo-check', '-C', s.workspace, '-c', `model_providers.mock.base_url="${url}"`, prompt], {
        env: this.env(s), extendEnv: false, reject: false, cwd: s.workspace, input: '', timeout: 150_000,
      });
      return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr), requests: mock.requests };
    } finally {
      await mock.stop();
    }
  }

  trustRecord(): string {
    return readFileSync(this.config, 'utf8');
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
