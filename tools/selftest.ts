/**
 * `npm run selftest` (docs/maintainers.md, "The self-test"): proves the suite's verdicts.
 * - Specificity: the suite is all green against the mock, and against the mock re-seeded (other ids,
 *   names, volumes and orderings) with every test repeated; with a profile of live keys only (no other
 *   role, no fixture, no control API) nothing fails: the verdict is incomplete.
 * - Sensitivity: against each mutant of mock/mutants/catalog.ts (a mock that breaks one requirement),
 *   the tests of that requirement fail — the mutant is killed, by the right test.
 *   The other `must` requirements a mutant's run fails are its blast radius (target: median 0, max 3).
 * - Specificity across freedoms: against each variant of mock/variants/catalog.ts (docs/freedoms.md) no
 *   `must` fails: conformant, or incomplete for a variant marked `incomplete` (described-only,
 *   ignored-writes, other-success-statuses: set-up the suite cannot complete there is not assessed).
 * Prints a kill matrix and three lines (sensitivity, blast radius, specificity), writes
 * reports/selftest.json. Exit 0 when every check holds.
 *
 *   tsx tools/selftest.ts [--fast] [--mutants a,b|none] [--variants a,b|none] [--jobs N] [--skip-baseline] [--seed S] [--grep RE]
 *
 * --fast runs one mutant per family, FAST_VARIANTS and no baseline (npm test runs the suite against the mock already).
 * --mutants none runs no mutant and no baseline: `--mutants none --variants NAME` checks one variant.
 * Each mutant run selects the tests tagged with the requirement it names; --full-suite runs everything.
 * --mutants a,b alone runs those mutants only (no baseline, no variants).
 * Each mutant run selects the tests tagged with the requirement it names; --full-suite runs everything,
 * and so does a broad mutant (mock/mutants/broad.ts: one deviation on every operation), which also owes
 * one root cause. Blast radius: the failed `must` requirements outside the mutant's `states`.
 * --grep RE measures what one part of the suite kills on its own (`--grep @GEN` : the generative
 * project, docs/generative.md): every mutant runs only the tests matching RE, a mutant is killed when
 * any of them fails, and no baseline or variant runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../contract/paths.ts';
import { MUTANTS, mutantNamed } from '../mock/mutants/catalog.ts';
import { VARIANTS, variantsNamed } from '../mock/variants/catalog.ts';
import { startMock } from '../mock/server.ts';
import type { Mutant } from '../mock/mutants/mutant.ts';
import type { ConformanceReport } from '../contract/report/model.ts';

const { values: args } = parseArgs({
  options: {
    fast: { type: 'boolean', default: false },
    mutants: { type: 'string' },
    variants: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    'skip-baseline': { type: 'boolean', default: false },
    'full-suite': { type: 'boolean', default: false },
    seed: { type: 'string', default: '7' },
    output: { type: 'string', default: 'reports/selftest' },
    grep: { type: 'string' },
  },
});

interface RunResult { code: number; durationMs: number; report?: ConformanceReport; log: string }

const out = resolve(ROOT, args.output!);

/** One CLI run into `dir`, with extra environment; the report is read back. */
function run(name: string, cliArgs: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), 'run', '--output', dir, ...cliArgs], {
      cwd: ROOT, env: { ...process.env, CI: '1', ...env },
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('exit', (code) => {
      const file = join(dir, 'conformance.json');
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
      writeFileSync(join(dir, 'run.log'), log);
      done({ code: code ?? 1, durationMs: Date.now() - started, report, log });
    });
  });
}

/**
 * The suite against a mock (seed 1, in this process) described by a profile holding only its live keys:
 * what a vendor who provisioned nothing else would run.
 */
async function partialProfileRun(): Promise<RunResult> {
  const mock = await startMock({ port: 0 });
  try {
    const live = (mock.profile.keys as { live: string[] }).live;
    const file = join(out, 'live-keys-only.json');
    mkdirSync(out, { recursive: true });
    writeFileSync(file, JSON.stringify({ name: 'Live keys only', baseUrl: mock.baseUrl, keys: { live } }, null, 2));
    // Expected incomplete (nothing fails, much is not assessed): --allow-incomplete makes that exit 0.
    return await run('live-keys-only', ['--target', mock.baseUrl, '--profile', file, '--allow-incomplete'], {});
  } finally {
    await mock.stop();
  }
}

/** The variants --fast runs: those that choose differently where the description is silent, and two cheap ones. */
const FAST_VARIANTS = ['described-only', 'ignored-writes', 'other-success-statuses', 'other-routes', 'no-inferred-limits', 'other-effects', 'extra-response-fields', 'other-error-codes'];

const failedIds = (r?: ConformanceReport) => (r?.requirements ?? []).filter((q) => q.verdict === 'failed').map((q) => q.id);
/** The tests of the requirement a mutant breaks, and of those that reach it. */
const grepFor = (m: Mutant) => `@(${[m.requirement, ...(m.reachedBy ?? [])].join('|')})\\b`;

/** Runs `work` over `items`, `jobs` at a time. */
async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  }));
  return results;
}

