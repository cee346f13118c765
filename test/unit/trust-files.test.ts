// Trust's file rules: which words of a command run (and so are covered) and
// which are data (never covered). The table holds real command lines from
// published Claude Code hooks (the hooks guide's formatter, logger, file
// protection and notification examples; claude-code-hooks-mastery's `uv run`
// hooks; common formatter, linter and notifier hooks), each word classified:
// P program, S script argument of an interpreter, D data, R redirection
// target, K shell keyword. A third value counts what the line runs that trust
// cannot see (said in the trust review).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readArgv, readShellLine, runsPython } from '../../src/core/shell-words.js';
import { UnhashableFile, coveredPaths, hooksTree, refuseSharedWrite, runPaths } from '../../src/config/trust-files.js';
import type { Hook } from '../../src/core/config.js';
import { testHook } from '../helpers/hook.js';

const ROLE = { program: 'P', script: 'S', data: 'D', redirection: 'R', keyword: 'K' } as const;
const classify = (line: string): string[] => readShellLine(line, { CLAUDE_PROJECT_DIR: '/w' }).words.map((w) => `${ROLE[w.role]} ${w.text}`);

const TABLE: [line: string, words: string[], blind?: number][] = [
  ["jq -r '.tool_input.file_path' | xargs npx prettier --write", ["P jq","D -r","D .tool_input.file_path","P xargs","P npx","P prettier","D --write"]],
  ["jq -r '\"\\(.tool_input.command) - \\(.tool_input.description // \"No description\")\"' >> ~/.claude/bash-command-log.txt", ["P jq","D -r","D \"\\(.tool_input.command) - \\(.tool_input.description // \"No description\")\"","R ~/.claude/bash-command-log.txt"]],
  ["\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check-style.sh", ["P /w/.claude/hooks/check-style.sh"]],
  ["python3 -c \"import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); sys.exit(2 if any(p in path for p in ['.env', 'package-lock.json', '.git/']) else 0)\"", ["P python3","D -c","D import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); sys.exit(2 if any(p in path for p in ['.env', 'package-lock.json', '.git/']) else 0)"]],
  ["notify-send 'Claude Code' 'Awaiting your input'", ["P notify-send","D Claude Code","D Awaiting your input"]],
  ["jq -r '.tool_input.file_path' | { read file_path; if echo \"$file_path\" | grep -q '\\.ts$'; then npx prettier --write \"$file_path\"; fi; }", ["P jq","D -r","D .tool_input.file_path","K {","P read","D file_path","K if","P echo","D $file_path","P grep","D -q","D \\.ts$","K then","P npx","P prettier","D --write","D $file_path","K fi","K }"]],
  ["\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/markdown_formatter.py", ["P /w/.claude/hooks/markdown_formatter.py"]],
  ["uv run ~/.claude/hooks/pre_tool_use.py", ["P uv","D run","S ~/.claude/hooks/pre_tool_use.py"], 1],
  ["uv run .claude/hooks/pre_tool_use.py", ["P uv","D run","S .claude/hooks/pre_tool_use.py"]],
  ["uv run .claude/hooks/notification.py --notify", ["P uv","D run","S .claude/hooks/notification.py","D --notify"]],
  ["uv run .claude/hooks/stop.py --chat", ["P uv","D run","S .claude/hooks/stop.py","D --chat"]],
  ["uv run $CLAUDE_PROJECT_DIR/.claude/hooks/session_start.py --load-context", ["P uv","D run","S /w/.claude/hooks/session_start.py","D --load-context"]],
  ["npx tsc --noEmit", ["P npx","P tsc","D --noEmit"]],
  ["bash .claude/hooks/format.sh", ["P bash","S .claude/hooks/format.sh"]],
  ["node \"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.js\"", ["P node","S /w/.claude/hooks/guard.js"]],
  ["tee -a .claude/tool.log", ["P tee","D -a","D .claude/tool.log"]],
  ["echo \"$(date): $CLAUDE_TOOL_NAME\" >> ~/.claude/tool-usage.log", ["P echo","D $(date): $CLAUDE_TOOL_NAME","R ~/.claude/tool-usage.log"], 1],
  ["afplay /System/Library/Sounds/Glass.aiff", ["P afplay","D /System/Library/Sounds/Glass.aiff"]],
  ["say \"Claude is done\"", ["P say","D Claude is done"]],
  ["osascript -e 'display notification \"Claude needs input\" with title \"Claude Code\"'", ["P osascript","D -e","D display notification \"Claude needs input\" with title \"Claude Code\""]],
  ["npm run lint --silent", ["P npm","D run","D lint","D --silent"]],
  ["npx eslint --fix \"$(jq -r '.tool_input.file_path')\"", ["P npx","P eslint","D --fix","D $(jq -r '.tool_input.file_path')"], 1],
  ["ruff check --fix $(jq -r .tool_input.file_path)", ["P ruff","D check","D --fix","D $","P jq","D -r","D .tool_input.file_path"]],
  ["gofmt -w \"$FILE\"", ["P gofmt","D -w","D $FILE"]],
  ["cargo fmt --all -- --check", ["P cargo","D fmt","D --all","D --","D --check"]],
  ["git diff --stat >> .claude/session.log 2>&1", ["P git","D diff","D --stat","R .claude/session.log","R 1"]],
  ["[ -f package.json ] && npm test", ["P [","D -f","D package.json","D ]","P npm","D test"]],
  ["python3 \"$CLAUDE_PROJECT_DIR/.claude/hooks/validate_bash.py\"", ["P python3","S /w/.claude/hooks/validate_bash.py"]],
  ["cd \"$CLAUDE_PROJECT_DIR\" && ./scripts/lint.sh", ["P cd","D /w","P ./scripts/lint.sh"]],
  ["sh -c 'exit 0'", ["P sh","D -c","D exit 0"], 1],
  ["bash -c 'source ~/.bashrc && run-checks'", ["P bash","D -c","D source ~/.bashrc && run-checks"], 1],
  ["$CLAUDE_PROJECT_DIR/.claude/hooks/auto-approve.sh", ["P /w/.claude/hooks/auto-approve.sh"]],
  ["python3 -m json.tool", ["P python3","D -m","D json.tool"], 1],
  ["terminal-notifier -message \"Done\" -title \"Claude\"", ["P terminal-notifier","D -message","D Done","D -title","D Claude"]],
  ["echo '{\"decision\": \"approve\"}'", ["P echo","D {\"decision\": \"approve\"}"]],
  ["jq -c '{ts: now, tool: .tool_name}' >> \"$CLAUDE_PROJECT_DIR/.claude/audit.jsonl\"", ["P jq","D -c","D {ts: now, tool: .tool_name}","R /w/.claude/audit.jsonl"]],
  ["prettier --write \"$(cat | jq -r .tool_input.file_path)\"", ["P prettier","D --write","D $(cat | jq -r .tool_input.file_path)"], 1],
  ["deno run --allow-read .claude/hooks/check.ts", ["P deno","D run","D --allow-read","S .claude/hooks/check.ts"]],
  ["bun run .claude/hooks/post-tool.ts", ["P bun","D run","S .claude/hooks/post-tool.ts"]],
  ["node .claude/hooks/notify.mjs < /dev/null", ["P node","S .claude/hooks/notify.mjs","R /dev/null"]],
  [". .claude/hooks/env.sh && ./bin/check", ["P .","S .claude/hooks/env.sh","P ./bin/check"]],
  ["source .claude/hooks/lib.sh; check_all", ["P source","S .claude/hooks/lib.sh","P check_all"]],
  ["timeout 30 pytest -q tests/ 2>&1 | tail -20", ["P timeout","D 30","P pytest","D -q","D tests/","R 1","P tail","D -20"]],
  ["env PYTHONPATH=src python3 .claude/hooks/guard.py", ["P env","D PYTHONPATH=src","P python3","S .claude/hooks/guard.py"]],
  ["grep -q \"TODO\" \"$FILE\" && echo \"found TODOs\" >&2; exit 0", ["P grep","D -q","D TODO","D $FILE","P echo","D found TODOs","R 2","P exit","D 0"]],
  ["npx tsx .claude/hooks/lint.ts", ["P npx","P tsx","S .claude/hooks/lint.ts"]],
  ["pwsh -NoProfile -File .claude/hooks/guard.ps1", ["P pwsh","D -NoProfile","D -File","S .claude/hooks/guard.ps1"]],
  ["exec \"$CLAUDE_PROJECT_DIR/.claude/hooks/run.sh\"", ["P exec","P /w/.claude/hooks/run.sh"]],
  ["cat README.md", ["P cat","D README.md"]],
  ["FILE=$(jq -r .tool_input.file_path) && [[ $FILE == *.py ]] && black \"$FILE\"", ["D FILE=$","P jq","D -r","D .tool_input.file_path","K [[","D $FILE","D ==","D *.py","D ]]","P black","D $FILE"]],
  ["cd \"$CLAUDE_PROJECT_DIR\" && python3 .claude/hooks/guard.py 2>> .claude/hooks.err", ["P cd","D /w","P python3","S .claude/hooks/guard.py","R .claude/hooks.err"]],
  ["$HOME/.claude/hooks/notify.sh", ["P $HOME/.claude/hooks/notify.sh"], 1],
]; 

