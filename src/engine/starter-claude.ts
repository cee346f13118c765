// The starter `chrys-hooks init --protocol claude` writes: the same common
// jobs as the Chrys starter, written as Claude Code hook scripts are
// (`run.protocol: claude`: the hook input on stdin, exit 2 + stderr blocks,
// JSON on stdout decides), so they run unchanged inside Claude Code too.

import { DESTRUCTIVE_COMMANDS, type StarterFile } from './starter.js';

export function starterClaudeHooksFile(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# chrys-hooks starter in Claude Code's hook protocol: each script reads
# Claude's hook input on stdin and answers as it would inside Claude Code.
# Wire Claude Code to chrys-hooks with \`chrys-hooks install --agent claude\`
# (docs/agents.md in the package). Try one with
#   chrys-hooks test <id>
# and lint the file with \`chrys-hooks validate\`.
version: 1
hooks:
  # 1. A shell guard answering permissionDecision "deny" on stdout.
  #    match.command parses the Bash command line as the shell would (quotes,
  #    chains, $(...), sudo, bash -c, xargs...): rm -r -f / is caught as surely
  #    as rm -rf /, and rm -rf node_modules is let through.
  - id: no-destructive-commands
    description: Block rm -rf of /, ~, $HOME, .., force pushes to main, git reset --hard and git checkout -- .
    event: before_tool_call
    match:
${DESTRUCTIVE_COMMANDS}    run:
      type: script
      path: scripts/block_command.sh
      protocol: claude
    execution:
      mode: blocking        # only blocking hooks can block or rewrite
      timeout_seconds: 5
      on_error: block       # if the guard itself fails, deny rather than allow

  # 2. A guard that answers in JSON: permissionDecision "deny" for .env files.
  - id: protect-env
    description: Deny edits and writes of .env files.
    event: before_tool_call
    match:
      tool_name_regex: Edit|Write   # Claude matcher syntax: exact names, | between them
    run:
      type: script
      path: scripts/protect_env.mjs
      protocol: claude
    execution:
      mode: blocking
      timeout_seconds: 5
      on_error: block

  # 3. A prompt reminder: on UserPromptSubmit, plain stdout becomes context.
  - id: house-rules
    enabled: false          # delete this line to turn the example on
    description: Remind the model of the house rules on every prompt.
    event: user_prompt_submit
    run:
      type: script
      path: scripts/house_rules.py
      protocol: claude
    execution:
      mode: blocking
      timeout_seconds: 5

  # 4. A Stop hook that asks for the tests once (it honours stop_hook_active).
  - id: tests-before-stop
    enabled: false
    description: Ask the agent to run the tests before it stops, once.
    event: conversation_done
    run:
      type: script
      path: scripts/tests_before_stop.py
      protocol: claude
    execution:
      mode: blocking
      timeout_seconds: 5

  # 5. Async telemetry: log every finished tool call without slowing the agent.
  - id: tool-call-log
    enabled: false
    description: Append one line per finished tool call to a log.
    event: after_tool_call
    run:
      type: script
      path: scripts/log_tool_call.sh
      protocol: claude
    execution:
      mode: async           # runs in the background; its decision is ignored
`;
}

export const STARTER_CLAUDE_SCRIPTS: readonly StarterFile[] = [
  {
    path: 'scripts/block_command.sh',
    mode: 0o755,
    content: `#!/usr/bin/env bash
# Claude Code PreToolUse guard: match.command already found the command, so
# deny it; Claude shows the reason. (Exit 2 with the reason on stderr blocks too.)
printf '%s\\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "this command destroys work (rm -rf of a root, a force push to main, git reset --hard or git checkout -- .): run it yourself if you mean it"}}'
`,
  },
  {
    path: 'scripts/protect_env.mjs',
    mode: 0o755,
    content: `// Claude Code PreToolUse guard answering in JSON: deny edits of .env files.
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { tool_input: toolInput = {} } = JSON.parse(input || '{}');
const path = String(toolInput.file_path ?? toolInput.path ?? '');
if (/(^|\\/)\\.env(\\.|$)/.test(path)) {
  console.log(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: \`\${path} holds secrets: edit it by hand\` },
  }));
}
`,
  },
  {
    path: 'scripts/house_rules.py',
    mode: 0o755,
    content: `"""Claude Code UserPromptSubmit hook: what it prints becomes context for the model."""
import json
import sys

json.load(sys.stdin)  # the hook input; this example does not need it
print("House rules: small commits, tests first, never print secrets.")
`,
  },
  {
    path: 'scripts/tests_before_stop.py',
    mode: 0o755,
    content: `"""Claude Code Stop hook: ask for the tests once; stop_hook_active means we already asked."""
import json
import sys

event = json.load(sys.stdin)
if not event.get("stop_hook_active"):
    print(json.dumps({"decision": "block", "reason": "Run the test suite and fix what fails before you stop."}))
`,
  },
  {
    path: 'scripts/log_tool_call.sh',
    mode: 0o755,
    content: `#!/usr/bin/env bash
# Claude Code PostToolUse hook, run async: one line per finished tool call in $CHRYS_HOME/tool-calls.log.
set -eu
tool=$(grep -o '"tool_name"[[:space:]]*:[[:space:]]*"[^"]*"' | head -n 1 | sed 's/.*"\\([^"]*\\)"$/\\1/')
printf '%s %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "\${tool:-?}" >> "\${CHRYS_HOME:-$HOME/.chrys}/tool-calls.log"
`,
  },
];
