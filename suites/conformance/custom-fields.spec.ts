/**
 * Custom-field definitions (Endpoints › Custom fields (compatibility style); States and transitions ›
 * Custom-field definition; Limits: custom-field id and lists; Authentication: module requirements).
 * Other tests create definitions concurrently: order is asserted only among this test's definitions, or
 * within one response.
 */
import { test, expect, ENTITIES, type Definition } from '../kits/custom-fields.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { notAssessed } from '../lib/needs.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { rotatingShare } from '../lib/operations.ts';
import { samplePool } from '../lib/response-samples.ts';

/** An id in range that no definition has. */
const ABSENT_ID = 2147483647;
/** Ids outside 1..2147483647 or not integers, in pairs of one kind: below the range, above it, not an integer. */
const BAD_IDS = ['0', '-1', '2147483648', '99999999999999999999', 'abc', '1.5'];
const NOT_ENTITIES = ['vendors', 'Assets', 'workorders', 'work_orders'];

/**
 * One list of each entity family, shared by the list tests of a worker (suites/lib/sample-sets.ts):
 * made by the first, borrowed by the others. 4 requests.
 */
async function entityLists(api: ApiClient): Promise<Array<[string, ApiResponse]>> {
  const set = await samplePool.get(api, 'custom-field lists', async () => Object.fromEntries(await Promise.all(ENTITIES.map(async (entity) => [entity, await api.get(`/customfields/${entity}`)]))));
  return ENTITIES.map((entity) => [entity, set[entity]!]);
}

/** The ids of `mine` in the order `list` shows them. */
function orderOf(list: Definition[], mine: Definition[]): number[] {
  const ids = new Set(mine.map((d) => d.id));
  return list.filter((d) => ids.has(d.id)).map((d) => d.id);
}

function expectNoContent(response: ApiResponse): void {
  expect(response.status, `${response.exchange.method} ${response.exchange.path}: ${response.text.slice(0, 300)}`).toBe(204);
  expect(response.text).toBe('');
}

