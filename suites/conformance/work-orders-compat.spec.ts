/** The compatibility `/workorders` adapter (Resources › Work order (native): uppercase values, NONE, critical). */
import { test, expect } from '../kits/work-orders.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { uid, viaInferred } from '../lib/provision.ts';
import type { CompatWorkOrderRead, WorkOrderEnvelope } from '../lib/api-types.ts';

/** The created work order's id from either documented answer: the record itself or a `workOrder` wrapper. */
const idOf = (body: unknown): string => {
  const b = (body ?? {}) as { id?: string; workOrder?: { id?: string } };
  return (b.id ?? b.workOrder?.id)!;
};

test.describe('compatibility work orders', () => {
  test('POST /workorders answers 200 with {id} or a wrapper; NONE creates native medium', { tag: ['@WOC-001', '@WOC-002'] }, async ({ api, profile }) => {
    const title = `CT compat ${uid()}`;
    const created = await api.post('/workorders', { json: { title, priority: 'NONE', ...profile.bodies.createCompatWorkOrder } });
    expect(created.status).toBe(200);
    const id = idOf(created.body);
    expect(typeof id).toBe('string');
    const native = await api.get<WorkOrderEnvelope>(`/work-orders/${id}`);
    expect(native.body.data).toMatchObject({ title, priority: 'medium' });
  });

  test('native critical reads as HIGH', { tag: ['@WOC-003'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create({ priority: 'critical' });
    const compat = await viaInferred('GET /workorders/{id}', (c) => c.get<CompatWorkOrderRead>(`/workorders/${wo.id}`), api, [200]);
    expect(compat.body.workOrder.priority).toBe('HIGH');
  });

  test('LOW, MEDIUM and HIGH create low, medium and high and read back unchanged', { tag: ['@WOC-004'] }, async ({ api }) => {
    for (const [compat, native] of [['LOW', 'low'], ['MEDIUM', 'medium'], ['HIGH', 'high']]) {
      const id = idOf((await api.post('/workorders', { json: { title: `CT ${compat} ${uid()}`, priority: compat } })).body);
      expect((await api.get<WorkOrderEnvelope>(`/work-orders/${id}`)).body.data.priority).toBe(native);
      expect((await api.get<CompatWorkOrderRead>(`/workorders/${id}`)).body.workOrder.priority).toBe(compat);
    }
  });

  test('lowercase compatibility values are refused', { tag: ['@WOC-005'] }, async ({ api }) => {
    expectProblem(await api.post('/workorders', { json: { title: 'x', priority: 'medium' } }), 400, 'validation_error');
    expectProblem(await api.post('/workorders', { json: { title: 'x', type: 'reactive' } }), 400, 'validation_error');
  });

  test('a related record the organization does not have answers 404', { tag: ['@WOC-007'] }, async ({ api }) => {
    expectProblem(await api.post('/workorders', { json: { title: `CT ${uid()}`, assetId: `ct_unknown_asset_${uid()}` } }), 404);
  });

  test('uppercase types map to native types', { tag: ['@WOC-006'] }, async ({ api }) => {
    for (const [compat, native] of [['REACTIVE', 'reactive'], ['PREVENTIVE', 'preventive'], ['OTHER', 'other']]) {
      const id = idOf((await api.post('/workorders', { json: { title: `CT ${compat} ${uid()}`, type: compat } })).body);
      expect((await api.get<WorkOrderEnvelope>(`/work-orders/${id}`)).body.data.type).toBe(native);
    }
  });
});
