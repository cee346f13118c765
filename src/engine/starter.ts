// The starter files `chrys-hooks init` writes: a hooks file with one
// commented example per common job and the scripts they run. Only the guard
// is on; the others are `enabled: false` until the user turns them on.

export interface StarterFile {
  /** Relative to the hooks directory. */
  path: string;
  content: string;
  mode: number;
}

/**
 * The `match.command` clauses of both starters' shell guard (docs/hooks-file.md,
 * "match.command"), indented for a hook's `match:`. The dodge corpus
 * (test/helpers/command-corpus.ts) is run against exactly these.
 */
export const DESTRUCTIVE_COMMANDS = `      command:
        # rm -rf, -fr, -r -f, --recursive --force ... of /, ~, $HOME or .. (rm -rf node_modules is fine)
        - program: rm
          flags: [-r, -f]
          args: { regex: '^(/|~|\\$HOME|\\.\\.)[/.*]*$' }   # then only /, . and *: /*, ~/, ../.., $HOME/*
        # a force push (--force, -f, +branch, --force-with-lease) to main or master
        - program: git
          subcommand: push
          flags: [--force]
          args: { regex: '(^|:|\\+|refs/heads/)(main|master)$' }
        - program: git
          subcommand: push
          flags: [--force-with-lease]
          args: { regex: '(^|:|\\+|refs/heads/)(main|master)$' }
        # throwing away uncommitted work
        - program: git
          subcommand: reset
          flags: [--hard]
        - program: git
          subcommand: [checkout, restore]
          args: ['.', ':/', '[*]']
          not: [{ flags: [-b] }, { flags: [-B] }]   # git checkout -b x is fine
`;

