/**
 * The conformance suite against the mock on a persistent state store (docs/integrators.md, "State and
 * replicas"; docs/maintainers.md, "Development"):
 *
 *   tsx tools/conformance-on-store.ts file       # one mock on a fresh SQLite file
 *   tsx tools/conformance-on-store.ts replicas   # two mock processes on a throwaway PostgreSQL, behind a round-robin front
 *   tsx tools/conformance-on-store.ts replicas --postgres postgres://user@host/db   # on a database of your own (its mock tables are replaced)
 *
 * Writes the target profile of what it started (tokens included) into the run's output directory
 * (reports/state-file or reports/state-replicas), runs `mms-conformance run --profile … --strict` and exits
 * with its exit code. Arguments after `--` go to the run (e.g. `-- --family AUTH`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../contract/paths.ts';
import { body, control, killHard, startChildMock, type ChildMock } from './lib/child-mock.ts';
import { startPostgres, type Postgres } from './lib/postgres.ts';
import { startRoundRobin, type RoundRobin } from './lib/round-robin.ts';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { postgres: { type: 'string' } } });
const mode = positionals[0];
if (mode !== 'file' && mode !== 'replicas') {
  process.stderr.write('usage: tsx tools/conformance-on-store.ts file|replicas [--postgres URL] [-- run options]\n');
  process.exit(2);
}
const dashdash = process.argv.indexOf('--');
const runArgs = dashdash === -1 ? [] : process.argv.slice(dashdash + 1);

const output = join(ROOT, 'reports', `state-${mode}`);
mkdirSync(output, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), 'mock-store-run-'));
const mocks: ChildMock[] = [];
let pg: Postgres | undefined;
let front: RoundRobin | undefined;
let code = 1;
try {
  let target: string;
  if (mode === 'file') {
    mocks.push(await startChildMock(['--state', join(scratch, 'state.db')]));
    target = mocks[0]!.url;
  } else {
    let url = opts.postgres;
    if (!url) {
      pg = await startPostgres();
      url = pg.url;
    }
    mocks.push(await startChildMock(['--state', url]));
    // A database of one's own may hold another run's state: start from the seed.
    if (opts.postgres) await control(mocks[0]!.url, '/__mock/reset', { method: 'POST', body: {} });
    mocks.push(await startChildMock(['--state', url]));
    front = await startRoundRobin(mocks.map((m) => m.url));
    target = front.url;
  }
  const profile = await body(control(mocks[0]!.url, '/__mock/profile'));
  profile.name = `Reference mock (${mode === 'file' ? 'file store' : 'two replicas on PostgreSQL behind a round-robin front'})`;
  profile.baseUrl = `${target}/v1`;
  profile.control.baseUrl = `${target}/__mock`;
  delete profile.$schema;
  const profileFile = join(output, 'target-profile.json');
  writeFileSync(profileFile, `${JSON.stringify(profile, null, 2)}\n`);
  process.stdout.write(`conformance on ${mode === 'file' ? 'the file store' : `two replicas behind ${target}`}: profile ${profileFile}\n`);
  const run = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--profile', profileFile, '--strict', '--output', output, ...runArgs], { cwd: ROOT, stdio: 'inherit' });
  code = await new Promise<number>((done) => run.once('exit', (c) => done(c ?? 1)));
} catch (e) {
  process.stderr.write(`conformance-on-store: ${(e as Error).message}\n`);
  code = 2;
} finally {
  await front?.stop();
  await Promise.all(mocks.map((m) => killHard(m)));
  pg?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
