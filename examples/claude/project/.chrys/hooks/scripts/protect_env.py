"""Blocks writes to .env files: secrets belong in the vault, not the repo."""
import json
import os

with open(os.environ["CHRYS_HOOK_PAYLOAD_FILE"], encoding="utf-8") as f:
    envelope = json.load(f)
path = envelope["tool"]["args"].get("file_path", "")
with open(os.environ["CHRYS_HOOK_RESULT"], "w", encoding="utf-8") as f:
    json.dump({"action": "block", "reason": f"{path}: .env files hold secrets; use the vault"}, f)
