// The layering of src/ (scripts/layers.mjs): no folder imports a folder that
// imports it back, no file circle, config never reaches the runner, and core
// and base stay at the bottom. `import type` counts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layers, specifiers } from '../../scripts/layers.mjs';

const tree = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), 'chrys-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};

describe('the layering of src/', () => {
  const g = layers('src');

  it('has no folder cycle', () => expect(g.folderCycles).toEqual([]));
  it('has no file circle', () => expect(g.fileCircles).toEqual([]));
  it('has no forbidden folder edge (config -> run; core and base import nothing above them)', () => expect(g.forbidden).toEqual([]));
  it('sees the edges it checks', () => {
    expect(g.folders.get('config')).toContain('base');
    expect(g.folders.get('cli')).toContain('engine');
  });
});

describe('scripts/layers.mjs', () => {
  it('reads static, re-export, side-effect, dynamic and type specifiers, and none in comments, strings or templates', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import {\n  type C,\n  d,\n} from './c.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "import './g.js';",
      "const h = await import('./h.js');",
      "let i: typeof import('./i.js');",
      "// import { x } from './comment.js';",
      "/* import('./block.js') */",
      "const s = \"import { y } from './string.js'\";",
      'const t = `\nimport { z } from \'./template.js\';\n${1}`;',
      "const r = /'/g; import { j } from './j.js';",
    ].join('\n');
    expect(specifiers(text)).toEqual([
      { specifier: './a.js', typeOnly: false, dynamic: false },
      { specifier: './b.js', typeOnly: true, dynamic: false },
      { specifier: './c.js', typeOnly: false, dynamic: false },
      { specifier: './e.js', typeOnly: false, dynamic: false },
      { specifier: './f.js', typeOnly: true, dynamic: false },
      { specifier: './g.js', typeOnly: false, dynamic: false },
      { specifier: './j.js', typeOnly: false, dynamic: false },
      { specifier: './h.js', typeOnly: false, dynamic: true },
      { specifier: './i.js', typeOnly: true, dynamic: false },
    ]);
  });

  it('finds a file circle, a folder cycle and a forbidden edge, type-only edges included', () => {
    const root = tree({
      'config/load.ts': "import { spawnHook } from '../run/spawn.js';",
      'run/spawn.ts': "import type { Layout } from '../config/layout.js';",
      'config/layout.ts': "export type Layout = string;",
      'engine/a.ts': "import { b } from './b.js';",
      'engine/b.ts': "const a = () => import('./a.js');",
    });
    const g = layers(root);
    expect(g.fileCircles).toEqual([['engine/a.ts', 'engine/b.ts']]);
    expect(g.folderCycles).toEqual([['config', 'run']]);
    expect(g.forbidden).toEqual(['config -> run']);
    expect(layers(root, { types: false }).folderCycles).toEqual([]);
  });

  it('refuses an import that names no file', () => {
    expect(() => layers(tree({ 'a/x.ts': "import './gone.js';" }))).toThrow(/gone\.js names no file/);
  });
});
