// The package installs and works outside the checkout (issue 11.4): pack the
// tarball, install it into a temporary prefix offline, with no access to
// the source tree, and run it from another directory.
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

describe('npm pack + install', () => {
  it('installs from the tarball into a prefix and runs fire, validate and --version there', async () => {
    const s = sandbox();
    const packDir = join(s.root, 'pack');
    const prefix = join(s.root, 'prefix');
    mkdirSync(packDir);
    // --ignore-scripts: the tests' dist/ is already built, and rebuilding it would disturb other tests.
    const npmEnv = { PATH: process.env.PATH ?? '', HOME: s.home, npm_config_cache: join(s.root, 'npm-cache'), npm_config_update_notifier: 'false' };
    await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: resolve('.'), env: npmEnv, extendEnv: false });
    const tarball = join(packDir, `chrys-hooks-${version}.tgz`);
    expect(existsSync(tarball)).toBe(true);
    await execa('npm', ['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: s.root, env: npmEnv, extendEnv: false });

    const installed = join(prefix, 'lib', 'node_modules', 'chrys-hooks');
    expect(realpathSync(installed).startsWith(realpathSync(prefix))).toBe(true);
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'bin', 'completions', 'dist', 'docs', 'man', 'package.json', 'schema']);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'chrys-hooks.1'))).toBe(true);

    const bin = join(prefix, 'bin', 'chrys-hooks');
    const run = (args: string[], input = '') =>
      execa(bin, args, { cwd: s.workspace, input, env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, HOME: s.home }, extendEnv: false, reject: false });
    const v = await run(['--version']);
    expect(v.stdout.trim()).toBe(version);

    s.globalScript('guard.sh', 'printf \'{"action": "block", "reason": "no"}\' > "$CHRYS_HOOK_RESULT"\n');
    const hooks = s.globalHooks('hooks:\n  - id: guard\n    event: before_tool_call\n    match: { tool_name: write_file }\n    run: { type: script, path: scripts/guard.sh }\n    execution: { mode: blocking }\n');
    const fired = await run(['fire', '--config-dir', s.configDir], JSON.stringify({ event: 'PreToolUse', tool: { name: 'write_file', args: {} } }));
    expect(fired.exitCode, fired.stderr).toBe(0);
    expect(JSON.parse(fired.stdout)).toMatchObject({ blocked: true, reason: 'no', blocked_by: { id: 'guard' } });

    const validated = await run(['validate', hooks]);
    expect(validated.exitCode, validated.stdout).toBe(0);
    writeFileSync(hooks, 'hooks:\n  - id: x\n');
    const invalid = await run(['validate', hooks]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stdout).toContain('missing_field');
  });
});