test.describe('custom-field definitions', () => {
  test('each entity family lists its definitions as a bare array', { tag: ['@CF-001'] }, async ({ api }) => {
    for (const [entity, response] of await entityLists(api)) {
      expect(response.status, `GET /customfields/${entity}: ${response.text.slice(0, 300)}`).toBe(200);
      expect(Array.isArray(response.body), 'a custom-field list is a bare JSON array').toBe(true);
      const list = response.body as Definition[];
      for (const d of list) {
        expect(Number.isInteger(d.id) && d.id >= 1 && d.id <= 2147483647, `${entity} definition id ${d.id}`).toBe(true);
        expect(typeof d.label).toBe('string');
      }
      expect(new Set(list.map((d) => d.id)).size, `${entity}: no definition is listed twice`).toBe(list.length);
    }
  });

  test('definitions are listed in display order', { tag: ['@CF-002'] }, async ({ api }) => {
    for (const [entity, response] of await entityLists(api)) {
      expect(response.status, `GET /customfields/${entity}`).toBe(200);
      const list = response.body as Definition[];
      if (list.some((d) => d.sortIndex === undefined)) notAssessed(`${entity} definitions do not show sortIndex`);
      const indexes = list.map((d) => d.sortIndex!);
      expect(indexes, `${entity}: sortIndex ascending`).toEqual([...indexes].sort((a, b) => a - b));
    }
  });

  test('an entity other than assets, locations, parts or workOrders is refused', { tag: ['@CF-003'] }, async ({ api, fields }) => {
    const refused = (r: ApiResponse) => expect([400, 404], `${r.exchange.method} ${r.exchange.path}: ${r.status}`).toContain(r.status);
    // Each of the four operations gets two of the four entities, in turn: every entity reaches two operations.
    for (const entity of rotatingShare(NOT_ENTITIES, 0, 2)) refused(await api.get(`/customfields/${entity}`));
    for (const entity of rotatingShare(NOT_ENTITIES, 1, 2)) refused(await api.post(`/customfields/${entity}`, { json: { fields: [{ label: fields.label() }] } }));
    for (const entity of rotatingShare(NOT_ENTITIES, 2, 2)) refused(await api.patch(`/customfields/${entity}/${ABSENT_ID}`, { json: { field: { unlisted: false } } }));
    for (const entity of rotatingShare(NOT_ENTITIES, 3, 2)) refused(await api.delete(`/customfields/${entity}/${ABSENT_ID}`));
  });

  test('PATCH answers 204 and the list shows the change', { tag: ['@CF-004'] }, async ({ api, fields }) => {
    const [made] = await fields.create('locations', [{ type: 'dropdown', options: ['Red'] }]);
    const change = { label: fields.label(), options: ['Red', 'Blue'], unlisted: true, includeInRecurrence: true };
    expectNoContent(await api.patch(`/customfields/locations/${made!.id}`, { json: { field: change } }));
    const listed = (await fields.list('locations')).find((d) => d.id === made!.id);
    expect(listed).toMatchObject({ id: made!.id, ...change });
    expectNoContent(await api.patch(`/customfields/locations/${made!.id}`, { json: { field: { unlisted: false } } }));
    expect((await fields.list('locations')).find((d) => d.id === made!.id)).toMatchObject({ label: change.label, unlisted: false });
  });

  test('an id outside 1..2147483647 or not an integer answers 400', { tag: ['@CF-005'] }, async ({ api }) => {
    // Both operations get one id of each kind (below the range, above it, not an integer): PATCH the first
    // of each pair, DELETE the second.
    for (const [i, id] of BAD_IDS.entries()) {
      if (i % 2 === 0) expectProblem(await api.patch(`/customfields/assets/${id}`, { json: { field: { unlisted: false } } }), 400, 'validation_error');
      else expectProblem(await api.delete(`/customfields/assets/${id}`), 400, 'validation_error');
    }
  });

  test('an id in range that the entity does not have answers 404', { tag: ['@CF-006'] }, async ({ api, fields }) => {
    // Each operation gets two of the four entities, in turn: every entity reaches one of them.
    for (const entity of rotatingShare(ENTITIES, 0, 2)) expectProblem(await api.patch(`/customfields/${entity}/${ABSENT_ID}`, { json: { field: { unlisted: false } } }), 404);
    for (const entity of rotatingShare(ENTITIES, 1, 2)) expectProblem(await api.delete(`/customfields/${entity}/${ABSENT_ID}`), 404);
    const locationIds = new Set((await fields.list('locations')).map((d) => d.id));
    const other = (await fields.list('assets')).find((d) => !locationIds.has(d.id));
    if (!other) notAssessed('the organization has no assets definition to name under another entity');
    expectProblem(await api.patch(`/customfields/locations/${other.id}`, { json: { field: { unlisted: other.unlisted ?? false } } }), 404);
  });

  test("a PATCH body that is not {field: {...}} with the update fields' types answers 400 and changes nothing", { tag: ['@CF-007'] }, async ({ api, fields }) => {
    const [made] = await fields.create('assets');
    const before = (await fields.list('assets')).find((d) => d.id === made!.id);
    const bodies = [
      {}, { label: fields.label() }, { field: 'label' }, { field: [] }, { field: { label: 42 } }, { field: { options: 'Red' } },
      { field: { options: [1, 2] } }, { field: { sortIndex: 'first' } }, { field: { sortIndex: 1.5 } }, { field: { required: 'yes' } },
      { field: { unlisted: 1 } }, { field: { includeInRecurrence: null } },
    ];
    for (const json of bodies) expectProblem(await api.patch(`/customfields/assets/${made!.id}`, { json }), 400, 'validation_error');
    expect((await fields.list('assets')).find((d) => d.id === made!.id)).toEqual(before);
  });

  test('DELETE archives the definition: 204, and it leaves the list', { tag: ['@CF-008'] }, async ({ api, fields }) => {
    const [made, kept] = await fields.create('workOrders', [{}, {}]);
    expect((await fields.list('workOrders')).map((d) => d.id)).toContain(made!.id);
    expectNoContent(await api.delete(`/customfields/workOrders/${made!.id}`));
    const ids = (await fields.list('workOrders')).map((d) => d.id);
    expect(ids).not.toContain(made!.id);
    expect(ids).toContain(kept!.id);
  });

  test('PATCH sortIndex reorders the list', { tag: ['@CF-009'] }, async ({ api, fields }) => {
    // The three definitions get places of their own first: where a new definition lands, and which
    // sortIndex values other definitions hold (up to the bound), is not this rule's business.
    const mine = await fields.create('assets', [{}, {}, {}]);
    const [a, b, c] = mine.map((d) => d.id);
    const place = async (id: number | undefined, sortIndex: number) =>
      expectNoContent(await api.patch(`/customfields/assets/${id}`, { json: { field: { sortIndex } } }));
    await place(a, 10);
    await place(b, 20);
    await place(c, 30);
    expect(orderOf(await fields.list('assets'), mine)).toEqual([a, b, c]);
    await place(a, 31);
    expect(orderOf(await fields.list('assets'), mine)).toEqual([b, c, a]);
    await place(c, 19);
    expect(orderOf(await fields.list('assets'), mine)).toEqual([c, b, a]);
  });

  test('custom-field lists are complete: limit and cursor do not truncate them', { tag: ['@PAGE-024'] }, async ({ api, fields }) => {
    let before = await fields.list('assets');
    if (before.length < 2) {
      await fields.create('assets', [{}, {}]);
      before = await fields.list('assets');
    }
    const queried = await api.get('/customfields/assets', { query: { limit: 1, cursor: 'x' } });
    expect(queried.status).toBe(200);
    const after = await fields.list('assets');
    const got = new Set((queried.body as Definition[]).map((d) => d.id));
    expect(got.size, 'limit=1 does not truncate the list').toBeGreaterThanOrEqual(2);
    const stayed = before.filter((d) => after.some((x) => x.id === d.id));
    for (const d of stayed) expect(got.has(d.id), `definition ${d.id} is in the list despite limit=1`).toBe(true);
  });
});

