/**
 * The custom-fields test kit (Endpoints › Custom fields (compatibility style); Resources › Custom-field
 * definition): reading definitions, creating them through the inferred POST body (a target without it
 * makes the test "not assessed"), and values that fit a definition for `extraFields` writes.
 * `test` adds it as the `fields` fixture.
 */
import { test as base, expect } from '../fixtures.ts';
import type { ApiClient } from '../lib/client.ts';
import { notAssessed } from '../lib/needs.ts';
import { uid, viaInferred } from '../lib/provision.ts';
import type { CustomFieldDefinition } from '../lib/api-types.ts';
import { arrange, arranging, expectApplied } from '../lib/arrange.ts';

export const ENTITIES = ['assets', 'locations', 'parts', 'workOrders'] as const;
export type Entity = (typeof ENTITIES)[number];

/** What the suite reads of a definition (the description shows only the update fields; the rest is inferred). */
export type Definition = CustomFieldDefinition;

/** Labels of the definitions the suite creates start with this, so tests can tell them apart. */
export const SUITE_LABEL = 'CT field';

/** A label unique within the run. */
export function fieldLabel(): string {
  return `${SUITE_LABEL} ${uid()}`;
}

/** GET /customfields/{entity}, asserting 200 and a bare array. */
export async function listDefinitions(client: ApiClient, entity: string): Promise<Definition[]> {
  const response = await client.get<Definition[]>(`/customfields/${entity}`);
  expect(response.status, `GET /customfields/${entity}: ${response.text.slice(0, 300)}`).toBe(200);
  expect(Array.isArray(response.body), 'a custom-field list is a bare JSON array').toBe(true);
  return response.body;
}

/**
 * Creates definitions through the inferred POST body `{fields: [...]}` and returns them as created;
 * each field gets a fresh label unless it names one. Skips the test (not assessed) when the target
 * refuses the body.
 */
export function createDefinitions(client: ApiClient, entity: string, fields: Array<Partial<Definition>> = [{}]): Promise<Definition[]> {
  return arrange(`create ${entity} custom fields (POST /customfields/${entity}, body inferred)`, async () => {
    const body = { fields: fields.map((f) => ({ label: fieldLabel(), ...f })) };
    const response = await viaInferred(`creating ${entity} custom fields with {fields: [...]}`, (c) => c.post<Definition[]>(`/customfields/${entity}`, { json: body }), client, [200]);
    if (!Array.isArray(response.body) || response.body.length !== fields.length) notAssessed('the custom-field POST does not answer the created definitions as an array (inferred)');
    body.fields.forEach((sent, i) => expectApplied(response.body[i], sent, `POST /customfields/${entity}`));
    return response.body as Definition[];
  });
}

/** A value that fits `definition` for an `extraFields` write (its `type` is an inferred field). */
export function valueFor(definition: Definition): string | number | boolean {
  switch (definition.type) {
    case 'number': return 42;
    case 'checkbox': return true;
    case 'date': return '2030-01-15';
    case 'dropdown': return definition.options?.[0] ?? 'Other';
    case undefined: return definition.options?.[0] ?? `CT value ${uid()}`;
    default: return `CT value ${uid()}`;
  }
}

/** PATCHes the entity at `path` (`/work-orders/{id}`) with only `extraFields`, asserting 200. */
export async function patchExtraFields(client: ApiClient, path: string, extraFields: Record<string, unknown>): Promise<void> {
  const patched = await client.patch(path, { json: { extraFields } });
  expect(patched.status, patched.text.slice(0, 300)).toBe(200);
}

/**
 * An active definition of `entity` that the suite did not create (so no other test archives or renames
 * it), of a type that takes free text when one exists; else one created for this test.
 */
export async function standingDefinition(client: ApiClient, entity: Entity): Promise<Definition> {
  const standing = (await listDefinitions(client, entity)).filter((d) => !d.label.startsWith(SUITE_LABEL));
  // `type` is an inferred field: without it, a definition with options takes one of them (valueFor).
  const found = standing.find((d) => d.type === 'text') ?? standing.find((d) => d.type === undefined && d.options?.length) ?? standing.find((d) => d.type === undefined) ?? standing[0];
  return found ?? (await createDefinitions(client, entity))[0]!;
}

export interface FieldKit {
  list(entity: string, client?: ApiClient): Promise<Definition[]>;
  create(entity: string, fields?: Array<Partial<Definition>>, client?: ApiClient): Promise<Definition[]>;
  standing(entity: Entity): Promise<Definition>;
  label(): string;
}

export const test = base.extend<{ fields: FieldKit }>({
  fields: async ({ api }, use) => {
    await use({
      list: (entity, client = api) => listDefinitions(client, entity),
      create: (entity, fields, client = api) => createDefinitions(client, entity, fields),
      standing: arranging('find a standing custom-field definition', (entity: Entity) => standingDefinition(api, entity)),
      label: fieldLabel,
    });
  },
});

export { expect };
