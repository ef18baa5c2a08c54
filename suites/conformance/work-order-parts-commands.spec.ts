/**
 * The work-order parts section and its commands (Resources › Work-order parts section; Endpoints ›
 * Work-order parts; Limits: work-order part row `quantity`): the section as GET answers it (fields, types,
 * enums, aggregateVersion, unitCost by cost access) and what POST does with a command: stale versions,
 * idempotency keys, replace keeping and dropping rows, invalid bodies, unit-cost overrides, unknown work
 * orders, parts and locations, concurrent commands and the section it answers. Tests that use stock lease
 * their own stocked part (profile `fixtures.stockedParts`) and make their own work orders; `must` tests
 * send commands through the kit's `apply` (2xx, then GET), since the POST's response is not shown. Part
 * status and stock are work-order-parts-status.spec.ts's.
 */
import { test, expect, itemOn, PART_STATUSES, type Section } from '../kits/parts.ts';
import { expectProblem, expectRefused } from '../lib/expect-problem.ts';
import { proves } from '../lib/proves.ts';
import { notAssessed } from '../lib/needs.ts';
import { anyLocation, uid } from '../lib/provision.ts';
import { withRow } from './work-order-parts-helpers.ts';
import type { AssetList, PartList, PartsSection, WorkOrderList } from '../lib/api-types.ts';

const UNKNOWN_WORK_ORDER = 'wo_doesnotexist0000';
const SOME_VERSION = '0'.repeat(64);
const CAPABILITIES = ['canEditParts', 'canRemoveParts', 'canTransitionPartStatus', 'canRelease', 'canOverrideOvercommit', 'canReconcile', 'canViewCost', 'canOverrideUnitCost'] as const;

/**
 * Asserts the section's fields, types and enums as the description lists them (PARTS-001, -003, -004,
 * -005), and the inferred PARTS-035 (the current status is not among allowedTransitions): every test
 * that calls it carries @PARTS-035.
 */
function expectSection(section: Section, workOrderId: string): void {
  const where = `section of ${workOrderId}`;
  expect(section.workOrderId, where).toBe(workOrderId);
  expect(PART_STATUSES, `${where}: partStatus`).toContain(section.partStatus);
  expect(['available', 'partial', 'unavailable'], `${where}: partAvailability`).toContain(section.partAvailability);
  expect(section.aggregateVersion, `${where}: aggregateVersion`).toMatch(/^[0-9a-f]{64}$/);
  expect(typeof section.historyOnly, `${where}: historyOnly`).toBe('boolean');
  expect(Array.isArray(section.items) && Array.isArray(section.competingDemands), `${where}: items and competingDemands are arrays`).toBe(true);
  const caps = section.capabilities;
  for (const name of CAPABILITIES) expect(typeof caps[name], `${where}: capabilities.${name}`).toBe('boolean');
  expect(Array.isArray(caps.allowedTransitions), `${where}: allowedTransitions`).toBe(true);
  for (const s of caps.allowedTransitions) expect(PART_STATUSES, `${where}: allowedTransitions`).toContain(s);
  expect(new Set(caps.allowedTransitions).size, `${where}: allowedTransitions has no duplicates`).toBe(caps.allowedTransitions.length);
  expect(caps.allowedTransitions, proves(['PARTS-035'], `${where}: allowedTransitions never holds the current status`)).not.toContain(section.partStatus);
  for (const item of section.items) {
    for (const f of ['id', 'partId', 'locationId', 'readiness'] as const) expect(typeof item[f], `${where}: item.${f}`).toBe('string');
    expect(Number.isInteger(item.quantity) && item.quantity >= 1, `${where}: item.quantity ${item.quantity} is an integer >= 1`).toBe(true);
    expect(item.quantityUsed === null || (Number.isInteger(item.quantityUsed) && item.quantityUsed >= 0), `${where}: item.quantityUsed ${item.quantityUsed}`).toBe(true);
    for (const f of ['inStockQuantity', 'availableQuantity'] as const) expect(typeof item[f], `${where}: item.${f}`).toBe('number');
    expect(typeof item.linkable, `${where}: item.linkable`).toBe('boolean');
    expect(item.location, `${where}: item.location`).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    if (item.part !== null) {
      expect(item.part, `${where}: item.part`).toMatchObject({ id: expect.any(String), name: expect.any(String), archived: expect.any(Boolean) });
      for (const f of ['partNumber', 'imageUrl'] as const) expect(item.part[f] === null || typeof item.part[f] === 'string', `${where}: item.part.${f}`).toBe(true);
    }
    if (item.issuedSnapshot !== undefined) expect(typeof item.issuedSnapshot, `${where}: item.issuedSnapshot`).toBe('object');
    if (!caps.canViewCost) expect('unitCost' in item, `${where}: unitCost is omitted when cost access is denied`).toBe(false);
    else if (item.unitCost !== null) expect(item.unitCost, `${where}: unitCost`).toEqual({ minor: expect.any(Number), currency: expect.any(String) });
    if (caps.canViewCost && item.unitCost) expect(Number.isInteger(item.unitCost.minor), `${where}: unitCost.minor is an integer`).toBe(true);
  }
  for (const d of section.competingDemands) {
    expect(d, `${where}: competing demand`).toMatchObject({ workOrderId: expect.any(String), title: expect.any(String), partId: expect.any(String), locationId: expect.any(String) });
    expect(PART_STATUSES, `${where}: competing demand partStatus`).toContain(d.partStatus);
    expect(Number.isInteger(d.quantity) && d.quantity >= 1, `${where}: competing demand quantity`).toBe(true);
  }
}