function chooseMutants(): Mutant[] {
  if (args.mutants === 'none') return [];
  if (args.mutants) return args.mutants.split(',').map(mutantNamed);
  if (!args.fast) return MUTANTS;
  const seen = new Set<string>();
  return MUTANTS.filter((m) => {
    const family = m.requirement.split('-')[0]!;
    if (seen.has(family)) return false;
    seen.add(family);
    return true;
  });
}

const started = Date.now();
const summary: Record<string, unknown> = { startedAt: new Date(started).toISOString(), fast: args.fast };
let ok = true;
const line = (s: string) => process.stdout.write(`${s}\n`);

/** `--mutants` alone measures those mutants only: no baseline, no variants (unless `--variants` names some); `--mutants none --variants NAME` checks variants only. */
const mutantsOnly = args.mutants !== undefined && args.variants === undefined;
if (!args.fast && !args['skip-baseline'] && !args.grep && !mutantsOnly && args.mutants !== 'none') {
  line('Specificity: the suite against the mock (seed 1), then re-seeded with every test repeated…');
  const [baseline, reseeded] = await pool(
    [
      { name: 'baseline', cli: ['--strict'], env: {} },
      { name: `reseeded-${args.seed}`, cli: ['--strict', '--seed', args.seed!, '--repeat-each', '2'], env: {} },
    ],
    1,
    (r) => run(r.name, r.cli, r.env),
  );
  for (const [name, r] of [['baseline', baseline!], [`re-seeded (seed ${args.seed}, --repeat-each 2)`, reseeded!]] as const) {
    const green = r.code === 0 && r.report?.run.tests.failed === 0;
    ok &&= green;
    line(`  ${green ? 'green' : 'RED  '} ${name}: ${r.report?.run.tests.passed ?? 0} passed, ${r.report?.run.tests.failed ?? '?'} failed, verdict ${r.report?.verdict ?? 'none'} (${(r.durationMs / 1000).toFixed(0)} s)`);
  }
  const partial = await partialProfileRun();
  const clean = partial.code === 0 && partial.report?.run.tests.failed === 0 && partial.report?.verdict === 'incomplete';
  ok &&= clean;
  line(`  ${clean ? 'green' : 'RED  '} live keys only, no fixtures, no control API: ${partial.report?.run.tests.passed ?? 0} passed, ${partial.report?.run.tests.failed ?? '?'} failed, ${partial.report?.run.tests.skipped ?? '?'} skipped, verdict ${partial.report?.verdict ?? 'none'} (${(partial.durationMs / 1000).toFixed(0)} s)`);
  summary.partialProfile = { green: clean, tests: partial.report?.run.tests, verdict: partial.report?.verdict, durationMs: partial.durationMs, failing: failedIds(partial.report) };
  summary.baseline = { green: baseline!.code === 0, tests: baseline!.report?.run.tests, verdict: baseline!.report?.verdict, durationMs: baseline!.durationMs, failing: failedIds(baseline!.report) };
  summary.reseeded = { seed: Number(args.seed), green: reseeded!.code === 0, tests: reseeded!.report?.run.tests, verdict: reseeded!.report?.verdict, durationMs: reseeded!.durationMs, failing: failedIds(reseeded!.report) };
}

const mutants = chooseMutants();
line(`Sensitivity: ${mutants.length} mutants, ${args.jobs} at a time…`);
const results = await pool(mutants, Number(args.jobs), async (m) => {
  const r = await run(`mutant-${m.name}`, args.grep ? ['--grep', args.grep] : args['full-suite'] || m.broad ? [] : ['--grep', grepFor(m)], { MOCK_MUTANT: m.name });
  const failing = failedIds(r.report);
  const stated = new Set<string>(m.states ?? [m.requirement]);
  const result = {
    name: m.name,
    requirement: m.requirement,
    description: m.description,
    killed: failing.length > 0 || (r.report?.run.tests.failed ?? 0) > 0,
    killedByNamedRequirement: failing.includes(m.requirement),
    failing,
    broad: m.broad ?? false,
    // Blast radius: the failed `must` requirements that do not state the rule the mutant breaks.
    blast: (r.report?.requirements ?? []).filter((q) => q.verdict === 'failed' && q.level === 'must' && !stated.has(q.id)).map((q) => q.id),
    rootCauses: r.report?.rootCauses.map((c) => `${c.id} [${c.level}] ${c.summary}`) ?? [],
    tests: r.report?.run.tests,
    durationMs: r.durationMs,
    ...(r.report ? {} : { error: r.log.split('\n').filter(Boolean).slice(-3).join(' | ') }),
  };
  line(`  ${result.killedByNamedRequirement ? 'killed  ' : result.killed ? 'KILLED? ' : 'SURVIVED'} ${m.name.padEnd(40)} ${m.requirement.padEnd(10)} failing: ${failing.join(', ') || '—'}; blast radius ${result.blast.length}${result.blast.length ? ` (${result.blast.join(', ')})` : ''}; ${result.rootCauses.length} root cause${result.rootCauses.length === 1 ? '' : 's'}`);
  for (const c of result.rootCauses.slice(0, 8)) line(`      ${c.slice(0, 220)}`);
  return result;
});
if (args.grep) {
  // Sensitivity of one part of the suite alone: no survivor check, baseline or variants.
  const killed = results.filter((r) => r.killed);
  line(`Kills by the tests matching ${args.grep} alone: ${killed.length} of ${results.length} mutants (${killed.filter((r) => r.killedByNamedRequirement).length} failing the mutant's own requirement).`);
  writeFileSync(`${out}-grep.json`, `${JSON.stringify({ grep: args.grep, mutants: results, killed: killed.map((r) => r.name) }, null, 2)}\n`);
  process.exit(0);
}
const survivors = results.filter((r) => !r.killedByNamedRequirement);
ok &&= survivors.length === 0;
summary.mutants = results;
summary.kills = { total: results.length, killed: results.filter((r) => r.killed).length, killedByNamedRequirement: results.length - survivors.length };

