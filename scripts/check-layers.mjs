#!/usr/bin/env node
// Checks that the folders under src/ depend on each other in one direction only. Each folder has a
// layer number, and a file in src/A/ may import from src/A/ itself and from folders of a strictly
// lower layer; importing a same-layer folder or a higher one is a violation. The layer table in the
// `## Layers` section of docs/architecture.md is the source of truth: this script parses it, so the
// document and the check cannot drift. Rows look like `| 3 | `src/execution/` | description |`;
// several folders may share a number. A file directly in src/ must be listed the same way
// (`| 0 | `src/index.ts` | ... |`).
//
// Imports are listed by TypeScript's own scanner (ts.preProcessFile), which sees `import`,
// `import type`, `export ... from`, `import x = require()` and `import('...')` with a literal
// argument. Packages are ignored. A relative import that leaves src/ (a build script, a test
// helper) is a violation: the running node is what src/ holds. Inside a folder any file may
// import any other, but not in a circle: a cycle of imports within one folder is a violation too.
//
// Usage: node scripts/check-layers.mjs [--root DIR]   (DIR defaults to the repo root)
// Exit code: 0 when clean, 1 on any violation or error, 2 on bad arguments.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const DOC = 'docs/architecture.md';
// Files the scanner reads; anything else under src/ (Solidity sources, JSON) imports nothing.
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx'];

/** A root-relative path with forward slashes, the form every message uses. */
const posix = (path) => path.split(sep).join('/');

/**
 * Parses the `## Layers` table of the architecture document. Returns `{ layers, errors }` where
 * `layers` maps an entry (`NAME` for a folder `src/NAME/`, `NAME.ts` for a file directly in src/)
 * to its layer number.
 */
