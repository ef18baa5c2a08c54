/**
 * Recipes of the work requests and request portals families (Endpoints › Other families): the list
 * operations, and the inferred writes, attachments, thumbnails and portal reads and writes. The
 * operations on one request, or one portal, share it (`sharedRecord`, recipe.ts) — except the
 * attachment read's, whose set-up uploads to it: a recipe that changes a record makes its own.
 */
import { sharedRecord, type CreatedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { createPortal, createWorkRequest, pngImage, uploadAttachment } from '../kits/work-requests.ts';
import { expectCreated, uid } from '../lib/provision.ts';
import type { RecipeMapPart, CreatesPart } from './recipe.ts';
import type { Answered, PortalWrapper, WorkRequestWrapper } from '../lib/api-types.ts';

const TEXT = Buffer.from('Recorded by the conformance suite.\n');

/** The id of a work request of the main organization: the context's shared one, else a new one. */
const requestId = async (ctx: RecipeContext): Promise<string> => (await sharedRecord(ctx, 'workRequest', () => createWorkRequest(ctx.api))).id;

/** The id of a request portal of the main organization: the context's shared one, else a new one. */
const portalId = async (ctx: RecipeContext): Promise<string> => (await sharedRecord(ctx, 'portal', () => createPortal(ctx.api))).id;

export const workRequestRecipes = {
  listWorkRequests: async () => ({ method: 'GET', path: '/workrequests', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkRequest: async () => ({ method: 'POST', path: '/workrequests', options: { json: { title: `CT scope ${uid()}`, priority: 'LOW' } }, expect: 200 }),
  updateWorkRequest: async (ctx) => ({ method: 'PATCH', path: `/workrequests/${await requestId(ctx)}`, options: { json: { title: `CT renamed ${uid()}` } }, expect: 200 }),
  deleteWorkRequest: async (ctx) => ({ method: 'DELETE', path: `/workrequests/${await requestId(ctx)}`, expect: 204 }),
  uploadWorkRequestAttachment: async (ctx) => ({
    method: 'POST',
    path: `/workrequests/${await requestId(ctx)}/attachments`,
    options: { query: { fileName: 'notes.txt' }, body: TEXT, headers: { 'content-type': 'text/plain' } },
    expect: 201,
  }),
  getWorkRequestAttachment: async ({ api }) => {
    const request = await createWorkRequest(api);
    const uploaded = expectCreated(await uploadAttachment(api, request.id, TEXT, 'text/plain', 'notes.txt'));
    return { method: 'GET', path: `/workrequests/${request.id}/attachments/${uploaded.body.attachment.id}`, expect: 200 };
  },
  setWorkRequestThumbnail: async (ctx) => ({
    method: 'PUT',
    path: `/workrequests/${await requestId(ctx)}/thumbnail`,
    options: { query: { fileName: 'thumbnail.png' }, body: pngImage(4, 3), headers: { 'content-type': 'image/png' } },
    expect: 200,
  }),
  listWorkRequestPortals: async () => ({ method: 'GET', path: '/workrequestportals', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkRequestPortal: async () => ({ method: 'POST', path: '/workrequestportals', options: { json: { title: `CT scope ${uid()}` } }, expect: 200 }),
  getWorkRequestPortal: async (ctx) => ({ method: 'GET', path: `/workrequestportals/${await portalId(ctx)}`, expect: 200 }),
  updateWorkRequestPortal: async (ctx) => ({ method: 'PATCH', path: `/workrequestportals/${await portalId(ctx)}`, options: { json: { welcomeText: 'Updated by the scope matrix.' } }, expect: 200 }),
  deleteWorkRequestPortal: async (ctx) => ({ method: 'DELETE', path: `/workrequestportals/${await portalId(ctx)}`, expect: 204 }),
} satisfies RecipeMapPart;

/** The request and the portal valid creates make (their bodies as kits/work-requests.ts sends them). */
export const workRequestCreates = {
  createWorkRequest: { kind: 'workRequest', record: (body: Answered<WorkRequestWrapper>) => (body?.workRequest?.id !== undefined ? body.workRequest : undefined) },
  createWorkRequestPortal: { kind: 'portal', record: (body: Answered<PortalWrapper>) => (body?.workRequestPortal?.id !== undefined ? body.workRequestPortal : undefined) },
} satisfies CreatesPart;
