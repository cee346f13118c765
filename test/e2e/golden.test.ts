// The golden scenarios of test/golden/ (its README.md has the format): each
// directory is the files of a sandbox, one `fire` through the built binary,
// and what that firing must print and leave behind.
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, it } from 'vitest';
import { differences } from '../helpers/doc-blocks.js';
import { type Run, Sandbox } from '../helpers/sandbox.js';

const GOLDEN = 'test/golden';

/** The folders of a scenario, and where in the sandbox each is copied. */
const FOLDERS: Record<string, (s: Sandbox) => string> = {
  global: (s) => join(s.configDir, 'hooks'),
  config: (s) => s.configDir,
  project: (s) => s.workspace,
};
const FILES = ['envelope.json', 'args', 'env.json', 'expected.json'];

interface Expected {
  exit_code: number;
  decision?: unknown;
  stdout?: string;
  stderr?: string;
  files?: Record<string, FileExpectation | null>;
}
const EXPECTED_KEYS = ['exit_code', 'decision', 'stdout', 'stderr', 'files'];

interface FileExpectation {
  text?: string;
  json?: unknown;
  entries?: unknown[];
  mode?: string;
}
const FILE_KEYS = ['text', 'json', 'entries', 'mode'];

const scenarios = readdirSync(GOLDEN, { withFileTypes: true })
  .filter((group) => group.isDirectory())
  .flatMap((group) => readdirSync(join(GOLDEN, group.name)).sort().map((name) => `${group.name}/${name}`));

// Each scenario has a sandbox of its own, so they can run side by side (up to vitest's maxConcurrency).
describe.concurrent('golden scenarios', () => {
  it.each(scenarios)('%s', async (scenario) => {
    const dir = join(GOLDEN, scenario);
    const s = new Sandbox();
    try {
      // A scenario that cannot be read fails as itself too, named like any other.
      const problems = await play(dir, s).catch((error: unknown) => [String(error)]);
      if (problems.length > 0) throw new Error(`${dir}:\n${problems.join('\n')}`);
    } finally {
      s.cleanup();
    }
  });
});

/** Sets the scenario up in `s`, fires, and returns where the outcome differs from expected.json (`where: why` lines). */
async function play(dir: string, s: Sandbox): Promise<string[]> {
  const strays = readdirSync(dir).filter((entry) => !Object.hasOwn(FOLDERS, entry) && !FILES.includes(entry));
  if (strays.length > 0) return [`${strays.join(', ')}: not a part of a scenario (test/golden/README.md)`];
  if (!existsSync(join(dir, 'expected.json'))) return ['expected.json is missing'];
  for (const [folder, place] of Object.entries(FOLDERS)) {
    if (existsSync(join(dir, folder))) cpSync(join(dir, folder), place(s), { recursive: true });
  }

  const placeholders = { ROOT: s.root, HOME: s.home, CONFIG_DIR: s.configDir, WORKSPACE: s.workspace };
  // In a JSON file a placeholder stands inside a string: its value goes in escaped.
  const inJson = (value: string): string => JSON.stringify(value).slice(1, -1);
  const read = (name: string, encode?: (value: string) => string): string | undefined =>
    existsSync(join(dir, name)) ? substitute(readFileSync(join(dir, name), 'utf8'), placeholders, encode) : undefined;
  const readJson = (name: string): unknown => {
    const text = read(name, inJson);
    try {
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    } catch (error) {
      throw new Error(`${name}: ${String(error)}`, { cause: error });
    }
  };

  const expected = readJson('expected.json') as Expected;
  const unknownKeys = [
    ...Object.keys(expected).filter((k) => !EXPECTED_KEYS.includes(k)),
    ...Object.values(expected.files ?? {}).flatMap((want) => Object.keys(want ?? {}).filter((k) => !FILE_KEYS.includes(k))),
  ];
  if (unknownKeys.length > 0) return [`expected.json: ${unknownKeys.join(', ')}: not an expectation (test/golden/README.md)`];
  if (typeof expected.exit_code !== 'number') return ['expected.json: exit_code is required'];
  // fire gets the envelope as written (number spellings matter); it is parsed here only so that a typo fails as one.
  readJson('envelope.json');
  const envelope = read('envelope.json', inJson) ?? '';
  const env = (readJson('env.json') ?? {}) as Record<string, string>;
  const args = (read('args') ?? '').split('\n').filter(Boolean);

  const result = await s.run(['fire', ...args], { input: envelope, env });
  const problems = [...compareOutput(expected, result), ...Object.entries(expected.files ?? {}).flatMap(([path, want]) => compareFile(path, want))];
  return problems.length === 0 ? [] : [...problems, `--- exit code ${result.exitCode}, stdout:`, result.stdout, '--- stderr:', result.stderr];
}

function compareOutput(expected: Expected, result: Run): string[] {
  const problems: string[] = [];
  if (expected.exit_code !== result.exitCode) problems.push(`exit code: ${result.exitCode}, expected ${expected.exit_code}`);
  if (expected.decision !== undefined) {
    const decision = parseJson(result.stdout);
    problems.push(...(decision === undefined ? ['decision: stdout is not JSON'] : differences(expected.decision, decision, 'decision')));
  }
  if (expected.stdout !== undefined) problems.push(...differences(expected.stdout, result.stdout, 'stdout'));
  if (expected.stderr !== undefined) problems.push(...differences(expected.stderr, result.stderr, 'stderr'));
  return problems;
}

function compareFile(path: string, want: FileExpectation | null): string[] {
  if (!isAbsolute(path)) return [`${path}: name files by a placeholder (\${ROOT}/...), not relative to the checkout`];
  if (want === null) return existsSync(path) ? [`${path}: exists, expected none`] : [];
  if (!existsSync(path)) return [`${path}: does not exist`];
  const problems: string[] = [];
  if (want.mode !== undefined) {
    const mode = (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
    if (mode !== want.mode) problems.push(`${path}: mode ${mode}, expected ${want.mode}`);
  }
  if (want.entries !== undefined) problems.push(...differences(want.entries, readdirSync(path).sort(), path));
  if (want.text !== undefined) problems.push(...differences(want.text, readFileSync(path, 'utf8'), path));
  if (want.json !== undefined) problems.push(...differences(want.json, JSON.parse(readFileSync(path, 'utf8')), path));
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `text` with each `${NAME}` of `values` replaced (through `encode`); any other `${...}` (a hook template) stays. */
function substitute(text: string, values: Record<string, string>, encode = (value: string): string => value): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? encode(values[name]!) : whole));
}
