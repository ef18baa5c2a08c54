/**
 * `npm run mock`: starts the stateful mock, prints its URLs, the control token (once) and the keys to
 * try (masked: the profile holds them in full), stops cleanly on Ctrl-C. A port already in use, or the
 * control API on a non-loopback `--host` without `--control-token`, is one line on stderr and exit code 2.
 */
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_BUDGET } from './control/budget.ts';
import { publicOrigin, startMock, type RunningMock } from './server.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER, isLoopbackAddress } from './control/guard.ts';
import { firstCallLines, writeKeysFile } from './first-call.ts';
import { JOURNAL_MAX_BODY_LIMIT, JOURNAL_MAX_SIZE } from './journal/journal.ts';
import { DEFAULT_SEED } from './seed/build.ts';
import { findMutant } from './mutants/catalog.ts';
import type { Mutant } from './mutants/mutant.ts';
import { variantsNamed } from './variants/catalog.ts';
import { combine, type Variant } from './variants/variant.ts';

export interface MockCommandOptions { port: number; host: string; seed: number; control: boolean; state?: string; seedFile?: string; cors?: boolean; controlToken?: string; publicUrl?: string; mutant?: Mutant; variant?: Variant[]; maxRecords: number; maxOrganizations: number; journal?: boolean; journalSize?: number; journalBodyLimit?: number; keysOut?: string }

/** A key shown without its secret part: `sk_live_…abcd`. */
export function maskKey(key: string): string {
  return `${key.slice(0, key.indexOf('_', 3) + 1)}…${key.slice(-4)}`;
}

const token = (value: string): string => {
  if (!/^[\x21-\x7e]{16,256}$/.test(value)) throw new InvalidArgumentError('--control-token must be 16 to 256 visible ASCII characters.');
  return value;
};

