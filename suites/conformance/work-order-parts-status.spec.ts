/**
 * Part status and stock on the work-order parts section (States and transitions › Part status, Part
 * usage, "Staging settings can hide statuses"; Resources › Work-order parts section: allowedTransitions,
 * historyOnly, partAvailability; Endpoints › Work-order parts: stock availability can reject a command;
 * Authentication: "A disabled module never permits new stock commitments on work-order parts"): which
 * transitions apply, what each status does to stock, completing and reopening a work order, editing
 * issued usage and over-commitment. Every test that observes stock leases its own stocked part (profile
 * `fixtures.stockedParts`), makes its own work orders and asserts differences it observed, never
 * absolute numbers; `must` tests send commands through the kit's `apply` (2xx, then GET). The section's
 * fields and its command protocol are work-order-parts-commands.spec.ts's.
 */
import { test, expect, itemOn, PART_STATUSES, TAKING_STOCK } from '../kits/parts.ts';
import { expectProblem, expectRefused } from '../lib/expect-problem.ts';
import { proves } from '../lib/proves.ts';
import { notAssessed } from '../lib/needs.ts';
import { moveWorkOrder } from '../kits/work-orders.ts';
import { withRow } from './work-order-parts-helpers.ts';

test.describe('work-order parts section', () => {
  test('a transition to a status in allowedTransitions applies it', { tag: ['@PARTS-006', '@PARTS-035'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    let { id, section } = await withRow(parts, stock, 1);
    const applied: string[] = [];
    for (const target of ['reserved', 'kitted', 'staged', 'issued', 'assigned'] as const) {
      if (!section.capabilities.allowedTransitions.includes(target)) continue;
      section = await parts.transition(id, target);
      expect(section.partStatus, proves(['PARTS-006'], `partStatus after the transition to ${target}`)).toBe(target);
      expect(section.capabilities.allowedTransitions, proves(['PARTS-035'], `allowedTransitions after the transition to ${target}`)).not.toContain(target);
      applied.push(target);
    }
    expect(applied.length, 'at least one transition was allowed').toBeGreaterThan(0);
  });

  test('a transition to a status outside allowedTransitions answers 409 and changes nothing', { tag: ['@PARTS-007'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    let { id, section } = await withRow(parts, stock, 1);
    for (const round of [0, 1]) {
      for (const target of PART_STATUSES.filter((s) => !section.capabilities.allowedTransitions.includes(s))) {
        expectProblem(await parts.send(id, { operation: 'transition', targetStatus: target, expectedAggregateVersion: section.aggregateVersion }), 409);
        const after = await parts.section(id);
        expect(after.partStatus).toBe(section.partStatus);
        expect(after.aggregateVersion).toBe(section.aggregateVersion);
      }
      if (round === 0 && section.capabilities.allowedTransitions.includes('issued')) section = await parts.transition(id, 'issued');
    }
  });

  test('assigned parts reserve no stock', { tag: ['@PARTS-008'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const observe = await parts.observe(stock);
    const before = (await observe()).item;
    const { section } = await withRow(parts, stock, 3);
    expect(section.partStatus).toBe('assigned');
    const after = (await observe()).item;
    expect(after.availableQuantity, "another work order's availableQuantity").toBe(before.availableQuantity);
    expect(after.inStockQuantity).toBe(before.inStockQuantity);
  });

  test('reserved, kitted and staged parts are committed: others see less available and a competing demand', { tag: ['@PARTS-009', '@PARTS-024'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const observe = await parts.observe(stock);
    let { id, section } = await withRow(parts, stock, 2);
    const before = (await observe()).item;
    const committed: string[] = [];
    for (const status of ['reserved', 'kitted', 'staged'] as const) {
      if (!section.capabilities.allowedTransitions.includes(status)) continue;
      section = await parts.transition(id, status);
      const seen = await observe();
      expect(seen.item.availableQuantity, `${status}: availableQuantity of another work order`).toBe(before.availableQuantity - 2);
      expect(seen.item.inStockQuantity, `${status}: nothing left the shelf`).toBe(before.inStockQuantity);
      expect(seen.section.competingDemands).toContainEqual(expect.objectContaining({ workOrderId: id, partId: stock.partId, locationId: stock.locationId, partStatus: status, quantity: 2 }));
      committed.push(status);
    }
    if (committed.length === 0) notAssessed('no committing status (reserved, kitted, staged) was in allowedTransitions');
  });

  test('a transition to issued deducts the quantity from stock at once', { tag: ['@PARTS-010'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    const before = itemOn(section, stock)!.inStockQuantity;
    const issued = await parts.transition(id, 'issued');
    expect(issued.partStatus).toBe('issued');
    expect(itemOn(issued, stock)!.inStockQuantity).toBe(before - 2);
  });

  test('issued → assigned on an active work order returns the used quantity to stock', { tag: ['@PARTS-011'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    const before = itemOn(section, stock)!.inStockQuantity;
    expect(itemOn(await parts.transition(id, 'issued'), stock)!.inStockQuantity).toBe(before - 2);
    const returned = await parts.transition(id, 'assigned');
    expect(returned.partStatus).toBe('assigned');
    expect(itemOn(returned, stock)!.inStockQuantity).toBe(before);
  });

  test('completing a work order issues its pending parts; reopening keeps them issued', { tag: ['@PARTS-012', '@PARTS-013'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    const before = itemOn(section, stock)!.inStockQuantity;
    await moveWorkOrder(api, id, 'done');
    const completed = await parts.section(id);
    expect(completed.partStatus).toBe('issued');
    expect(itemOn(completed, stock)!.inStockQuantity).toBe(before - 2);
    await moveWorkOrder(api, id, 'open');
    const reopened = await parts.section(id);
    expect(reopened.partStatus).toBe('issued');
    expect(itemOn(reopened, stock)!.inStockQuantity).toBe(before - 2);
  });

  test('editing issued usage adjusts stock by the difference, also on a completed work order', { tag: ['@PARTS-014'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 2);
    const before = itemOn(section, stock)!.inStockQuantity;
    const row = itemOn(await parts.transition(id, 'issued'), stock)!.id;
    const raised = await parts.replace(id, [{ id: row, ...stock, quantity: 5 }]);
    expect(itemOn(raised, stock)).toMatchObject({ id: row, quantity: 5, quantityUsed: 5, inStockQuantity: before - 5 });
    await moveWorkOrder(api, id, 'done');
    const lowered = await parts.replace(id, [{ id: row, ...stock, quantity: 1 }]);
    expect(itemOn(lowered, stock)).toMatchObject({ id: row, quantityUsed: 1, inStockQuantity: before - 1 });
    const added = await parts.replace(id, [{ id: row, ...stock, quantity: 1 }, { ...stock, quantity: 2 }]);
    expect(added.items).toHaveLength(2);
    expect(itemOn(added, stock)!.inStockQuantity).toBe(before - 3);
    const removed = await parts.apply(id, { operation: 'replace', items: [] });
    expect(removed.items).toHaveLength(0);
    const observe = await parts.observe(stock);
    expect((await observe()).item.inStockQuantity, 'every used unit is back').toBe(before);
  });

  test('with Parts Inventory disabled no committing status is allowed and a transition to one is refused', { tag: ['@PARTS-023', '@MODULE-006'] }, async ({ as, parts }) => {
    const client = as.moduleDisabled('parts_inventory');
    const stock = await parts.fixtureStock('fixtures.partsModuleDisabledStock');
    const id = await parts.workOrder(client);
    await parts.send(id, { operation: 'replace', items: [{ ...stock, quantity: 1 }] }, client);
    const before = await parts.section(id, client);
    expect(before.capabilities.allowedTransitions.filter((s: string) => TAKING_STOCK.includes(s))).toEqual([]);
    for (const target of TAKING_STOCK) {
      expectRefused(await parts.send(id, { operation: 'transition', targetStatus: target, expectedAggregateVersion: before.aggregateVersion }, client));
    }
    const after = await parts.section(id, client);
    expect(after.partStatus).toBe(before.partStatus);
    expect(after.aggregateVersion).toBe(before.aggregateVersion);
    const item = itemOn(before, stock);
    if (item) expect(itemOn(after, stock)!.inStockQuantity, 'stock unchanged').toBe(item.inStockQuantity);
  });

  test('statuses hidden by the staging settings never appear in allowedTransitions', { tag: ['@PARTS-025'] }, async ({ as, parts }) => {
    const client = as.role('keys.restrictedSettings');
    const id = await parts.workOrder(client);
    let section = await parts.section(id, client);
    const hidden = ['kitted', 'staged'];
    for (const status of hidden) expect(section.capabilities.allowedTransitions).not.toContain(status);
    if (section.capabilities.allowedTransitions.includes('reserved')) {
      section = await parts.transition(id, 'reserved', client);
      for (const status of hidden) expect(section.capabilities.allowedTransitions).not.toContain(status);
    }
    expectRefused(await parts.send(id, { operation: 'transition', targetStatus: 'kitted', expectedAggregateVersion: section.aggregateVersion }, client));
    expect((await parts.section(id, client)).partStatus).toBe(section.partStatus);
  });

  test('from issued the only transition is to assigned, and only while the work order is active', { tag: ['@PARTS-030'] }, async ({ api, parts }) => {
    const stock = await parts.stocked();
    const { id } = await withRow(parts, stock, 1);
    const issued = await parts.transition(id, 'issued');
    expect(issued.capabilities.allowedTransitions).toEqual(['assigned']);
    await moveWorkOrder(api, id, 'done');
    const completed = await parts.section(id);
    expect(completed.capabilities.allowedTransitions).toEqual([]);
    expect(completed.historyOnly).toBe(true);
    expectProblem(await parts.send(id, { operation: 'transition', targetStatus: 'assigned', expectedAggregateVersion: completed.aggregateVersion }), 409);
    await moveWorkOrder(api, id, 'open');
    expect((await parts.section(id)).capabilities.allowedTransitions).toEqual(['assigned']);
  });

  test('historyOnly is false while the work order is active and true once it is done or canceled', { tag: ['@PARTS-034'] }, async ({ api, parts }) => {
    for (const status of ['done', 'canceled']) {
      const id = await parts.workOrder();
      expect((await parts.section(id)).historyOnly).toBe(false);
      await moveWorkOrder(api, id, status);
      expect((await parts.section(id)).historyOnly, status).toBe(true);
    }
  });

  test('partAvailability is available, partial or unavailable by how many rows fit', { tag: ['@PARTS-031'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 1);
    expect(section.partAvailability).toBe('available');
    const tooMany = itemOn(section, stock)!.availableQuantity + 1;
    expect((await parts.replace(id, [{ ...stock, quantity: tooMany }])).partAvailability).toBe('unavailable');
    expect((await parts.replace(id, [{ ...stock, quantity: 1 }, { ...stock, quantity: tooMany }])).partAvailability).toBe('partial');
  });

  test('a transition committing more than the available stock answers 409 (any code: the description shows none)', { tag: ['@PARTS-032'] }, async ({ parts }) => {
    const stock = await parts.stocked();
    const { id, section } = await withRow(parts, stock, 1);
    expect(section.capabilities.canOverrideOvercommit).toBe(false);
    const over = await parts.replace(id, [{ ...stock, quantity: itemOn(section, stock)!.availableQuantity + 1 }]);
    for (const target of ['reserved', 'issued']) {
      expectProblem(await parts.send(id, { operation: 'transition', targetStatus: target, expectedAggregateVersion: over.aggregateVersion }), 409);
    }
    const after = await parts.section(id);
    expect(after.partStatus).toBe('assigned');
    expect(after.aggregateVersion).toBe(over.aggregateVersion);
  });
});