test.describe('work-order parts section', () => {
  test('GET answers the section with the listed fields, types and enums', { tag: ['@PARTS-001', '@PARTS-003', '@PARTS-004', '@PARTS-005', '@PARTS-035'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    expectSection(section, id);
    expect(itemOn(section, stock)).toMatchObject({ quantity: 2 });
    // Five other sections (most made by parallel tests, in every status) beside the one made here.
    const listed = await api.get<WorkOrderList>('/work-orders', { query: { limit: 5 } });
    expect(listed.status).toBe(200);
    for (const wo of listed.body.data) {
      const other = await api.get<PartsSection>(`/work-orders/${wo.id}/parts`);
      if (other.status === 404) continue; // deleted meanwhile by a parallel test
      expect(other.status).toBe(200);
      expectSection(other.body, wo.id);
    }
  });

  test('unitCost is omitted when the caller cannot view costs', { tag: ['@PARTS-004', '@PARTS-035'] }, async ({ as, parts }) => {
    const client = as.role('keys.costTrackingDisabled');
    const part = await parts.createPart(client);
    const id = await parts.workOrder(client);
    const section = await parts.replace(id, [{ partId: part.id, locationId: await anyLocation(client), quantity: 1 }], client);
    expectSection(section, id);
    expect(section.items).toHaveLength(1);
  });

  test('aggregateVersion stays while the section is unchanged and changes with it', { tag: ['@PARTS-002'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const first = await parts.section(id);
    expect(first.aggregateVersion).toMatch(/^[0-9a-f]{64}$/);
    expect((await parts.section(id)).aggregateVersion, 'unchanged section, same version').toBe(first.aggregateVersion);
    const replaced = await parts.replace(id, [{ ...stock, quantity: 1 }]);
    expect(replaced.aggregateVersion, 'a replace changes the version').not.toBe(first.aggregateVersion);
    expect((await parts.section(id)).aggregateVersion).toBe(replaced.aggregateVersion);
    const target = replaced.capabilities.allowedTransitions[0] ?? 'issued';
    const moved = await parts.transition(id, target);
    expect(moved.aggregateVersion, `a transition to ${target} changes the version`).not.toBe(replaced.aggregateVersion);
    expect(moved.aggregateVersion).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a command on a stale expectedAggregateVersion answers 409 and changes nothing', { tag: ['@PARTS-016'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const stale = (await parts.section(id)).aggregateVersion;
    const current = await parts.replace(id, [{ ...stock, quantity: 1 }]);
    expectProblem(await parts.send(id, { operation: 'transition', targetStatus: current.capabilities.allowedTransitions[0] ?? 'issued', expectedAggregateVersion: stale }), 409);
    expectProblem(await parts.send(id, { operation: 'replace', items: [{ ...stock, quantity: 4 }], expectedAggregateVersion: stale }), 409);
    const after = await parts.section(id);
    expect(after.aggregateVersion).toBe(current.aggregateVersion);
    expect(after.partStatus).toBe(current.partStatus);
    expect(after.items.map((i: { quantity: number }) => i.quantity)).toEqual([1]);
  });

  test('a retry of the identical command with the same key returns the original response and applies once', { tag: ['@PARTS-017'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    const before = itemOn(section, stock)!.inStockQuantity;
    const command = await parts.command(id, { operation: 'transition', targetStatus: 'issued' });
    const path = `/work-orders/${id}/parts`;
    const first = await api.post(path, { json: command });
    expect(first.status, first.text).toBeGreaterThanOrEqual(200);
    expect(first.status, first.text).toBeLessThan(300);
    const applied = await parts.section(id);
    const retry = await api.post(path, { json: command });
    expect(retry.status).toBe(first.status);
    if (first.body !== undefined) expect(retry.body).toEqual(first.body);
    else expect(retry.text).toBe(first.text);
    const after = await parts.section(id);
    expect(after.aggregateVersion).toBe(applied.aggregateVersion);
    expect(itemOn(after, stock)!.inStockQuantity, 'deducted once').toBe(before - 2);
  });

  test('the same idempotencyKey with a different command answers 409', { tag: ['@PARTS-018'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id } = await withRow(parts, stock, 1);
    const command = await parts.command(id, { operation: 'transition', targetStatus: 'reserved' });
    expect((await parts.send(id, command)).status).toBe(200);
    const reserved = await parts.section(id);
    expectProblem(await parts.send(id, { operation: 'transition', targetStatus: 'assigned', idempotencyKey: command.idempotencyKey, expectedAggregateVersion: reserved.aggregateVersion }), 409);
    const after = await parts.section(id);
    expect(after.partStatus).toBe('reserved');
    expect(after.aggregateVersion).toBe(reserved.aggregateVersion);
  });

  test('replace retains the ids of the rows it edits and removes the rows it omits', { tag: ['@PARTS-019', '@PARTS-020'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const two = await parts.replace(id, [{ ...stock, quantity: 1 }, { ...stock, quantity: 2 }]);
    expect(two.items).toHaveLength(2);
    const [kept, dropped] = two.items.map((i: { id: string }) => i.id);
    const edited = await parts.replace(id, [{ id: kept, ...stock, quantity: 3 }]);
    expect(edited.items).toHaveLength(1);
    expect(edited.items[0]).toMatchObject({ id: kept, quantity: 3 });
    const grown = await parts.replace(id, [{ id: kept, ...stock, quantity: 3 }, { ...stock, quantity: 1 }]);
    const ids = grown.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(kept);
    expect(ids).not.toContain(dropped);
    expect(new Set(ids).size).toBe(2);
  });

  test('an invalid command answers 400 validation_error and changes nothing', { tag: ['@PARTS-021'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 1);
    const base = () => ({ idempotencyKey: `ct-${uid()}`, expectedAggregateVersion: section.aggregateVersion });
    const invalid: Array<Record<string, unknown>> = [
      ...[0, -1, 1.5, '2', null].map((quantity) => ({ ...base(), operation: 'replace', items: [{ ...stock, quantity }] })),
      { ...base(), operation: 'replace', items: [{ ...stock }] },
      { ...base(), operation: 'explode', items: [] },
      { ...base(), operation: 'transition', targetStatus: 'done' },
      { ...base(), operation: 'transition', targetStatus: 'ISSUED' },
      { ...base(), operation: 'transition' },
    ];
    for (const json of invalid) expectProblem(await api.post(`/work-orders/${id}/parts`, { json }), 400, 'validation_error');
    const after = await parts.section(id);
    expect(after.aggregateVersion).toBe(section.aggregateVersion);
    expect(after.items.map((i: { quantity: number }) => i.quantity)).toEqual([1]);
  });

  test('a unit-cost override is refused without the organization setting', { tag: ['@PARTS-022'] }, async ({ as, parts }) => {
    const client = as.role('keys.restrictedSettings');
    const stock = await parts.fixtureStock('fixtures.restrictedSettingsStock');
    const id = await parts.workOrder(client);
    const before = await parts.section(id, client);
    expectRefused(await parts.send(id, { operation: 'replace', items: [{ ...stock, quantity: 1, unitCostMinor: 1234 }] }, client));
    const after = await parts.section(id, client);
    expect(after.aggregateVersion).toBe(before.aggregateVersion);
    expect(after.items).toHaveLength(0);
    expect((await parts.replace(id, [{ ...stock, quantity: 1 }], client)).items, 'the same row without the override is accepted').toHaveLength(1);
  });

  test('a unit-cost override is applied with the organization setting', { tag: ['@PARTS-022'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const { capabilities } = await parts.section(id);
    if (!capabilities.canOverrideUnitCost || !capabilities.canViewCost) notAssessed('the main organization cannot override or view unit costs (capabilities)');
    const section = await parts.replace(id, [{ ...stock, quantity: 1, unitCostMinor: 4321 }]);
    expect(itemOn(section, stock)!.unitCost).toEqual({ minor: 4321, currency: expect.any(String) });
  });

  test('an unknown work order, part or location answers 404', { tag: ['@PARTS-026'] }, async ({ api, as, parts }) => {
    const stock = await parts.stocked();
    expectProblem(await api.get(`/work-orders/${UNKNOWN_WORK_ORDER}/parts`), 404);
    expectProblem(await api.post(`/work-orders/${UNKNOWN_WORK_ORDER}/parts`, { json: { operation: 'replace', idempotencyKey: `ct-${uid()}`, expectedAggregateVersion: SOME_VERSION, items: [] } }), 404);
    const id = await parts.workOrder();
    const before = await parts.section(id);
    const rows: Array<Record<string, unknown>> = [
      { partId: 'prt_doesnotexist0000', locationId: stock.locationId },
      { partId: stock.partId, locationId: 'loc_doesnotexist0000' },
    ];
    const foreign = as.otherOrg();
    const theirPart = (await foreign.get<PartList>('/parts', { query: { limit: 1 } })).body?.data?.[0]?.id;
    if (theirPart) rows.push({ partId: theirPart, locationId: stock.locationId });
    const theirLocation = (await foreign.get<AssetList>('/assets', { query: { limit: 100 } })).body.data.find((a) => a.location_id)?.location_id;
    if (theirLocation) rows.push({ partId: stock.partId, locationId: theirLocation });
    for (const row of rows) expectProblem(await parts.send(id, { operation: 'replace', items: [{ ...row, quantity: 1 }], expectedAggregateVersion: before.aggregateVersion }), 404);
    expect((await parts.section(id)).aggregateVersion).toBe(before.aggregateVersion);
  });

  // 20 commands in flight at once show a lost update as well as 50 did, at less than half the requests.
  test('of 20 concurrent commands on one version exactly one applies; the others answer 409', { tag: ['@PARTS-027'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const { aggregateVersion } = await parts.section(id);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post(`/work-orders/${id}/parts`, {
      json: { operation: 'replace', idempotencyKey: `ct-${uid()}`, expectedAggregateVersion: aggregateVersion, items: [{ ...stock, quantity: i + 1 }] },
    })));
    const applied = responses.flatMap((r, i) => (r.status >= 200 && r.status < 300 ? [i] : []));
    expect(applied, 'exactly one command applied').toHaveLength(1);
    for (const r of responses.filter((_, i) => i !== applied[0])) expectProblem(r, 409);
    const after = await parts.section(id);
    expect(after.items.map((i: { quantity: number }) => i.quantity)).toEqual([applied[0]! + 1]);
  });

  test('POST answers 200 with the section after the command', { tag: ['@PARTS-028'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const id = await parts.workOrder();
    const response = await parts.send(id, { operation: 'replace', items: [{ ...stock, quantity: 2 }] });
    expect(response.status).toBe(200);
    const read = await parts.section(id);
    expect(response.body).toMatchObject({ workOrderId: id, partStatus: read.partStatus, aggregateVersion: read.aggregateVersion });
    expect(response.body.items.map((i: { id: string }) => i.id)).toEqual(read.items.map((i: { id: string }) => i.id));
  });

  test('a replace naming a row id the section does not have answers 400 and changes nothing', { tag: ['@PARTS-033'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 1);
    const other = await withRow(parts, stock, 1);
    for (const rowId of ['wop_doesnotexist0000', other.section.items[0]!.id]) {
      expectProblem(await parts.send(id, { operation: 'replace', items: [{ id: rowId, ...stock, quantity: 2 }], expectedAggregateVersion: section.aggregateVersion }), 400, 'validation_error');
    }
    expect((await parts.section(id)).aggregateVersion).toBe(section.aggregateVersion);
  });
});
