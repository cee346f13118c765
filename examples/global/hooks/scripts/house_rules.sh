#!/usr/bin/env bash
# A blocking user_prompt_submit hook: adds a system reminder.
cat > "$CHRYS_HOOK_RESULT" <<'JSON'
{"system_reminder": "House rules: small commits, tests first, never print secrets."}
JSON
