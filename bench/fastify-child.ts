/**
 * The fastify reference in a child process of the benchmark: fastify with no plugins, hooks or schemas
 * answering every GET with one fixed response (status, headers and body received from the parent, the
 * bytes the mock answered), pre-encoded once; a framework's own cost on the same work as bare-child.ts.
 * Reports its URL to the parent over IPC.
 */
import Fastify from 'fastify';
import { answerCpuQueries } from './child-cpu.ts';

answerCpuQueries();

process.once('message', async (message) => {
  const { status, headers, body } = message as { status: number; headers: Record<string, string>; body: string };
  const bytes = Buffer.from(body, 'base64');
  const app = Fastify({ logger: false, keepAliveTimeout: 30_000 });
  app.get('/*', (_request, reply) => {
    reply.code(status).headers(headers).send(bytes);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ url });
});
