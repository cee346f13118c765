#!/usr/bin/env bash
# A blocking before_tool_call hook written in bash: rewrites the tool's
# arguments by merging {"dry_run": true} over them.
set -eu
printf '{"action": "modify", "args_override": {"dry_run": true}}' > "$CHRYS_HOOK_RESULT"
