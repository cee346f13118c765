printf '{"context":[{"text":"bash:%s"}]}' "$*" > "$CHRYS_HOOK_RESULT"