test.describe('custom-field definitions (inferred behaviour)', () => {
  test('POST creates definitions atomically in request order, appended to the display order', { tag: ['@CF-010'] }, async ({ api, fields }) => {
    const before = await fields.list('workOrders');
    const labels = [fields.label(), fields.label(), fields.label()];
    const created = await api.post('/customfields/workOrders', { json: { fields: labels.map((label) => ({ label })) } });
    expect(created.status).toBe(200);
    const mine = created.body as Definition[];
    expect(mine.map((d) => d.label)).toEqual(labels);
    const after = await fields.list('workOrders');
    expect(orderOf(after, mine)).toEqual(mine.map((d) => d.id));
    const firstOfMine = after.findIndex((d) => d.id === mine[0]!.id);
    const unmoved = before.filter((d) => after.some((x) => x.id === d.id && x.sortIndex === d.sortIndex));
    for (const d of unmoved) expect(after.findIndex((x) => x.id === d.id), `definition ${d.id} stays before the appended ones`).toBeLessThan(firstOfMine);
  });

  test('a POST with a duplicate or invalid definition creates none', { tag: ['@CF-011'] }, async ({ api, fields }) => {
    const [existing] = await fields.create('parts');
    const fresh = [fields.label(), fields.label(), fields.label(), fields.label()];
    expectProblem(await api.post('/customfields/parts', { json: { fields: [{ label: fresh[0] }, { label: existing!.label }] } }), 409);
    expectProblem(await api.post('/customfields/parts', { json: { fields: [{ label: fresh[1] }, { label: fresh[1] }] } }), 409);
    expectProblem(await api.post('/customfields/parts', { json: { fields: [{ label: fresh[2] }, { label: 42 }] } }), 400, 'validation_error');
    expectProblem(await api.post('/customfields/parts', { json: { fields: [{ label: fresh[3] }, { label: fields.label(), required: 'yes' }] } }), 400, 'validation_error');
    expectProblem(await api.post('/customfields/parts', { json: { fields: [] } }), 400, 'validation_error');
    const labels = (await fields.list('parts')).map((d) => d.label);
    for (const label of fresh) expect(labels).not.toContain(label);
    expect(labels.filter((l) => l === existing!.label)).toHaveLength(1);
  });

  test('the compat query parameter is accepted on POST, PATCH and DELETE and changes nothing', { tag: ['@CF-012'] }, async ({ api, fields }) => {
    // Three definitions, each created, renamed and archived with the parameter: each operation gets three of
    // the six values, in turn, a true and a false form among them; every value reaches one operation or two.
    const values = ['true', 'false', '1', '0', 'yes', 'no'];
    const [forPost, forPatch, forDelete] = [0, 1, 2].map((k) => rotatingShare(values, k, 3));
    const made: Definition[] = [];
    for (const compat of forPost!) {
      const created = await api.post<Definition[]>('/customfields/assets', { query: { compat }, json: { fields: [{ label: fields.label() }] } });
      expect(created.status, `POST ?compat=${compat}`).toBe(200);
      made.push(created.body[0]!);
    }
    const renamed = new Map<number, string>();
    for (const [i, compat] of forPatch!.entries()) {
      const label = fields.label();
      renamed.set(made[i]!.id, label);
      expectNoContent(await api.patch(`/customfields/assets/${made[i]!.id}`, { query: { compat }, json: { field: { label } } }));
    }
    const listed = await fields.list('assets');
    for (const [id, label] of renamed) expect(listed.find((d) => d.id === id)?.label).toBe(label);
    for (const [i, compat] of forDelete!.entries()) expectNoContent(await api.delete(`/customfields/assets/${made[i]!.id}`, { query: { compat } }));
    const ids = (await fields.list('assets')).map((d) => d.id);
    for (const d of made) expect(ids).not.toContain(d.id);
  });

  test("PATCH of a label to another active definition's label answers 409", { tag: ['@CF-013'] }, async ({ api, fields }) => {
    const [a, b] = await fields.create('locations', [{}, {}]);
    expectProblem(await api.patch(`/customfields/locations/${b!.id}`, { json: { field: { label: a!.label } } }), 409);
    expect((await fields.list('locations')).find((d) => d.id === b!.id)?.label).toBe(b!.label);
    expectNoContent(await api.patch(`/customfields/locations/${b!.id}`, { json: { field: { label: b!.label } } }));
  });

  test('an archived definition answers 404 to PATCH and DELETE', { tag: ['@CF-014'] }, async ({ api, fields }) => {
    const [made] = await fields.create('workOrders');
    expectNoContent(await api.delete(`/customfields/workOrders/${made!.id}`));
    expectProblem(await api.patch(`/customfields/workOrders/${made!.id}`, { json: { field: { unlisted: true } } }), 404);
    expectProblem(await api.delete(`/customfields/workOrders/${made!.id}`), 404);
  });
});

