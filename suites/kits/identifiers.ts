/**
 * The identifiers test kit (Resources › Identifier): targets, attaching, generating and resolving
 * payloads through the API, and finding the identifiers of part targets in the organization whose Parts
 * Inventory module is disabled. Every identifier route is inferred. `test` adds it as the `identifiers`
 * fixture.
 */
import { test as base, expect } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { anyAsset, anyLocation, expectCreated, precondition, uid } from '../lib/provision.ts';
import { lease } from '../lib/lease.ts';
import { notAssessed } from '../lib/needs.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { arranging } from '../lib/arrange.ts';
import type { AssetList, Identifier, IdentifierEnvelope, IdentifierResolutionEnvelope, IdentifierTarget, PartList } from '../lib/api-types.ts';

export type TargetType = Identifier['target_type'];

/** What an identifier maps to. */
export type Target = IdentifierTarget;

/** A payload unique within the run, in mixed case (exact matching is case-sensitive). */
export function freshValue(): string {
  return `Ct-Tag-${uid()}`;
}

/** Attaches `value` (a fresh one by default) to `target`, asserting 201 and the echoed mapping (the kit's `attach` arranges it). */
export async function attachIdentifier(api: ApiClient, target: Target, value = freshValue()): Promise<Identifier> {
  const created = precondition(await api.post<IdentifierEnvelope>('/identifiers', { json: { value, ...target } }));
  expect(created.body.data).toMatchObject({ value, ...target });
  return created.body.data;
}

/** Generates an identifier for `target`, asserting 201 and the echoed target. */
export async function generateIdentifier(api: ApiClient, target: Target): Promise<Identifier> {
  const created = precondition(await api.post<IdentifierEnvelope>('/identifiers/generate', { json: target }));
  expect(created.body.data).toMatchObject(target);
  expect(typeof created.body.data.value).toBe('string');
  return created.body.data;
}

/** GET /identifiers/resolve for an exact payload. */
export function resolve(client: ApiClient, payload: string): Promise<ApiResponse<IdentifierResolutionEnvelope>> {
  return client.get<IdentifierResolutionEnvelope>('/identifiers/resolve', { query: { payload } });
}

/** Asserts that `payload` resolves to `target` through the identifier `identifierId`. */
export async function expectResolves(client: ApiClient, payload: string, target: Target, identifierId?: string): Promise<void> {
  const resolved = await resolve(client, payload);
  expect(resolved.status, `resolving ${JSON.stringify(payload)}: ${resolved.text.slice(0, 300)}`).toBe(200);
  expect(resolved.body.data).toMatchObject(target);
  expect(resolved.body.data.identifier).toMatchObject({ value: payload, ...target, ...(identifierId ? { id: identifierId } : {}) });
  if (resolved.body.data.target !== undefined) expect(resolved.body.data.target.id).toBe(target.target_id);
}

/** An asset of the key's organization as a target. */
export async function assetTarget(api: ApiClient, profile?: TargetProfile): Promise<Target> {
  return { target_type: 'asset', target_id: (await anyAsset(api, profile)).id };
}

/** Two distinct assets of the main organization as targets. */
export async function twoAssetTargets(api: ApiClient): Promise<[Target, Target]> {
  const page = await api.get<AssetList>('/assets', { query: { limit: 2 } });
  expect(page.status).toBe(200);
  if (page.body.data.length < 2) notAssessed('the organization has fewer than two assets');
  return [0, 1].map((i) => ({ target_type: 'asset', target_id: page.body.data[i]!.id })) as [Target, Target];
}

/** A location of the main organization as a target. */
export async function locationTarget(api: ApiClient, profile?: TargetProfile): Promise<Target> {
  return { target_type: 'location', target_id: await anyLocation(api, profile) };
}

/**
 * A part of the main organization that takes an identifier, with one attached: parts are listed and
 * written through inferred routes, so a target without a usable part makes the test not assessed.
 */
export async function identifierOnAPart(api: ApiClient): Promise<{ target: Target; identifier: Identifier }> {
  const parts = await api.get<PartList>('/parts', { query: { limit: 1 } });
  const part = parts.status === 200 ? parts.body?.data?.[0] : undefined;
  if (!part?.id) notAssessed(`no part of the organization was found (inferred GET /parts answered ${parts.status})`);
  const target: Target = { target_type: 'part', target_id: part.id };
  const value = freshValue();
  const attached = await api.post<IdentifierEnvelope>('/identifiers', { json: { value, ...target } });
  if (attached.status !== 201) notAssessed(`part ${part.id} from GET /parts does not take an identifier (POST /identifiers answered ${attached.status})`);
  return { target, identifier: attached.body.data };
}

/**
 * An identifier on a part target in the organization of keys.moduleDisabled.parts_inventory, found
 * through its unfiltered list, held by this test alone (`consume`: for the rest of the run).
 */
export async function partIdentifierWhilePartsDisabled(client: ApiClient, options: { consume?: boolean } = {}): Promise<Identifier> {
  const { items } = await walkPages<Identifier>(client, '/identifiers', { limit: 100 });
  for (const identifier of items.filter((i) => i.target_type === 'part')) {
    if (await lease(`parts-disabled-identifier-${identifier.id}`, [identifier], { ...options, waitMs: 0 })) return identifier;
  }
  return notAssessed('the organization of keys.moduleDisabled.parts_inventory lists no free identifier on a part (provision one)');
}

export interface IdentifierKit {
  attach(target: Target, value?: string): Promise<Identifier>;
  generate(target: Target): Promise<Identifier>;
  resolve(payload: string, client?: ApiClient): Promise<ApiResponse>;
  expectResolves(payload: string, target: Target, identifierId?: string, client?: ApiClient): Promise<void>;
  asset(): Promise<Target>;
  twoAssets(): Promise<[Target, Target]>;
  location(): Promise<Target>;
  onAPart(): Promise<{ target: Target; identifier: Identifier }>;
}

export const test = base.extend<{ identifiers: IdentifierKit }>({
  identifiers: async ({ api, profile }, use) => {
    await use({
      attach: arranging('attach an identifier (POST /identifiers)', (target, value) => attachIdentifier(api, target, value)),
      generate: arranging('generate an identifier (POST /identifiers/generate)', (target) => generateIdentifier(api, target)),
      resolve: (payload, client = api) => resolve(client, payload),
      expectResolves: (payload, target, identifierId, client = api) => expectResolves(client, payload, target, identifierId),
      asset: arranging('find an asset as a target', () => assetTarget(api, profile)),
      twoAssets: arranging('find two assets as targets', () => twoAssetTargets(api)),
      location: arranging('find a location as a target', () => locationTarget(api, profile)),
      onAPart: arranging('attach an identifier to a part', () => identifierOnAPart(api)),
    });
  },
});

export { expect };
