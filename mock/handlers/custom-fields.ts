/**
 * Custom-field definitions (Endpoints › Custom fields (compatibility style); Resources › Custom-field
 * definition; States and transitions › Custom-field definition).
 *
 * - GET answers the bare array of the entity's active definitions in display order (`sortIndex`, then id),
 *   complete, without pagination.
 * - POST `{fields: [...]}` (inferred body) creates every definition or none, appended after the last
 *   `sortIndex` in request order; a label equal to an active label of the entity or to another label of
 *   the request answers 409 `duplicate_label` (inferred code).
 * - PATCH `{field: {...}}` updates an active definition (204); `sortIndex` reorders; a label change keeps
 *   labels unique (409) and moves the values stored under the old label to the new one (inferred).
 * - DELETE archives (204); an archived definition leaves the list, its label is no longer accepted in
 *   `extraFields` writes, and it answers 404 to PATCH and DELETE (inferred).
 * The `parts` entity needs Parts Inventory, and the no-op `compat` flag is validated, by the pipeline.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { json, noContent, raw } from '../http/envelope.ts';
import { conflict, notFound } from '../http/problem.ts';
import type { Collection } from '../store/collection.ts';
import type { Org } from '../store/org.ts';
import type { CustomFieldEntity, CustomFieldRow, ExtraFields, Schemas } from '../store/types.ts';

/** The active definitions of an entity family, in display order: `sortIndex` ascending, then id. */
function activeDefinitions(org: Org, entity: CustomFieldEntity): CustomFieldRow[] {
  return org.customFields[entity]
    .filter((row) => row.archivedAt === undefined)
    .sort((a, b) => (a.data.sortIndex ?? 0) - (b.data.sortIndex ?? 0) || a.id - b.id);
}

function entityOf(ctx: Context): CustomFieldEntity {
  return ctx.params.entity as CustomFieldEntity;
}

/** The index in `org.customFields[entity]` of the path's active definition, or 404 (archived ones too). */
function definitionIndex(ctx: Context): number {
  const rows = ctx.org.customFields[entityOf(ctx)];
  const index = rows.findIndex((row) => row.id === ctx.params.id && row.archivedAt === undefined);
  if (index < 0) throw notFound(`Custom field ${String(ctx.params.id)} of ${entityOf(ctx)}`);
  return index;
}

function duplicateLabel(entity: CustomFieldEntity, label: string): never {
  throw conflict(`An active ${entity} custom field is already labelled ${JSON.stringify(label)}; labels are unique per entity.`, 'duplicate_label');
}

type Valued = { id: string; data: { extraFields?: ExtraFields } };

/** Moves the values stored under `from` to `to` on every record of a collection (rows are replaced). */
function relabelValues<R extends Valued>(collection: Collection<R>, from: string, to: string): void {
  for (const row of collection.all()) {
    const values = row.data.extraFields;
    if (!values || !Object.hasOwn(values, from)) continue;
    const { [from]: value, ...others } = values;
    collection.replace({ ...row, data: { ...row.data, extraFields: { ...others, [to]: value } } });
  }
}

/** Moves the values of a renamed definition on the records of its entity family (inferred). */
function relabelRecords(org: Org, entity: CustomFieldEntity, from: string, to: string): void {
  switch (entity) {
    case 'assets': return relabelValues(org.assets, from, to);
    case 'locations': return relabelValues(org.locations, from, to);
    case 'parts': return relabelValues(org.parts, from, to);
    case 'workOrders': return relabelValues(org.workOrders, from, to);
  }
}

export const customFieldHandlers = {
  listCustomFields(ctx) {
    return raw(`[${activeDefinitions(ctx.org, entityOf(ctx)).map((row) => cachedJson(row.data)).join(',')}]`);
  },

  createCustomFields(ctx) {
    const entity = entityOf(ctx);
    const { fields } = ctx.body as Schemas['CustomFieldCreateRequest'];
    const active = activeDefinitions(ctx.org, entity);
    const labels = new Set(active.map((row) => row.data.label));
    for (const field of fields) {
      if (labels.has(field.label)) duplicateLabel(entity, field.label);
      labels.add(field.label);
    }
    const next = active.reduce((max, row) => Math.max(max, row.data.sortIndex ?? 0), -1) + 1;
    const created = fields.map((field, i): CustomFieldRow => {
      const id = ctx.world.nextCustomFieldId();
      return {
        id,
        entity,
        data: {
          id,
          label: field.label,
          type: field.type ?? 'text',
          options: field.options ?? [],
          sortIndex: next + i,
          required: field.required ?? false,
          unlisted: field.unlisted ?? false,
          includeInRecurrence: field.includeInRecurrence ?? false,
        },
      };
    });
    ctx.org.customFields[entity].push(...created);
    for (const row of created) ctx.org.changed?.('customField', `${entity} ${row.id}`);
    return json(created.map((row) => row.data));
  },

  updateCustomField(ctx) {
    const entity = entityOf(ctx);
    const rows = ctx.org.customFields[entity];
    const index = definitionIndex(ctx);
    const row = rows[index]!;
    const { field } = ctx.body as Schemas['CustomFieldUpdateRequest'];
    const relabel = field.label !== undefined && field.label !== row.data.label;
    if (relabel && rows.some((other) => other.archivedAt === undefined && other.id !== row.id && other.data.label === field.label)) {
      duplicateLabel(entity, field.label!);
    }
    rows[index] = { ...row, data: { ...row.data, ...field } };
    ctx.org.changed?.('customField', `${entity} ${row.id}`);
    if (relabel) relabelRecords(ctx.org, entity, row.data.label, field.label!);
    return noContent();
  },

  archiveCustomField(ctx) {
    const rows = ctx.org.customFields[entityOf(ctx)];
    const index = definitionIndex(ctx);
    rows[index] = { ...rows[index]!, archivedAt: new Date(ctx.now).toISOString() };
    ctx.org.changed?.('customField', `${entityOf(ctx)} ${rows[index]!.id}`);
    return noContent();
  },
} satisfies HandlerMapPart;