export function parseLayerTable(markdown, docName = DOC) {
  const lines = markdown.split(/\r?\n/);
  const errors = [];
  let start = -1;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    // A heading inside a fenced code block (an example) is not a heading.
    if (/^\s*(```|~~~)/.test(lines[i])) inFence = !inFence;
    if (!inFence && /^##\s+Layers\s*$/.test(lines[i])) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return { layers: new Map(), errors: [`${docName} has no "## Layers" section`] };

  const layers = new Map();
  let rows = 0;
  inFence = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    // The section ends at the next heading of the same or a higher level.
    if (!inFence && /^#{1,2}\s/.test(line)) break;
    if (inFence || !line.trim().startsWith('|')) continue;
    const cells = splitRow(line);
    // The header and the |---| separator have no number in the first cell.
    if (!/^\d+$/.test(cells[0] ?? '')) continue;
    rows++;
    const layer = Number(cells[0]);
    const where = `${docName} line ${i + 1}`;
    const match = /^`src\/([^/`\s]+)(\/?)`$/.exec(cells[1] ?? '');
    // A folder is written src/NAME/ (trailing slash); a name without the slash must be a file.
    const name = match && (match[2] === '/' ? match[1] : isSourceFile(match[1]) ? match[1] : null);
    if (!name) {
      errors.push(
        `${where}: the second cell must be a folder written as \`src/NAME/\` (or a file directly in src/, \`src/NAME.ts\`), got "${cells[1] ?? ''}"`,
      );
      continue;
    }
    if (layers.has(name)) {
      errors.push(`${where}: src/${name}${match[2]} is listed twice`);
      continue;
    }
    layers.set(name, layer);
  }
  if (rows === 0) {
    errors.push(`the "## Layers" section of ${docName} has no table rows like "| 0 | \`src/core/\` | ... |"`);
  }
  return { layers, errors };
}

/** The trimmed cells of a markdown table row; `\|` inside a cell is not a separator. */
function splitRow(line) {
  const body = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** Whether a file name has an extension the import scanner reads. */
function isSourceFile(name) {
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** Every source file under `dir`, recursively. */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (isSourceFile(name)) out.push(path);
  }
  return out;
}

/**
 * The file a relative specifier points at, root-relative. Under NodeNext a TypeScript source
 * imports `./x.js` for `./x.ts`, so a .js specifier is shown as the .ts file when that exists.
 */
function targetPath(root, fromFile, specifier) {
  const path = resolve(dirname(fromFile), specifier);
  const tsTwin = path.replace(/\.(m|c)?js$/, (_, m) => `.${m ?? ''}ts`);
  return posix(relative(root, tsTwin !== path && existsSync(tsTwin) ? tsTwin : path));
}

/** The layer entry of a root-relative path: the folder name, or the file name directly in src/. */
function entryOf(path) {
  return path.split('/')[1];
}

/**
 * Checks the tree under `root`. Returns `{ violations, errors, files, imports }`: `violations`
 * are forbidden imports ({ file, target, from, fromLayer, to, toLayer, message }), `errors` are
 * messages about the table or the tree itself, `files` and `imports` count what was checked.
 */
export function checkLayers({ root }) {
  const src = join(root, 'src');
  const docPath = join(root, DOC);
  if (!existsSync(docPath)) return { violations: [], errors: [`${DOC} not found`], files: 0, imports: 0 };
  const { layers, errors } = parseLayerTable(readFileSync(docPath, 'utf8'));
  // A broken table would make every verdict below meaningless.
  if (errors.length > 0) return { violations: [], errors, files: 0, imports: 0 };
  if (!existsSync(src)) return { violations: [], errors: ['src/ not found'], files: 0, imports: 0 };

  const present = new Set(readdirSync(src));
  for (const name of present) {
    if (layers.has(name)) continue;
    if (statSync(join(src, name)).isDirectory()) {
      errors.push(`src/${name}/ is not in the layer table of ${DOC}`);
    } else if (isSourceFile(name)) {
      errors.push(
        `src/${name} is directly in src/, which is not allowed unless it is in the layer table of ${DOC}`,
      );
    }
  }
  for (const name of layers.keys()) {
    const shown = isSourceFile(name) ? `src/${name}` : `src/${name}/`;
    if (!present.has(name)) errors.push(`${shown} is in the layer table of ${DOC} but does not exist`);
  }

  const violations = [];
  /** Imports between files of one folder: file -> the files it imports there. */
  const inFolder = new Map();
  const unknownTargets = new Set();
  let files = 0;
  let imports = 0;
  for (const abs of walk(src)) {
    const file = posix(relative(root, abs));
    const from = entryOf(file);
    // Reported above as not in the table; its imports have no layer to be checked against.
    if (!layers.has(from)) continue;
    files++;
    const fromLayer = layers.get(from);
    const seen = new Set();
    const { importedFiles } = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
      const target = targetPath(root, abs, specifier);
      imports++;
      if (!target.startsWith('src/')) {
        // The running node is what src/ holds: a build script or a test is not part of it.
        if (seen.has(target)) continue;
        seen.add(target);
        violations.push({
          file,
          target,
          from,
          fromLayer,
          to: undefined,
          toLayer: undefined,
          message: `${file} imports ${target}, outside src/: what the node runs must live in src/ (a package, or a folder of the layer table)`,
        });
        continue;
      }
      const to = entryOf(target);
      if (to === from) {
        if (target !== file) addEdge(inFolder, file, target);
        continue;
      }
      if (!layers.has(to)) {
        // An existing unlisted folder is already an error; a missing one is a broken import.
        if (!present.has(to) && !unknownTargets.has(`${file} ${target}`)) {
          unknownTargets.add(`${file} ${target}`);
          errors.push(`${file} imports ${target}, which is in no folder of the layer table of ${DOC}`);
        }
        continue;
      }
      const toLayer = layers.get(to);
      if (toLayer < fromLayer) continue;
      // One line per file and target, even if it is imported twice (a value and a type import).
      if (seen.has(target)) continue;
      seen.add(target);
      const name = (entry) => entry.replace(/\.[cm]?[jt]sx?$/, '');
      violations.push({
        file,
        target,
        from,
        fromLayer,
        to,
        toLayer,
        message: `${file} imports ${target}: ${name(from)} (layer ${fromLayer}) may not import ${name(to)} (layer ${toLayer})`,
      });
    }
  }
  for (const cycle of cyclesOf(inFolder)) {
    const folder = entryOf(cycle[0]);
    violations.push({
      file: cycle[0],
      target: cycle[1],
      from: folder,
      fromLayer: layers.get(folder),
      to: folder,
      toLayer: layers.get(folder),
      cycle,
      message: `import cycle inside src/${folder}/: ${[...cycle, cycle[0]].join(' -> ')} (within a folder, imports go one way too: move what both need into one of them or a third file)`,
    });
  }
  return { violations, errors, files, imports };
}

function addEdge(graph, from, to) {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
}

/**
 * The import cycles of `graph`: one per strongly connected component of more than one file (or
 * a file that imports itself), as the files of a shortest cycle through its first file, sorted.
 */
function cyclesOf(graph) {
  // Tarjan's algorithm, iterative: components come out in reverse topological order.
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((t) => [...t])])].sort();
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [[start, [...(graph.get(start) ?? [])].sort(), 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, targets] = frame;
      if (frame[2] < targets.length) {
        const target = targets[frame[2]++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...(graph.get(target) ?? [])].sort(), 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        components.push(component.sort());
      }
    }
  }
  const cycles = [];
  for (const component of components) {
    const first = component[0];
    if (component.length === 1 && !graph.get(first)?.has(first)) continue;
    cycles.push(shortestCycle(graph, first, new Set(component)));
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The files of a shortest path from `first` back to itself, staying in `members`. */
function shortestCycle(graph, first, members) {
  const previous = new Map();
  const queue = [first];
  for (let i = 0; i < queue.length; i++) {
    for (const target of [...(graph.get(queue[i]) ?? [])].sort()) {
      if (!members.has(target)) continue;
      if (target === first) {
        const path = [queue[i]];
        while (path[0] !== first) path.unshift(previous.get(path[0]));
        return path;
      }
      if (!previous.has(target)) {
        previous.set(target, queue[i]);
        queue.push(target);
      }
    }
  }
  return [first];
}

function main() {
  let root;
  try {
    const { values } = parseArgs({ options: { root: { type: 'string' } } });
    root = resolve(values.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  } catch (err) {
    console.error(`check-layers: ${err.message}\nusage: node scripts/check-layers.mjs [--root DIR]`);
    return 2;
  }
  const { violations, errors, files, imports } = checkLayers({ root });
  for (const message of errors) console.error(`error: ${message}`);
  for (const v of violations) console.error(v.message);
  if (violations.length === 0 && errors.length === 0) {
    console.log(`layers: ${files} files, ${imports} imports checked, no violation`);
    return 0;
  }
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  console.error(
    `layers: ${plural(violations.length, 'violation')}, ${plural(errors.length, 'error')} ` +
      `(${files} files, ${imports} imports checked; the order is the table in ${DOC})`,
  );
  return 1;
}

/** True when this module is the script node was started with, not an import (tests). */
function isEntryPoint() {
  if (!process.argv[1]) return false;
  try {
    // Node runs the real path of a symlinked script, so compare real paths.
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) process.exitCode = main();
