/**
 * The API's resource shapes as the suite reads them: aliases of the schemas of spec/openapi.yaml
 * (generated into spec/generated/api.ts by openapi-typescript; `npm run types`). Kits and recipes
 * type what they create and read with these, so a renamed or removed field fails the typecheck.
 * Request bodies a kit builds stay open records: tests send deliberately wrong fields through them.
 */
import type { components, operations } from '../../spec/generated/api.ts';

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

/** A problem details body (Conventions › Errors, RFC 9457), with the field errors a 400 may list. */
export type Problem = Schemas['Problem'] & Pick<Schemas['ValidationProblem'], 'errors'>;
export type Meta = Schemas['Meta'];
export type ListMeta = Schemas['ListMeta'];

/** Success bodies of the native resources: one record `{ data, meta }`, a page `{ data: [], meta }`. */
export type MeterEnvelope = Schemas['MeterEnvelope'];
export type MeterList = Schemas['MeterList'];
export type MeterReadingEnvelope = Schemas['MeterReadingEnvelope'];
export type MeterReadingList = Schemas['MeterReadingList'];
export type WorkOrderEnvelope = Schemas['WorkOrderEnvelope'];
export type WorkOrderList = Schemas['WorkOrderList'];
export type AssetEnvelope = Schemas['AssetEnvelope'];
export type AssetList = Schemas['AssetList'];
export type LocationEnvelope = Schemas['LocationEnvelope'];
export type LocationList = Schemas['LocationList'];
export type PartEnvelope = Schemas['PartEnvelope'];
export type PartList = Schemas['PartList'];
export type IdentifierEnvelope = Schemas['IdentifierEnvelope'];
export type IdentifierList = Schemas['IdentifierList'];
export type IdentifierBatch = Schemas['IdentifierBatch'];
export type IdentifierResolutionEnvelope = Schemas['IdentifierResolutionEnvelope'];

/** Success bodies of the compatibility resources (named wrappers, cursor pages). */
export type CompatWorkOrder = Schemas['CompatWorkOrder'];
export type CompatWorkOrderCreated = Schemas['CompatWorkOrderCreated'];
export type WorkRequestWrapper = Schemas['WorkRequestWrapper'];
export type WorkRequestList = Schemas['WorkRequestList'];
export type PortalWrapper = Schemas['PortalWrapper'];
export type PortalList = Schemas['PortalList'];
export type AttachmentWrapper = Schemas['AttachmentWrapper'];

/** A `{ data, meta }` page of any native list (Conventions › Pagination). */
export interface DataPage<T = unknown> { data: T[]; meta: ListMeta }
/** A cursor page of any compatibility list: `nextCursor`, `nextPageUrl`, its items under a name of its own (`workRequests`). */
export interface CursorPage<T = unknown> { nextCursor: string | null; nextPageUrl: string | null; [items: string]: T[] | string | null }

/** A body as a target may answer it: the documented shape's members, each possibly absent, or no JSON body at all. */
export type Answered<T> = Partial<T> | undefined;

/** The JSON body operation `Op` answers with `status`, for bodies the spec writes inline (spec/generated/api.ts `operations`). */
export type ResponseBody<Op extends keyof operations, S extends keyof operations[Op]['responses']> =
  operations[Op]['responses'][S] extends { content: { 'application/json': infer B } } ? B : never;
/** A compatibility work order as GET /workorders/{id} answers it. */
export type CompatWorkOrderRead = ResponseBody<'getCompatWorkOrder', 200>;
