/**
 * Custom-field definitions for each entity family, and values for entity records keyed by label
 * (Resources and their fields › Custom-field definition).
 */
import type { CustomFieldEntity, CustomFieldRow, ExtraFields } from '../store/types.ts';
import type { Org } from '../store/org.ts';
import type { Random } from '../store/random.ts';
import type { Seeder } from './context.ts';

const DEFINITIONS: Record<CustomFieldEntity, Array<{ label: string; type: string; options?: string[] }>> = {
  assets: [
    { label: 'Serial number', type: 'text' },
    { label: 'Warranty expiry', type: 'date' },
    { label: 'Power rating (kW)', type: 'number' },
    { label: 'Safety critical', type: 'checkbox' },
  ],
  locations: [
    { label: 'Cost center', type: 'text' },
    { label: 'Access level', type: 'dropdown', options: ['Public', 'Staff', 'Restricted'] },
    { label: 'Floor area (m2)', type: 'number' },
  ],
  parts: [
    { label: 'Bin', type: 'text' },
    { label: 'Hazardous', type: 'checkbox' },
    { label: 'Supplier SKU', type: 'text' },
  ],
  workOrders: [
    { label: 'Downtime reason', type: 'dropdown', options: ['Breakdown', 'Planned', 'Waiting for parts', 'Other'] },
    { label: 'Permit number', type: 'text' },
    { label: 'Downtime (h)', type: 'number' },
  ],
};

export const seedCustomFields: Seeder = (ctx) => {
  if (ctx.size === 'fixtures' && ctx.role !== 'moduleDisabled.parts_inventory') return;
  for (const [entity, defs] of Object.entries(DEFINITIONS) as Array<[CustomFieldEntity, (typeof DEFINITIONS)[CustomFieldEntity]]>) {
    const chosen = ctx.size === 'full' ? defs : defs.slice(0, 2);
    ctx.random.shuffle(chosen).forEach((def, i) => {
      const id = ctx.world.nextCustomFieldId();
      const row: CustomFieldRow = {
        id,
        entity,
        data: { id, label: def.label, type: def.type, options: def.options ?? [], sortIndex: i, required: false, unlisted: false, includeInRecurrence: ctx.random.chance(0.3) },
      };
      ctx.org.customFields[entity].push(row);
    });
  }
};

/** Plausible `extraFields` values for a new record of `entity`, keyed by the active labels. */
export function extraFieldsFor(org: Org, entity: CustomFieldEntity, random: Random): ExtraFields {
  const out: ExtraFields = {};
  for (const row of org.customFields[entity]) {
    if (row.archivedAt !== undefined || random.chance(0.25)) continue;
    const d = row.data;
    out[d.label] =
      d.type === 'number' ? random.int(1, 500)
      : d.type === 'checkbox' ? random.chance(0.5)
      : d.type === 'date' ? `20${random.int(26, 31)}-0${random.int(1, 9)}-1${random.int(0, 9)}`
      : d.type === 'dropdown' ? random.pick(d.options ?? ['Other'])
      : `${d.label.slice(0, 2).toUpperCase()}-${random.int(1000, 9999)}`;
  }
  return out;
}
