/**
 * `npm run bench`: the performance targets of the mock and the suite (docs/maintainers.md, Benchmarks), measured, not
 * asserted by timed tests. Prints a table, writes reports/bench.json, exits 1 when a target is missed or
 * a measurement is invalid (a non-2xx answer, a socket error).
 *
 *   npm run bench                                  # everything (about 10 minutes)
 *   npm run bench -- --only throughput,walk       # some parts: throughput, path, walk, memory, startup, failing, suite, remote, state, install, scale
 *   npm run bench -- --duration 5 --rounds 3 --memory-requests 200000
 *
 * The machine may be noisy: rounds are interleaved and medians compared; read ratios, not absolute
 * figures, and compare only figures of one run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { ROOT } from '../contract/paths.ts';
import { memory, type MemoryReport } from './memory.ts';
import { startup, type StartupReport } from './startup.ts';
import { failingRun, type FailingReport } from './failing-run.ts';
import { throughput, type EndpointReport } from './throughput.ts';
import { requestPath, type RequestPathReport } from './request-path.ts';
import { walk, type WalkReport } from './walk.ts';
import { REMOTE_WALL_TARGET_MS, remoteRun, suiteRun, type SuiteReport } from './suite.ts';
import { stateCost, type StateReport } from './state.ts';
import { stateScale, type StateScaleReport } from './state-scale.ts';
import { installCost, type InstallReport } from './install.ts';
import { scale, scaleTargets, type ScaleReport } from './scale.ts';

const PARTS = ['throughput', 'path', 'walk', 'memory', 'startup', 'failing', 'suite', 'remote', 'state', 'install', 'scale'] as const;
type Part = (typeof PARTS)[number];

const positive = (name: string) => (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer.`);
  return n;
};

const program = new Command('bench')
  .option('--only <parts>', `comma-separated parts: ${PARTS.join(', ')}`, (v) => v.split(',').map((p) => {
    if (!PARTS.includes(p as Part)) throw new InvalidArgumentError(`unknown part ${p}`);
    return p as Part;
  }), [...PARTS])
  .option('--connections <n>', 'autocannon connections', positive('--connections'), 50)
  .option('--duration <s>', 'seconds per throughput run', positive('--duration'), 10)
  .option('--warmup <s>', 'seconds of warm-up per server and endpoint', positive('--warmup'), 3)
  .option('--rounds <n>', 'interleaved throughput rounds', positive('--rounds'), 4)
  .option('--path-keys <n>', 'keys cycled by the in-process request path', positive('--path-keys'), 500)
  .option('--work-orders <n>', 'work orders to walk', positive('--work-orders'), 100_000)
  .option('--samples <n>', 'timed requests of each of the first and last pages', positive('--samples'), 300)
  .option('--memory-requests <n>', 'requests of the memory run', positive('--memory-requests'), 1_000_000)
  .option('--startups <n>', 'start-ups of npm run mock', positive('--startups'), 3)
  .option('--mutant <name>', 'the mutant of the failing part (mock/mutants/catalog.ts)', 'create-200-everywhere')
  .option('--latency <ms>', 'latency added to every request of the remote part', positive('--latency'), 100)
  .option('--concurrency <n>', "tests at once in the remote part (default: the target's, from its live keys' budget)", positive('--concurrency'))
  .option('--state-records <n>', 'work orders of the state part\'s large file store', positive('--state-records'), 1_000_000)
  .option('--installs <n>', 'tarball installs of the install part', positive('--installs'), 3)
  .option('--install-cache <cache>', 'npm cache of the install part: cold (a fresh one per install) or warm (yours)', (v) => {
    if (v !== 'cold' && v !== 'warm') throw new InvalidArgumentError('--install-cache must be cold or warm');
    return v;
  }, 'cold')
  .option('--scale-sizes <sizes>', 'record counts of the scale part, ascending', (v) => v.split(',').map(positive('--scale-sizes')), [10_000, 100_000, 1_000_000])
  .parse();
const opts = program.opts<{ scaleSizes: number[]; only: Part[]; connections: number; duration: number; warmup: number; rounds: number; pathKeys: number; workOrders: number; samples: number; memoryRequests: number; startups: number; mutant: string; latency: number; concurrency?: number; stateRecords: number; installs: number; installCache: 'cold' | 'warm' }>();

interface Target { name: string; measured: string; target: string; met: boolean }

const log = (line: string) => process.stderr.write(`  ${line}\n`);
const fixed = (n: number, digits = 2) => n.toFixed(digits);
const targets: Target[] = [];
const problems: string[] = [];
const report: { startedAt: string; command: string; node: string; options: typeof opts; throughput?: EndpointReport[]; path?: RequestPathReport; walk?: WalkReport; memory?: MemoryReport; startup?: StartupReport; failing?: FailingReport; suite?: SuiteReport; remote?: SuiteReport & { latencyMs: number }; state?: StateReport[]; stateScale?: StateScaleReport; install?: InstallReport; scale?: ScaleReport; targets: Target[]; problems: string[] } = {
  startedAt: new Date().toISOString(),
  command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
  node: process.version,
  options: opts,
  targets,
  problems,
};

if (opts.only.includes('throughput')) {
  process.stderr.write('throughput (autocannon, interleaved rounds)\n');
  report.throughput = await throughput({ connections: opts.connections, duration: opts.duration, warmup: opts.warmup, rounds: opts.rounds, log });
  for (const e of report.throughput) {
    if (e.vsPrism !== undefined) targets.push({ name: `${e.endpoint}: mock ÷ prism mock`, measured: `${fixed(e.vsPrism, 1)}×`, target: '≥ 10×', met: e.vsPrism >= 10 });
    const wanted = e.endpoint.startsWith('GET /v1/meters/') ? 0.8 : 0.9;
    const spread = `rounds ${fixed(Math.min(...e.vsBareRounds))}–${fixed(Math.max(...e.vsBareRounds))}×`;
    targets.push({ name: `${e.endpoint}: mock (every rule on) ÷ bare node:http`, measured: `${fixed(e.vsBare)}× (${spread}; fastify ${fixed(e.fastifyVsBare)}×; mock ÷ fastify ${fixed(e.vsFastify)}×; CPU/answer mock ${fixed(e.servers.mock?.cpuPerAnswer ?? NaN, 1)} µs, bare ${fixed(e.servers['node:http']?.cpuPerAnswer ?? NaN, 1)} µs)`, target: `≥ ${wanted}×`, met: e.vsBare >= wanted });
    problems.push(...e.problems.map((p) => `${e.endpoint}: ${p}`));
  }
}
if (opts.only.includes('path')) {
  process.stderr.write('request path (in-process, stub request and response)\n');
  const p = (report.path = await requestPath({ keys: opts.pathKeys, requests: Math.min(100_000, opts.pathKeys * 900), rounds: 3 * opts.rounds, log }));
  const figures = p.endpoints.map((e) => `${e.endpoint.replace('GET /v1/', '')} ${fixed(e.nsPerRequest / 1000)} µs`).join(', ');
  targets.push({ name: `the mock's request path in-process, per request (${p.keys} keys)`, measured: figures, target: 'stated', met: true });
  problems.push(...p.problems.map((problem) => `path: ${problem}`));
}
if (opts.only.includes('walk')) {
  process.stderr.write('walk (deep pages)\n');
  report.walk = await walk({ workOrders: opts.workOrders, samples: opts.samples, log });
  const w = report.walk;
  targets.push({ name: `GET /v1/work-orders?limit=100, page ${w.pages} ÷ page 1 (p50)`, measured: `${fixed(w.lastPageMs)} ÷ ${fixed(w.firstPageMs)} ms = ${fixed(w.ratio)}×`, target: '≤ 1.5×', met: w.ratio <= 1.5 });
  problems.push(...w.problems.map((p) => `walk: ${p}`));
}
if (opts.only.includes('memory')) {
  process.stderr.write('memory (heap used after GC)\n');
  report.memory = await memory({ connections: opts.connections, baseline: Math.min(10_000, opts.memoryRequests), total: opts.memoryRequests, checkpoints: 3, log });
  const m = report.memory;
  const first = m.samples[0]!;
  const last = m.samples[m.samples.length - 1]!;
  targets.push({
    name: `heap used after GC, ${last.requests.toLocaleString('en')} ÷ ${first.requests.toLocaleString('en')} requests`,
    measured: `${fixed(last.heapUsedMB, 1)} ÷ ${fixed(first.heapUsedMB, 1)} MB = ${fixed(m.heapRatio)}× (RSS ${fixed(m.rssRatio)}×)`,
    target: '≤ 1.2×',
    met: m.heapRatio <= 1.2,
  });
  problems.push(...m.problems.map((p) => `memory: ${p}`));
}
if (opts.only.includes('startup')) {
  process.stderr.write('start-up (npm run mock) and Ctrl-C\n');
  report.startup = await startup(opts.startups);
  const s = report.startup;
  targets.push({ name: 'npm run mock: spawn → ready line (median)', measured: `${Math.round(s.readyLineMs)} ms (first answer ${Math.round(s.firstAnswerMs)} ms)`, target: '< 2000 ms', met: s.readyLineMs < 2000 });
  targets.push({ name: 'Ctrl-C: SIGINT to the process group of tsx mock/main.ts', measured: `${s.runs.map((r) => r.mockExit).join(', ')} (npm run mock: ${s.runs.map((r) => r.npmExit).join(', ')})`, target: 'code 0', met: s.cleanExit });
}
if (opts.only.includes('failing')) {
  process.stderr.write(`failing fast (full conformance run green, then with MOCK_MUTANT=${opts.mutant})\n`);
  report.failing = await failingRun(opts.mutant, log);
  const f = report.failing;
  targets.push({ name: `conformance run, ${f.mutant.testsFailed} tests failing (${opts.mutant}) ÷ green`, measured: `${fixed(f.mutant.wallMs / 1000, 1)} ÷ ${fixed(f.green.wallMs / 1000, 1)} s = ${fixed(f.ratio)}×`, target: '≤ 1.5×', met: f.ratio <= 1.5 });
  problems.push(...f.problems.map((p) => `failing: ${p}`));
}

if (opts.only.includes('suite')) {
  process.stderr.write('suite (npm run conformance against the embedded mock)\n');
  const s = (report.suite = await suiteRun(log));
  targets.push({ name: 'npm run conformance from the shell: wall time (spawn to exit)', measured: `${fixed(s.wallMs / 1000, 1)} s (${s.tests.total} tests, ${s.verdict}; ${fixed((s.cpuMs.user + s.cpuMs.system) / 1000, 1)} s CPU)`, target: '≤ 20 s', met: s.wallMs <= 20_000 && s.verdict === 'conformant' });
  targets.push({ name: 'requests per certification (run.requests)', measured: `${s.requests.toLocaleString('en')} (${fixed(s.budgetMinutes, 1)} min of one live key)`, target: '≤ 3,000', met: s.requests <= 3000 });
  if (s.tests.failed > 0 || s.verdict !== 'conformant') problems.push(`suite: ${s.verdict}, ${s.tests.failed} tests failed: ${s.failedTests.join('; ')}`);
}
if (opts.only.includes('remote')) {
  process.stderr.write(`remote (the suite through a profile, +${opts.latency} ms per request)\n`);
  const r = (report.remote = await remoteRun(opts.latency, log, opts.concurrency));
  targets.push({ name: `remote-like run (+${r.latencyMs} ms per request): tests failed`, measured: `${r.tests.failed} of ${r.tests.total} (${fixed(r.wallMs / 1000, 1)} s, ${r.requests.toLocaleString('en')} requests, ${r.concurrency} tests at once)`, target: '0', met: r.tests.failed === 0 });
  // The wall-time target is set at +100 ms a request; at other latencies the time is stated.
  const timed = r.latencyMs === 100;
  targets.push({ name: `remote-like run (+${r.latencyMs} ms per request): wall time`, measured: `${fixed(r.wallMs / 1000, 1)} s`, target: timed ? `≤ ${REMOTE_WALL_TARGET_MS / 1000} s` : 'stated', met: !timed || r.wallMs <= REMOTE_WALL_TARGET_MS });
  if (r.tests.failed > 0) problems.push(`remote: failed tests: ${r.failedTests.join('; ')}`);
}
if (opts.only.includes('install')) {
  process.stderr.write(`install (npm pack, then the docs' install into an empty folder; ${opts.installCache} npm cache)\n`);
  const r = (report.install = await installCost(opts.installs, opts.installCache, log));
  const failed = r.runs.filter((x) => x.code !== 0).length;
  if (failed) problems.push(`install: ${failed} of ${r.runs.length} installs failed`);
  targets.push({ name: `tarball install into an empty folder (${r.command}; ${r.cache} cache; median of ${r.runs.length})`, measured: `${(r.wallMs / 1000).toFixed(1)} s, ${r.warnings} warning lines, native build: ${r.nativeBuilt ? 'yes' : 'no'}`, target: '≤ 60 s, no warning, nothing compiled', met: r.wallMs <= 60_000 && r.warnings === 0 && !r.nativeBuilt });
}
if (opts.only.includes('state')) {
  process.stderr.write('state stores (memory, file, PostgreSQL; interleaved rounds)\n');
  report.state = await stateCost({ connections: opts.connections, duration: opts.duration, warmup: opts.warmup, rounds: opts.rounds, log });
  for (const e of report.state) {
    const file = e.stores.file!;
    const pg = e.stores.postgres!;
    const isRead = e.endpoint.startsWith('GET');
    const [fileGoal, pgGoal] = isRead ? [0.9, 0.3] : [0.5, 0.2]; // docs/integrators.md, "State and replicas"
    targets.push({ name: `${e.endpoint}: file store ÷ memory store`, measured: `${fixed(file.vsMemory)}×`, target: `≥ ${fileGoal}×`, met: file.vsMemory >= fileGoal });
    targets.push({ name: `${e.endpoint}: PostgreSQL store ÷ memory store`, measured: `${fixed(pg.vsMemory)}×`, target: `≥ ${pgGoal}×`, met: pg.vsMemory >= pgGoal });
    problems.push(...e.problems.map((p) => `state ${e.endpoint}: ${p}`));
  }
  const big = (report.stateScale = await stateScale({ records: opts.stateRecords, log }));
  targets.push({ name: `file store of ${big.records.toLocaleString('en')} work orders: peak RSS added over a seeded mock ÷ state size (start ${fixed(big.startSeconds, 1)} s, export ${fixed(big.exportSeconds, 1)} s)`, measured: `${fixed(big.vsState)}× (${fixed(big.peakAfterExportMB, 0)} MB, state ${fixed(big.stateMB, 0)} MB)`, target: '≤ 2×', met: big.vsState <= 2 });
}
if (opts.only.includes('scale')) {
  process.stderr.write(`scale (one organization at ${opts.scaleSizes.join(', ')} work orders and readings)\n`);
  const s = (report.scale = await scale({ sizes: opts.scaleSizes, samples: opts.samples, log }));
  targets.push(...scaleTargets(s));
  problems.push(...s.problems.map((p) => `scale: ${p}`));
}

const rows: string[][] = [['target', 'measured', 'wanted', '']];
for (const t of targets) rows.push([t.name, t.measured, t.target, t.met ? 'met' : 'MISSED']);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
const out: string[] = ['', line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  ')];
for (const r of rows.slice(1)) out.push(line(r));
if (report.throughput) {
  out.push('', 'throughput, medians of interleaved rounds:');
  for (const e of report.throughput) if (e.prismDropped) out.push(`  ${e.endpoint}: no Prism ratio: ${e.prismDropped}`);
  for (const e of report.throughput) {
    for (const [name, f] of Object.entries(e.servers)) {
      out.push(`  ${e.endpoint.padEnd(30)} ${name.padEnd(10)} ${Math.round(f.rps).toString().padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  ${f.responseBytes} B body  rounds ${f.rounds.join(' ')}${f.cpuPerAnswer === undefined ? '' : `  CPU ${fixed(f.cpuPerAnswer, 1)} µs/answer (rounds ${f.cpuRounds!.join(' ')})`}`);
    }
  }
}
for (const [name, run] of [['suite', report.suite], ['remote', report.remote]] as const) {
  if (!run) continue;
  const p = run.phases;
  const s = (ms: number) => `${fixed(ms / 1000, 1)} s`;
  const against = name === 'suite' ? ` (target ≤ 20 s: ${run.wallMs <= 20_000 ? 'met' : 'missed'})` : ` (${run.concurrency} tests at once)`;
  out.push('', `${name}: ${s(run.wallMs)} wall${against}, ${s(run.cpuMs.user + run.cpuMs.system)} CPU (user ${s(run.cpuMs.user)} + system ${s(run.cpuMs.system)}, every process of the run) = start-up ${s(p.startupMs)} + worker start ${s(p.workerStartMs)} + parallel ${s(p.parallelMs)} + serial ${s(p.serialMs)} + reports ${s(p.reportsMs)}`);
  out.push(`  start-up = CLI ${s(p.startup.cliMs)} + embedded mock ${s(p.startup.embeddedMockMs)} + runner and config ${s(p.startup.runnerMs)} + global setup ${s(p.startup.globalSetupMs)} + test files ${s(p.startup.loadTestsMs)}`);
  if (p.workerStart) out.push(`  worker start = setup's worker ${s(p.workerStart.setupWorkerMs)} + setup test ${s(p.workerStart.setupTestMs)} + parallel workers ${s(p.workerStart.parallelWorkersMs)}`);
  out.push(`  reports = workers' end and teardown ${s(p.reports.teardownMs)} + kit reports ${s(p.reports.kitReportsMs)} + Playwright's reporters ${s(p.reports.otherReportersMs)} + redaction ${s(p.reports.redactMs)} + runner's exit ${s(p.reports.exitMs)} + CLI after the runner ${s(p.reports.cliMs)}`);
  out.push(`  busy time by project: ${Object.entries(run.busyMsByProject).map(([k, v]) => `${k} ${fixed(v / 1000, 1)} s`).join(', ')}`);
  out.push(`  ${run.requests.toLocaleString('en')} requests = ${fixed(run.budgetMinutes, 1)} minutes of rate budget with one live key (1,000 a minute); by family: ${run.requestsByFamily.map((f) => `${f.family} ${f.requests}`).join(', ')}`);
}
if (report.state) {
  out.push('', 'state stores, medians of interleaved rounds:');
  for (const e of report.state) {
    for (const [name, f] of Object.entries(e.stores)) out.push(`  ${e.endpoint.padEnd(22)} ${name.padEnd(8)} ${Math.round(f.rps).toString().padStart(6)} req/s  ${fixed(f.vsMemory)}× memory  p50 ${f.p50} ms  p99 ${f.p99} ms  rounds ${f.rounds.join(' ')}`);
  }
}
if (report.walk) out.push('', `walk: ${report.walk.workOrders.toLocaleString('en')} work orders, ${report.walk.pages} pages in ${fixed(report.walk.walkSeconds, 1)} s`);
if (report.memory) out.push('', `memory: ${report.memory.samples.map((s) => `${s.requests.toLocaleString('en')} → ${fixed(s.heapUsedMB, 1)} MB heap, ${fixed(s.rssMB, 1)} MB RSS`).join('; ')}`);
if (problems.length) out.push('', 'problems:', ...problems.map((p) => `  ${p}`));
process.stdout.write(`${out.join('\n')}\n`);

mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
writeFileSync(resolve(ROOT, 'reports/bench.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write('\nwrote reports/bench.json\n');
process.exit(targets.every((t) => t.met) && problems.length === 0 ? 0 : 1);
