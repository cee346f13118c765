// The reference facts the man page and docs/ share: exit statuses, files,
// environment variables, examples and what each diagnostic code means.
// `npm run generate` writes them into man/ and the marked regions of docs/
// and the README; test/unit/docs-drift.test.ts checks them against the code.

import type { DiagnosticCode } from '../core/diagnostics.js';
import { EXIT, type ErrorCode } from '../core/errors.js';
import { AFTER_TURN_MAX_WAIT_MS } from '../state/session-drain.js';

export interface ExitStatus {
  code: number;
  meaning: string;
  stdout: string;
}

export const EXIT_STATUSES: readonly ExitStatus[] = [
  { code: EXIT.ok, meaning: 'success; for `fire`, a decision was printed (blocked or not)', stdout: 'the decision, or the command output' },
  { code: EXIT.findings, meaning: '`validate` found an error (or, with `--strict`, a warning); `test`: the hook did not run or did not exit 0; `trust`, `init`: refused (no or invalid project file, not confirmed, a file exists); `import --write` refused to replace a hooks file or to write through a symbolic link', stdout: 'the diagnostics, the test report, or what would be trusted' },
  { code: EXIT.blocked, meaning: '`fire --exit-code` only: the decision is a block (with `--protocol`, where the agent blocks on exit 2: the reason is on stderr, stdout is empty)', stdout: 'the decision' },
  { code: EXIT.usage, meaning: 'usage error: unknown command or option, a missing or bad option value', stdout: '`fire`: `{"error": {"code": "usage", "message", "hint"}}`' },
  { code: EXIT.badInput, meaning: 'bad input: invalid JSON, not an object, no or unknown event, an envelope over 64 MiB, an unreadable `--input`', stdout: '`fire`: `{"error": {"code", "message", "hint"?}}`' },
  { code: EXIT.unavailable, meaning: 'the PostgreSQL outbox cannot be reached (`outbox_unreachable`: server down, wrong password, no such database); the connection string is never shown', stdout: 'nothing; one line on stderr' },
  { code: EXIT.config, meaning: 'the `outbox` section of the user settings is invalid, or its `url_env` variable is unset or not a postgres:// URL (`outbox_config_invalid`)', stdout: 'nothing; one line on stderr' },
  { code: EXIT.internal, meaning: 'internal error (a bug: please report it)', stdout: '`fire`: `{"error": {"code": "internal", "message", "hint"}}`' },
  { code: EXIT.ioError, meaning: 'stdout could not be written (disk full, `/dev/full`, a closed pipe); or `drain-outbox` (also `--requeue-failed`, `--prune-done`, `list`) cannot read the outbox; one line on stderr', stdout: 'whatever got through' },
  { code: EXIT.interrupted, meaning: '`fire` or `drain-outbox` stopped by SIGINT: the hooks it ran were killed, durable jobs stay pending', stdout: 'nothing' },
  { code: EXIT.terminated, meaning: '`fire` or `drain-outbox` stopped by SIGTERM: the hooks it ran were killed, durable jobs stay pending', stdout: 'nothing' },
];

/** The `code` of the `{"error": ...}` object, with its exit status. */
export const ERROR_OBJECT_CODES: Readonly<Record<ErrorCode, string>> = {
  usage: 'an unknown command or option, or a bad option value (64)',
  invalid_json: 'the envelope is not valid JSON (65)',
  not_an_object: 'the envelope is JSON but not an object (65)',
  missing_event: 'no `event` in the envelope and no `--event` (65)',
  unknown_event: 'an event name that is neither canonical nor an alias, or not a string (65)',
  input_too_large: 'the envelope is over 64 MiB (65)',
  input_unreadable: 'stdin or the `--input` file cannot be read; for `import`, no agent config found (65)',
  file_exists: '`import --write`: a hooks file exists (without `--force`) or a symbolic link is on the way (1)',
  not_found: 'not from `fire`: `trust` found no project hooks file (1)',
  refused: 'not from `fire`: `trust`, `untrust` or `init` refused (1)',
  invalid_request: '`serve`: a request line that is blank, not an object, or has a key other than id, protocol, event and envelope (answered, the server goes on)',
  unknown_protocol: '`serve` and the API: a `protocol` other than chrys, claude, codex and gemini (answered, the server goes on)',
  unknown_job: '`outbox show`, `logs`, `retry`, `drop`: no job by that id in the outbox (65)',
  outbox_unreadable: 'not from `fire`: an outbox folder or job file cannot be read (no permission, a file where a folder should be; on PostgreSQL, a role that cannot read the payloads of pending jobs, or that lacks a privilege the command needs); only a missing folder counts as empty (74)',
  outbox_unreachable: 'the PostgreSQL outbox cannot be reached or refused the login (server down, wrong password, no such database, server gone mid-drain); the password is never shown; `fire` falls back to the file outbox instead (69)',
  outbox_config_invalid: 'the user settings `outbox` section names an unknown backend or field, or its `url_env` variable is unset or not a postgres:// URL (78)',
  outbox_invalid_job: 'a row in the PostgreSQL outbox whose payload is not a Chrys job; the drain files it as failed with this error, nothing else is touched (65)',
  internal: 'a bug in chrys-hooks (70)',
};

