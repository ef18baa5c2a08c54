/**
 * The sample responses the format tests judge (suites/lib/response-samples.ts: made once per worker,
 * borrowed by later tests): ordinary successes of the native and compatibility shapes (201, 200, 204),
 * one error of every stated operation, and one of every cross-cutting error kind (Errors; Authentication).
 * No set asserts anything: a sample comes back with whatever status the target gave it, and the test
 * judging it asserts its own rule (and the status it needs) on it.
 */
import { expect } from '@playwright/test';
import type { Roles } from '../fixtures.ts';
import type { Operation } from '../../contract/openapi.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse, RequestOptions } from './client.ts';
import { meterBody } from '../kits/meters.ts';
import { isEnumSchema as isEnum, namesRecord, operations } from './operations.ts';
import { samplePool, type SampleSet } from './response-samples.ts';
import { concurrently } from './concurrently.ts';
import { uid } from './provision.ts';
import type { MeterEnvelope, MeterList, WorkOrderEnvelope } from './api-types.ts';

/** A sample's create succeeded (any 2xx): its exact status is SPEC-007's, not every sample user's (lib/expect-success.ts). */
const isSuccess = (r: ApiResponse) => r.status >= 200 && r.status < 300;

/** What making a sample needs: the test's full-scope client, its clients by role, and the profile. */
export interface SampleContext {
  api: ApiClient;
  as: Roles;
  profile: TargetProfile;
}

/**
 * One native work order through its life (Endpoints › Work orders; Work-order expenses and parts):
 * `created` (POST, 201), `read` (GET, 200), `updated` (PATCH, 200), `parts` (its parts section, 200,
 * no envelope), `otherCosts` (its expense list, 200), then `deleted` (DELETE, 204). Only `created` when
 * the create gave no work order. 6 requests.
 */
export function workOrderSamples({ api, profile }: SampleContext): Promise<SampleSet> {
  return samplePool.get(api, 'work-order', async () => {
    const created = await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT sample ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder } });
    const id = isSuccess(created) ? created.body?.data?.id : undefined;
    if (typeof id !== 'string') return { created };
    const read = await api.get(`/work-orders/${id}`);
    const updated = await api.patch(`/work-orders/${id}`, { json: { priority: 'high' } });
    const parts = await api.get(`/work-orders/${id}/parts`);
    const otherCosts = await api.get(`/work-orders/${id}/other-costs`);
    const deleted = await api.delete(`/work-orders/${id}`);
    return { created, read, updated, parts, otherCosts, deleted };
  });
}

/** The target refused a body the suite infers (400/422) and the profile supplies none (`supplied`). */
const refusedInferred = (response: ApiResponse, supplied: unknown) => !supplied && [400, 422].includes(response.status);

/**
 * A native meter (Endpoints › Meters): `meter` (POST, 201), `reading` (POST of a reading, 201) and
 * `meterRead` (GET, 200). The create bodies are inferred (kits/meters.ts): a create the target refuses
 * (400/422) without a profile body leaves its samples out. The meter stays active, for refused writes.
 * 3 requests.
 */
export function meterSamples({ api, profile }: SampleContext): Promise<SampleSet> {
  return samplePool.get(api, 'meter', async () => {
    const meter = await api.post<MeterEnvelope>('/meters', { json: await meterBody(api, profile) });
    const id = isSuccess(meter) ? meter.body?.data?.id : undefined;
    if (refusedInferred(meter, profile.bodies.createMeter)) return {};
    if (typeof id !== 'string') return { meter };
    const reading = await api.post(`/meters/${id}/readings`, { json: { value: 3, ...profile.bodies.createMeterReading } });
    const meterRead = await api.get(`/meters/${id}`);
    return { meter, ...(refusedInferred(reading, profile.bodies.createMeterReading) ? {} : { reading }), meterRead };
  });
}

/**
 * One page of each stated native list (Resources › Native envelope; Endpoints): `meters`, `workOrders`,
 * `assets` (limit 2) and `readings` of the first listed meter (when there is one). 4 requests.
 */
export function listSamples({ api }: SampleContext): Promise<SampleSet> {
  return samplePool.get(api, 'lists', async () => {
    const meters = await api.get<MeterList>('/meters', { query: { limit: 2 } });
    const workOrders = await api.get('/work-orders', { query: { limit: 2 } });
    const assets = await api.get('/assets', { query: { limit: 2 } });
    const meterId = meters.body?.data?.[0]?.id;
    const readings = typeof meterId === 'string' ? await api.get(`/meters/${meterId}/readings`, { query: { limit: 2 } }) : undefined;
    return { meters, workOrders, assets, readings };
  });
}

/**
 * Compatibility successes (What the service does, the two wire styles): `workRequests` (a wrapped list,
 * limit 2) and `customFields` (a bare array). 2 requests.
 */
export function compatSamples({ api }: SampleContext): Promise<SampleSet> {
  return samplePool.get(api, 'compat', async () => ({
    workRequests: await api.get('/workrequests', { query: { limit: 2 } }),
    customFields: await api.get('/customfields/assets'),
  }));
}

/**
 * A work order kept for writes that are refused (malformed or mistyped bodies: they change nothing), so
 * those tests need no work order of their own: its id, or undefined when the create failed (`created`
 * then says how). 1 request.
 */
