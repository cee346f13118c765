// The committed schema, completions and man page must match their sources.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../src/cli/generate.js';
import { COMMANDS, GLOBAL_OPTIONS, flagName } from '../../src/cli/spec.js';

const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

describe('generated files', () => {
  for (const [path, content] of Object.entries(generatedFiles(version))) {
    it(`${path} is up to date (run npm run generate)`, () => {
      expect(readFileSync(path, 'utf8')).toBe(content);
    });
  }

  it('the JSON Schema rejects unknown keys and knows every event', () => {
    const schema = JSON.parse(generatedFiles(version)['schema/hooks.schema.json']!);
    expect(schema.additionalProperties).toBe(false);
    const hook = schema.properties.hooks.items;
    expect(hook.required.sort()).toEqual(['event', 'id', 'run']);
    expect(hook.properties.event.enum).toContain('PreToolUse');
    expect(hook.properties.execution.properties.mode.enum).toEqual(['blocking', 'async', 'fire_and_forget']);
  });

  it('completions offer only directories for --config-dir and --cwd', () => {
    const files = generatedFiles(version);
    for (const flag of ['config-dir', 'cwd']) {
      expect(files['completions/chrys-hooks.bash']).toContain(`*" --${flag}") COMPREPLY=($(compgen -d -- "$cur")); return;;`);
      expect(files['completions/_chrys-hooks']).toMatch(new RegExp(`'--${flag}\\[[^']*\\]:directory:_files -/'`));
      expect(files['completions/chrys-hooks.fish']).toContain(`-l ${flag} -x -a '(__fish_complete_directories)'`);
    }
  });

  it('the man page has FILES, ENVIRONMENT, EXIT STATUS and EXAMPLES', () => {
    const man = generatedFiles(version)['man/chrys-hooks.1']!;
    for (const section of ['FILES', 'ENVIRONMENT', 'EXIT STATUS', 'EXAMPLES']) expect(man).toContain(`.SH ${section}\n`);
    expect(man).toContain('.B CHRYS_HOME');
    expect(man).toContain('.TP\n64\n');
  });

  it('every command and option appears in each completion and in the man page', () => {
    const files = generatedFiles(version);
    for (const c of COMMANDS) {
      for (const f of ['completions/chrys-hooks.bash', 'completions/_chrys-hooks', 'completions/chrys-hooks.fish']) {
        expect(files[f]).toContain(c.name);
        for (const o of [...c.options, ...GLOBAL_OPTIONS]) expect(files[f]).toContain(flagName(o).slice(2));
      }
      expect(files['man/chrys-hooks.1']).toContain(c.name.replace(/-/g, '\\-'));
    }
  });
});
