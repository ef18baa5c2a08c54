/**
 * Native work orders (Resources › Work order (native); Endpoints › Work orders (native); States and
 * transitions: approval of a work request, soft delete).
 */
import { test, expect } from '../kits/work-orders.ts';
import { foreignRecord } from '../lib/foreign.ts';
import { proves } from '../lib/proves.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { need, notAssessed } from '../lib/needs.ts';
import { precondition, uid, viaInferred } from '../lib/provision.ts';
import { expectApplied } from '../lib/arrange.ts';
import { concurrently } from '../lib/concurrently.ts';
import type { AssetList, WorkOrder, WorkOrderEnvelope } from '../lib/api-types.ts';

const UNKNOWN = 'wo_doesnotexist0000';
const TODO = ['open', 'on_hold', 'in_progress'];

test.describe('work orders', () => {
  test('a created work order answers 201 in the envelope and reads back', { tag: ['@WO-002', '@WO-001'] }, async ({ api, profile }) => {
    const title = `CT work order ${uid()}`;
    const created = await api.post<WorkOrderEnvelope>('/work-orders', { json: { title, priority: 'high', ...profile.bodies.createWorkOrder } });
    expect(created.status, proves(['WO-002'], 'the work order is created')).toBe(201);
    expect(created.body.data).toMatchObject({ title, priority: 'high' });
    const read = await api.get<WorkOrderEnvelope>(`/work-orders/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: created.body.data.id, title, priority: 'high' });
    for (const field of ['workRequestId', 'previous_id', 'next_id'] as const) expect(read.body.data[field] ?? null, field).toBeNull();
  });

  test('an unknown work order answers 404 to GET, PATCH and DELETE', { tag: ['@WO-003'] }, async ({ api }) => {
    expectProblem(await api.get(`/work-orders/${UNKNOWN}`), 404);
    expectProblem(await api.patch(`/work-orders/${UNKNOWN}`, { json: { title: 'x' } }), 404);
    expectProblem(await api.delete(`/work-orders/${UNKNOWN}`), 404);
  });

  test('PATCH changes only the fields it names', { tag: ['@WO-004'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create({ priority: 'high' });
    const title = `CT renamed ${uid()}`;
    const patched = await api.patch<WorkOrderEnvelope>(`/work-orders/${wo.id}`, { json: { title } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: wo.id, title, priority: 'high' });
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data).toMatchObject({ title, priority: 'high' });
  });

  test('an invalid create or update is refused and changes nothing', { tag: ['@WO-005'] }, async ({ api, workOrders }) => {
    expectProblem(await api.post('/work-orders', { json: { title: 42 } }), 400, 'validation_error');
    expectProblem(await api.post('/work-orders', { json: { priority: 'medium' } }), 400, 'validation_error');
    const wo = await workOrders.create();
    expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { title: 42 } }), 400, 'validation_error');
    expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { priority: ['high'] } }), 400, 'validation_error');
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data.title).toBe(wo.title);
  });

  test('the status filter returns only work orders in that status', { tag: ['@WO-006'] }, async ({ api }) => {
    const statuses = ['open', 'on_hold', 'in_progress', 'done', 'canceled', 'skipped'];
    // Independent walks (each its own cursor chain), at once.
    const walks = await concurrently(statuses, (status) => walkPages<WorkOrder>(api, '/work-orders', { status, limit: 100 }));
    for (const [i, { items }] of walks.entries()) {
      const status = statuses[i]!;
      if (items.some((w) => w.status === undefined)) notAssessed('work orders do not expose status (the field is not shown by the description)');
      for (const w of items) expect(w.status, `status=${status} returned ${w.id}`).toBe(status);
    }
  });

  test('status=todo is open, on_hold and in_progress together', { tag: ['@WO-007'] }, async ({ api, workOrders }) => {
    const made: Record<string, string> = {};
    // Four work orders, each created then moved in order; the four independent of each other, at once.
    await concurrently([...TODO, 'done'], async (status) => {
      const wo = await workOrders.create();
      await workOrders.move(wo.id, status);
      made[status] = wo.id;
    });
    const todo = await walkPages<WorkOrder>(api, '/work-orders', { status: 'todo', limit: 100 });
    const ids = todo.items.map((w) => w.id);
    for (const s of TODO) expect(ids, `todo includes the ${s} work order`).toContain(made[s]);
    expect(ids, 'todo excludes the done work order').not.toContain(made.done);
    for (const w of todo.items) if (w.status !== undefined) expect(TODO).toContain(w.status);
  });

  test('the priority filter returns only matching work orders', { tag: ['@WO-008'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create({ priority: 'critical' });
    const { items } = await walkPages<WorkOrder>(api, '/work-orders', { priority: 'critical', limit: 100 });
    expect(items.map((w) => w.id), 'priority=critical includes the work order made for it').toContain(wo.id);
    for (const w of items) expect(w.priority, `priority=critical returned ${w.id}`).toBe('critical');
  });

  test('the list filters return only matching work orders', { tag: ['@WO-008'] }, async ({ api, profile, arrange }) => {
    const asset = (await api.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    const user = need(profile, 'fixtures.activeUserId');
    const team = need(profile, 'fixtures.teamId');
    // type, asset_id, location_id and the assignees are members the description does not show in a create body.
    const body = { title: `CT filtered ${uid()}`, ...profile.bodies.createWorkOrder, priority: 'critical', type: 'preventive', asset_id: asset.id, ...(asset.location_id ? { location_id: asset.location_id } : {}), assigned_to_user_ids: [user], assigned_to_team_ids: [team] };
    const wo = await arrange('create a work order with the members the filters read', async () => {
      const created = precondition(await api.post<WorkOrderEnvelope>('/work-orders', { json: body }), 'success', { inferredBody: 'bodies.createWorkOrder' }).body.data;
      const { title: _title, ...filtered } = body;
      expectApplied(created, filtered, 'POST /work-orders');
      return created;
    });
    const filters: Array<[string, string, (w: WorkOrder) => boolean]> = [
      ['priority', 'critical', (w) => w.priority === 'critical'],
      ['type', 'preventive', (w) => w.type === undefined || w.type === 'preventive'],
      ['asset_id', asset.id, (w) => w.asset_id === undefined || w.asset_id === asset.id],
      ['assigned_to_user_id', user, (w) => w.assigned_to_user_ids === undefined || w.assigned_to_user_ids.includes(user)],
      ['assigned_to_team_id', team, (w) => w.assigned_to_team_ids === undefined || w.assigned_to_team_ids.includes(team)],
    ];
    if (asset.location_id) filters.push(['location_id', asset.location_id, (w) => w.location_id === undefined || w.location_id === asset.location_id]);
    // Independent walks, one per filter, at once; judged in order.
    const walks = await concurrently(filters, ([name, value]) => walkPages<WorkOrder>(api, '/work-orders', { [name]: value, limit: 100 }));
    for (const [i, [name, value, matches]] of filters.entries()) {
      const { items } = walks[i]!;
      expect(items.map((w) => w.id), `${name}=${value} includes the work order made for it`).toContain(wo.id);
      for (const w of items) expect(matches(w), `${name}=${value} returned ${w.id}`).toBe(true);
    }
  });

  test('a status filter outside the listed values answers 400', { tag: ['@WO-009'] }, async ({ api }) => {
    for (const status of ['closed', 'TODO', 'Open', '']) expectProblem(await api.get('/work-orders', { query: { status } }), 400, 'validation_error');
  });

  test('previous_id and next_id read null when the linked work order is unavailable', { tag: ['@WO-010'] }, async ({ api, profile }) => {
    const id = need(profile, 'fixtures.workOrderWithUnavailableLink');
    const read = await api.get<WorkOrderEnvelope>(`/work-orders/${id}`);
    expect(read.status).toBe(200);
    const { previous_id, next_id } = read.body.data;
    for (const link of [previous_id, next_id]) if (link !== null && link !== undefined) expect((await api.get(`/work-orders/${link}`)).status, `link ${link} is available`).toBe(200);
    expect([previous_id, next_id]).toContain(null);
  });

  test('a work order created after another links both ways; deleting one nulls the link', { tag: ['@WO-023'] }, async ({ api, workOrders }) => {
    const first = await workOrders.create();
    const second = await viaInferred('creating a work order with previous_id', (c) => c.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT next ${uid()}`, previous_id: first.id } }), api, [201]);
    expect(second.body.data.previous_id).toBe(first.id);
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${first.id}`)).body.data.next_id).toBe(second.body.data.id);
    expect((await api.delete(`/work-orders/${second.body.data.id}`)).status).toBe(204);
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${first.id}`)).body.data.next_id).toBeNull();
  });

  test('DELETE soft-deletes: 204, then 404 and absent from the list', { tag: ['@WO-011'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const deleted = await api.delete(`/work-orders/${wo.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await api.get(`/work-orders/${wo.id}`), 404);
    const { items } = await walkPages<WorkOrder>(api, '/work-orders', { limit: 100, direction: 'desc' });
    expect(items.map((w) => w.id)).not.toContain(wo.id);
  });

  test('repeating DELETE answers 204', { tag: ['@WO-012'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    expect((await api.delete(`/work-orders/${wo.id}`)).status).toBe(204);
    expect((await api.delete(`/work-orders/${wo.id}`)).status).toBe(204);
    expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { title: 'gone' } }), 404);
  });

  test("a soft-deleted work order's parts and expenses answer 404", { tag: ['@WO-015'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    expect((await api.get(`/work-orders/${wo.id}/parts`)).status).toBe(200);
    expect((await api.delete(`/work-orders/${wo.id}`)).status).toBe(204);
    expectProblem(await api.get(`/work-orders/${wo.id}/parts`), 404);
    expectProblem(await api.get(`/work-orders/${wo.id}/other-costs`), 404);
  });

  test('creating with a pending workRequestId approves the request and links both', { tag: ['@WO-016'] }, async ({ api, workOrders }) => {
    const requestId = await workOrders.pendingRequest();
    const created = await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT approval ${uid()}`, workRequestId: requestId } });
    expectSucceeded(created);
    expect(created.body.data.workRequestId).toBe(requestId);
    const request = await workOrders.findRequest(requestId);
    expect(request, 'the request is still listed').toBeTruthy();
    expect(request).toMatchObject({ requestStatus: 'APPROVED', workOrderId: created.body.data.id });
  });

  test('repeating the create returns the existing linked work order and creates no other', { tag: ['@WO-017'] }, async ({ api, workOrders }) => {
    const requestId = await workOrders.pendingRequest();
    const first = await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT approval ${uid()}`, workRequestId: requestId } });
    expectSucceeded(first);
    const again = await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT approval again ${uid()}`, workRequestId: requestId } });
    expect([200, 201]).toContain(again.status);
    expect(again.body.data.id).toBe(first.body.data.id);
    const { items } = await walkPages<WorkOrder>(api, '/work-orders', { limit: 100, direction: 'desc' });
    expect(items.filter((w) => w.workRequestId === requestId)).toHaveLength(1);
  });

  test('a rejected workRequestId answers 409 invalid_work_request_state and creates nothing', { tag: ['@WO-018'] }, async ({ api, profile }) => {
    const rejected = need(profile, 'fixtures.rejectedWorkRequestId');
    const title = `CT rejected ${uid()}`;
    expectProblem(await api.post('/work-orders', { json: { title, workRequestId: rejected } }), 409, 'invalid_work_request_state');
    const { items } = await walkPages<WorkOrder>(api, '/work-orders', { limit: 100, direction: 'desc' });
    expect(items.filter((w) => w.title === title || w.workRequestId === rejected)).toHaveLength(0);
  });

  test('an unknown workRequestId answers 404', { tag: ['@WO-019'] }, async ({ api }) => {
    expectProblem(await api.post('/work-orders', { json: { title: 'x', workRequestId: 'wr_doesnotexist000' } }), 404);
  });

  test("another organization's workRequestId answers 404", { tag: ['@WO-019', '@TENANT-004'] }, async ({ api, as }) => {
    const theirs = await foreignRecord(as.otherOrg(), '/workrequests', 'workRequests');
    expectProblem(await api.post('/work-orders', { json: { title: 'x', workRequestId: theirs.id } }), 404);
  });

  test('concurrent creates with one pending workRequestId make exactly one work order', { tag: ['@WO-020'] }, async ({ api, workOrders }) => {
    const requestId = await workOrders.pendingRequest();
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT race ${i} ${uid()}`, workRequestId: requestId } })));
    for (const r of responses) expect([200, 201]).toContain(r.status);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    expect(responses.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
  });

  test('reads include labor rates, labor costs and purchase costs', { tag: ['@WO-021'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const { costs } = (await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data;
    expect(costs).toMatchObject({ labor: expect.any(Array), labor_cost_minor: expect.any(Number), purchase_cost_minor: expect.any(Number) });
  });

  test('PATCH status moves a work order; done completes and open reopens it', { tag: ['@WO-022'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const done = await api.patch<WorkOrderEnvelope>(`/work-orders/${wo.id}`, { json: { status: 'done' } });
    expect(done.body.data).toMatchObject({ status: 'done', completed_at: expect.any(String) });
    const reopened = await api.patch<WorkOrderEnvelope>(`/work-orders/${wo.id}`, { json: { status: 'open' } });
    expect(reopened.body.data).toMatchObject({ status: 'open', completed_at: null });
  });
});