describe('the words of a shell line, as trust reads them', () => {
  it('holds at least 40 published command lines', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s', (line, words, blind = 0) => {
    expect(classify(line)).toEqual(words);
    expect(readShellLine(line, { CLAUDE_PROJECT_DIR: '/w' }).blind).toHaveLength(blind);
  });

  it('says why it cannot see into sh -c, python -m, a substitution in quotes, an expanded script name', () => {
    const blind = (line: string): string => readShellLine(line).blind.join('; ');
    expect(blind("sh -c 'exit 0'")).toContain('sh runs a command string (-c) it does not read into');
    expect(blind("bash -ec 'x'")).toContain('bash runs a command string (-c)');
    expect(blind('python3 -m json.tool')).toContain("a module (-m) from Python's import path");
    expect(blind('prettier --write "$(jq -r .f)"')).toContain('a command substitution inside quotes');
    expect(blind('bash "$DIR"/x.sh')).toContain('bash runs the script "$DIR/x.sh", a name it expands at run time');
    expect(blind('cat <<EOF\n$(id)\nEOF\n./x.sh')).toContain('a here-document substitutes');
    expect(blind('cd "$D" && ./x.sh')).toContain('after a cd to a directory it expands at run time');
  });

  it('skips a here-document body and comments, and reads the command after them', () => {
    expect(classify("cat > f <<'EOF'\nbash evil.sh\nEOF\n./run.sh # then ./not.sh")).toEqual(['P cat', 'R f', 'R EOF', 'P ./run.sh']);
  });

  it('resolves a script through the cd before it, and covers programs and scripts only', () => {
    const reading = readShellLine('cd sub && python3 tool.py data.json > out.log; ./bin/x --in cfg.yml; cat notes.md');
    expect(runPaths(reading, '/w')).toEqual(['/w/sub/tool.py', '/w/sub/bin/x']);
  });

  it('reads a run.argv with the same rules, nothing expanded', () => {
    expect(readArgv(['bash', '-e', 'x.sh', 'README.md']).words.map((w) => `${ROLE[w.role]} ${w.text}`)).toEqual(['P bash', 'D -e', 'S x.sh', 'D README.md']);
    expect(readArgv(['jq', '-f', 'filter.jq', '$X']).words.map((w) => `${ROLE[w.role]} ${w.text}`)).toEqual(['P jq', 'D -f', 'D filter.jq', 'D $X']);
  });

  it('knows when a line runs Python code, so PYTHONSAFEPATH applies', () => {
    expect(runsPython(readShellLine('python3 .claude/hooks/guard.py'))).toBe(true);
    expect(runsPython(readShellLine('/usr/bin/python3.12 -c "import x"'))).toBe(true);
    expect(runsPython(readShellLine('python3 -m mypkg'))).toBe(false);
    expect(runsPython(readShellLine('echo python3'))).toBe(false);
  });
});

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function workspace(): { ws: string; hooksFile: string; hook: (run: Partial<Hook['run']>) => Hook } {
  const ws = mkdtempSync(join(tmpdir(), 'chrys-trust-files-'));
  roots.push(ws);
  const dir = join(ws, '.chrys', 'hooks');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  for (const f of ['hooks.yaml', 'scripts/guard.py', 'scripts/helper.py']) writeFileSync(join(dir, f), '');
  mkdirSync(join(ws, '.claude', 'hooks'), { recursive: true });
  writeFileSync(join(ws, '.claude', 'hooks', 'fmt.sh'), '');
  writeFileSync(join(ws, 'README.md'), '');
  const hooksFile = join(dir, 'hooks.yaml');
  return { ws, hooksFile, hook: (run) => testHook({ source: 'project', file: hooksFile, run: { type: 'shell', shell: 'true', args: [], env: {}, cwd: '', ...run } as Hook['run'] }) };
}

