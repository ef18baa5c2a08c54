/**
 * The parts test kit (Endpoints › Work-order parts; Resources › Part): work orders made for a parts
 * test, their sections, commands built on the last-read `aggregateVersion` with a fresh
 * `idempotencyKey`, leases of the profile's stock fixtures, observers of a part's stock, and parts
 * created through the inferred part routes. `test` adds it as the `parts` fixture to the base `test`.
 *
 * Stock fixtures are leased (one test at a time per part and location), and every work order the kit
 * made is released (a reserved, kitted or staged section back to assigned) when the test ends, before
 * its lease is returned: no commitment outlives the test that held the stock. The work orders stay (an
 * assigned section commits nothing; deleting them cost a request each and proved nothing).
 * Tests never assume absolute stock numbers: they read before and assert differences.
 */
import { test as base, expect } from '../fixtures.ts';
import { createWorkOrder } from './work-orders.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse, ClientSession } from '../lib/client.ts';
import { lease } from '../lib/lease.ts';
import { need, notAssessed } from '../lib/needs.ts';
import { uid, viaInferred } from '../lib/provision.ts';
import type { Part, PartEnvelope, PartsItem, PartsSection } from '../lib/api-types.ts';
import { arrange, arranging, expectApplied } from '../lib/arrange.ts';

/** A part at a location, as the profile's stock fixtures give it. */
export interface Stock {
  partId: string;
  locationId: string;
}

/** A parts section, as GET /work-orders/{id}/parts answers it. */
export type Section = PartsSection;

/** A parts command; `expectedAggregateVersion` and `idempotencyKey` are filled in when absent. */
export type Command = Record<string, unknown> & { operation: string };

/** The profile's single stock fixtures, leased whole to one test. */
type StockFixturePath = 'fixtures.restrictedSettingsStock' | 'fixtures.partsModuleDisabledStock';

/** The part statuses (Resources › Work-order parts section). */
export const PART_STATUSES = ['assigned', 'reserved', 'kitted', 'staged', 'issued'] as const;

/** Statuses that take stock: reserved, kitted and staged commit it, issued deducts it. */
export const TAKING_STOCK = ['reserved', 'kitted', 'staged', 'issued'];

/** The section's first row on `stock`, if any. */
export function itemOn(section: Section, stock: Stock): PartsItem | undefined {
  return section.items.find((i) => i.partId === stock.partId && i.locationId === stock.locationId);
}

/** GET /work-orders/{id}/parts, asserting 200. */
export async function readSection(client: ApiClient, workOrderId: string): Promise<Section> {
  const response = await client.get<PartsSection>(`/work-orders/${workOrderId}/parts`);
  expect(response.status, `GET /work-orders/${workOrderId}/parts: ${response.text.slice(0, 300)}`).toBe(200);
  return response.body;
}

/** The command with the section's current version (unless given) and a fresh key (unless given). */
async function fullCommand(client: ApiClient, workOrderId: string, command: Command): Promise<Command> {
  const expectedAggregateVersion = command.expectedAggregateVersion ?? (await readSection(client, workOrderId)).aggregateVersion;
  return { idempotencyKey: `ct-${uid()}`, ...command, expectedAggregateVersion };
}

/** Leases the single stock fixture at `path` of the profile for the running test. */
async function leaseFixture(profile: TargetProfile, path: StockFixturePath): Promise<Stock> {
  const stock = need(profile, path);
  const leased = await lease(path, [stock]);
  if (!leased) notAssessed(`${path} stayed in use by other tests`);
  return leased;
}

/** Reads the item of an observer work order holding one assigned row of a stocked part. */
export type Observer = () => Promise<{ section: Section; item: PartsItem }>;

export interface PartsKit {
  /** Leases one of the profile's `fixtures.stockedParts` (not assessed without one). */
  stocked(): Promise<Stock>;
  /** Leases `fixtures.restrictedSettingsStock` or `fixtures.partsModuleDisabledStock`. */
  fixtureStock(path: StockFixturePath): Promise<Stock>;
  /** Creates a work order (with `client`'s organization; arranged), released when the test ends. */
  workOrder(client?: ApiClient, overrides?: Record<string, unknown>): Promise<string>;
  section(workOrderId: string, client?: ApiClient): Promise<Section>;
  /** Completes a command: current version, fresh key. */
  command(workOrderId: string, command: Command, client?: ApiClient): Promise<Command>;
  /** Sends a command (completed as above) with `client` as it is. */
  send(workOrderId: string, command: Command, client?: ApiClient): Promise<ApiResponse<PartsSection>>;
  /**
   * Sends a command, asserts a 2xx, and returns the section read back with GET. The POST's response is
   * not shown by the description, so its shape is judged by the universal checks (recorded against
   * their own requirements) and by the inferred tests, never by the test using `apply`.
   */
  apply(workOrderId: string, command: Command, client?: ApiClient): Promise<Section>;
  replace(workOrderId: string, items: Array<Record<string, unknown>>, client?: ApiClient): Promise<Section>;
  transition(workOrderId: string, targetStatus: string, client?: ApiClient): Promise<Section>;
  /**
   * A work order holding one assigned row of `stock` (assigned reserves nothing; arranged), and a reader
   * of that row. `apply`, `replace` and `transition` are acts (a command a requirement states); a test
   * that only moves a section into a state wraps them in `arrange`.
   */
  observe(stock: Stock, client?: ApiClient): Promise<Observer>;
  /** Creates a part through the inferred POST /parts (not assessed when the target has no such route). */
  createPart(client?: ApiClient, overrides?: Record<string, unknown>): Promise<Part>;
}