// Blast radius: the `must` requirements a mutant fails besides those stating its rule (over-attributing
// tests, or a mutant breaking more than one rule); a broad mutant also owes one root cause.
const blast = results.map((r) => ({ name: r.name, extra: r.blast }));
const scattered = results.filter((r) => r.broad && r.rootCauses.length !== 1);
ok &&= scattered.length === 0 && blast.every((b) => b.extra.length <= 3);
const sizes = blast.map((b) => b.extra.length).sort((a, b) => a - b);
const median = sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)]! : 0;
const max = sizes.at(-1) ?? 0;
const worst = blast.filter((b) => b.extra.length > 0).sort((a, b) => b.extra.length - a.extra.length).slice(0, 5);
summary.blastRadius = { median, max, byMutant: blast };

const variantNames = args.variants === 'none' ? [] : args.variants ? variantsNamed(args.variants).map((v) => v.name) : mutantsOnly ? [] : args.fast ? FAST_VARIANTS : VARIANTS.map((v) => v.name);
line(`Specificity across freedoms: ${variantNames.length} variants, one at a time…`);
const variantResults: Array<{ name: string; passed: boolean; verdict?: string; failedMust: string[]; notAssessedMust: number; failedInferred: string[]; durationMs: number }> = [];
for (const name of variantNames) {
  const incomplete = variantsNamed(name)[0]!.incomplete === true;
  const r = await run(`variant-${name}`, incomplete ? ['--allow-incomplete'] : [], { MOCK_VARIANT: name });
  const failed = (r.report?.requirements ?? []).filter((q) => q.verdict === 'failed');
  const failedMust = failed.filter((q) => q.level === 'must').map((q) => q.id);
  const failedInferred = failed.filter((q) => q.level !== 'must').map((q) => q.id);
  const notAssessedMust = (r.report?.requirements ?? []).filter((q) => q.level === 'must' && q.verdict === 'not assessed').length;
  const passed = !!r.report && failedMust.length === 0 && (r.report.verdict === 'conformant' || (incomplete && r.report.verdict === 'incomplete'));
  variantResults.push({ name, passed, verdict: r.report?.verdict, failedMust, notAssessedMust, failedInferred, durationMs: r.durationMs });
  line(`  ${passed ? 'passed' : 'FAILED'} ${name.padEnd(24)} verdict ${r.report?.verdict ?? 'none'}; failed must: ${failedMust.join(', ') || '—'}; must not assessed: ${notAssessedMust}; failed inferred: ${failedInferred.join(', ') || '—'} (${(r.durationMs / 1000).toFixed(0)} s)`);
}
const variantsPassed = variantResults.filter((v) => v.passed).length;
ok &&= variantsPassed === variantResults.length;
summary.variants = variantResults;
summary.durationMs = Date.now() - started;
writeFileSync(`${out}${args.fast ? '-fast' : ''}.json`, `${JSON.stringify(summary, null, 2)}\n`);

line('');
line(`Sensitivity: own mutants killed: ${results.length - survivors.length}/${results.length}${survivors.length ? `; not: ${survivors.map((s) => s.name).join(', ')}` : ''}.`);
line(`Blast radius: median ${median}, max ${max} extra must requirements${worst.length ? `; worst: ${worst.map((w) => `${w.name} (+${w.extra.join(', ')})`).join('; ')}` : ''}.`);
if (results.some((r) => r.broad)) line(`Root causes of broad mutants: ${results.filter((r) => r.broad).map((r) => `${r.name} ${r.rootCauses.length}`).join(', ')}${scattered.length ? ' (each owes one)' : ''}.`);
line(`Specificity: variants passed ${variantsPassed}/${variantResults.length} (described-only ${variantNames.includes('described-only') ? 'included' : 'not run'})${variantsPassed < variantResults.length ? `; not: ${variantResults.filter((v) => !v.passed).map((v) => v.name).join(', ')}` : ''}.`);
line(`Self-test ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s. Report: ${out}${args.fast ? '-fast' : ''}.json`);
process.exit(ok ? 0 : 1);