export function starterHooksFile(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# chrys-hooks starter: one example per common job. Try one with
#   chrys-hooks test <id>
# and lint the file with \`chrys-hooks validate\`.
version: 1
hooks:
  # 1. A guard: block writes to .env files before the tool runs. tool_kind
  #    covers every agent's file-writing tools (Claude's Write and Edit,
  #    Gemini's write_file, ...); args.path reads each tool's own path argument.
  - id: protect-secrets
    description: Block writes to .env files.
    event: before_tool_call
    match:
      tool_kind: filesystem.write
      args:
        path: { contains: .env }
    run:
      type: script
      path: scripts/protect_secrets.py
    execution:
      mode: blocking        # only blocking hooks can block or rewrite
      timeout_seconds: 5
      on_error: block       # if the guard itself fails, deny rather than allow

  # 2. A shell guard: match.command parses the command line as the shell
  #    would (quotes, chains, $(...), sudo, bash -c, xargs...), so rm -r -f /
  #    is caught as surely as rm -rf /. The script only has to say no.
  - id: no-destructive-commands
    description: Block rm -rf of /, ~, $HOME, .., force pushes to main, git reset --hard and git checkout -- .
    event: before_tool_call
    match:
${DESTRUCTIVE_COMMANDS}    run:
      type: script
      path: scripts/block_command.sh
    execution:
      mode: blocking
      timeout_seconds: 5
      on_error: block

  # 3. An argument rewrite: run scripts under ./scripts/ with --dry-run.
  - id: shell-dry-run
    enabled: false          # delete this line to turn the example on
    description: Add --dry-run to shell commands that run ./scripts/.
    event: before_tool_call
    match:
      tool_name: run_shell
      args:
        command: { contains: ./scripts/ }
    run:
      type: script
      path: scripts/add_dry_run.sh
    execution:
      mode: blocking
      timeout_seconds: 5

  # 4. A prompt reminder: add the house rules to every prompt.
  - id: house-rules
    enabled: false
    description: Remind the model of the house rules on every prompt.
    event: user_prompt_submit
    run:
      type: script
      path: scripts/remind.mjs
      prompt_file: prompts/house-rules.md   # the script gets it as CHRYS_HOOK_PROMPT_FILE
    execution:
      mode: blocking
      timeout_seconds: 5

  # 5. Async telemetry: log every tool call without slowing the agent down.
  - id: tool-call-log
    enabled: false
    description: Append one line per finished tool call to a log.
    event: after_tool_call
    run:
      type: script
      path: scripts/log_tool_call.sh
    execution:
      mode: async           # runs in the background; its decision is ignored

  # 6. A durable follow-up: a minute after a conversation ends, run once.
  #    fire queues it in the outbox; \`chrys-hooks drain-outbox\` runs it when due.
  - id: follow-up
    enabled: false
    description: Note finished conversations a minute later, once per session.
    event: conversation_done
    match:
      session_kinds: [interactive]
    run:
      type: script
      path: scripts/follow_up.py
    execution:
      mode: async
      delivery: durable     # survives a crash: retried by drain-outbox
      delay_seconds: 60
      once_per_session: true
`;
}

export const STARTER_SCRIPTS: readonly StarterFile[] = [
  {
    path: 'scripts/protect_secrets.py',
    mode: 0o755,
    content: `"""A blocking guard: blocks writes to .env files (the match already checked the path)."""
import json
import os

with open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"], encoding="utf-8") as f:
    envelope = json.load(f)

tool = envelope.get("tool", {})
# canonical_args.path: the written file whatever the agent calls the argument (Claude's file_path).
path = tool.get("canonical_args", {}).get("path") or tool.get("args", {}).get("path", "")
with open(os.environ["CHRYS_HOOK_RESULT"], "w", encoding="utf-8") as f:
    json.dump({"action": "block", "reason": f"writes to {path} are not allowed: secrets live in the vault"}, f)
`,
  },
  {
    path: 'scripts/block_command.sh',
    mode: 0o755,
    content: `#!/usr/bin/env bash
# A blocking shell guard: match.command already found the command; say no, and why.
set -eu
printf '{"action": "block", "reason": "this command destroys work (rm -rf of a root, a force push to main, git reset --hard or git checkout -- .): run it yourself if you mean it"}' > "$CHRYS_HOOK_RESULT"
`,
  },
  {
    path: 'scripts/add_dry_run.sh',
    mode: 0o755,
    content: `#!/usr/bin/env bash
# A blocking rewrite: merges {"dry_run": true} over the tool's arguments.
set -eu
printf '{"action": "modify", "args_override": {"dry_run": true}}' > "$CHRYS_HOOK_RESULT"
`,
  },
  {
    path: 'scripts/remind.mjs',
    mode: 0o755,
    content: `// A blocking prompt reminder: sends the prompt file's text as a system reminder.
import { readFileSync, writeFileSync } from 'node:fs';

const text = readFileSync(process.env.CHRYS_HOOK_PROMPT_FILE, 'utf8').trim();
writeFileSync(process.env.CHRYS_HOOK_RESULT, JSON.stringify({ system_reminder: text }));
`,
  },
  {
    path: 'prompts/house-rules.md',
    mode: 0o644,
    content: `---
note: front matter is stripped before the hook sees the file
---
House rules: small commits, tests first, never print secrets.
`,
  },
  {
    path: 'scripts/log_tool_call.sh',
    mode: 0o755,
    content: `#!/usr/bin/env bash
# Async telemetry: one line per finished tool call in $CHRYS_HOME/tool-calls.log.
set -eu
printf '%s %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$CHRYS_HOOK_EVENT" >> "$CHRYS_HOME/tool-calls.log"
`,
  },
  {
    path: 'scripts/follow_up.py',
    mode: 0o755,
    content: `"""A durable follow-up: records each finished conversation once (must be idempotent)."""
import json
import os

with open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"], encoding="utf-8") as f:
    envelope = json.load(f)

with open(os.path.join(os.environ["CHRYS_HOME"], "follow-ups.log"), "a", encoding="utf-8") as f:
    f.write(json.dumps({"session_id": envelope.get("session_id", ""), "at": envelope.get("timestamp")}) + "\\n")
`,
  },
];
