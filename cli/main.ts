/**
 * The kit's command line (`mms-conformance`, docs/vendors.md, "The command line"): run, mock, proxy, report merge,
 * report diff, report verify, profile init, profile check, client-report (docs/integrators.md). Exit codes: cli/exit-codes.ts (docs/ci.md, "Exit codes"); an error of usage or setup is one
 * line on stderr and exit 2.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ROOT } from '../contract/paths.ts';
import type { MockCommandOptions } from '../mock/main.ts';
import { EXIT, exitCodeHelp, Interrupted, UsageError } from './exit-codes.ts';
import type { RunOptions } from './run.ts';
import { addProxyCommand } from './proxy.ts';
import { addClientReportCommand } from './client-report.ts';

const NAME = 'mms-conformance';
const version = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const positiveInt = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
  return Number(v);
};

const nonNegativeInt = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return Number(v);
};

function fail(message: string): never {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(EXIT.usage);
}

async function exitWith(work: () => Promise<number> | number): Promise<void> {
  try {
    process.exit(await work());
  } catch (e) {
    if (e instanceof UsageError) fail(e.message);
    if (e instanceof Interrupted) {
      process.stderr.write(`${NAME}: ${e.message}; the run was stopped, no verdict written\n`);
      process.exit(e.exitCode);
    }
    throw e;
  }
}

/** Playwright's built-in reporters `--reporter` accepts. */
const PLAYWRIGHT_REPORTERS = ['list', 'line', 'dot', 'json', 'junit', 'html', 'github'];
const playwrightReporter = (value: string): string => {
  if (!PLAYWRIGHT_REPORTERS.includes(value)) throw new InvalidArgumentError(`--reporter must be one of ${PLAYWRIGHT_REPORTERS.join(', ')}.`);
  return value;
};

/** The CLI's commands, by the name that selects them on the command line. */
export const COMMANDS = ['run', 'mock', 'proxy', 'report', 'profile', 'client-report'] as const;

/**
 * The command line. With `only` (a name of COMMANDS), only that command is defined: its parsing, help
 * and errors are the same, and the CLI does not load the code of the others (the mock's, at start-up
 * of every `run`). Each command's code loads when its action runs.
 */
