// The import graph of src/: which file imports which, and which top folder
// (src/core, src/run, ...) imports which. test/unit/layers.test.ts fails on a
// folder cycle, a file circle or a forbidden folder edge; `node
// scripts/layers.mjs` prints the graph. `import type` counts as an edge: it
// vanishes at run time, but a type is as much a dependency of the design as a
// value. The TypeScript compiler ships no parser API, so specifiers are read by
// a scanner that skips comments, strings and regular expressions.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder edges the layering forbids, whatever else holds: loading config spawns nothing. */
export const FORBIDDEN = [['config', 'run']];

/** Folders that may import only the folders listed: core is pure, base sits below config, run and state. */
export const ONLY = { core: [], base: ['core'] };

/** Source text with comments, template text and regular expressions blanked, so only code and quoted strings remain. */
function codeOnly(text) {
  let out = '';
  let i = 0;
  const braces = [];
  let last = '';
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      last = 'x';
    } else if (c === '`' || (c === '}' && braces.at(-1) === 'template')) {
      if (c === '}') braces.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      if (text[j] === '$') {
        braces.push('template');
        out += c + blank(text.slice(i + 1, j)) + '${';
        i = j + 2;
        last = '{';
      } else {
        out += c + blank(text.slice(i + 1, j)) + '`';
        i = j + 1;
        last = 'x';
      }
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last) || /\b(return|typeof|case|in|of)$/.test(out.trimEnd()))) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      out += blank(text.slice(i, j + 1));
      i = j + 1;
      last = 'x';
    } else {
      if (c === '{') braces.push('code');
      else if (c === '}') braces.pop();
      out += c;
      if (!/\s/.test(c)) last = /[\w$)\].]/.test(c) ? 'x' : c;
      i++;
    }
  }
  return out;
}

const STATIC = /(?:^|[;}\n])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s*(['"])([^'"\n]+)\4|(?:^|[;}\n])\s*import\s*(['"])([^'"\n]+)\6/g;
const DYNAMIC = /\b(typeof\s+)?import\s*\(\s*(['"])([^'"\n]+)\2\s*\)/g;

/** The module specifiers of one file: { specifier, typeOnly, dynamic }. */
export function specifiers(text) {
  const code = codeOnly(text);
  const out = [];
  for (const m of code.matchAll(STATIC)) {
    // `import { type A } from` stays at run time as `import {} from` (verbatimModuleSyntax): only `import type` vanishes.
    if (m[5] !== undefined) out.push({ specifier: m[5], typeOnly: m[2] !== undefined, dynamic: false });
    else out.push({ specifier: m[7], typeOnly: false, dynamic: false });
  }
  for (const m of code.matchAll(DYNAMIC)) out.push({ specifier: m[3], typeOnly: m[1] !== undefined, dynamic: m[1] === undefined });
  return out;
}

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A file's top folder under src/ ("core" for src/core/protocols/env.ts); "." for a file directly in src/. */
export function folderOf(file) {
  const parts = file.split('/');
  return parts.length > 1 ? parts[0] : '.';
}

/** Strongly connected components with more than one member (or a self-import): the circles of a graph. */
export function circles(nodes, edgesOf) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edgesOf(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edgesOf(v).includes(v)) found.push(component.sort());
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * The graph of `srcDir`: files (relative to it) with the files they import,
 * folders with the folders they import (and through which file edges), the
 * file and folder circles, and the forbidden folder edges present. With
 * `types: false`, `import type` edges are left out.
 */
export function layers(srcDir, { types = true } = {}) {
  const files = tsFiles(srcDir).map((f) => relative(srcDir, f).split('\\').join('/')).sort();
  const known = new Set(files);
  const fileEdges = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const s of specifiers(readFileSync(join(srcDir, file), 'utf8'))) {
      if (!s.specifier.startsWith('.') || (s.typeOnly && !types)) continue;
      const target = relative(srcDir, resolve(srcDir, dirname(file), s.specifier)).split('\\').join('/').replace(/\.js$/, '.ts');
      if (!known.has(target)) throw new Error(`${file}: import of ${s.specifier} names no file in ${srcDir}`);
      targets.add(target);
    }
    fileEdges.set(file, [...targets].sort());
  }
  const folderEdges = new Map();
  for (const [file, targets] of fileEdges) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      if (!folderEdges.has(key)) folderEdges.set(key, []);
      folderEdges.get(key).push(`${file} -> ${target}`);
    }
  }
  const folders = [...new Set(files.map(folderOf))].sort();
  const foldersOf = (f) => [...folderEdges.keys()].filter((k) => k.startsWith(`${f} -> `)).map((k) => k.slice(f.length + 4));
  return {
    files: fileEdges,
    folders: new Map(folders.map((f) => [f, foldersOf(f).sort()])),
    folderEdges,
    fileCircles: circles(files, (f) => fileEdges.get(f)),
    folderCycles: circles(folders, foldersOf),
    forbidden: [...folderEdges.keys()].filter((k) => {
      const [from, to] = k.split(' -> ');
      return FORBIDDEN.some(([f, t]) => f === from && t === to) || (from in ONLY && !ONLY[from].includes(to));
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const types = !process.argv.includes('--no-types');
  const g = layers(fileURLToPath(new URL('../src', import.meta.url)), { types });
  console.log(`folders (${types ? 'import type counted' : 'run-time imports only'}):`);
  for (const [folder, imports] of g.folders) console.log(`  ${folder} -> ${imports.join(', ') || '(nothing)'}`);
  const report = (title, list) => console.log(`${title}: ${list.length === 0 ? 'none' : ''}${list.map((l) => `\n  ${l}`).join('')}`);
  report('folder cycles', g.folderCycles.map((c) => c.join(' <-> ')));
  report('file circles', g.fileCircles.map((c) => c.join(' <-> ')));
  report('forbidden folder edges', g.forbidden.map((k) => `${k} (${g.folderEdges.get(k).join('; ')})`));
  process.exitCode = g.folderCycles.length + g.fileCircles.length + g.forbidden.length === 0 ? 0 : 1;
}
