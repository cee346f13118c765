echo '{"context":[{"text":"ran"}]}' > "$CHRYS_HOOK_RESULT"
