#!/usr/bin/env node
// Installs the pinned agent CLIs that `npm run test:agents` runs, each into
// its own prefix under .cache/agents/, once. Later runs reuse the prefix, so
// the suite itself can run with no network but loopback.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const AGENTS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

export function agentPrefix(name) {
  const a = AGENTS[name];
  return join(root, '.cache', 'agents', `${name}-${a.version}`);
}

export function agentBin(name) {
  return join(agentPrefix(name), 'node_modules', '.bin', AGENTS[name].bin);
}

function install(name) {
  const a = AGENTS[name];
  const prefix = agentPrefix(name);
  const stamp = join(prefix, '.installed');
  if (existsSync(stamp) && existsSync(agentBin(name))) {
    console.log(`${name} ${a.version}: cached in ${prefix}`);
    return;
  }
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  console.log(`${name} ${a.version}: installing ${a.pkg}@${a.version}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `${a.pkg}@${a.version}`], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, `${a.pkg}@${a.version}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2);
  for (const name of wanted.length > 0 ? wanted : Object.keys(AGENTS)) {
    if (!(name in AGENTS)) {
      console.error(`unknown agent "${name}"; known: ${Object.keys(AGENTS).join(', ')}`);
      process.exit(64);
    }
    install(name);
  }
}