test.describe('custom fields and feature modules', () => {
  test('with Parts Inventory disabled, parts definitions answer 403 module_disabled', { tag: ['@MODULE-004'] }, async ({ as, fields }) => {
    const client = as.moduleDisabled('parts_inventory');
    expectProblem(await client.get('/customfields/parts'), 403, 'module_disabled');
    expectProblem(await client.post('/customfields/parts', { json: { fields: [{ label: fields.label() }] } }), 403, 'module_disabled');
    expectProblem(await client.patch(`/customfields/parts/${ABSENT_ID}`, { json: { field: { unlisted: false } } }), 403, 'module_disabled');
    expectProblem(await client.delete(`/customfields/parts/${ABSENT_ID}`), 403, 'module_disabled');
  });

  test('with Parts Inventory disabled, assets, locations and workOrders definitions are listed', { tag: ['@MODULE-012'] }, async ({ as, fields }) => {
    const client = as.moduleDisabled('parts_inventory');
    for (const entity of ['assets', 'locations', 'workOrders']) expect(Array.isArray(await fields.list(entity, client))).toBe(true);
  });

  test('with Parts Inventory disabled, assets, locations and workOrders definitions are updated and archived', { tag: ['@MODULE-012'] }, async ({ as, fields }) => {
    const client = as.moduleDisabled('parts_inventory');
    for (const entity of ['assets', 'locations', 'workOrders']) {
      const [made] = await fields.create(entity, [{}], client);
      const label = fields.label();
      expectNoContent(await client.patch(`/customfields/${entity}/${made!.id}`, { json: { field: { label } } }));
      expect((await fields.list(entity, client)).find((d) => d.id === made!.id)?.label).toBe(label);
      expectNoContent(await client.delete(`/customfields/${entity}/${made!.id}`));
      expect((await fields.list(entity, client)).map((d) => d.id)).not.toContain(made!.id);
    }
  });
});

