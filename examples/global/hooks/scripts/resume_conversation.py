"""A durable follow-up hook: resumes a finished conversation with a prompt.

chrys-hooks runs it from drain-outbox, ten seconds after conversation_done.
A real setup would call the agent here (for example `my-agent resume
--session <id> --prompt-file <file>`); this example records the request in
$CHRYS_HOME/hooks/logs/follow-ups.jsonl so you can see it happen once.
If the conversation's transcript has not synced yet, it exits 75 ("not
yet"), and chrys-hooks runs it again a minute later.
"""
import json
import os
import sys
import time

EX_TEMPFAIL = 75

with open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"], encoding="utf-8") as f:
    envelope = json.load(f)
with open(os.environ["CHRYS_HOOK_PROMPT_FILE"], encoding="utf-8") as f:
    prompt = f.read()

transcript = envelope.get("transcript_path")
if isinstance(transcript, str) and transcript and not os.path.exists(transcript):
    print(f"transcript {transcript} has not synced yet; retry later", file=sys.stderr)
    sys.exit(EX_TEMPFAIL)

request = {
    "resumed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "session_id": envelope.get("session_id", ""),
    "finished_at": envelope.get("timestamp"),
    "prompt": prompt,
}
log_dir = os.path.join(os.environ["CHRYS_HOME"], "hooks", "logs")
os.makedirs(log_dir, mode=0o700, exist_ok=True)
with open(os.path.join(log_dir, "follow-ups.jsonl"), "a", encoding="utf-8") as f:
    f.write(json.dumps(request) + "\n")
print(f"resumed session {request['session_id']!r} with the post-task prompt")