export interface Entry {
  name: string;
  about: string;
}

export const FILES: readonly Entry[] = [
  { name: '<config_dir>/hooks/hooks.yaml', about: 'global hooks (else hooks.yml, else hooks.json); <config_dir> is --config-dir, else $CHRYS_HOME, else ~/.chrys' },
  { name: '<workspace>/.chrys/hooks/hooks.yaml', about: 'project hooks (else hooks.yml, else hooks.json), loaded only when project hooks are enabled' },
  { name: '<config_dir>/settings.yaml', about: 'user settings (else settings.yml, else settings.json): project.hooks_enabled' },
  { name: '<config_dir>/hooks/tmp/', about: 'per-run payload and result files (0600), deleted after each run' },
  { name: '<config_dir>/hooks/logs/', about: 'output of non-blocking and detached runs and of every durable job run, kept seven days; live/<job_id>.log: the output of a durable job while its hook runs (for outbox logs --follow)' },
  { name: '<config_dir>/hooks/state/', about: 'once-per-session stamps, session run records, run history (history/), the config cache (cache/)' },
  { name: '<config_dir>/hooks/state/trust.json', about: 'the workspaces trusted by content: per workspace real path, the hooks file and each referenced file with its SHA-256 (0600; written only by trust and untrust)' },
  { name: '<config_dir>/hooks/outbox/', about: 'durable jobs: pending/, done/, failed/ and locks/ (a claim\'s lock, and <job_id>.pgid: the process group of the job\'s running hook)' },
];

export const ENVIRONMENT: readonly Entry[] = [
  { name: 'CHRYS_HOME', about: 'the config dir when --config-dir is not given (default ~/.chrys)' },
  { name: 'CHRYS_PROJECT_HOOKS', about: '1/true/yes/on or 0/false/no/off: load the project hooks file or not (--project-hooks and --no-project-hooks win)' },
  { name: 'NO_COLOR', about: 'plain output, as --no-color' },
  { name: 'CHRYS_HOOKS_FAIL_CLOSED', about: '1: as `fire --fail-closed` (also for `serve` and the API), an internal error, an invalid hooks file, a changed trusted project layer, a skipped or failing hook of the event, or refused input blocks a guarded event' },
  { name: 'CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID', about: 'set for `run.protocol` hooks (the workspace; the session id), as the agent sets them' },
  { name: 'CHRYS_HOOKS', about: '0/false/no/off: every hook is off, each that matches listed skipped (fire warns hooks_disabled); global hooks with locked: true still run; any other value but 1/true/yes/on warns kill_switch_invalid and leaves hooks on' },
  { name: 'CHRYS_HOOKS_SKIP', about: 'id1,id2: skip those hooks (listed skipped, reason "skipped by CHRYS_HOOKS_SKIP"); not locked ones; an unknown id warns skip_unknown_hook' },
  { name: 'CHRYS_HOOKS_DEBUG', about: 'set (not 0): fire traces on stderr as with --explain; an internal error (exit 70) also prints its stack trace' },
];

export const EXAMPLES: readonly Entry[] = [
  { name: `echo '{"event":"before_tool_call","tool":{"name":"write_file","args":{"path":".env"}}}' | chrys-hooks fire`, about: 'fire one event and print the decision' },
  { name: 'chrys-hooks validate --format github', about: 'lint the discovered hooks files in CI, as annotations' },
  { name: 'chrys-hooks list --event before_tool_call', about: 'the hooks that run before a tool call, in order' },
  { name: `echo '{"event":"PreToolUse","tool":{"name":"Bash","args":{}}}' | chrys-hooks resolve`, about: 'what would run for an envelope, without running it' },
  { name: 'chrys-hooks fire --protocol claude --fail-closed', about: 'as a Claude Code command hook: Claude\'s hook input in, Claude\'s answer out' },
  { name: 'chrys-hooks import --from claude', about: 'print a hooks.yaml equivalent to .claude/settings.json' },
  { name: 'chrys-hooks events', about: 'every event with its aliases, decision keys and payload fields' },
  { name: 'chrys-hooks trust', about: "review and trust this workspace's project hooks by content" },
  { name: 'chrys-hooks test protect-env', about: 'run one hook on a sample envelope and show what it saw, printed and decided' },
  { name: '* * * * * chrys-hooks drain-outbox', about: 'a crontab line that delivers durable jobs' },
  { name: 'chrys-hooks drain-outbox --watch', about: 'a long-running scheduler: each durable job runs when it is due (docs/outbox.md has a systemd unit)' },
];

