// Runs Stryker, then checks the mutation score of each folder it mutated
// against MUTATION_THRESHOLD (85 unless set): Stryker's own break threshold
// covers the whole run only, and a well-tested folder must not hide a weak one.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const threshold = Number(process.env.MUTATION_THRESHOLD ?? 85);
const FOLDERS = ['src/base', 'src/core', 'src/run', 'src/outbox'];
const extra = process.argv.slice(2);

const run = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', ...extra], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

// Stryker records the absolute directory it ran in; the committed incremental file keeps no path of
// the machine it was measured on (its file keys are relative, which is what the next run compares).
const incremental = extra.includes('--incrementalFile') ? extra[extra.indexOf('--incrementalFile') + 1] : undefined;
if (incremental) {
  const text = readFileSync(incremental, 'utf8');
  writeFileSync(incremental, text.replace(/"projectRoot": *"[^"]*"/, '"projectRoot": "."'));
}

const report = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);
let failed = false;
console.log(`\nmutation score by folder (threshold ${threshold} %):`);
for (const folder of FOLDERS) {
  let detected = 0;
  let counted = 0;
  for (const [file, data] of Object.entries(report.files)) {
    if (!file.replaceAll('\\', '/').includes(`${folder}/`)) continue;
    for (const m of data.mutants) {
      if (!COUNTED.has(m.status)) continue;
      counted++;
      if (DETECTED.has(m.status)) detected++;
    }
  }
  if (counted === 0) {
    console.log(`  ${folder.padEnd(12)}     -    (not mutated in this run)`);
    continue;
  }
  const score = (100 * detected) / counted;
  const ok = score >= threshold;
  failed ||= !ok;
  console.log(`  ${folder.padEnd(12)} ${score.toFixed(1).padStart(5)} %  (${detected}/${counted} mutants detected)  ${ok ? 'ok' : 'BELOW THRESHOLD'}`);
}
process.exit(failed ? 1 : 0);