const url = (value: string): string => {
  try {
    return publicOrigin(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
};

const variantList = (value: string): Variant[] => {
  try {
    return variantsNamed(value);
  } catch (e) {
    throw new InvalidArgumentError(`${(e as Error).message} (see docs/freedoms.md).`);
  }
};

const mutantNamed = (value: string): Mutant => {
  const found = findMutant(value);
  if (!found) throw new InvalidArgumentError(`no mutant ${value} (see mock/mutants/catalog.ts).`);
  return found;
};

const integer = (name: string, min: number, max: number) => (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
  return n;
};

/** Adds the mock's options to a command (shared by this script and the kit's CLI). */
export function mockOptions(command: Command): Command {
  return command
    .option('-p, --port <port>', 'TCP port (0 picks a free one)', integer('--port', 0, 65535), 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('-s, --seed <seed>', 'seed of the generated data', integer('--seed', 0, 2 ** 31 - 1), DEFAULT_SEED)
    .option('--no-control', 'turn off the control API under /__mock/')
    .option('--no-cors', 'turn off CORS on the API (on by default: Access-Control-Allow-Origin: *, preflights answered 204)')
    .option('--control-token <token>', `the control API's token (default: $${CONTROL_TOKEN_ENV}, else a random one per start); required with a non-loopback --host`, token, process.env[CONTROL_TOKEN_ENV] || undefined)
    .option('--public-url <url>', 'the origin of absolute URLs in answers (nextPageUrl; default: the bound address)', url)
    .option('--mutant <name>', 'break one requirement on purpose (a self-test mutant of mock/mutants/catalog.ts)', mutantNamed)
    .option('--state <store>', 'where the state lives: memory, a SQLite file (./mock-state.db) or postgres://user@host/db for replicas (docs/integrators.md, "State and replicas")', 'memory')
    .option('--seed-file <file>', 'a state document to start from (spec/mock-state.schema.json; a persistent store uses it only when empty)')
    .option('--variant <names>', 'serve freedoms of the description differently (comma-separated; docs/freedoms.md)', variantList)
    .option('--max-records <n>', 'the most records the whole mock holds; control requests past it get 507', integer('--max-records', 1, 100_000_000), DEFAULT_BUDGET.records)
    .option('--max-organizations <n>', 'the most organizations (seeded and sandbox) the mock holds; control requests past it get 507', integer('--max-organizations', 1, 100_000), DEFAULT_BUDGET.organizations)
    .option('--journal', 'record every API exchange: GET /__mock/journal, the inspector page at /__mock/inspector/ (docs/integrators.md, "The request journal")')
    .option('--journal-size <n>', 'exchanges the journal keeps (default 1000; the oldest go first)', integer('--journal-size', 1, JOURNAL_MAX_SIZE))
    .option('--journal-body-limit <bytes>', 'bytes of each request and response body the journal keeps (default 16384)', integer('--journal-body-limit', 1, JOURNAL_MAX_BODY_LIMIT))
    .option('--keys-out <file>', 'write the address, control token and keys in full to FILE as shell exports (mode 0600) for `. FILE`');
}

/**
 * Starts the mock and keeps it running until SIGINT/SIGTERM, then closes it and exits 0 (also when
 * interrupted during start-up). A port it cannot listen on is one line on stderr and exit code 2.
 */
export async function runMock(opts: MockCommandOptions): Promise<RunningMock> {
  let mock: RunningMock | undefined;
  const stop = () => {
    if (mock) mock.stop().then(() => process.exit(0));
    else process.exit(0);
  };
  // Before the ready line: whoever reads it may send SIGINT at once.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    mock = await startMock({ port: opts.port, host: opts.host, seed: opts.seed, control: opts.control, cors: opts.cors, controlToken: opts.controlToken, publicUrl: opts.publicUrl, state: opts.state, seedFile: opts.seedFile, budget: { records: opts.maxRecords, organizations: opts.maxOrganizations }, ...(opts.journal !== undefined || opts.journalSize !== undefined || opts.journalBodyLimit !== undefined ? { journal: { enabled: opts.journal ?? false, size: opts.journalSize, bodyLimit: opts.journalBodyLimit } } : {}), mutation: combine([...(opts.variant ?? []).map((v) => v.mutation), ...(opts.mutant ? [opts.mutant.mutation] : [])]) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ECONTROLTOKEN' || err.code === 'ESTATE' ? err.message
      : err.code === 'EADDRINUSE' ? `port ${opts.port} on ${opts.host} is already in use (try --port 0 or another port)`
      : err.code === 'EACCES' ? `no permission to listen on ${opts.host}:${opts.port}`
      : err.message;
    process.stderr.write(`mock: cannot start: ${why}\n`);
    process.exit(2);
  }
  if (opts.keysOut !== undefined) {
    try {
      writeKeysFile(opts.keysOut, mock);
    } catch (e) {
      process.stderr.write(`mock: cannot write --keys-out ${opts.keysOut}: ${(e as Error).message}\n`);
      await mock.stop();
      process.exit(2);
    }
  }
  const keys = mock.profile.keys as { live: string[]; test: string; otherOrg: string; scopes: Record<string, string> };
  const loopback = isLoopbackAddress(opts.host);
  const first = firstCallLines(mock, loopback, opts.keysOut);
  // The token is printed once: in the first-call lines when they set it, else on the control API's line.
  const tokenBelow = mock.controlToken !== undefined && loopback && opts.keysOut === undefined;
  const journal = mock.journal;
  const out = [
    `Maintenance Management Service mock (seed ${mock.app.world.seed}) ready in ${Math.round(performance.now())} ms (since the process started)`,
    `  API base     ${mock.baseUrl}`,
    `  state        ${mock.state.description}${mock.state.description === 'memory' ? ' (lost on exit; --state FILE keeps it)' : mock.state.loaded ? ' (loaded)' : ' (new, seeded)'}`,
    ...(opts.variant?.length ? [`  VARIANTS     ${opts.variant.map((v) => v.name).join(', ')} (freedoms served differently; docs/freedoms.md)`] : []),
    ...(opts.mutant ? [`  MUTANT       ${opts.mutant.name}: ${opts.mutant.description} (breaks ${opts.mutant.requirement}; not conformant on purpose)`] : []),
    ...(mock.controlToken !== undefined
      ? [`  control API  ${mock.url}/__mock/ (send ${CONTROL_TOKEN_HEADER}: ${tokenBelow ? '$MMS_MOCK_CONTROL_TOKEN, set below' : mock.controlToken})`,
        `  inspector    ${mock.url}/__mock/inspector/ (log in with the control token)`,
        `  journal      ${journal?.enabled ? `on: the last ${journal.journal.settings.size} exchanges, GET /__mock/journal` : 'off (--journal records every exchange)'}`]
      : ['  control API  off (--no-control)']),
    '',
    'Keys to try (Authorization: Bearer <key>; shown masked):',
    `  full access, live (1,000/min)   ${maskKey(keys.live[0]!)}`,
    `  full access, test (100/min)     ${maskKey(keys.test)}`,
    `  another organization            ${maskKey(keys.otherOrg)}`,
    `  meters:read only                ${maskKey(keys.scopes['meters:read']!)}`,
    '',
    `Every key in full: ${opts.keysOut !== undefined ? `${opts.keysOut} (mode 0600), ` : ''}fixtures/targets/mock.json${mock.controlToken !== undefined ? `, or GET ${mock.url}/__mock/profile with the control token` : ''}. Ctrl-C stops.`,
    ...(first.length ? ['', ...first] : []),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  return mock;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const program = mockOptions(new Command('mock').description('Start the stateful mock of the Maintenance Management Service API v1'));
  program.exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
  program.configureOutput({ writeErr: (s) => process.stderr.write(s.startsWith('error:') ? `mock: ${s}` : s) });
  program.parse();
  runMock(program.opts<MockCommandOptions>());
}
