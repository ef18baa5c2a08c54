/**
 * The catalog trace check (docs/design.md §2): lists the conformance suite's tests, reads the requirement
 * ids they name (tags), prints coverage per family, and fails when a test names an id the catalog does
 * not have — or, with --require-all, when a testable requirement has no test.
 *
 *   tsx tools/trace-check.ts [--require-all] [--json]
 */
import { resolve } from 'node:path';
import { loadCatalog } from '../contract/catalog.ts';
import { ROOT } from '../contract/paths.ts';
import { listPlaywright, type ListedTest } from '../cli/playwright.ts';
import { requirementTags } from '../suites/reporter/verdicts.ts';

/** Every test of the conformance suite with its tags, as `playwright test --list` gives them (cli/playwright.ts). */
export async function listSuiteTests(): Promise<ListedTest[]> {
  return listPlaywright(['test', '-c', resolve(ROOT, 'suites/playwright.config.ts'), '--list', '--reporter', 'json'], {});
}

export interface TraceResult {
  unknown: Array<{ id: string; test: string }>;
  uncovered: string[];
  families: Array<{ family: string; covered: number; testable: number; must: string; inferred: string }>;
}

/** Compares the tags of `tests` with the catalog. */
export function trace(tests: ListedTest[]): TraceResult {
  const catalog = loadCatalog();
  const covered = new Set<string>();
  const unknown: TraceResult['unknown'] = [];
  for (const t of tests) {
    for (const id of requirementTags(t.tags)) {
      if (catalog.byId.has(id)) covered.add(id);
      else unknown.push({ id, test: `${t.file}:${t.line} ${t.title}` });
    }
  }
  const testable = catalog.requirements.filter((r) => r.testable);
  const families = Object.keys(catalog.families).map((family) => {
    const reqs = testable.filter((r) => r.family === family);
    const count = (level: string) => {
      const of = reqs.filter((r) => r.level === level);
      return `${of.filter((r) => covered.has(r.id)).length}/${of.length}`;
    };
    return { family, covered: reqs.filter((r) => covered.has(r.id)).length, testable: reqs.length, must: count('must'), inferred: count('inferred') };
  });
  return { unknown, uncovered: testable.filter((r) => !covered.has(r.id)).map((r) => r.id), families };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const requireAll = process.argv.includes('--require-all');
  const result = trace(await listSuiteTests());
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write('Requirement coverage by family (testable requirements with at least one test):\n');
    process.stdout.write(`  ${'family'.padEnd(8)} ${'covered'.padStart(9)}  ${'must'.padStart(7)}  ${'inferred'.padStart(8)}\n`);
    for (const f of result.families) {
      process.stdout.write(`  ${f.family.padEnd(8)} ${`${f.covered}/${f.testable}`.padStart(9)}  ${f.must.padStart(7)}  ${f.inferred.padStart(8)}\n`);
    }
    const total = result.families.reduce((a, f) => [a[0]! + f.covered, a[1]! + f.testable], [0, 0]);
    process.stdout.write(`  ${'all'.padEnd(8)} ${`${total[0]}/${total[1]}`.padStart(9)} (${Math.round((100 * total[0]!) / total[1]!)}%)\n`);
  }
  let failed = false;
  for (const u of result.unknown) {
    process.stderr.write(`trace: ${u.test} names ${u.id}, which spec/requirements.yaml does not have\n`);
    failed = true;
  }
  if (requireAll && result.uncovered.length) {
    process.stderr.write(`trace: ${result.uncovered.length} testable requirements have no test: ${result.uncovered.join(', ')}\n`);
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}