describe('coveredPaths', () => {
  it.each([
    ['a log a hook appends to', { shell: 'echo "$CHRYS_HOOK_EVENT" >> .claude/format.log' }, []],
    ['a file an argument names', { shell: 'cat README.md; jq -r .x .claude/settings.json' }, []],
    ['a script run by an interpreter, through $CLAUDE_PROJECT_DIR', { shell: 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh >> .claude/fmt.log' }, ['.claude/hooks/fmt.sh']],
    ['a path-like program', { shell: './.claude/hooks/fmt.sh' }, ['.claude/hooks/fmt.sh']],
    ['a script named in run.argv', { type: 'command', argv: ['bash', '.claude/hooks/fmt.sh', 'README.md'] }, ['.claude/hooks/fmt.sh']],
    ['a script that does not exist yet (recorded as missing)', { shell: 'python3 later.py' }, ['later.py']],
    ['nothing outside the workspace from a shell line', { shell: 'bash /etc/profile' }, []],
  ] as const)('%s', (_name, run, extra) => {
    const { ws, hooksFile, hook } = workspace();
    const tree = ['.chrys/hooks/scripts/guard.py', '.chrys/hooks/scripts/helper.py'].map((p) => join(ws, p));
    const { paths } = coveredPaths(hooksFile, [hook(run as Partial<Hook['run']>)], { configDir: '/nowhere', workspace: ws });
    expect(paths).toEqual([hooksFile, ...[...tree, ...extra.map((p) => join(ws, p))].sort()]);
  });

  it('covers the whole .chrys/hooks tree, listing a symlink without following it', () => {
    const { ws } = workspace();
    symlinkSync('/etc', join(ws, '.chrys', 'hooks', 'etc'));
    expect(hooksTree(ws).map((p) => p.slice(ws.length + 1))).toEqual(['.chrys/hooks/etc', '.chrys/hooks/hooks.yaml', '.chrys/hooks/scripts/guard.py', '.chrys/hooks/scripts/helper.py']);
  });
});

describe('refuseSharedWrite', () => {
  it('refuses a file or directory others can write, naming the chmod that fixes it', () => {
    const { ws, hooksFile } = workspace();
    const script = join(ws, '.chrys', 'hooks', 'scripts', 'guard.py');
    expect(() => refuseSharedWrite([hooksFile, script])).not.toThrow();
    chmodSync(script, 0o666);
    expect(() => refuseSharedWrite([script])).toThrow(UnhashableFile);
    try {
      refuseSharedWrite([script]);
    } catch (e) {
      expect((e as UnhashableFile).problem).toContain('writable by its group and others (mode 0666)');
      expect((e as UnhashableFile).fix).toBe(`chmod go-w '${script}'`);
    }
    chmodSync(script, 0o644);
    chmodSync(join(ws, '.chrys', 'hooks', 'scripts'), 0o777);
    expect(() => refuseSharedWrite([script])).toThrow(/scripts: it is writable by its group and others \(mode 0777\)/);
    chmodSync(join(ws, '.chrys', 'hooks', 'scripts'), 0o1777); // sticky: others cannot replace what is not theirs
    expect(() => refuseSharedWrite([script])).not.toThrow();
  });
});
