/**
 * The bare `node:http` baseline in a child process of the benchmark: answers every request with one
 * fixed response (status, headers and body received from the parent, the bytes the mock answered),
 * pre-encoded once. Reports its URL to the parent over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerCpuQueries } from './child-cpu.ts';

answerCpuQueries();

process.once('message', (message) => {
  const { status, headers, body } = message as { status: number; headers: Record<string, string>; body: string };
  const bytes = Buffer.from(body, 'base64');
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    res.writeHead(status, headers);
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => {
    process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
});
