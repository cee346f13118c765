// The in-process API: `import { fire, validate, resolve } from 'chrys-hooks'`
// gives the objects the CLI prints as JSON, and loads no CLI code.
import { execa } from 'execa';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', session_id: 's1', tool: { name: 'edit_file', args: { path: 'a.ts' } } };
const noDurations = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replace(/"duration_ms":\d+/g, '"duration_ms":0'));

/** Runs a module that imports the package by its name (the package's own `exports`), and returns what it printed as JSON. */
async function viaPackage(code: string): Promise<any> {
  const r = await execa(process.execPath, ['--input-type=module', '-e', `import * as api from 'chrys-hooks';\n${code}`], { reject: false, env: { PATH: process.env.PATH ?? '' }, extendEnv: false });
  if (r.exitCode !== 0) throw new Error(`the module failed: ${r.stderr}`);
  return JSON.parse(String(r.stdout));
}

describe('the in-process API', () => {
  it('fire returns the decision fire prints', async () => {
    const s = sandbox();
    s.globalScript('mod.sh', `#!/usr/bin/env bash\necho '{"action":"modify","args_override":{"dry_run":true},"context":"ctx"}' > "$CHRYS_HOOK_RESULT"\n`);
    s.globalHooks(`hooks:\n${hookYaml({ id: 'mod', run: 'type: script\npath: scripts/mod.sh' })}\n`);
    s.projectHooks('hooks: []\n');
    const opts = JSON.stringify({ configDir: s.configDir, cwd: s.workspace });
    const fromApi = await viaPackage(`console.log(JSON.stringify([
      await api.fire(${JSON.stringify(EDIT)}, ${opts}),
      await api.fire(${JSON.stringify(JSON.stringify(EDIT))}, ${opts}),
      await api.fire({ tool: { name: 'x' } }, { ...${opts}, event: 'PreToolUse', projectHooks: true }),
    ]));`);
    // project_hooks_dormant is said once per session: fire the same sequence from the same fresh session state.
    rmSync(join(s.configDir, 'hooks', 'state', 'sessions'), { recursive: true, force: true });
    const cli = JSON.parse((await s.fire(EDIT)).result.stdout);
    const cliAgain = JSON.parse((await s.fire(EDIT)).result.stdout);
    expect(noDurations(fromApi[0])).toEqual(noDurations(cli));
    expect(noDurations(fromApi[1])).toEqual(noDurations(cliAgain));
    expect(fromApi[0].args).toEqual({ path: 'a.ts', dry_run: true });
    const other = JSON.parse((await s.run(['fire', '--event', 'PreToolUse', '--project-hooks'], { input: '{"tool":{"name":"x"}}' })).stdout);
    expect(noDurations(fromApi[2])).toEqual(noDurations(other));
  });

  it('hands non-blocking hooks to the CLI worker, not to the calling script', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'bg', event: 'after_tool_call', run: "type: shell\nshell: 'echo ran > ../bg.txt'", execution: 'mode: async' })}\n`);
    const decision = await viaPackage(`console.log(JSON.stringify(await api.fire({ event: 'after_tool_call', session_id: 's', tool: { name: 'x' } }, { configDir: ${JSON.stringify(s.configDir)}, cwd: ${JSON.stringify(s.workspace)} })));`);
    expect(decision.hooks).toMatchObject([{ id: 'bg', status: 'started' }]);
    await eventually(() => existsSync(join(s.root, 'bg.txt')), 30_000, 'the worker to run the hook');
  });

  it('fire with an agent protocol returns the answer fire --protocol prints', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${hookYaml({ id: 'ctx', run: `type: shell\nshell: 'echo "{\\"context\\": [{\\"text\\": \\"mind the tests\\"}]}" > "$CHRYS_HOOK_RESULT"'` })}\n`);
    const input = { session_id: 's', cwd: s.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const opts = JSON.stringify({ configDir: s.configDir, cwd: s.workspace, protocol: 'claude' });
    const fromApi = await viaPackage(`console.log(JSON.stringify(await api.fire(${JSON.stringify(input)}, ${opts})));`);
    const cli = await s.run(['fire', '--protocol', 'claude'], { input: JSON.stringify(input) });
    expect(fromApi).toEqual({ ...JSON.parse(cli.stdout), exit_code: 0, stderr: '' });
    expect(fromApi).toMatchObject({ hookSpecificOutput: { additionalContext: expect.stringContaining('mind the tests') } });
  });

  it('fire throws the CLI error code on bad input and an unknown protocol', async () => {
    const s = sandbox();
    const errors = await viaPackage(`const codes = [];
      for (const [envelope, opts] of [['{', {}], [[1], {}], [{ event: 'nope' }, {}], [{ event: 'Stop' }, { protocol: 'klingon' }]]) {
        try { await api.fire(envelope, { configDir: ${JSON.stringify(s.configDir)}, ...opts }); codes.push('none'); }
        catch (e) { codes.push(e instanceof api.ChrysError ? e.code : 'not a ChrysError'); }
      }
      console.log(JSON.stringify(codes));`);
    expect(errors).toEqual(['invalid_json', 'not_an_object', 'unknown_event', 'unknown_protocol']);
  });

  it('validate and resolve return what `validate --format json` and `resolve --json` print', async () => {
    const s = sandbox();
    const file = s.globalHooks(`hooks:\n${hookYaml({ id: 'a', run: 'type: command\nargv: [/bin/true]' })}\n  - id: b\n    event: before_tool_cal\n`);
    const opts = JSON.stringify({ configDir: s.configDir, cwd: s.workspace });
    const [validated, resolved] = await viaPackage(`console.log(JSON.stringify([await api.validate([${JSON.stringify(file)}], ${opts}), await api.resolve(${JSON.stringify(EDIT)}, ${opts})]));`);
    const cliValidate = await s.run(['validate', file, '--format', 'json']);
    expect(validated).toEqual(JSON.parse(cliValidate.stdout));
    expect(validated.errors).toBeGreaterThan(0);
    const cliResolve = await s.run(['resolve', '--json'], { input: JSON.stringify(EDIT) });
    expect(resolved).toEqual(JSON.parse(cliResolve.stdout));
  });

  it('ships declarations that import no package, so they type-check without the bundled libraries', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1]!;
        if (!spec.startsWith('.')) outside.push(`${spec} in ${file}`);
        else visit(resolvePath(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      }
    };
    visit(resolvePath(pkg.types));
    expect(seen.size).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  });

  it('declares its entry and types in package.json, and loads no CLI module', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.exports['.']).toEqual({ types: './dist/types/api/index.d.ts', import: './dist/api.js' });
    expect(readFileSync(pkg.types, 'utf8')).toContain('export declare function fire(');
    // Every module the API can load, statically or lazily, from the bundle's import graph.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)"(\.{1,2}\/[^"]+)"/g)) visit(resolvePath(dirname(file), m[1]!));
    };
    visit(resolvePath('dist/api.js'));
    expect(seen.size).toBeGreaterThan(5);
    const cliModules = [...seen].filter((f) => /^\/\/ src\/cli\//m.test(readFileSync(f, 'utf8')));
    expect(cliModules.map((f) => join('dist', f.split('/dist/')[1]!))).toEqual([]);
  });
});
