/**
 * The kit's import graph and its layering rules (docs/design.md, "Layers"): read from the source with
 * the TypeScript compiler's own import scanner (`ts.preProcessFile`: static imports, re-exports and
 * `import('…')` with a literal), relative specifiers only (packages are not the kit's layers).
 *
 * Layers, bottom up: `spec/` (data) → `contract/` (everything shared) → `mock/`, `suites/`, `proxy/`
 * (siblings: none imports another) → `cli/` → `bin/` → `tools/` and the root's config files → `bench/`.
 * Inside `mock/`, its folders and root files are layered too (MOCK_LAYERS). Test files (`*.test.ts`
 * and `test/` folders) are scaffolding: they may compose layers (a proxy test starts a mock), so the
 * layer rules skip them; cycles are looked for among the product's files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The top-level layers, bottom up; folders on one row are siblings and may not import each other. */
export const LAYERS: readonly (readonly string[])[] = [['spec'], ['contract'], ['mock', 'suites', 'proxy'], ['cli'], ['bin'], ['tools', '(root)'], ['bench']];

/** The mock's own layers, bottom up: a folder (`store`) or a root file (`app.ts`). */
export const MOCK_LAYERS: readonly string[] = ['store', 'http', 'paging', 'domain', 'handlers', 'pipeline', 'seed', 'prism', 'app.ts', 'state', 'profile.ts', 'control', 'journal', 'hooks', 'mutants', 'variants', 'server.ts', 'first-call.ts', 'main.ts'];

/** One import of one file: both paths relative to the root, as `a/b.ts`. */
export interface Edge { from: string; to: string }

const SOURCE = /\.(ts|mts|mjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'reports', 'test-results', 'playwright-report', 'blob-report']);

/** Whether a file is test scaffolding (a unit test or a file of a `test/` folder). */
export function isTestFile(file: string): boolean {
  return file.endsWith('.test.ts') || file.split('/').includes('test');
}

/** Every source file under `root` (relative paths), skipping dependencies, outputs and dot folders. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/** The relative imports of `files` (paths relative to `root`) that name a file of the tree. */
export function importEdges(root: string, files: readonly string[]): Edge[] {
  const known = new Set(files);
  const edges: Edge[] = [];
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = relative(root, resolve(root, dirname(from), fileName));
      if (known.has(to)) edges.push({ from, to });
    }
  }
  return edges;
}

/** The top-level layer unit of a file: its first folder, or `(root)` for a file at the root. */
export function topUnit(file: string): string {
  return file.includes('/') ? file.split('/')[0]! : '(root)';
}

/** The mock layer unit of a file of `mock/`: its folder under mock/, or its own name at mock/'s root. */
export function mockUnit(file: string): string {
  return file.split('/')[1]!;
}

const rowOf = (unit: string) => LAYERS.findIndex((row) => row.includes(unit));

/** Why an import breaks the layering, or undefined when it keeps it. */
export function layerViolation(edge: Edge): string | undefined {
  if (isTestFile(edge.from)) return undefined;
  const [a, b] = [topUnit(edge.from), topUnit(edge.to)];
  if (a !== b) {
    const [ra, rb] = [rowOf(a), rowOf(b)];
    if (ra < 0 || rb < 0) return `${a === '(root)' || ra >= 0 ? b : a}/ is in no layer`;
    if (ra === rb) return `sibling import: ${a}/ → ${b}/`;
    if (rb > ra) return `upward import: ${a}/ → ${b}/`;
    return undefined;
  }
  if (a !== 'mock') return undefined;
  const [ma, mb] = [MOCK_LAYERS.indexOf(mockUnit(edge.from)), MOCK_LAYERS.indexOf(mockUnit(edge.to))];
  if (ma < 0 || mb < 0) return `mock/${ma < 0 ? mockUnit(edge.from) : mockUnit(edge.to)} is in no mock layer`;
  return mb > ma ? `upward import inside mock/: ${mockUnit(edge.from)} → ${mockUnit(edge.to)}` : undefined;
}

/** The import cycles among `files`: strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function importCycles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

/** The product's files and their imports (test scaffolding left out). */
export function productGraph(root: string): { files: string[]; edges: Edge[] } {
  const files = sourceFiles(root).filter((f) => !isTestFile(f));
  return { files, edges: importEdges(root, files) };
}

/**
 * The layer picture as Mermaid: one diagram of the top-level layers and one of the mock's, each arrow
 * labelled with how many file imports it stands for (docs/design.md holds it, test-checked).
 */
export function layerDiagrams(edges: readonly Edge[]): string {
  const count = (pairs: Array<[string, string]>) => {
    const m = new Map<string, number>();
    for (const [a, b] of pairs) if (a !== b) m.set(`${a}|${b}`, (m.get(`${a}|${b}`) ?? 0) + 1);
    return [...m].sort(([x], [y]) => x.localeCompare(y));
  };
  const id = (unit: string) => unit.replace(/[^A-Za-z0-9]/g, '_');
  const top = count(edges.map((e) => [topUnit(e.from), topUnit(e.to)]));
  const mock = count(edges.filter((e) => topUnit(e.from) === 'mock' && topUnit(e.to) === 'mock').map((e) => [mockUnit(e.from), mockUnit(e.to)]));
  const lines = ['```mermaid', 'flowchart BT'];
  LAYERS.forEach((row, i) => {
    lines.push(`  subgraph L${i}[" "]`);
    for (const unit of row) lines.push(`    ${id(unit)}["${unit === '(root)' ? 'root configs' : `${unit}/`}"]`);
    lines.push('  end');
  });
  for (const [pair, n] of top) {
    const [a, b] = pair.split('|') as [string, string];
    lines.push(`  ${id(a)} -->|${n}| ${id(b)}`);
  }
  lines.push('```', '', '```mermaid', 'flowchart BT');
  for (const unit of MOCK_LAYERS) lines.push(`  m_${id(unit)}["${unit.endsWith('.ts') ? unit : `${unit}/`}"]`);
  for (const [pair, n] of mock) {
    const [a, b] = pair.split('|') as [string, string];
    lines.push(`  m_${id(a)} -->|${n}| m_${id(b)}`);
  }
  lines.push('```');
  return lines.join('\n');
}
