import json, sys
envelope = json.load(sys.stdin)
command = envelope["tool"]["args"]["command"]
if "rm -rf" in command.lower():
    with open(__import__("os").environ["CHRYS_HOOK_RESULT"], "w") as f:
        json.dump({"action": "block", "reason": "rm -rf is not allowed"}, f)
