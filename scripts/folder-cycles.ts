// `npm run folder-cycles [-- --warn FOLDER]…`: builds the folder → folder import graph of backend/
// and frontend/ from the import statements and prints every cycle; exits 1 if there is one, except
// a cycle through a folder named with --warn (or one under it): printed, not failed, while that
// folder's cycles are being untied. A folder is a layer
// (docs/architecture.md): when two folders import each other, neither can be read, tested or
// replaced without the other. Files directly in backend/ or frontend/ (the assembly, shared
// errors and config) are each their own node, so the assembly importing every feature is not a
// cycle. Tests beside the code (*.test.ts) are left out: they may reach anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const areas = ['backend', 'frontend'];
const { values } = parseArgs({ options: { warn: { type: 'string', multiple: true, default: [] } } });
const warnOnly = new Set(values.warn);

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`; type-only imports
// count too: a type is as much a dependency for a reader as a value.
const specifier = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The node a file belongs to: its folder, or the file itself if it sits at an area's top. */
function nodeOf(file: string): string | undefined {
  const rel = relative(root, file);
  const [area, ...rest] = rel.split('/');
  if (area === undefined || !areas.includes(area)) return undefined;
  return rest.length === 1 ? rel : dirname(rel);
}

/** folder → folder → one example import, for the report. */
const edges = new Map<string, Map<string, string>>();
for (const area of areas) {
  for (const file of sourceFiles(join(root, area))) {
    const from = nodeOf(file);
    if (from === undefined) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
      if (spec === undefined || !spec.startsWith('.')) continue;
      const to = nodeOf(resolve(dirname(file), spec));
      if (to === undefined || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${relative(root, file)} → ${spec}`);
      edges.set(from, out);
    }
  }
}

// Tarjan's strongly connected components: every component of more than one node is a knot of
// cycles.
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const knots: string[][] = [];
function connect(node: string): void {
  index.set(node, index.size);
  low.set(node, index.get(node) ?? 0);
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
    } else if (onStack.has(next)) {
      low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
  }
  if (low.get(node) !== index.get(node)) return;
  const component: string[] = [];
  let member: string | undefined;
  do {
    member = stack.pop();
    if (member === undefined) break;
    onStack.delete(member);
    component.push(member);
  } while (member !== node);
  if (component.length > 1) knots.push(component.sort());
}
for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);

if (knots.length === 0) console.log(`folder-cycles: no cycle among ${index.size} folders of ${areas.join('/ and ')}/`);
for (const knot of knots) {
  const warning = knot.some((node) => [...warnOnly].some((folder) => node === folder || node.startsWith(`${folder}/`)));
  console.log(`${warning ? 'warning: ' : ''}cycle: ${knot.join(', ')}`);
  for (const from of knot) {
    for (const [to, example] of edges.get(from) ?? []) {
      if (knot.includes(to)) console.log(`  ${from} → ${to}   (${example})`);
    }
  }
  if (!warning) process.exitCode = 1;
}
