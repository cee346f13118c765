#!/usr/bin/env bash
# PreToolUse guard in the style of published Claude Code hooks: exit 2 blocks, stderr is the reason.
input=$(cat)
if printf '%s' "$input" | grep -Eq '"command"[[:space:]]*:[[:space:]]*"[^"]*rm[[:space:]]+-rf'; then
  echo "Blocked: rm -rf is not allowed in this project" >&2
  exit 2
fi
exit 0
