// What `install --agent gemini` writes, read back by Gemini CLI's own
// settings schema: the package ships it in its bundle (the definitions its
// published settings.schema.json is generated from, as a validator), and
// `loadSettings` runs every settings file through it, reporting each file
// that does not fit as "Invalid configuration in FILE". The check runs in a
// child process, since Gemini fixes the user settings path at import time
// from GEMINI_CLI_HOME or HOME.

import { execa } from 'execa';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentPrefix, requireAgent } from '../common/agents.js';
import { AgentSandbox, chrys, installFor } from '../common/sandbox.js';

const BUNDLE = join(agentPrefix('gemini'), 'node_modules', '@google', 'gemini-cli', 'bundle');

/** The bundle chunk that defines Gemini's settings validator and exports loadSettings. */
function settingsModule(): string {
  for (const name of readdirSync(BUNDLE).filter((n) => n.endsWith('.js')).sort()) {
    const text = readFileSync(join(BUNDLE, name), 'utf8');
    if (text.includes('function validateSettings(data)') && /\bloadSettings,?\n/.test(text.slice(-4000))) return join(BUNDLE, name);
  }
  throw new Error(`no chunk of ${BUNDLE} defines Gemini's settings validator: the package layout changed`);
}

interface Loaded {
  errors: { path: string; message: string }[];
  /** The hooks Gemini merged from the files it read. */
  hooks: Record<string, { hooks: { command: string }[] }[]>;
}

const LOAD = `const m = await import(process.argv[1]);
const s = m.loadSettings(process.argv[2]);
console.log(JSON.stringify({ errors: s.errors.map((e) => ({ path: e.path, message: e.message })), hooks: s.merged.hooks ?? {} }));`;

/** Gemini's loadSettings for `workspace`, with exactly `env`. */
async function geminiLoads(env: Record<string, string>, workspace: string): Promise<Loaded> {
  const r = await execa(process.execPath, ['--input-type=module', '-e', LOAD, pathToFileURL(settingsModule()).href, workspace], { env, extendEnv: false, reject: false, cwd: workspace, input: '' });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout).trim().split('\n').at(-1)!) as Loaded;
}

let s: AgentSandbox;
beforeAll(() => void requireAgent('gemini'));
afterEach(() => s.remove());

describe("Gemini CLI's own settings schema", () => {
  it('accepts the user and project settings install writes, and loads their hooks', async () => {
    s = new AgentSandbox('gemini-schema');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, CHRYS_HOME: s.chrysHome, NO_COLOR: '1' };
    await installFor('gemini', env, s.workspace, ['--events', 'BeforeTool,BeforeAgent,AfterAgent,SessionStart,SessionEnd,PreCompress']);
    const project = await chrys(['install', '--agent', 'gemini', '--project', '--events', 'AfterTool'], env, s.workspace);
    expect(project.exitCode, project.stderr).toBe(0);
    const loaded = await geminiLoads(env, s.workspace);
    expect(loaded.errors).toEqual([]);
    // The project layer joins the merge only in a trusted folder; the user file's entries are all there.
    expect(Object.entries(loaded.hooks).filter(([, groups]) => groups.length > 0).map(([event]) => event).sort()).toEqual(['AfterAgent', 'BeforeAgent', 'BeforeTool', 'PreCompress', 'SessionEnd', 'SessionStart']);
    expect(loaded.hooks.BeforeTool![0]!.hooks[0]!.command).toMatch(/fire --protocol gemini --fail-closed$/);
  });

  it('under GEMINI_CLI_HOME: install writes the file Gemini reads, and Gemini accepts it', async () => {
    s = new AgentSandbox('gemini-schema');
    const cliHome = join(s.root, 'gemini-cli-home');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, GEMINI_CLI_HOME: cliHome, CHRYS_HOME: s.chrysHome, NO_COLOR: '1' };
    await installFor('gemini', env, s.workspace, ['--events', 'BeforeTool']);
    const loaded = await geminiLoads(env, s.workspace);
    expect(loaded.errors).toEqual([]);
    expect(loaded.hooks.BeforeTool![0]!.hooks[0]!.command).toMatch(/fire --protocol gemini --fail-closed$/);
  });

  it('the same check reports a user or project entry that does not fit (a timeout as a string), so it can fail', async () => {
    s = new AgentSandbox('gemini-schema');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, CHRYS_HOME: s.chrysHome, NO_COLOR: '1' };
    const bad = JSON.stringify({ hooks: { BeforeTool: [{ matcher: '*', hooks: [{ name: 'chrys', type: 'command', command: 'chrys-hooks fire --protocol gemini', timeout: '60s' }] }] } });
    const user = s.write(join(s.home, '.gemini', 'settings.json'), bad);
    const project = s.write(join(s.workspace, '.gemini', 'settings.json'), bad);
    const loaded = await geminiLoads(env, s.workspace);
    expect(loaded.errors.map((e) => e.path)).toEqual([user, project]);
    expect(loaded.errors[0]!.message).toContain('hooks.BeforeTool[0].hooks[0].timeout');
  });
});
