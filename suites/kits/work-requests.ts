/**
 * The work-requests test kit (Endpoints › Other families): work requests, attachments, thumbnails and
 * request portals through the API, and the image bytes the upload tests send. Creating requests and
 * portals uses their inferred routes; `must` tests reach them through `viaInferred` only.
 * `test` adds it as the `requests` fixture.
 */
import { deflateSync, crc32 } from 'node:zlib';
import { test as base, expect } from '../fixtures.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { expectCreated, precondition, uid } from '../lib/provision.ts';
import { findInCompatList } from '../lib/walk-pages.ts';
import type { AttachmentWrapper, Portal, PortalWrapper, WorkRequest, WorkRequestWrapper } from '../lib/api-types.ts';
import { arrange, expectApplied } from '../lib/arrange.ts';

/** One PNG chunk: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid black grayscale PNG of `width` × `height` pixels. */
export function pngImage(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const pixels = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid GIF89a whose logical screen is `width` × `height` (one transparent 1×1 image inside). */
export function gifImage(width: number, height: number): Buffer {
  const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}

/** The first bytes of a JPEG (SOI and an APP0 marker): enough to be told from other types. */
export const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

/**
 * Creates a work request, arranged (inferred POST /workrequests): a 200 whose pending request shows the
 * members sent, else the test is not assessed. Returns it.
 */
export function createWorkRequest(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<WorkRequest> {
  return arrange('create a work request (POST /workrequests, inferred)', async () => {
    const body = { title: `CT request ${uid()}`, priority: 'LOW', ...overrides };
    const response = precondition(await api.post<WorkRequestWrapper>('/workrequests', { json: body }), 200);
    expectApplied(response.body.workRequest, { requestStatus: 'PENDING', ...body }, 'POST /workrequests');
    return response.body.workRequest;
  });
}

/** Uploads `bytes` as an attachment of request `id` (inferred route); the response is the caller's to check. */
export function uploadAttachment(api: ApiClient, id: string, bytes: Buffer, contentType = 'application/octet-stream', fileName = `ct-${uid()}.bin`): Promise<ApiResponse<AttachmentWrapper>> {
  return api.post<AttachmentWrapper>(`/workrequests/${id}/attachments`, { query: { fileName }, body: bytes, headers: { 'content-type': contentType } });
}

/** Sets the thumbnail of request `id` (inferred route); the response is the caller's to check. */
export function putThumbnail(api: ApiClient, id: string, bytes: Buffer, contentType: string, fileName = `thumb-${uid()}.png`): Promise<ApiResponse<AttachmentWrapper>> {
  return api.put<AttachmentWrapper>(`/workrequests/${id}/thumbnail`, { query: { fileName }, body: bytes, headers: { 'content-type': contentType } });
}

/** Creates a request portal, arranged (inferred POST /workrequestportals: a 200 showing the members sent) and returns it. */
export function createPortal(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<Portal> {
  return arrange('create a request portal (POST /workrequestportals, inferred)', async () => {
    const body = { title: `CT portal ${uid()}`, ...overrides };
    const response = precondition(await api.post<PortalWrapper>('/workrequestportals', { json: body }), 200);
    expectApplied(response.body.workRequestPortal, body, 'POST /workrequestportals');
    return response.body.workRequestPortal;
  });
}

export interface RequestKit {
  create(overrides?: Record<string, unknown>): Promise<WorkRequest>;
  /** A listed work request by id (with `query`, e.g. `expand`), or undefined. */
  find(id: string, query?: Record<string, string>): Promise<WorkRequest | undefined>;
  upload(id: string, bytes: Buffer, contentType?: string, fileName?: string): Promise<ApiResponse<AttachmentWrapper>>;
  thumbnail(id: string, bytes: Buffer, contentType: string, fileName?: string): Promise<ApiResponse<AttachmentWrapper>>;
  createPortal(overrides?: Record<string, unknown>): Promise<Portal>;
  findPortal(id: string): Promise<Portal | undefined>;
}

export const test = base.extend<{ requests: RequestKit }>({
  requests: async ({ api }, use) => {
    await use({
      create: (overrides) => createWorkRequest(api, overrides),
      find: (id, query) => findInCompatList(api, '/workrequests', 'workRequests', id, query),
      upload: (id, bytes, contentType, fileName) => uploadAttachment(api, id, bytes, contentType, fileName),
      thumbnail: (id, bytes, contentType, fileName) => putThumbnail(api, id, bytes, contentType, fileName),
      createPortal: (overrides) => createPortal(api, overrides),
      findPortal: (id) => findInCompatList(api, '/workrequestportals', 'workRequestPortals', id),
    });
  },
});

export { expect };
