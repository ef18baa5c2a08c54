/**
 * A throwaway PostgreSQL cluster for the replica tests and tools/conformance-on-store.ts (docs/integrators.md, "State and replicas"):
 * Debian's `postgresql` package (`.ci/run` installs it), a temporary data directory, trust
 * authentication on 127.0.0.1, fsync off (the cluster is discarded). As root, the cluster runs as the
 * `postgres` user (initdb refuses root). The port is the first free one of 5433–5439.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Postgres {
  /** `postgres://mock@127.0.0.1:PORT/postgres` */
  url: string;
  stop(): void;
}

/** The directory holding initdb and pg_ctl: PATH first, else the newest /usr/lib/postgresql/N/bin. */
function binDir(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (apt-get install postgresql; .ci/run does)');
  return join(root, versions[0]!, 'bin');
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** Starts a cluster; throws when PostgreSQL is missing or every port of 5433–5439 is taken. */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'mock-pg-'));
  chmodSync(dir, 0o700);
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const cmd = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
    else execFileSync(cmd, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'mock', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  // Another process may take a port between the check and the bind (two test files starting at once): the next one then.
  let port = 0;
  for (let p = 5433; p <= 5439 && !port; p++) {
    if (!(await portFree(p))) continue;
    try {
      run('pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`]);
      port = p;
    } catch {
      // taken meanwhile: try the next port
    }
  }
  if (!port) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error('no free port in 5433–5439 for a test PostgreSQL');
  }
  return {
    url: `postgres://mock@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
