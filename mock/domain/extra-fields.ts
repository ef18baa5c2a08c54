/**
 * Custom-field values on entity writes (Resources › Custom-field definition): `extraFields` is keyed by
 * the visible label of an active definition of the entity; a value must fit the definition's type
 * (inferred); null clears a value. Unknown labels answer 400 `validation_error` (inferred).
 */
import type { Org } from '../store/org.ts';
import type { CustomFieldEntity, ExtraFields } from '../store/types.ts';
import { validationError } from '../http/problem.ts';
import type { FieldError } from '../../contract/validators.ts';

function fits(type: string | undefined, options: string[] | undefined, value: unknown): boolean {
  if (value === null) return true;
  switch (type) {
    case 'number': return typeof value === 'number';
    case 'checkbox': return typeof value === 'boolean';
    case 'dropdown': return typeof value === 'string' && (!options?.length || options.includes(value));
    default: return typeof value === 'string';
  }
}

/**
 * Merges `input` into `current` after checking every label against the entity's active definitions.
 * Throws 400 naming each unknown label or ill-typed value.
 */
export function applyExtraFields(org: Org, entity: CustomFieldEntity, input: ExtraFields | undefined, current: ExtraFields = {}): ExtraFields {
  if (input === undefined) return current;
  const defs = new Map(org.customFields[entity].filter((d) => d.archivedAt === undefined).map((d) => [d.data.label, d.data]));
  const errors: FieldError[] = [];
  // A Map, then fromEntries: labels are data, so even "__proto__" becomes an ordinary own key.
  const out = new Map(Object.entries(current));
  for (const [label, value] of Object.entries(input)) {
    const def = defs.get(label);
    if (!def) errors.push({ in: 'body', pointer: `/extraFields/${label}`, message: `is not the label of an active ${entity} custom field` });
    else if (!fits(def.type, def.options, value)) errors.push({ in: 'body', pointer: `/extraFields/${label}`, message: `does not fit the ${def.type} field` });
    else if (value === null) out.delete(label);
    else out.set(label, value as ExtraFields[string]);
  }
  if (errors.length) throw validationError(errors);
  return Object.fromEntries(out);
}