export async function buildProgram(only?: (typeof COMMANDS)[number]): Promise<Command> {
  const program = new Command(NAME)
    .description('Conformance kit for the Maintenance Management Service API v1: certify a target, run the mock, validate traffic, merge and compare reports.')
    .version(version);
  const wanted = (name: (typeof COMMANDS)[number]) => only === undefined || only === name;

  if (wanted('run')) program
    .command('run')
    .description('Run the conformance suite against a target (default: the embedded mock) and write reports/conformance.{json,html,md} and conformance-junit.xml')
    .option('--target <url>', 'API base of the target, ending in /v1 (needs --profile)')
    .option('--profile <file>', 'target profile (spec/target-profile.schema.json); alone, its baseUrl is the target')
    .option('--family <families>', 'only these requirement families, comma-separated (e.g. METER,AUTH)', (v) => v.split(',').map((f) => f.trim()).filter(Boolean))
    .addOption(new Option('--level <level>', 'only tests of must or of inferred requirements').choices(['must', 'inferred']))
    .option('--grep <regex>', 'only tests whose title or tags match')
    .option('--shard <i/n>', 'run part i of n; merge the parts with `report merge`')
    .option('--waivers <file>', 'known deviations (spec/waivers.schema.json); waived failures keep the verdict incomplete')
    .option('--baseline <file>', 'a previous conformance.json: also exit 1 when a must requirement regressed against it')
    .option('--output <dir>', 'where reports go', 'reports')
    .option('--concurrency <n>', "tests run at once, each in a worker process (default: the embedded mock 1 per core, 2 to 4; a remote target the profile's concurrency, else its live keys' rate budget: 1 per 500 requests a minute, 2 to 16)", positiveInt('--concurrency'))
    .option('--workers <n>', 'the same as --concurrency (its former name)', positiveInt('--workers'))
    .option('--seed <n>', "the run's seed (default 20240917): the property and generative tests' inputs; with the embedded mock also its data (default data seed 1)", positiveInt('--seed'))
    .option('--explore-seeds <k>', 'also try k fresh seeds on every property test (a wider search; a failure names the seed that found it)', positiveInt('--explore-seeds'))
    .option('--budget <n>', 'generated requests per operation and phase in the generative tests (default 2; the stateful run 3)', positiveInt('--budget'))
    .option('--repeat-each <n>', 'run every test n times (order-dependence checks)', positiveInt('--repeat-each'))
    .option('--max-failures <n>', 'stop after n failed tests (the rest are not assessed)', positiveInt('--max-failures'))
    .option('-x', 'stop after the first failed test (--max-failures 1)')
    .option('--last-failed', 'run only the tests that failed in the previous run into the same --output')
    .option('--list', 'list the tests the selection would run, with their requirement tags, and exit 0 without running them')
    .option('--timeout <ms>', 'timeout of each test in milliseconds (default 60000)', positiveInt('--timeout'))
    .option('--reporter <name>', "also run one of Playwright's own reporters beside the kit's (list, line, dot, json, junit, html)", playwrightReporter)
    .option('--retries <n>', 'retry a failed test up to n times; a test that fails once stays failed in the verdict', nonNegativeInt('--retries'))
    .option('--strict', 'exit 1 when any test failed, inferred ones included (the kit\'s own CI)')
    .option('--allow-incomplete', 'exit 0 when the verdict is incomplete (some must requirements not assessed or waived)')
    .option('--sign-key <file>', 'an Ed25519 private key PEM: sign <output>/manifest.json into manifest.json.sig')
    .option('--no-profile-check', 'skip the provisioning check of the profile (profile check) before the run')
    .addHelpText('after', `
${exitCodeHelp('run')}
Examples:
  ${NAME} run
  ${NAME} run --target https://mms.example.com/v1 --profile my-target.json --family METER,AUTH
  ${NAME} run --profile my-target.json --level must --shard 2/3 --output reports/shard-2
  ${NAME} run --family METER --list
  ${NAME} run --profile my-target.json -x                 # stop at the first failure
  ${NAME} run --profile my-target.json --last-failed      # then rerun only what failed`)
    .action((opts: RunOptions) => exitWith(async () => (await import('./run.ts')).runConformance(opts)));

  if (wanted('mock')) {
    const { mockOptions, runMock } = await import('../mock/main.ts');
    mockOptions(program.command('mock').description('Start the stateful mock (http://127.0.0.1:4010, API base /v1) and print the keys to try'))
      .action(async (opts: MockCommandOptions) => {
        await runMock(opts);
      });
  }

  if (wanted('proxy')) addProxyCommand(program, exitWith);

  if (wanted('client-report')) addClientReportCommand(program, exitWith);

  if (wanted('report')) {
    const report = program.command('report').description('Work with conformance reports');
    report
      .command('merge')
      .description('Merge the outputs of `run --shard i/n` into one report whose verdicts equal a single run\'s')
      .argument('<dirs...>', 'output directories of the shards (each holding blob/*.zip and conformance.json)')
      .option('--output <dir>', 'where the merged reports go', 'reports')
      .option('--waivers <file>', 'known deviations to apply')
      .option('--allow-incomplete', 'exit 0 when the merged verdict is incomplete')
      .option('--sign-key <file>', 'an Ed25519 private key PEM: sign <output>/manifest.json into manifest.json.sig')
      .addHelpText('after', `\n${exitCodeHelp('merge')}`)
      .action((dirs: string[], opts: { output: string; waivers?: string; allowIncomplete?: boolean; signKey?: string }) => exitWith(async () => (await import('./report.ts')).mergeReports(dirs, opts.output, opts)));
    report
      .command('diff')
      .description('List regressions and fixes from report A to report B; exit 1 when a must requirement of B regressed')
      .argument('<a>', 'the baseline conformance.json')
      .argument('<b>', 'the new conformance.json')
      .option('--json', 'print the differences as JSON')
      .action((a: string, b: string, opts: { json?: boolean }) => exitWith(async () => (await import('./report.ts')).diffCommand(a, b, opts.json)));

    report
      .command('verify')
      .description("Check a run's bundle: every report file against manifest.json's SHA-256 and, with --public-key, manifest.json.sig; exit 1 on any mismatch")
      .argument('<dir>', 'the output folder of a run')
      .option('--public-key <file>', 'the Ed25519 public key PEM of the key that signed manifest.json')
      .action((dir: string, opts: { publicKey?: string }) => exitWith(async () => (await import('./manifest.ts')).verifyCommand(dir, opts.publicKey)));
  }

  if (wanted('profile')) {
    const profile = program.command('profile').description('Write a starter target profile, or check what a target has provisioned');
    profile
      .command('init')
      .description('Write a starter profile: the roles and fixtures a first run needs, one $comment per section')
      .option('--output <file>', 'where to write it', 'target-profile.json')
      .option('--full', 'every role and fixture the suite can use, each with a $comment saying what to provision and what it unlocks')
      .action((opts: { output: string; full?: boolean }) => exitWith(async () => (await import('./profile.ts')).initProfile(opts.output, opts.full)));
    profile
      .command('check')
      .description("Check the target's provisioning without changing its data (reads, and writes that cannot succeed): one line per entry (ok, wrong: ..., missing), then the requests spent; exit 1 on any wrong entry")
      .requiredOption('--profile <file>', 'the target profile')
      .option('--target <url>', "API base of the target, ending in /v1 (default: the profile's baseUrl)")
      .action((opts: { profile: string; target?: string }) => exitWith(async () => (await import('./profile.ts')).checkProfileCommand(opts)));
  }

  program.exitOverride();
  program.configureOutput({ writeErr: (s) => process.stderr.write(s.replace(/^error: /, `${NAME}: `)) });
  for (const sub of program.commands.flatMap((c) => [c, ...c.commands])) {
    sub.exitOverride();
    sub.configureOutput({ writeErr: (s) => process.stderr.write(s.replace(/^error: /, `${NAME}: `)) });
  }
  return program;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('mms-conformance.mjs') || process.argv[1]?.endsWith('/mms-conformance')) {
  const named = COMMANDS.find((c) => c === process.argv[2]);
  buildProgram(named)
    .then((program) => program.parseAsync())
    .catch((e) => {
      if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : EXIT.usage);
      if (e instanceof UsageError) fail(e.message);
      fail(`unexpected error: ${(e as Error).stack ?? e}`);
    });
}