/**
 * The section of `workOrderId` as the test last read it, when nothing was sent to the work order or its
 * section since (the test's own exchanges, newest first: contract/exchange.ts): a GET of the section
 * answering 200. Undefined when the last exchange on the work order was anything else (a command, a
 * PATCH, a failed read) or there was none. Only this test writes to its work orders (docs/design.md), so
 * what it read last is what the section holds, but for its version, which a command on another work
 * order of the same stock may move: a caller trusting the version must handle a 409.
 */
export function lastReadSection(session: ClientSession, workOrderId: string): Section | undefined {
  const section = `/work-orders/${workOrderId}/parts`;
  for (let i = session.exchanges.length - 1; i >= 0; i--) {
    const x = session.exchanges[i]!;
    if (x.path !== section && x.path !== `/work-orders/${workOrderId}`) continue;
    if (x.method !== 'GET') return undefined;
    if (x.path !== section) continue;
    return x.status === 200 && typeof x.json === 'object' && x.json !== null ? (x.json as Section) : undefined;
  }
  return undefined;
}

const COMMITTED = ['reserved', 'kitted', 'staged'];

/**
 * Releases a committed section (best effort). The section's status comes from
 * the test's last read of it when nothing was sent to the work order since (`lastReadSection`), else
 * from a GET; nothing is proved here, so no read repeats what the test already saw.
 */
async function cleanUp(client: ApiClient, session: ClientSession, workOrderId: string): Promise<void> {
  const c = client;
  let section = lastReadSection(session, workOrderId);
  if (!section) {
    const read = await c.get<PartsSection>(`/work-orders/${workOrderId}/parts`);
    section = read.status === 200 ? read.body : undefined;
  }
  if (section && COMMITTED.includes(section.partStatus)) {
    const release = async () => c.post(`/work-orders/${workOrderId}/parts`, {
      json: await fullCommand(c, workOrderId, { operation: 'transition', targetStatus: 'assigned', expectedAggregateVersion: section!.aggregateVersion }),
    });
    if ((await release()).status === 409) {
      const read = await c.get<PartsSection>(`/work-orders/${workOrderId}/parts`);
      if (read.status === 200 && COMMITTED.includes(read.body?.partStatus)) {
        section = read.body;
        await release();
      }
    }
  }
}

export const test = base.extend<{ parts: PartsKit }>({
  parts: async ({ api, profile, session }, use) => {
    const made: Array<{ id: string; client: ApiClient }> = [];
    const send = async (id: string, command: Command, client = api) =>
      client.post<PartsSection>(`/work-orders/${id}/parts`, { json: await fullCommand(client, id, command) });
    // A command without a version goes on the section the test read last when nothing was sent since
    // (no read repeating it); a 409 on that version (another work order's command moved it) reads and sends again.
    const apply = async (id: string, command: Command, client = api) => {
      const known = command.expectedAggregateVersion === undefined ? lastReadSection(session, id) : undefined;
      let response = known ? await send(id, { ...command, expectedAggregateVersion: known.aggregateVersion }, client) : undefined;
      if (!response || response.status === 409) response = await send(id, command, client);
      expect(response.status, `POST /work-orders/${id}/parts ${command.operation}: ${response.text.slice(0, 400)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `POST /work-orders/${id}/parts ${command.operation}: ${response.text.slice(0, 400)}`).toBeLessThan(300);
      return readSection(client, id);
    };
    const workOrder = async (client = api, overrides: Record<string, unknown> = {}) => {
      const wo = await createWorkOrder(client, profile, overrides);
      made.push({ id: wo.id, client });
      return wo.id as string;
    };
    const kit: PartsKit = {
      stocked: async () => {
        const stock = await lease('stocked-part', profile.fixtures.stockedParts ?? []);
        if (!stock) notAssessed('the target profile has no fixtures.stockedParts, or all stayed in use by other tests');
        return stock;
      },
      fixtureStock: (path) => leaseFixture(profile, path),
      workOrder,
      section: (id, client = api) => readSection(client, id),
      command: (id, command, client = api) => fullCommand(client, id, command),
      send,
      apply,
      replace: (id, items, client = api) => apply(id, { operation: 'replace', items }, client),
      transition: (id, targetStatus, client = api) => apply(id, { operation: 'transition', targetStatus }, client),
      observe: (stock, client = api) => arrange(`make an observer work order of part ${stock.partId}`, async () => {
        const id = await workOrder(client);
        await apply(id, { operation: 'replace', items: [{ ...stock, quantity: 1 }] }, client);
        return async () => {
          const section = await readSection(client, id);
          const item = itemOn(section, stock);
          expect(item, `the observer work order ${id} still holds its row`).toBeTruthy();
          return { section, item: item! };
        };
      }),
      createPart: arranging('create a part (POST /parts, inferred)', async (client: ApiClient = api, overrides: Record<string, unknown> = {}) => {
        const body = { name: `CT part ${uid()}`, ...overrides };
        const created = (await viaInferred('creating parts (POST /parts)', (c) => c.post<PartEnvelope>('/parts', { json: body }), client, [201])).body.data;
        expectApplied(created, body, 'POST /parts');
        return created;
      }),
    };
    await use(kit);
    for (const { id, client } of made.reverse()) await cleanUp(client, session, id);
  },
});

export { expect };
