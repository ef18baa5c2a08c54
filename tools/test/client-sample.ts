/**
 * A small sample client of the API for the client-report tests (docs/integrators.md, "A verdict on your
 * client"): one journey that pages a list, meets an expired cursor, a 429, an uncertain 503 and a 409,
 * and follows every client-side rule of the description (catalog family CLIENT) — or breaks exactly
 * one of them, named by `breaks`. It drives the mock's faults and clock through the control API.
 */
import type { RunningMock } from '../../mock/server.ts';

/** The rule a journey breaks once: the CLIENT requirement it would fail. */
export type Break = 'CLIENT-001' | 'CLIENT-002' | 'CLIENT-003' | 'CLIENT-004' | 'CLIENT-005' | 'CLIENT-006' | 'CLIENT-007';

export class SampleClient {
  constructor(private readonly mock: RunningMock, private readonly key: string) {}

  async get(path: string): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.mock.baseUrl}${path}`, { headers: { Authorization: `Bearer ${this.key}` } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async command(path: string, body: unknown): Promise<number> {
    const res = await fetch(`${this.mock.baseUrl}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${this.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    return res.status;
  }

  async control(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.mock.url}/__mock${path}`, {
      method,
      headers: { 'X-Mock-Control-Token': this.mock.controlToken!, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} /__mock${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }
}

/** Runs the journey; with `breaks`, deviates once from that rule. Returns the work order it commanded. */
export async function journey(c: SampleClient, breaks?: Break): Promise<string> {
  // Pages: the second page with the first page's endpoint, filters, size and direction.
  const first = await c.get('/meters?limit=2&direction=asc');
  const cursor = first.body.meta.pagination.cursor as string;
  await c.get(`/meters?limit=${breaks === 'CLIENT-004' ? 3 : 2}&direction=asc&cursor=${encodeURIComponent(cursor)}`);
  // A cursor past its life is refused; the client restarts without it.
  await c.control('POST', '/clock/advance', { seconds: 16 * 60 });
  const expired = await c.get(`/meters?limit=2&direction=asc&cursor=${encodeURIComponent(cursor)}`);
  if (expired.status !== 400) throw new Error(`an expired cursor answered ${expired.status}`);
  if (breaks === 'CLIENT-005') await c.get(`/meters?limit=2&direction=asc&cursor=${encodeURIComponent(cursor)}`);
  await c.get('/meters?limit=2&direction=asc');
  // A 429 (injected): the key waits Retry-After on the mock's clock before its next request.
  await c.control('PUT', '/faults', { rateLimitRate: 1, pathPattern: '^/v1/assets' });
  const limited = await c.get('/assets?limit=1');
  if (limited.status !== 429) throw new Error(`the injected 429 answered ${limited.status}`);
  await c.control('DELETE', '/faults');
  if (breaks !== 'CLIENT-003') await c.control('POST', '/clock/advance', { seconds: 2 });
  await c.get('/assets?limit=1');
  // Commands on a work order's parts section, each read first (the expected version).
  const wo = (await c.get('/work-orders?limit=1&status=open')).body.data[0].id as string;
  const parts = `/work-orders/${wo}/parts`;
  const version = async () => (await c.get(parts)).body.aggregateVersion as string;
  const reserve = { operation: 'transition', targetStatus: 'reserved', idempotencyKey: 'cmd-1', expectedAggregateVersion: await version() };
  await c.command(parts, reserve);
  if (breaks === 'CLIENT-001') await c.command(parts, { ...reserve, targetStatus: 'kitted' });
  // An uncertain answer (injected 503): the retry is the identical command with the same key.
  const replace = { operation: 'replace', items: [], idempotencyKey: 'cmd-2', expectedAggregateVersion: await version() };
  await c.control('PUT', '/faults', { errorRate: 1, errorStatus: 503, pathPattern: '/parts$' });
  const uncertain = await c.command(parts, replace);
  await c.control('DELETE', '/faults');
  if (uncertain !== 503) throw new Error(`the injected 503 answered ${uncertain}`);
  await c.command(parts, breaks === 'CLIENT-002' ? { ...replace, idempotencyKey: 'cmd-2-again' } : replace);
  // A 409 (a transition the section cannot make): the client reads the section again before its next command.
  const current = await c.get(parts);
  const stay = { operation: 'transition', targetStatus: current.body.partStatus, idempotencyKey: 'cmd-3', expectedAggregateVersion: current.body.aggregateVersion };
  const conflict = await c.command(parts, stay);
  if (conflict !== 409) throw new Error(`a transition to the current status answered ${conflict}`);
  const next = { operation: 'replace', items: [], idempotencyKey: 'cmd-4' };
  if (breaks === 'CLIENT-006') await c.command(parts, { ...next, expectedAggregateVersion: current.body.aggregateVersion });
  else await c.command(parts, { ...next, expectedAggregateVersion: await version() });
  if (breaks === 'CLIENT-007') await c.get('/vendors');
  return wo;
}
