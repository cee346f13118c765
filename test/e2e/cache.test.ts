// fire caches checked hooks files: a warm cache skips the YAML parser and zod,
// and any change to a file is seen by the next firing.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookYaml, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const EDIT = { event: 'before_tool_call', tool: { name: 'edit_file' } };
const ctx = (id: string, text: string): string =>
  hookYaml({ id, run: `type: shell\nshell: 'echo "{\\"context\\":[{\\"text\\":\\"${text}\\"}]}" > "$CHRYS_HOOK_RESULT"'` });

describe('the hooks-file cache', () => {
  it('sees every edit, even one that keeps the file size', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctx('a', 'aaaa')}\n`);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'aaaa' }]);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'aaaa' }]);
    s.globalHooks(`hooks:\n${ctx('a', 'bbbb')}\n`);
    expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'bbbb' }]);
    s.globalHooks(`hooks:\n${ctx('a', 'bbbb')}\n  - id: broken\n`);
    const broken = await s.fire(EDIT);
    expect(broken.decision.hooks).toEqual([]);
    expect(broken.decision.warnings).toMatchObject([{ code: 'hooks_config_invalid' }]);
    // a cached invalid file still says so
    expect((await s.fire(EDIT)).decision.warnings).toMatchObject([{ code: 'hooks_config_invalid' }]);
  });

  it('sees trust turned on and off in the settings file', async () => {
    const s = sandbox();
    s.projectHooks(`hooks:\n${ctx('p', 'project')}\n`);
    const settings = (on: boolean) => s.write(join(s.configDir, 'settings.yaml'), `project:\n  hooks_enabled: ${on}\n`);
    settings(false);
    expect((await s.fire(EDIT)).decision.hooks).toEqual([]);
    settings(true);
    expect((await s.fire(EDIT)).decision.hooks).toMatchObject([{ id: 'p' }]);
    expect((await s.fire(EDIT)).decision.hooks).toMatchObject([{ id: 'p' }]);
    s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: "yes"\n');
    const bad = await s.fire(EDIT);
    expect(bad.decision.hooks).toEqual([]);
    expect(bad.decision.warnings.map((w: any) => w.code)).toEqual(['settings_invalid', 'project_hooks_dormant']);
    expect((await s.fire(EDIT)).decision.warnings.map((w: any) => w.code)).toEqual(['settings_invalid', 'project_hooks_dormant']);
  });

  it('lets a warm firing of global hooks, one of them run, start without node:crypto (milliseconds to load)', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctx('warm', 'from cache')}\n`);
    const seen = join(s.root, 'builtins.json');
    const tracer = join(s.root, 'trace-builtins.cjs');
    writeFileSync(tracer, `const Module = require('node:module'); const load = Module._load; const names = new Set();
Module._load = function (request, ...rest) { if (request.startsWith('node:')) names.add(request); return load.call(this, request, ...rest); };
const getBuiltin = process.getBuiltinModule; process.getBuiltinModule = (id) => (names.add(id), getBuiltin(id));
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify([...names])));\n`);
    const env = { NODE_OPTIONS: `--require ${tracer}` };
    expect((await s.fire(EDIT, [], { env })).decision.contexts).toMatchObject([{ text: 'from cache' }]); // cold: fills the caches
    expect((await s.fire(EDIT, [], { env })).decision.contexts).toMatchObject([{ text: 'from cache' }]);
    const builtins = JSON.parse(readFileSync(seen, 'utf8'));
    expect(builtins).toContain('node:child_process'); // the tracer saw the hook's spawn
    expect(builtins).not.toContain('node:crypto');
  });

  it('lets a warm firing run without the YAML parser and zod', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctx('warm', 'from cache')}\n`);
    s.projectHooks(`hooks:\n${ctx('proj', 'trusted by settings')}\n`);
    s.write(join(s.configDir, 'settings.yaml'), 'project:\n  hooks_enabled: true\n');
    const pkg = s.packageCopy();
    expect((await pkg.fire(EDIT)).exitCode).toBe(0); // cold: parses and fills the cache
    expect(pkg.removeParserChunks()).toHaveLength(6); // chunks and the fire path's cold files
    const warm = await pkg.fire(EDIT);
    expect(warm.exitCode, warm.stderr).toBe(0);
    expect(JSON.parse(warm.stdout).contexts).toMatchObject([
      { text: 'trusted by settings', hook: 'proj' },
      { text: 'from cache', hook: 'warm' },
    ]);
  });

  it('stays correct with a cache entry truncated, from another version, a directory, or a cache that cannot be written', async () => {
    const s = sandbox();
    s.globalHooks(`hooks:\n${ctx('a', 'right')}\n`);
    const cache = join(s.configDir, 'hooks', 'state', 'cache');
    const right = async (): Promise<void> => expect((await s.fire(EDIT)).decision.contexts).toMatchObject([{ text: 'right' }]);
    await right();
    const [entry] = readdirSync(cache);
    const path = join(cache, entry!);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 40));
    await right();
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"version":"[^"]*"/, '"version":"0.0.0-other"'));
    await right();
    rmSync(path);
    mkdirSync(path);
    await right();
    await right();
    rmSync(cache, { recursive: true });
    writeFileSync(cache, 'not a directory'); // every write fails, as on a read-only filesystem
    await right();
    await right();
  });
});
