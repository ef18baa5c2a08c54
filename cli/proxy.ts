/**
 * `mms-conformance proxy --target URL`: Prism's validation proxy in front of any implementation, so
 * integrators see every request and response of their own traffic checked against the spec. Clients call
 * the proxy with the API's own paths (`/v1/...`): Prism ignores the path of a server URL, so the proxy
 * serves a copy of the spec whose paths carry the `/v1` prefix and forwards to the target's origin.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { OPENAPI_FILE } from '../contract/paths.ts';
import { prismCommand } from './bins.ts';
import { UsageError } from './exit-codes.ts';

export interface ProxyOptions { target: string; port: number; host: string }

/** The spec with every path under `/v1` and a root server (for Prism's proxy and mock). */
export function prefixedSpec(): string {
  const doc = parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, unknown>; servers: unknown[] };
  doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [`/v1${p}`, item]));
  doc.servers = [{ url: '/' }];
  const file = join(mkdtempSync(join(tmpdir(), 'mms-proxy-')), 'openapi.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}

/** Runs Prism's proxy until interrupted; resolves to its exit code. */
export async function runProxy(o: ProxyOptions): Promise<number> {
  let origin: string;
  try {
    const url = new URL(o.target);
    if (!/^https?:$/.test(url.protocol)) throw new Error('not http(s)');
    origin = url.origin;
  } catch {
    throw new UsageError(`--target ${o.target} is not an http(s) URL`);
  }
  const spec = prefixedSpec();
  process.stdout.write(`Validating proxy: http://${o.host}:${o.port}/v1/... → ${origin}/v1/... (violations are logged and sent in the sl-violations header)\n`);
  return new Promise((done) => {
    const [command, lead] = prismCommand();
    const child = spawn(command, [...lead, 'proxy', '-h', o.host, '-p', String(o.port), spec, origin], { stdio: 'inherit', env: { ...process.env, SCARF_ANALYTICS: 'false' } });
    const stop = () => child.kill('SIGINT');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('exit', (c) => done(c ?? 0));
  });
}
