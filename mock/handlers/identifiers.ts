/**
 * Scannable identifiers (Resources › Identifier; Endpoints › Other families; Authentication, module rules).
 *
 * An organization-scoped mapping from an exact scanner payload to exactly one asset, location or part.
 * Generated (`MMS-` + 10 base-36 characters) and customer-owned values share one resolver, which matches
 * the payload exactly (no trimming, case-sensitive) and filters out unavailable targets: a target that
 * no longer exists or is archived, or whose module is disabled (part → Parts Inventory), answers 404.
 * Every route and body is inferred:
 * - the list shows every active identifier, part targets included while Parts Inventory is disabled (so
 *   they can be found and retired); a `target_type=part` list needs the module (the pipeline checks it);
 * - a value mapped to an active identifier cannot be attached again (409 `identifier_in_use`); a retired
 *   value is free again;
 * - an import is atomic: one duplicate (in the batch or with an active identifier) or unknown target
 *   imports none;
 * - retiring answers 204, also when repeated (like expense entries), and works while the target's
 *   module is disabled (`x-module-exempt`).
 */
import { randomInt } from 'node:crypto';
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { noContent, single } from '../http/envelope.ts';
import { nativePage } from '../paging/pages.ts';
import { conflict, notFound } from '../http/problem.ts';
import type { Org } from '../store/org.ts';
import { MODULE_OF_ENTITY, type IdentifierRow, type Schemas } from '../store/types.ts';
import { subAssetCounts } from './assets.ts';

type TargetType = Schemas['IdentifierTargetType'];
type Kind = NonNullable<Schemas['Identifier']['kind']>;
type Target = { target_type: TargetType; target_id: string };

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const serialize = (row: IdentifierRow): string => cachedJson(row.data);

/** Whether the organization has the target (archived assets and parts it no longer has). */
function hasTarget(org: Org, { target_type, target_id }: Target): boolean {
  const collection = target_type === 'asset' ? org.assets : target_type === 'location' ? org.locations : org.parts;
  return collection.get(target_id) !== undefined;
}

/** The public record, as its detail shows it, of a target the organization has. */
function targetRecord(org: Org, { target_type, target_id }: Target): Record<string, unknown> {
  if (target_type === 'asset') return { ...org.assets.get(target_id)!.data, sub_asset_count: subAssetCounts(org).get(target_id) ?? 0 };
  if (target_type === 'location') {
    const childrenIds = org.locations.all().filter((l) => l.data.parentId === target_id).map((l) => l.id);
    return { ...org.locations.get(target_id)!.data, childrenIds };
  }
  const asset_ids = [...org.assetParts].filter((link) => link.endsWith(` ${target_id}`)).map((link) => link.split(' ')[0]!);
  return { ...org.parts.get(target_id)!.data, asset_ids };
}

/** Whether resolution may show the target: the organization has it and its module is enabled. */
function isAvailable(org: Org, target: Target): boolean {
  const module = MODULE_OF_ENTITY[target.target_type];
  return (module === undefined || org.hasModule(module)) && hasTarget(org, target);
}

/** 404 unless the organization has the target a write names. */
function checkTarget(org: Org, target: Target): void {
  if (!hasTarget(org, target)) throw notFound(`The ${target.target_type} ${target.target_id}`);
}

/** 409 `identifier_in_use` when an active identifier already maps `value`. */
function checkFree(org: Org, value: string): void {
  if (org.identifierByValue.has(value)) throw conflict('This payload is already mapped by an active identifier of the organization.', 'identifier_in_use');
}

/** Creates and indexes an identifier. */
export function addIdentifier(ctx: Pick<Context, 'org' | 'world'>, value: string, kind: Kind, target: Target, createdAt: string): IdentifierRow {
  const id = ctx.world.ids.next('idf');
  const row: IdentifierRow = { id, data: { id, value, kind, target_type: target.target_type, target_id: target.target_id, created_at: createdAt } };
  ctx.org.identifiers.insert(row);
  ctx.org.identifierByValue.set(value, id);
  ctx.org.changed?.('identifierValue', value);
  return row;
}

/** A new generated payload, `MMS-` and 10 base-36 characters, not mapped by an active identifier. */
export function generatedValue(org: Org, digit: () => number = () => randomInt(36)): string {
  for (;;) {
    let value = 'MMS-';
    for (let i = 0; i < 10; i++) value += BASE36[digit()];
    if (!org.identifierByValue.has(value)) return value;
  }
}

export const identifierHandlers = {
  listIdentifiers(ctx) {
    const { target_type, target_id } = ctx.params as { target_type?: TargetType; target_id?: string };
    return nativePage(ctx, ctx.org.identifiers, serialize, target_type === undefined && target_id === undefined
      ? undefined
      : (row) => (target_type === undefined || row.data.target_type === target_type) && (target_id === undefined || row.data.target_id === target_id));
  },

  resolveIdentifier(ctx) {
    const row = ctx.org.identifiers.get(ctx.org.identifierByValue.get(ctx.params.payload as string) ?? '');
    if (!row || !isAvailable(ctx.org, row.data)) throw notFound('The scanned payload');
    const { target_type, target_id } = row.data;
    return single(ctx, JSON.stringify({ identifier: row.data, target_type, target_id, target: targetRecord(ctx.org, row.data) }));
  },

  attachIdentifier(ctx) {
    const body = ctx.body as Schemas['IdentifierAttachRequest'];
    checkTarget(ctx.org, body);
    checkFree(ctx.org, body.value);
    return single(ctx, serialize(addIdentifier(ctx, body.value, 'customer', body, new Date(ctx.now).toISOString())), 201);
  },

  generateIdentifier(ctx) {
    const body = ctx.body as Schemas['IdentifierGenerateRequest'];
    checkTarget(ctx.org, body);
    return single(ctx, serialize(addIdentifier(ctx, generatedValue(ctx.org), 'generated', body, new Date(ctx.now).toISOString())), 201);
  },

  importIdentifiers(ctx) {
    const items = (ctx.body as Schemas['IdentifierImportRequest']).identifiers;
    const seen = new Set<string>();
    for (const item of items) {
      checkTarget(ctx.org, item);
      checkFree(ctx.org, item.value);
      if (seen.has(item.value)) throw conflict(`The payload ${JSON.stringify(item.value)} appears twice in the import.`, 'identifier_in_use');
      seen.add(item.value);
    }
    const now = new Date(ctx.now).toISOString();
    const rows = items.map((item) => serialize(addIdentifier(ctx, item.value, 'customer', item, now)));
    return single(ctx, `[${rows.join(',')}]`, 201);
  },

  retireIdentifier(ctx) {
    const row = ctx.org.identifiers.getAny(ctx.params.id as string);
    if (!row) throw notFound('The identifier');
    if (row.retiredAt === undefined) {
      ctx.org.identifiers.replace({ ...row, retiredAt: new Date(ctx.now).toISOString() });
      ctx.org.identifierByValue.delete(row.data.value);
      ctx.org.changed?.('identifierValue', row.data.value);
    }
    return noContent();
  },
} satisfies HandlerMapPart;
