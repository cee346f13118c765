// The one table of commands and options. The commander program, the shell
// completions and the man page are all generated from it, and a test checks
// that the committed completions and man page match.

import { AGENT_PROTOCOLS, agentList } from '../core/protocols/agents/index.js';

export interface OptionSpec {
  /** Commander flags, e.g. "--event <name>". */
  flags: string;
  description: string;
  /** Values to offer in completions. */
  choices?: readonly string[];
  /** The argument is a file (completions offer paths). */
  file?: boolean;
  /** The argument is a directory (completions offer directories only). */
  dir?: boolean;
}

export interface CommandSpec {
  name: string;
  args?: string;
  summary: string;
  description: string;
  options: readonly OptionSpec[];
  examples: readonly string[];
}

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '--config-dir <dir>', description: 'config dir (default: $CHRYS_HOME, else ~/.chrys)', dir: true },
  { flags: '--cwd <dir>', description: 'workspace (default: the envelope cwd, else the current directory)', dir: true },
  { flags: '--project-hooks', description: 'load the project hooks file (trust this workspace)' },
  { flags: '--no-project-hooks', description: 'never load the project hooks file' },
  { flags: '--no-color', description: 'plain output (also NO_COLOR)' },
];

const EVENT_OPTION: OptionSpec = { flags: '--event <name>', description: 'event name or alias' };
const AGENT_OPTION: OptionSpec = { flags: '--agent <agent>', description: agentList(), choices: [...AGENT_PROTOCOLS] };
const INPUT_OPTION: OptionSpec = { flags: '--input <file>', description: 'read the envelope from a file instead of stdin', file: true };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'fire',
    summary: 'run the hooks of one event and print the merged decision',
    description: 'Reads an event envelope (JSON) on stdin, runs the matching hooks and prints one decision object.',
    options: [
      { ...EVENT_OPTION, description: 'event name or alias (wins over the envelope "event")' },
      { flags: '--exit-code', description: 'exit 2 when the decision is a block' },
      INPUT_OPTION,
      { flags: '--protocol <agent>', description: `read the agent's hook input and answer in its format: ${agentList()}`, choices: [...AGENT_PROTOCOLS] },
      { flags: '--fail-closed', description: 'block a guarded event when chrys-hooks, a hooks file, a guard or the input is broken (also CHRYS_HOOKS_FAIL_CLOSED=1)' },
      { flags: '--explain', description: 'trace sources, trust and each hook on stderr (also CHRYS_HOOKS_DEBUG=1)' },
    ],
    examples: [
      `echo '{"event":"before_tool_call","tool":{"name":"edit_file","args":{"path":".env"}}}' | chrys-hooks fire`,
      'chrys-hooks fire --protocol claude --fail-closed   # as a Claude Code command hook',
    ],
  },
  {
    name: 'validate',
    args: '[files...]',
    summary: 'lint hooks files (the discovered ones when no file is given)',
    description: 'Reports every error and warning with file:line:col, severity and a stable code. Runs nothing.',
    options: [
      { flags: '--format <format>', description: 'text, json or github', choices: ['text', 'json', 'github'] },
      { flags: '--strict', description: 'exit 1 on warnings too' },
      { flags: '--allow-missing', description: 'a missing script, prompt file or interpreter is a warning, not an error (files generated later)' },
    ],
    examples: ['chrys-hooks validate --format github', 'chrys-hooks validate .chrys/hooks/hooks.yaml'],
  },
  {
    name: 'list',
    summary: 'show the merged, ordered hook chain',
    description: 'Lists every hook of both layers in run order with its match, mode and last run.',
    options: [
      EVENT_OPTION,
      { flags: '--protocol <agent>', description: `only the hooks this agent's events fire, as fire --protocol maps them; --event is then an agent event name: ${agentList()}`, choices: [...AGENT_PROTOCOLS] },
      { flags: '--json', description: 'machine-readable output' },
      { flags: '--stats', description: 'per hook: runs, failures, timeouts, p50/p95 duration from the run history' },
    ],
    examples: ['chrys-hooks list --event before_tool_call', 'chrys-hooks list --protocol claude --event PreToolUse', 'chrys-hooks list --stats'],
  },
  {
    name: 'resolve',
    summary: 'explain what would run for an event, without running anything',
    description: 'Shows the sources, merged settings with their origin, and for an envelope the exact plan: argv, cwd and env, or why a hook does not match.',
    options: [
      EVENT_OPTION,
      INPUT_OPTION,
      { flags: '--protocol <agent>', description: `the input is this agent's hook input (--event an agent event name), mapped as fire --protocol maps it: ${agentList()}`, choices: [...AGENT_PROTOCOLS] },
      { flags: '--json', description: 'machine-readable output' },
    ],
    examples: [`echo '{"event":"before_tool_call","tool":{"name":"write_file","args":{"path":"a.txt"}}}' | chrys-hooks resolve`, 'chrys-hooks resolve --protocol claude --input pretooluse.json'],
  },
  {
    name: 'import',
    args: '[file]',
    summary: "convert another agent's hook config into a Chrys hooks.yaml",
    description: 'Reads the hook config of Claude Code (.claude/settings.json, settings.local.json), Codex (.codex/hooks.json), Gemini CLI (.gemini/settings.json), Cursor (.cursor/hooks.json) or Copilot CLI (.github/hooks/*.json) in --cwd, or FILE, and prints an equivalent hooks.yaml whose hooks run the same commands by that agent\'s protocol.',
    options: [
      { flags: '--from <agent>', description: agentList(), choices: [...AGENT_PROTOCOLS] },
      { flags: '--write', description: 'write the project hooks file instead of printing' },
      { flags: '--global', description: 'with --write: write the global hooks file' },
      { flags: '--force', description: 'with --write: replace an existing hooks file' },
    ],
    examples: ['chrys-hooks import --from claude', 'chrys-hooks import --from gemini ~/.gemini/settings.json --write --global'],
  },
  {
    name: 'install',
    summary: "wire an agent's hook config to call chrys-hooks on every event it has",
    description: "Edits the agent's own hook file (Claude Code ~/.claude/settings.json, Codex ~/.codex/hooks.json, Gemini CLI ~/.gemini/settings.json, Cursor ~/.cursor/hooks.json, Copilot CLI ~/.copilot/hooks/chrys-hooks.json; with --project the project's) in place, adding one `chrys-hooks fire --protocol AGENT` entry per event and keeping every other key, hook and comment. Writes atomically and keeps the old file as FILE.chrys-backup. A second run changes nothing. Refuses an event the other scope already wires.",
    options: [
      AGENT_OPTION,
      { flags: '--user', description: "write the agent's user file (the default)" },
      { flags: '--project', description: "write the project's file (teammates then need chrys-hooks too)" },
      { flags: '--events <list>', description: "comma-separated agent event names (default: every event the agent has and Chrys maps)" },
      { flags: '--fail-closed', description: 'the gating events (tool call, prompt, permission) block when chrys-hooks or a hooks file is broken (the default)' },
      { flags: '--no-fail-closed', description: 'the gating events fail open instead' },
      { flags: '--dry-run', description: 'print the diff, write nothing' },
    ],
    examples: ['chrys-hooks install --agent claude', 'chrys-hooks install --agent codex --dry-run', 'chrys-hooks install --agent gemini --project --events BeforeTool,BeforeAgent'],
  },
  {
    name: 'uninstall',
    summary: "remove chrys-hooks' own entries from an agent's hook config",
    description: "Removes every entry that runs `chrys-hooks fire` (by any path) from the agent's user file (or, with --project, the project's), and nothing else.",
    options: [
      AGENT_OPTION,
      { flags: '--user', description: "the agent's user file (the default)" },
      { flags: '--project', description: "the project's file" },
      { flags: '--events <list>', description: 'only these agent events' },
      { flags: '--dry-run', description: 'print the diff, write nothing' },
    ],
    examples: ['chrys-hooks uninstall --agent claude', 'chrys-hooks uninstall --agent codex --project --dry-run'],
  },
  {
    name: 'doctor',
    summary: 'check how the agents on this machine call chrys-hooks, and its own config',
    description: "For each agent whose config dir exists: which events call chrys-hooks, from which file, with which command, and whether that reaches this binary and version; double wiring; invalid files. Then chrys-hooks' config dir, hooks files and the workspace's trust. Exit 0 when healthy, 1 with one line per problem and its fix.",
    options: [{ flags: '--json', description: 'machine-readable output' }],
    examples: ['chrys-hooks doctor', 'chrys-hooks doctor --json'],
  },
  {
    name: 'drain-outbox',
    summary: 'run due durable jobs from the outbox',
    description: 'Runs pending durable hook jobs that are due, under a per-job lock, and waits for them. With --watch, keeps running as a scheduler until SIGTERM or SIGINT.',
    options: [
      { flags: '--json', description: 'machine-readable summary (with --watch: JSON log lines on stderr)' },
      { flags: '--dry-run', description: 'list what would run or move, run and move nothing' },
      { flags: '--watch', description: 'keep running: run each job when it is due, until SIGTERM or SIGINT' },
      { flags: '--interval <seconds>', description: 'with --watch: look at the outbox at least this often (default 10)' },
      { flags: '--limit <n>', description: 'run at most n jobs' },
      { flags: '--requeue-failed', description: 'move failed jobs back to pending (after fixing a hook)' },
      { flags: '--prune-done <days>', description: 'delete done jobs older than this many days' },
    ],
    examples: ['chrys-hooks drain-outbox', 'chrys-hooks drain-outbox --watch', '*/5 * * * * chrys-hooks drain-outbox >/dev/null'],
  },
  {
    name: 'outbox',
    args: '<action> [job]',
    summary: 'see and change durable jobs: list, show, logs, retry, drop, migrate',
    description: 'list: the jobs with their state, due time, attempts and last error; show JOB: one job, its history and its log tail; logs JOB: its log (--follow: each run\'s log as it ends, until the job leaves pending or SIGINT); retry JOB|--failed: due at once (a failed job with a fresh start count); drop JOB: remove a pending or failed job; migrate --to postgres|files: move the pending jobs to that backend (each once: none lost, none doubled). The same for the file outbox and the PostgreSQL one (the user settings `outbox` section chooses). A job a drain or worker is running is left as it is (exit 1).',
    options: [
      { flags: '--state <state>', description: 'list: only jobs in this state', choices: ['pending', 'deferred', 'failed', 'done'] },
      { flags: '--json', description: 'machine-readable output' },
      { flags: '--follow', description: 'logs: print each run\'s log as it ends, until the job leaves pending (or SIGINT)' },
      { flags: '--failed', description: 'retry: every failed job' },
      { flags: '--to <backend>', description: 'migrate: where the pending jobs go', choices: ['postgres', 'files'] },
    ],
    examples: ['chrys-hooks outbox list --state failed', 'chrys-hooks outbox show 20261130T113000123Z-1a2b3c4d5e6f', 'chrys-hooks outbox retry --failed', 'chrys-hooks outbox migrate --to postgres'],
  },
  {
    name: 'events',
    summary: 'list the events: which can block, decision keys, payload fields, aliases',
    description: 'Prints the event catalogue: each canonical event, whether a blocking hook can block it, the decision keys that apply, the payload fields it carries and the names other agents use for it.',
    options: [{ flags: '--json', description: 'machine-readable output' }],
    examples: ['chrys-hooks events', 'chrys-hooks events --json'],
  },
  {
    name: 'trust',
    summary: "trust this workspace's project hooks by content",
    description: 'Shows the project hooks file and every script and prompt file it references, with their SHA-256, and records them as trusted. The project layer loads while none of them changes.',
    options: [
      { flags: '--yes', description: 'trust without asking (needed when stdin is not a terminal)' },
      { flags: '--list', description: 'list the trusted workspaces and whether they changed' },
      { flags: '--json', description: 'machine-readable output' },
    ],
    examples: ['chrys-hooks trust', 'chrys-hooks trust --cwd ~/src/app --yes', 'chrys-hooks trust --list'],
  },
  {
    name: 'untrust',
    args: '[dir]',
    summary: 'forget the trust of a workspace (default: --cwd, else the current directory)',
    description: "Removes the workspace from the trust record; its project hooks are dormant again. With --ignore, fire also stops reporting the dormant layer (project_hooks_dormant) for that workspace, for good: recorded in the config dir, never in the workspace, and lifted by `chrys-hooks trust` of it. list and resolve still show the layer as dormant and ignored.",
    options: [{ flags: '--ignore', description: 'also silence the project_hooks_dormant warning of fire for this workspace, until it is trusted' }],
    examples: ['chrys-hooks untrust', 'chrys-hooks untrust ~/src/app', 'chrys-hooks untrust --ignore ~/src/vendored-repo'],
  },
  {
    name: 'test',
    args: '<hook-id>',
    summary: 'run one hook now and show what it saw, printed and decided',
    description: 'Runs exactly one hook synchronously, as the blocking chain would, even when it would not match (saying so). Writes nothing to the outbox, the run history or the once-per-session stamps. Exit 0 when the hook ran and exited 0, else 1.',
    options: [
      { ...INPUT_OPTION, description: 'the envelope (default: a sample built for the hook)' },
      { ...EVENT_OPTION, description: "event of the sample envelope (default: the hook's); with --protocol, an agent event name" },
      { flags: '--protocol <agent>', description: `--input is this agent's hook input, mapped as fire --protocol maps it: ${agentList()}`, choices: [...AGENT_PROTOCOLS] },
      { flags: '--source <layer>', description: 'pick the hook of this layer when both define the id', choices: ['project', 'global'] },
      { flags: '--json', description: 'machine-readable output' },
    ],
    examples: ['chrys-hooks test protect-env', 'chrys-hooks test protect-env --input envelope.json --json', 'chrys-hooks test claude-guard --protocol claude --input pretooluse.json'],
  },
  {
    name: 'init',
    summary: 'write a starter hooks file and its example scripts',
    description: 'Writes a commented hooks.yaml with one example per common job (guard, argument rewrite, prompt reminder, async telemetry, durable follow-up) and their scripts. Never overwrites a file.',
    options: [
      { flags: '--global', description: 'write the global hooks file (default: the project one)' },
      { flags: '--protocol <name>', description: 'the hook protocol of the examples', choices: ['chrys', 'claude'] },
    ],
    examples: ['chrys-hooks init', 'chrys-hooks init --global'],
  },
  {
    name: 'serve',
    summary: 'answer events from a long-lived process: one JSON request per line',
    description: 'Reads one request per line on stdin ({"id": ..., "protocol": ..., "event": ..., "envelope": {...}}) and writes one answer (or error object) per line on stdout, in order: what `fire` (or `fire --protocol`) prints for the same input.',
    options: [
      { flags: '--stdio', description: 'requests on stdin, answers on stdout (required)' },
      { flags: '--fail-closed', description: 'as `fire --fail-closed`, for every request (also CHRYS_HOOKS_FAIL_CLOSED=1)' },
    ],
    examples: [`echo '{"id":1,"envelope":{"event":"before_tool_call","tool":{"name":"edit_file","args":{"path":"a.ts"}}}}' | chrys-hooks serve --stdio`],
  },
];

/** "--event <name>" -> "--event"; "--no-color" -> "--no-color". */
export const flagName = (o: OptionSpec): string => o.flags.split(/[ ,]/)[0]!;
export const takesValue = (o: OptionSpec): boolean => o.flags.includes('<');
