/**
 * The API's resource shapes as the suite reads them: aliases of the schemas of spec/openapi.yaml
 * (generated into spec/generated/api.ts by openapi-typescript; `npm run types`). Kits and recipes
 * type what they create and read with these, so a renamed or removed field fails the typecheck.
 * Request bodies a kit builds stay open records: tests send deliberately wrong fields through them.
 */
import type { components } from '../../spec/generated/api.ts';

/** Every schema of the spec, by name (`Schemas['Meter']`). */
export type Schemas = components['schemas'];

export type Meter = Schemas['Meter'];
export type MeterReading = Schemas['MeterReading'];
export type WorkOrder = Schemas['WorkOrder'];
export type ExpenseEntry = Schemas['ExpenseEntry'];
export type ExpenseList = Schemas['ExpenseList'];
export type PartsSection = Schemas['PartsSection'];
export type PartsItem = Schemas['PartsItem'];
export type Part = Schemas['Part'];
export type Location = Schemas['Location'];
export type Identifier = Schemas['Identifier'];
export type IdentifierTarget = Pick<Identifier, 'target_type' | 'target_id'>;
export type WorkRequest = Schemas['WorkRequest'];
export type Portal = Schemas['Portal'];
export type Attachment = Schemas['Attachment'];
export type CustomFieldDefinition = Schemas['CustomFieldDefinition'];
export type Asset = Schemas['Asset'];