/** What each diagnostic code means; a code added without a line here must be documented in some docs/ page. */
export const CODE_DOCS: Partial<Record<DiagnosticCode, string>> = {
  syntax_error: 'YAML or JSON syntax; the root cause only (a tab in the indentation, an unclosed quote where it opens)',
  unknown_key: 'a key the hooks file does not have, with a "did you mean"',
  invalid_type: 'a value of the wrong type (`enabled: "yes"`), in a hooks or settings file',
  invalid_value: 'out of range, not among the allowed values, or badly formed (`timeout_seconds: 0`, `mode: sync`, `argv: []`)',
  missing_field: 'a required key is missing (`id`, `event`, `run`, or the field `run.type` needs); positioned at the hook',
  unknown_event: 'an event that is neither canonical nor an alias, with a "did you mean"',
  unsupported_version: '`version` other than 1',
  duplicate_id: 'the same `id` twice in one file',
  invalid_combination: '`detach` without `fire_and_forget`; `delay_seconds` without durable delivery or with `blocking`',
  run_type_mismatch: 'a `run` field that does not fit `run.type`',
  non_string_matcher: 'an argument matcher value that is not a string (`equals: 10`)',
  invalid_prompt_file: '`prompt_file` not ending in `.md` or containing `..`',
  file_not_found: 'a file named on the `validate` command line does not exist',
  unreadable_file: 'a directory, a dangling symlink, a FIFO or other non-regular file, a file over 16 MiB, binary data or no permission where a hooks file should be; that file is off',
  invalid_regex: 'a regex that is invalid in Python too (a look-behind that is not fixed-width included); quoted as written. `validate` fails; at run time that hook is left out (`hook_skipped`) and the rest of the file loads',
  durable_ignored: '`blocking` with `delivery: durable`: durable is ignored',
  broad_match: '`before_tool_call` with no `match`: runs before every tool call',
  tool_filter_never_matches: 'a tool filter on an event that carries no tool',
  args_other_agent: "`match.args` names an argument that the hook's `tool_name` (one agent's tool) does not take and another agent's tools do (`tool_name: Write` with `args.path`: Claude Code sends `file_path`)",
  hook_skipped: 'a hook left out: its regex uses a Python feature with no JavaScript translation (atomic groups, possessive quantifiers, `\\N{...}`, scoped inline flags, `(?L)`), or, at run time, an invalid regex',
  script_not_found: 'a `run.path` script or a `prompt_file` that does not exist: an error in `validate` (exit 1; `--allow-missing` makes it a warning), a warning in `list` and `resolve`',
  interpreter_not_found: 'no interpreter on PATH for the script\'s extension: an error in `validate` (exit 1; `--allow-missing` makes it a warning), a warning in `list` and `resolve`',
  event_alias: 'an event alias, with its canonical name',
  project_hooks_dormant: 'a project hooks file exists but project hooks are not enabled (no switch, and the workspace is not trusted by `chrys-hooks trust`); it is not read. `fire` reports it once per session (every time with an empty `session_id`), and not at all for a workspace silenced with `untrust --ignore`',
  hooks_config_invalid: 'the global hooks file has an error and is off (`fire` also says so on stderr)',
  project_hooks_config_invalid: 'the project hooks file has an error and is off (`fire` also says so on stderr)',
  duplicate_hook_id: 'the same id in the project and the global file; both run, project first',
  settings_invalid: 'the user settings file cannot be read or `project.hooks_enabled` is not a boolean; project hooks stay off',
  result_invalid: 'a result file that is not a JSON object, over 1 MiB, deleted or replaced by a directory (or other non-file) by the hook, or with a key of the wrong type (that key is skipped)',
  decision_ignored: 'a result key that does not apply to the event or mode; a non-blocking hook\'s discarded decision is also reported in the next `fire` of its session',
  decision_never_applied: '`validate`: a non-blocking hook on an event that can block (`before_tool_call`, `user_prompt_submit`, `permission_request`) evidently decides (it has `run.protocol`, or its script or command names `CHRYS_HOOK_RESULT`); its decision would be ignored: make it `blocking`',
  hook_failed: 'a hook exited non-zero, was killed by a signal, could not be launched, or its regex ran out of the 250 ms matching budget (`on_error: warn`); for a `run.protocol: claude` hook, also an exit other than 0 and 2 whose JSON stdout still decided',
  hook_timeout: 'a hook ran past its `timeout_seconds` (`on_error: warn`)',
  runtime_dir_unwritable: 'the config dir cannot be written, or a directory of the runtime tree is a symlink (never written through); temp files went to the OS temp dir',
  outbox_unavailable: 'a durable job could not be written (the hook ran once, best effort; a delayed one was not queued, and its once_per_session stamp is given back); or the worker could not be handed the non-blocking hooks (they did not run); or drain-outbox could not update a job (it stays pending)',
  config_dir_not_found: '`--config-dir` names a missing directory or a file; no global hooks are loaded',
  envelope_shape: 'an envelope field of the wrong type for the event (`tool` not an object, `tool.args` a string, `text` a number); the hooks still get it as sent',
  shadowed_file: 'a hooks.yml or hooks.json (or settings.yml / .json) beside a file that takes precedence; it is never read',
  settings_unknown_key: 'a key in the user settings file that looks like a misspelt `project` or `hooks_enabled`',
  cwd_not_found: '`run.cwd` names a directory that does not exist (checked where it is known before run time)',
  agent_event_unknown: '`fire --protocol`: an event name the agent does not document; no hooks ran and the agent gets "no decision"',
  agent_input_invalid: '`fire --protocol`: `tool_input` is not an object; `tool.args` is left out, so argument matchers see nothing',
  fail_closed: '`fire --fail-closed`: a guarded event was blocked because chrys-hooks failed, a hooks file is invalid, a trusted project layer changed (`project_hooks_changed`), a hook of the event was skipped (`hook_skipped`), the agent works inside a trusted workspace whose hooks did not load (`enclosing_workspace_not_loaded`), a blocking hook failed, timed out, could not launch or left a result file that cannot be read (without an explicit `on_error: ignore`) or the input was refused; the reason names the cause',
  rewrite_denied: '`fire --protocol cursor`: a hook rewrote a call on a Cursor gate that has no rewrite (`beforeShellExecution`, `beforeMCPExecution`, `beforeReadFile`); denied instead of running the original',
  permission_ask_denied: '`fire --protocol codex|gemini|cursor`: a hook answered "ask" or "defer" for a tool call, which that agent has no form for (it would run the call); denied instead, with the reason saying so',
  locked_in_project: '`locked` in a project hooks file: only a global hook can be locked against the kill switches',
  project_hooks_changed: 'the project hooks file or a file its hooks reference changed, appeared or went since `chrys-hooks trust`; names each; the layer is dormant until trusted again',
  trust_record_invalid: 'the trust record is corrupt, a directory, a symlink, unreadable, under a symlinked `hooks/` or `hooks/state/`, or really inside the workspace; it trusts nothing',
  hooks_disabled: '`CHRYS_HOOKS=0`: every hook is off (locked global hooks excepted, named in the message)',
  skip_unknown_hook: '`CHRYS_HOOKS_SKIP` names an id that is no loaded hook',
  hook_locked: 'a `locked: true` global hook ran although `CHRYS_HOOKS=0` or `CHRYS_HOOKS_SKIP` would turn it off',
  retry_after_invalid: 'a result file\'s `retry_after_seconds` is negative, over 604800 (seven days) or not a number; clamped, or the default `outbox_retry_delay_seconds` used',
  due_at_invalid: 'a pending job\'s `due_at` is not a date; the job is treated as due',
  outbox_fallback: '`fire` could not queue a durable job in the PostgreSQL outbox (unreachable, or the settings are invalid): the job went to the file outbox instead, and the next drain against PostgreSQL moves it into the database',
  outbox_watch_unavailable: '`drain-outbox --watch` cannot watch (or recreate) `outbox/pending/`; it polls every `--interval` instead',
  kill_switch_invalid: '`CHRYS_HOOKS` is set to a value that is neither off (0/false/no/off) nor on (1/true/yes/on); hooks stay on',
  workspace_not_found: '`--cwd` names a directory that does not exist, or a file; no project hooks are loaded from it',
  enclosing_workspace_not_loaded: 'the directory the agent works in (its input `cwd`) lies inside another workspace whose project hooks are trusted, but the firing\'s workspace is not that one, so those hooks did not run; names both paths. With `--fail-closed` a guarded event is blocked',
  async_hooks_still_running: `\`fire\` of \`after_turn\` waited ${AFTER_TURN_MAX_WAIT_MS / 1000} s (its upper bound) for the session's async hooks and returned while some still run; they run on until their timeout, and \`session_end\` waits for them`,
};
