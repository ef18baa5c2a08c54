/**
 * Recipes of the work requests and request portals families (Endpoints › Other families): the list
 * operations, and the inferred writes, attachments, thumbnails and portal reads and writes.
 */
import type { Recipe } from './recipe.ts';
import { createPortal, createWorkRequest, pngImage, uploadAttachment } from '../kits/work-requests.ts';
import { expectCreated, uid } from '../lib/provision.ts';

const TEXT = Buffer.from('Recorded by the conformance suite.\n');

export const workRequestRecipes: Record<string, Recipe> = {
  listWorkRequests: async () => ({ method: 'GET', path: '/workrequests', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkRequest: async () => ({ method: 'POST', path: '/workrequests', options: { json: { title: `CT scope ${uid()}`, priority: 'LOW' } }, expect: 200 }),
  updateWorkRequest: async ({ api }) => ({ method: 'PATCH', path: `/workrequests/${(await createWorkRequest(api)).id}`, options: { json: { title: `CT renamed ${uid()}` } }, expect: 200 }),
  deleteWorkRequest: async ({ api }) => ({ method: 'DELETE', path: `/workrequests/${(await createWorkRequest(api)).id}`, expect: 204 }),
  uploadWorkRequestAttachment: async ({ api }) => ({
    method: 'POST',
    path: `/workrequests/${(await createWorkRequest(api)).id}/attachments`,
    options: { query: { fileName: 'notes.txt' }, body: TEXT, headers: { 'content-type': 'text/plain' } },
    expect: 201,
  }),
  getWorkRequestAttachment: async ({ api }) => {
    const request = await createWorkRequest(api);
    const uploaded = expectCreated(await uploadAttachment(api, request.id, TEXT, 'text/plain', 'notes.txt'));
    return { method: 'GET', path: `/workrequests/${request.id}/attachments/${uploaded.body.attachment.id}`, expect: 200 };
  },
  setWorkRequestThumbnail: async ({ api }) => ({
    method: 'PUT',
    path: `/workrequests/${(await createWorkRequest(api)).id}/thumbnail`,
    options: { query: { fileName: 'thumbnail.png' }, body: pngImage(4, 3), headers: { 'content-type': 'image/png' } },
    expect: 200,
  }),
  listWorkRequestPortals: async () => ({ method: 'GET', path: '/workrequestportals', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkRequestPortal: async () => ({ method: 'POST', path: '/workrequestportals', options: { json: { title: `CT scope ${uid()}` } }, expect: 200 }),
  getWorkRequestPortal: async ({ api }) => ({ method: 'GET', path: `/workrequestportals/${(await createPortal(api)).id}`, expect: 200 }),
  updateWorkRequestPortal: async ({ api }) => ({ method: 'PATCH', path: `/workrequestportals/${(await createPortal(api)).id}`, options: { json: { welcomeText: 'Updated by the scope matrix.' } }, expect: 200 }),
  deleteWorkRequestPortal: async ({ api }) => ({ method: 'DELETE', path: `/workrequestportals/${(await createPortal(api)).id}`, expect: 204 }),
};