export async function refusedWritesWorkOrder({ api, profile }: SampleContext): Promise<{ id?: string; created: ApiResponse }> {
  const created = await samplePool.one(api, 'refused-writes-work-order', () => api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT refused writes ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder } }));
  const id = isSuccess(created) ? created.body?.data?.id : undefined;
  return { id: typeof id === 'string' ? id : undefined, created };
}

/**
 * A request of the operation that fails: unknown ids in its path (an `{entity}` alone gets an unlisted
 * value), else `limit=0`, else a JSON array for its object body.
 */
export function failingRequest(op: Operation): { path: string; options: RequestOptions } {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = pathParams.find((q) => q.name === name)!;
    if (isEnum(p.schema)) return namesRecord(op) ? String((p.schema as { enum: string[] }).enum[0]) : 'not_a_listed_value';
    return (p.schema as { type?: string }).type === 'integer' ? '2147483647' : `ct_unknown_${name}`;
  });
  if (pathParams.length > 0) return { path, options: op.requestBody ? { json: {} } : {} };
  if (op.parameters.some((p) => p.name === 'limit')) return { path, options: { query: { limit: 0 } } };
  return { path, options: { json: [] } };
}

/** The operations the description states (not inferred), whose errors the samples cover. */
export const STATED_OPERATIONS = operations.filter((o) => !o.inferred).map((o) => o.operationId);

/**
 * One error response of each named stated operation (all of them by default: 25 requests), each made
 * once per worker by failingRequest: unknown ids give 404, `limit=0` and array bodies 400.
 */
export async function operationErrors({ api }: SampleContext, operationIds: readonly string[] = STATED_OPERATIONS): Promise<ApiResponse[]> {
  const ops = operationIds.map((operationId) => {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId} in the spec`);
    return op;
  });
  // Independent refusals: sent at once (lib/concurrently.ts), returned in the operations' order.
  return concurrently(ops, (op) => {
    const { path, options } = failingRequest(op);
    return samplePool.one(api, `error ${op.operationId}`, () => api.send(op.method, path, options));
  });
}

/** The cross-cutting error kinds (Errors; Authentication), each one request. */
export const CROSS_CUTTING_KINDS = [
  'missing authorization', 'basic scheme', 'publishable key', 'unknown key', 'unknown route', 'unknown route, POST',
  'no scopes', 'module disabled', 'meter in use',
] as const;
export type CrossCuttingKind = (typeof CROSS_CUTTING_KINDS)[number];

/** How to provoke each kind, or undefined when the profile lacks what it needs. */
function crossCuttingRequest({ api, as, profile }: SampleContext, kind: CrossCuttingKind): (() => Promise<ApiResponse>) | undefined {
  switch (kind) {
    case 'missing authorization': return () => as.anonymous().get('/meters');
    case 'basic scheme': return () => as.header('Basic dXNlcjpwYXNzd29yZA==').get('/work-orders');
    case 'publishable key': return () => as.header('Bearer pk_live_4eC39HqLyjWDarjtT1zdp7dc').get('/assets');
    case 'unknown key': return () => as.header('Bearer sk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp').get('/work-orders');
    case 'unknown route': return () => api.get('/no-such-family');
    case 'unknown route, POST': return () => api.post('/nothing/here', { json: {} });
    case 'no scopes': return profile.keys.noScopes ? () => as.key(profile.keys.noScopes!).get('/meters') : undefined;
    case 'module disabled': return profile.keys.moduleDisabled?.meters ? () => as.moduleDisabled('meters').get('/meters') : undefined;
    case 'meter in use': return profile.fixtures.meterUsedByAutomation ? () => api.delete(`/meters/${profile.fixtures.meterUsedByAutomation}`) : undefined;
  }
}

/**
 * One error of each named cross-cutting kind the profile allows (all by default: up to 9 requests):
 * 401 without, with a foreign-scheme, a publishable and an unknown key; 404 of unknown routes (GET and
 * POST); 403 of a key without scopes and of a disabled module; 409 of a meter an automation uses.
 */
export async function crossCuttingErrors(ctx: SampleContext, kinds: readonly CrossCuttingKind[] = CROSS_CUTTING_KINDS): Promise<ApiResponse[]> {
  const sends = kinds.flatMap((kind) => {
    const send = crossCuttingRequest(ctx, kind);
    return send ? [{ kind, send }] : [];
  });
  // Independent refusals (none changes anything): sent at once, returned in the kinds' order.
  return concurrently(sends, ({ kind, send }) => samplePool.one(ctx.api, `error ${kind}`, send));
}

/** `GET /meters` without credentials: the 401 the header tests judge. */
export async function missingAuthorization(ctx: SampleContext): Promise<ApiResponse> {
  return (await crossCuttingErrors(ctx, ['missing authorization']))[0]!;
}

/**
 * The named samples of a set, in that order, each asserted present: a sample the target could not give
 * fails the calling test, whose own requirement needed it (never the test that made the set). `T`: the
 * body the caller knows these samples hold (a set's own doc says which), `unknown` by default.
 */
export function named<T = unknown>(set: SampleSet, names: readonly string[]): ApiResponse<T>[] {
  return names.map((name) => {
    const r = set[name];
    expect(r, `the shared sample "${name}" (${Object.entries(set).map(([n, x]) => `${n}: ${x?.status}`).join(', ')})`).toBeDefined();
    return r! as ApiResponse<T>;
  });
}
