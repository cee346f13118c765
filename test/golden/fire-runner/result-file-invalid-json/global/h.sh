echo '{"action": blo' > "$CHRYS_HOOK_RESULT"
