// `chrys-hooks import --from AGENT [FILE]`: finds and reads the agent's hook
// config, converts it, and returns the hooks.yaml text (and, with `write`,
// where it went). Returns data; the CLI prints.

import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ChrysError } from '../core/errors.js';
import { type ImportPlan, type ImportSource, convertAgentConfig } from '../core/import/convert.js';
import { importRulesOf } from '../core/protocols/agents/index.js';
import { renderHooksYaml } from '../core/import/render.js';
import { type JsonObject, JsonSyntaxError, isJsonObject, lineCol, parseJson } from '../core/json.js';
import { type GlobalOptions, configDirOf, globalHooksDir, projectHooksDir, workspaceOf } from '../config/locations.js';
import { UnreadableFile, readText } from '../config/read.js';
import { hooksFileTarget, writeHooksFile } from '../config/write-hooks.js';

export interface ImportOptions extends GlobalOptions {
  from: ImportSource;
  file?: string;
  write?: boolean;
  global?: boolean;
  force?: boolean;
}

export interface ImportResult {
  yaml: string;
  files: string[];
  plan: ImportPlan;
  written?: string;
  /** A hooks.json the written hooks.yaml now shadows. */
  shadowed?: string;
}

export function importConfig(opts: ImportOptions): ImportResult {
  const workspace = workspaceOf(opts);
  const wanted = importRulesOf(opts.from).files;
  const files = opts.file ? [resolve(opts.file)] : wanted.flatMap((f) => configFiles(workspace, f));
  if (files.length === 0) {
    throw new ChrysError('input_unreadable', `no ${wanted.join(' or ')} in ${workspace}`, 'name the file, or pass --cwd with the project that holds it');
  }
  let plan: ImportPlan = { hooks: [], skipped: [] };
  for (const file of files) plan = convertAgentConfig(opts.from, readConfig(file), file, plan);
  const header = [`Imported by \`chrys-hooks import --from ${opts.from}\` from ${files.join(', ')}.`, `Each hook runs its command unchanged (run.protocol: ${opts.from}); check with \`chrys-hooks validate\`.`];
  const yaml = renderHooksYaml(plan, header);
  if (!opts.write) return { yaml, files, plan };

  const base = opts.global ? configDirOf(opts) : workspace;
  const { path, existing } = hooksFileTarget(opts.global ? globalHooksDir(base) : projectHooksDir(base));
  const refused = writeHooksFile(base, path, yaml, opts.force === true);
  if (refused?.code === 'exists') throw new ChrysError('file_exists', `${refused.path} already exists; not overwritten`, 'pass --force to replace it, or print the import and merge it by hand');
  if (refused?.code === 'symlink') throw new ChrysError('file_exists', `${refused.path} is a symbolic link; chrys-hooks does not write through links`, 'replace the link with a real directory or file');
  return { yaml, files, plan, written: path, ...(existing && existing !== path ? { shadowed: existing } : {}) };
}

/** The files a descriptor's entry names that exist: `dir/*.json` is every JSON file there in name order (Copilot CLI reads them all), chrys-hooks' own install file not imported. */
function configFiles(workspace: string, entry: string): string[] {
  if (!entry.endsWith('/*.json')) return existsSync(join(workspace, entry)) ? [join(workspace, entry)] : [];
  const dir = join(workspace, entry.slice(0, -'/*.json'.length));
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'chrys-hooks.json').sort().map((f) => join(dir, f));
}

function readConfig(file: string): JsonObject {
  let text: string;
  try {
    text = readText(file);
  } catch (e) {
    if (e instanceof UnreadableFile) throw new ChrysError('input_unreadable', `cannot read ${file}: ${e.message}`);
    throw e;
  }
  try {
    const value = parseJson(text);
    if (!isJsonObject(value)) throw new ChrysError('not_an_object', `${file}:1:1: the settings file must be a JSON object`);
    return value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const at = lineCol(text, e.offset);
      throw new ChrysError('invalid_json', `${file}:${at.line}:${at.column}: not valid JSON: ${e.message}`, 'fix the JSON (comments and trailing commas are not allowed)');
    }
    throw e;
  }
}
