/**
 * `mms-conformance client-report`: judges a client's traffic by the description's client-side rules
 * (catalog family CLIENT; contract/client/) — read from the journal of a running mock (`--mock URL`
 * with its control token), a saved journal (`--journal FILE`) or a HAR file (`--har FILE`) — and writes
 * `<output>/client-report.json`, `client-report.html` and `client-report-junit.xml` beside a console
 * summary (docs/integrators.md, "A verdict on your client"). Exit codes: 0 clean, 1 a rule failed,
 * 2 bad usage or unreadable input.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildClientReport, renderClientHtml, renderClientJunit, renderClientText, type ClientReport } from '../contract/client/report.ts';
import { exchangesOf, type ClientExchange } from '../contract/client/traffic.ts';
import type { JournalPage } from '../contract/journal.ts';
import { EXIT, UsageError } from './exit-codes.ts';

export interface ClientReportOptions {
  mock?: string;
  controlToken?: string;
  journal?: string;
  har?: string;
  output: string;
  quiet?: boolean;
}

const TOKEN_ENV = 'MMS_MOCK_CONTROL_TOKEN';

/** Adds the `client-report` command to the CLI. */
export function addClientReportCommand(program: Command, exitWith: (work: () => Promise<number>) => Promise<void>): Command {
  return program
    .command('client-report')
    .description("Judge a client's traffic by the API's client-side rules (idempotency keys, Retry-After, cursors, refetch after 409, undocumented routes): from a running mock's journal, a saved journal or a HAR file")
    .option('--mock <url>', 'a running mock with its journal on, e.g. http://127.0.0.1:4010')
    .option('--control-token <token>', `the mock's control token (default: $${TOKEN_ENV})`)
    .option('--journal <file>', 'a saved journal (the body of GET /__mock/journal)')
    .option('--har <file>', 'a HAR 1.2 file recorded in front of any implementation')
    .option('--output <dir>', 'where client-report.json, client-report.html and client-report-junit.xml go', 'reports')
    .option('--quiet', 'print only the verdict line')
    .addHelpText('after', `
Exit codes:
  0  clean: no client-side rule failed (portability risks are reported, never failures)
  1  a rule failed
  2  bad usage, an unreadable file, an unreachable mock or a refused token

Examples:
  mms-conformance client-report --mock http://127.0.0.1:4010 --control-token "$MMS_MOCK_CONTROL_TOKEN"
  mms-conformance client-report --har traffic.har --output reports/client`)
    .action((opts: ClientReportOptions) => exitWith(() => clientReportCommand(opts)));
}

/** Reads the traffic, judges it, writes the reports; resolves to the exit code. */
export async function clientReportCommand(o: ClientReportOptions): Promise<number> {
  const given = [o.mock, o.journal, o.har].filter((v) => v !== undefined).length;
  if (given !== 1) throw new UsageError('client-report needs exactly one of --mock URL, --journal FILE or --har FILE');
  let traffic: { kind: 'journal' | 'har'; from: string; exchanges: ClientExchange[] };
  if (o.mock !== undefined) traffic = { kind: 'journal', from: o.mock, exchanges: await fromMock(o.mock, o.controlToken ?? process.env[TOKEN_ENV]) };
  else {
    const file = (o.journal ?? o.har)!;
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    try {
      const read = exchangesOf(document);
      traffic = { kind: read.source, from: file, exchanges: read.exchanges };
    } catch (e) {
      throw new UsageError(`${file}: ${(e as Error).message}`);
    }
  }
  const report = buildClientReport(traffic.exchanges, { kind: traffic.kind, from: traffic.from });
  const files = writeClientReport(o.output, report);
  process.stdout.write(o.quiet ? `Client report: ${report.verdict}\n` : renderClientText(report));
  process.stdout.write(`Reports: ${files.join(', ')}\n`);
  return report.verdict === 'clean' ? EXIT.ok : EXIT.failed;
}

/** Writes the three files into `dir`; returns their paths. Throws UsageError when the folder cannot be written. */
export function writeClientReport(dir: string, report: ClientReport): string[] {
  const files: Array<[string, string]> = [
    ['client-report.json', `${JSON.stringify(report, null, 2)}\n`],
    ['client-report.html', renderClientHtml(report)],
    ['client-report-junit.xml', renderClientJunit(report)],
  ];
  try {
    mkdirSync(dir, { recursive: true });
    return files.map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    });
  } catch (e) {
    throw new UsageError(`cannot write the reports into ${dir}: ${(e as Error).message}`);
  }
}

/** Every entry the mock's journal holds (URL is the mock's origin or its API base). */
async function fromMock(url: string, token: string | undefined): Promise<ClientExchange[]> {
  if (!token) throw new UsageError(`client-report --mock needs the control token (--control-token or $${TOKEN_ENV})`);
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new UsageError(`--mock ${url} is not a URL`);
  }
  const get = async (query: string): Promise<JournalPage> => {
    let res: Response;
    try {
      res = await fetch(`${origin}/__mock/journal${query}`, { headers: { 'X-Mock-Control-Token': token }, signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      throw new UsageError(`cannot reach the mock at ${origin}: ${(e as Error).message}`);
    }
    if (res.status === 401) throw new UsageError(`the mock at ${origin} refused the control token`);
    if (!res.ok) throw new UsageError(`GET ${origin}/__mock/journal answered ${res.status} (is it a mock of this kit?)`);
    return (await res.json()) as JournalPage;
  };
  const first = await get('?limit=1');
  if (!first.enabled && first.recorded === 0) throw new UsageError(`the mock at ${origin} records no journal: start it with --journal, or PUT /__mock/journal {"enabled": true}`);
  const page = await get(`?limit=${first.size}`);
  return exchangesOf(page).exchanges;
}
