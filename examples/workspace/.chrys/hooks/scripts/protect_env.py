"""A blocking before_tool_call hook in Python: blocks writes to .env files."""
import json
import os

with open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"], encoding="utf-8") as f:
    envelope = json.load(f)

path = envelope["tool"]["args"]["path"]
with open(os.environ["CHRYS_HOOK_RESULT"], "w", encoding="utf-8") as f:
    json.dump({"action": "block", "reason": f"writes to {path} are not allowed: secrets live in the vault"}, f)
