/**
 * The servers the benchmark compares, each in its own child process: the stateful mock (mock-child.ts),
 * plain `prism mock` on the same spec (its CLI with default settings; its log goes to /dev/null), a
 * bare `node:http` server answering the mock's own response bytes (bare-child.ts), and fastify
 * answering the same bytes (fastify-child.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';

export interface BenchServer {
  name: string;
  /** `http://127.0.0.1:port` */
  url: string;
  /** The server process's CPU time so far (user + system, µs; `process.cpuUsage()`), where it can tell (not Prism). */
  cpu?(): Promise<number>;
  stop(): Promise<void>;
}

export interface MockServer extends BenchServer {
  /** Heap and RSS of the mock process, after two full garbage collections when `exposeGc` was set. */
  memory(): Promise<{ memory: NodeJS.MemoryUsage; gc: boolean }>;
}

/** A response as the mock sent it: what the bare server answers byte for byte. */
export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const TSX = ['--import', 'tsx'];

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
}

/**
 * Sends `question` to a child and resolves with its answer: the first message holding `key` (child-cpu.ts
 * answers `cpu`, mock-child.ts `memory`). Rejects if the child exits first.
 */
function ask<T extends object>(child: ChildProcess, question: string, key: string): Promise<T> {
  const answer = new Promise<T>((done, fail) => {
    const listen = (m: unknown) => {
      if (typeof m !== 'object' || m === null || !(key in m)) return;
      child.off('message', listen).off('exit', exited);
      done(m as T);
    };
    const exited = (code: number | null) => fail(new Error(`the child exited with code ${code} before it answered '${question}'`));
    child.on('message', listen).once('exit', exited);
  });
  child.send(question);
  return answer;
}

/** The child's CPU time so far (user + system, µs), asked over IPC. */
function cpuOf(child: ChildProcess): () => Promise<number> {
  return async () => {
    const { cpu } = await ask<{ cpu: NodeJS.CpuUsage }>(child, 'cpu', 'cpu');
    return cpu.user + cpu.system;
  };
}

function firstMessage<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((done, fail) => {
    child.once('message', (m) => done(m as T));
    child.once('exit', (code) => fail(new Error(`${what} exited with code ${code} before it was ready`)));
  });
}

/** Starts the stateful mock (default seed, control API on; `state`: its `--state`, memory by default) in a child process. */
export async function startMockServer(options: { exposeGc?: boolean; state?: string; name?: string } = {}): Promise<MockServer> {
  const flags = options.exposeGc ? ['--expose-gc', ...TSX] : TSX;
  const env = options.state ? { ...process.env, MMS_BENCH_STATE: options.state } : process.env;
  const child = spawn(process.execPath, [...flags, resolve(ROOT, 'bench/mock-child.ts')], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await firstMessage<{ url: string }>(child, 'the mock');
  return {
    name: options.name ?? 'mock',
    url,
    cpu: cpuOf(child),
    stop: stopper(child),
    memory: () => ask<{ memory: NodeJS.MemoryUsage; gc: boolean }>(child, 'memory', 'memory'),
  };
}

/** Starts a bare node:http server that answers `response` to every request. */
export function startBareServer(response: CapturedResponse): Promise<BenchServer> {
  return startReplayServer('bench/bare-child.ts', 'node:http', response);
}

/** Starts fastify (no plugins, hooks or schemas) answering `response` to every GET. */
export function startFastifyServer(response: CapturedResponse): Promise<BenchServer> {
  return startReplayServer('bench/fastify-child.ts', 'fastify', response);
}

/** Spawns `script` (a child answering the bytes it is sent over IPC) and waits for its URL. */
async function startReplayServer(script: string, name: string, response: CapturedResponse): Promise<BenchServer> {
  const child = spawn(process.execPath, [...TSX, resolve(ROOT, script)], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = firstMessage<{ url: string }>(child, `the ${name} server`);
  child.send({ status: response.status, headers: response.headers, body: response.body.toString('base64') });
  const { url } = await ready;
  return { name, url, cpu: cpuOf(child), stop: stopper(child) };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Starts `prism mock` (CLI, default settings) on spec/openapi.yaml; ready once it answers `probePath`. */
export async function startPrism(probePath: string, headers: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const bin = resolve(ROOT, 'node_modules/.bin/prism');
  const child = spawn(bin, ['mock', '-h', '127.0.0.1', '-p', String(port), 'spec/openapi.yaml'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism mock exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}${probePath}`, { headers }).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('prism mock did not answer within 60 s');
    await new Promise((done) => setTimeout(done, 250));
  }
  return { name: 'prism mock', url, stop: stopper(child) };
}

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * One response of `url + path`: its headers as sent (names in their case and order, minus those
 * node:http adds itself) and its body bytes. Read with node:http's client, whose `rawHeaders` keep both
 * (fetch's Headers lower-cases the names and sorts them: the bare server would not send the mock's bytes).
 */
export function captureResponse(url: string, path: string, headers: Record<string, string>): Promise<CapturedResponse> {
  return new Promise((done, fail) => {
    get(`${url}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!HOP_BY_HOP.has(name.toLowerCase())) kept[name] = res.rawHeaders[i + 1]!;
        }
        done({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
    }).on('error', fail);
  });
}
