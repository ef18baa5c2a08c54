/**
 * `mms-conformance proxy --upstream URL`: the validating proxy (proxy/) in front of any
 * implementation. Clients call the proxy with the API's own paths (`/v1/...`); every exchange is
 * forwarded unchanged and judged beside the traffic; one line per violating exchange goes to stderr,
 * and at exit (SIGINT, SIGTERM or `--duration`) `<output>/proxy.json` and `proxy.html` are written.
 * An upstream silent for `--upstream-timeout` seconds (default 60) gets its client 504 problem details.
 * Exit codes: 0, 1 with `--fail-on-violation` when any violation was seen, 2 bad usage.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { EXIT, UsageError } from './exit-codes.ts';

export interface ProxyCommandOptions {
  upstream?: string;
  target?: string;
  port: number;
  host: string;
  output: string;
  failOnViolation?: boolean;
  duration?: number;
  /** Seconds the upstream may stay silent before the client gets 504 problem details. */
  upstreamTimeout: number;
  har?: string;
}

const integer = (name: string, min: number, max: number) => (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
  return Number(v);
};

/** Adds the `proxy` command to the CLI. */
export function addProxyCommand(program: Command, exitWith: (work: () => Promise<number>) => Promise<void>): Command {
  return program
    .command('proxy')
    .description('Validating proxy in front of a target: forwards every request unchanged, reports violations of the spec (live, and in proxy.json/proxy.html at exit)')
    .option('--upstream <url>', 'the target\'s API base, e.g. https://mms.example.com/v1')
    .option('--target <url>', 'alias of --upstream')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', integer('--port', 0, 65535), 4011)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--output <dir>', 'where proxy.json and proxy.html go', 'reports')
    .option('--fail-on-violation', 'exit 1 at shutdown when any violation was seen')
    .option('--har <file>', 'also write every exchange (keys masked) as HAR 1.2 at exit, for client-report --har')
    .option('--duration <seconds>', 'stop after this many seconds (default: at SIGINT/SIGTERM)', integer('--duration', 1, 31_536_000))
    .option('--upstream-timeout <seconds>', 'answer 504 problem details when the upstream stays silent this long', integer('--upstream-timeout', 1, 3600), 60)
    .action((opts: ProxyCommandOptions) => exitWith(() => runProxy(opts)));
}

/** Runs the proxy until SIGINT, SIGTERM or the duration; writes the report; resolves to the exit code. */
export async function runProxy(o: ProxyCommandOptions): Promise<number> {
  // Loaded here, not with the CLI: every other command would pay for the proxy's validators.
  const [{ writeReport }, { parseUpstream, startProxy }] = await Promise.all([import('../proxy/report.ts'), import('../proxy/start.ts')]);
  const upstream = o.upstream ?? o.target;
  if (!upstream) throw new UsageError('proxy needs --upstream URL (the target\'s API base, e.g. http://127.0.0.1:4010/v1)');
  try {
    parseUpstream(upstream);
  } catch {
    throw new UsageError(`--upstream ${upstream} is not an http(s) URL`);
  }
  let proxy;
  try {
    proxy = await startProxy({ upstream, port: o.port, host: o.host, upstreamTimeoutMs: o.upstreamTimeout * 1000, har: o.har !== undefined, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(err.code === 'EADDRINUSE' ? `port ${o.port} on ${o.host} is already in use (try --port 0)` : `cannot listen on ${o.host}:${o.port}: ${err.message}`);
  }
  const base = new URL(upstream).pathname.replace(/\/$/, '');
  process.stdout.write(`Validating proxy ready: ${proxy.url}${base}/... → ${upstream} (violations on stderr; reports in ${o.output}/ at exit)\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
    if (o.duration) setTimeout(done, o.duration * 1000).unref();
  });
  const report = await proxy.stop();
  let files: { json: string; html: string };
  try {
    files = writeReport(o.output, report);
  } catch (e) {
    throw new UsageError(`cannot write the proxy's reports into ${o.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (o.har !== undefined) {
    try {
      writeFileSync(o.har, `${JSON.stringify(proxy.har())}\n`);
    } catch (e) {
      throw new UsageError(`cannot write --har ${o.har}: ${(e as Error).message}`);
    }
  }
  process.stdout.write(`Validating proxy: ${report.exchanges} exchanges, ${report.violatingExchanges} with violations (${report.violations.length} root causes), ${report.invalidRequests} invalid requests; ${files.json}, ${files.html}\n`);
  return o.failOnViolation && report.violatingExchanges > 0 ? EXIT.failed : EXIT.ok;
}
