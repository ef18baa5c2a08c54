/**
 * The request journal (mock/journal/; docs/integrators.md, "The request journal"): off by default and
 * then recording nothing; on, every API exchange with its deciding stage, requirement, validation
 * result, masked key and bounded bodies; filters, count and verify; the bound; the event stream; the
 * control token in front of all of it.
 */
import { test, expect } from '@playwright/test';
import { get } from 'node:http';
import type { JournalEntry, JournalPage } from '../../contract/journal.ts';
import { startMock, type RunningMock } from '../server.ts';

let mock: RunningMock;
let key: string;
let testKey: string;

test.beforeAll(async () => {
  mock = await startMock({ port: 0, journal: { enabled: true, size: 50, bodyLimit: 64 }, preloadPrism: false });
  const keys = mock.profile.keys as { live: string[]; test: string };
  key = keys.live[0]!;
  testKey = keys.test;
});
test.afterAll(async () => mock?.stop());

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${mock.url}/__mock${path}`, { method, headers: { 'X-Mock-Control-Token': mock.controlToken!, ...(body !== undefined && { 'Content-Type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });
const api = (path: string, init: RequestInit = {}, k = key) => fetch(`${mock.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${k}`, ...init.headers } }).then(async (r) => (await r.arrayBuffer(), r.status));
const journal = async (query = ''): Promise<JournalPage> => (await control('GET', `/journal${query}`)).json() as Promise<JournalPage>;

test.beforeEach(async () => {
  expect((await control('DELETE', '/journal')).status).toBe(204);
});

test('off by default: no hooks, nothing recorded, and the page says so', async () => {
  const off = await startMock({ port: 0, preloadPrism: false });
  try {
    const k = (off.profile.keys as { live: string[] }).live[0]!;
    expect((await fetch(`${off.baseUrl}/meters`, { headers: { Authorization: `Bearer ${k}` } })).status).toBe(200);
    const page = (await (await fetch(`${off.url}/__mock/journal`, { headers: { 'X-Mock-Control-Token': off.controlToken! } })).json()) as JournalPage;
    expect(page).toMatchObject({ enabled: false, recorded: 0, entries: [] });
  } finally {
    await off.stop();
  }
});

test('each entry names the deciding stage, the requirement behind a 4xx and the validation result', async () => {
  await api('/meters?limit=2');
  await api('/meters?limit=abc');
  await api('/meters', {}, 'sk_live_notakey');
  await api('/meters', {}, (mock.profile.keys as { scopes: Record<string, string> }).scopes['work_orders:read']!);
  await api('/work-orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 5 }) });
  await api('/nowhere');
  const { entries } = await journal();
  const decided = entries.map((e) => [e.status, e.decided.stage, e.decided.code, e.decided.requirement]);
  expect(decided).toEqual([
    [200, 'handler', undefined, undefined],
    [400, 'validation', 'validation_error', 'ERR-006'],
    [401, 'authentication', 'invalid_api_key_format', 'AUTH-004'],
    [403, 'scope', 'insufficient_scope', 'SCOPE-002'],
    [400, 'validation', 'validation_error', 'ERR-006'],
    [404, 'routing', 'not_found', 'ERR-008'],
  ]);
  expect(entries[0]!.validation).toEqual({ checked: true, valid: true, errors: [] });
  expect(entries[1]!.validation.errors).toEqual([{ in: 'query', path: 'limit', keyword: 'type', message: 'must be integer' }]);
  expect(entries[2]!.validation.checked).toBe(false);
  expect(entries[4]!.validation.errors).toEqual([{ in: 'body', path: '/title', keyword: 'type', message: 'must be string' }]);
  expect(entries[4]!.request.body).toBe('{"title":5}');
  expect(entries[0]).toMatchObject({ method: 'GET', path: '/v1/meters', query: 'limit=2', operationId: 'listMeters', organization: 'org_acme', key: { prefix: 'live', scopes: 'all' } });
  expect(entries[0]!.response.headers['x-request-id']).toBe(entries[0]!.requestId);
  expect(entries[0]!.cursor).toBeTruthy();
});

test('no key or token in full anywhere; bodies are cut at the limit', async () => {
  await api(`/meters?note=${key}`, { headers: { 'X-Mock-Control-Token': 'not-for-the-journal', Cookie: 'session=1' } });
  await api('/work-orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'x'.repeat(200), note: key }) });
  const { entries } = await journal();
  const text = JSON.stringify(entries);
  expect(text).not.toContain(key);
  expect(text).not.toContain('not-for-the-journal');
  expect(entries[0]!.request.headers.authorization).toBe(`Bearer ${key.slice(0, 8)}…${key.slice(-4)}`);
  expect(entries[0]!.request.headers.cookie).toBe('[redacted]');
  expect(entries[1]!.request).toMatchObject({ truncated: true });
  expect(Buffer.byteLength(entries[1]!.request.body!)).toBeLessThanOrEqual(64);
  expect(entries[1]!.response.body!.length).toBeLessThanOrEqual(64);
});

test('filters, count and verify with near misses', async () => {
  await api('/meters?limit=1');
  await api('/meters?limit=1', {}, testKey);
  await api('/work-orders?limit=1');
  await api('/meters?limit=x');
  const seqs = (p: JournalPage) => p.entries.map((e: JournalEntry) => e.seq);
  expect(seqs(await journal('?path=listMeters'))).toEqual([1, 2, 4]);
  expect(seqs(await journal('?path=/v1/work-orders'))).toEqual([3]);
  expect(seqs(await journal('?path=/v1/*&status=2xx'))).toEqual([1, 2, 3]);
  expect(seqs(await journal('?status=400'))).toEqual([4]);
  expect(seqs(await journal(`?key=${testKey.slice(-4)}`))).toEqual([2]);
  expect(seqs(await journal('?organization=org_acme&method=get&since=2&limit=1'))).toEqual([4]);
  expect(await (await control('GET', '/journal/count?path=listMeters&status=2xx')).json()).toEqual({ count: 2 });
  expect((await control('GET', '/journal/verify?path=listMeters&count=3')).status).toBe(200);
  const miss = await control('GET', '/journal/verify?path=listMeters&method=POST&atLeast=1');
  expect(miss.status).toBe(409);
  const problem = (await miss.json()) as { nearMisses: Array<{ seq: number }> };
  expect(problem).toMatchObject({ code: 'verification_failed', count: 0 });
  expect(problem.nearMisses.map((e) => e.seq)).toEqual([1, 2, 4]);
  expect((await control('GET', '/journal?colour=red')).status).toBe(400);
  expect((await control('GET', '/journal?status=abc')).status).toBe(400);
  expect((await control('GET', '/journal/verify?path=x')).status).toBe(400);
});

test('the bound drops the oldest; settings are checked before anything changes; the token guards it all', async () => {
  for (let i = 0; i < 5; i++) await api(`/meters?limit=${i + 1}`);
  expect((await control('PUT', '/journal', { size: 3 })).status).toBe(200);
  await api('/meters?limit=6');
  const page = await journal();
  expect(page.recorded).toBe(6);
  expect(page.entries.map((e) => e.seq), 'a lowered size drops every entry past it').toEqual([4, 5, 6]);
  expect((await control('PUT', '/journal', { size: 0, enabled: false })).status).toBe(400);
  expect((await journal()).enabled).toBe(true);
  expect((await control('PUT', '/journal', { size: 50 })).status).toBe(200);
  for (const path of ['/journal', '/journal/count', '/journal/stream']) expect((await fetch(`${mock.url}/__mock${path}`)).status, path).toBe(401);
  expect((await control('POST', '/journal/count')).status).toBe(405);
  const page2 = await fetch(`${mock.url}/__mock/inspector/`);
  expect(page2.status, 'the page itself holds no secret').toBe(200);
  expect(page2.headers.get('content-security-policy')).toContain("script-src 'self'");
  // fetch cannot set Host: node:http can.
  const rebound = await new Promise<number>((done, fail) => get(`${mock.url}/__mock/inspector/`, { headers: { Host: 'evil.example' } }, (r) => (r.resume(), done(r.statusCode!))).on('error', fail));
  expect(rebound, 'but only on a loopback Host').toBe(403);
});

test('the event stream delivers each new entry; turning the journal off stops recording', async () => {
  const res = await fetch(`${mock.url}/__mock/journal/stream`, { headers: { 'X-Mock-Control-Token': mock.controlToken! } });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  await api('/meters?limit=7');
  let text = '';
  while (!text.includes('event: entry')) text += (await reader.read()).value;
  while (!text.endsWith('\n\n')) text += (await reader.read()).value;
  const data = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as JournalEntry;
  expect(data).toMatchObject({ path: '/v1/meters', query: 'limit=7', status: 200 });
  await reader.cancel();
  expect((await control('PUT', '/journal', { enabled: false })).status).toBe(200);
  await api('/meters?limit=8');
  expect((await journal()).entries.map((e) => e.query)).toEqual(['limit=7']);
  expect((await control('PUT', '/journal', { enabled: true })).status).toBe(200);
});
