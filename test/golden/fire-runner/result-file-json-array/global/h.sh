echo '[{"action": "block"}]' > "$CHRYS_HOOK_RESULT"
