/**
 * Work requests, the writes (Endpoints › Other families: "Write operations for work requests, including
 * file attachments and thumbnails"; States and transitions: work request `requestStatus`; Limits:
 * work-request upload; Errors: 413, 415): create, update, reject and delete, uploads, thumbnails and
 * attachment reads. Their paths, methods and bodies are not shown, so every test here is inferred. The
 * list is work-requests-list.spec.ts's.
 */
import { test, expect, gifImage, JPEG_HEAD, pngImage } from '../kits/work-requests.ts';
import { foreignRecord } from '../lib/foreign.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { anyAsset, expectCreated, uid } from '../lib/provision.ts';
import type { AttachmentWrapper, WorkRequestWrapper } from '../lib/api-types.ts';

const MiB = 1024 * 1024;
const UNKNOWN = 'wr_doesnotexist0000';

test.describe('work requests: writes', () => {
  test('POST creates a pending request, PATCH changes it, DELETE removes it from the list', { tag: ['@WR-009'] }, async ({ api, profile, requests }) => {
    const asset = await anyAsset(api, profile);
    const title = `CT request ${uid()}`;
    const contact = { type: 'PHONE', value: '+1 555 0100' };
    const created = await api.post<WorkRequestWrapper>('/workrequests', { json: { title, description: 'Dripping valve', priority: 'MEDIUM', assetId: asset.id, sendEmailNotification: true, creatorContactInfo: contact } });
    expect(created.status).toBe(200);
    const request = created.body.workRequest;
    expect(request).toMatchObject({ title, description: 'Dripping valve', priority: 'MEDIUM', requestStatus: 'PENDING', assetId: asset.id, sendEmailNotification: true, creatorContactInfo: contact });
    expect(await requests.find(request.id)).toMatchObject({ id: request.id, title, requestStatus: 'PENDING' });

    const renamed = `CT renamed ${uid()}`;
    const patched = await api.patch<WorkRequestWrapper>(`/workrequests/${request.id}`, { json: { title: renamed, priority: 'HIGH' } });
    expect(patched.status).toBe(200);
    expect(patched.body.workRequest).toMatchObject({ id: request.id, title: renamed, priority: 'HIGH', description: 'Dripping valve', assetId: asset.id, requestStatus: 'PENDING' });
    expect(await requests.find(request.id)).toMatchObject({ title: renamed, priority: 'HIGH' });

    const deleted = await api.delete(`/workrequests/${request.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await requests.find(request.id), 'a deleted request leaves the list').toBeUndefined();
    expectProblem(await api.delete(`/workrequests/${request.id}`), 404);
    expectProblem(await api.patch(`/workrequests/${request.id}`, { json: { title: 'gone' } }), 404);
  });

  test('related records the organization does not have, and unknown requests, answer 404', { tag: ['@WR-009'] }, async ({ api, as }) => {
    expectProblem(await api.post('/workrequests', { json: { title: 'x', assetId: 'ast_doesnotexist000' } }), 404);
    expectProblem(await api.post('/workrequests', { json: { title: 'x', locationId: 'loc_doesnotexist000' } }), 404);
    expectProblem(await api.post('/workrequests', { json: { title: 'x', approverTeamId: 'team_doesnotexist0' } }), 404);
    const foreignAsset = (await foreignRecord(as.otherOrg(), '/assets')).id;
    expectProblem(await api.post('/workrequests', { json: { title: 'x', assetId: foreignAsset } }), 404);
    expectProblem(await api.patch(`/workrequests/${UNKNOWN}`, { json: { title: 'x' } }), 404);
    expectProblem(await api.delete(`/workrequests/${UNKNOWN}`), 404);
  });

  test('an invalid create or update body answers 400 and changes nothing', { tag: ['@WR-009'] }, async ({ api, requests }) => {
    for (const json of [{}, { title: '' }, { title: 'x', priority: 'low' }, { title: 'x', requestStatus: 'PENDING' }, { title: 'x', colour: 'red' }]) {
      expectProblem(await api.post('/workrequests', { json }), 400, 'validation_error');
    }
    const request = await requests.create();
    for (const json of [{}, { title: 42 }, { requestStatus: 'APPROVED' }, { priority: 'URGENT' }]) {
      expectProblem(await api.patch(`/workrequests/${request.id}`, { json }), 400, 'validation_error');
    }
    expect(await requests.find(request.id)).toMatchObject({ title: request.title, priority: request.priority, requestStatus: 'PENDING' });
  });

  test('PATCH requestStatus REJECTED rejects a pending request, and only a pending one', { tag: ['@WR-014'] }, async ({ api, profile, requests }) => {
    const request = await requests.create();
    const rejected = await api.patch<WorkRequestWrapper>(`/workrequests/${request.id}`, { json: { requestStatus: 'REJECTED' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.workRequest.requestStatus).toBe('REJECTED');
    expect((await requests.find(request.id))?.requestStatus).toBe('REJECTED');
    expectProblem(await api.patch(`/workrequests/${request.id}`, { json: { requestStatus: 'REJECTED' } }), 409);

    const approved = await requests.create();
    expectCreated(await api.post('/work-orders', { json: { title: `CT approval ${uid()}`, ...profile.bodies.createWorkOrder, workRequestId: approved.id } }));
    expectProblem(await api.patch(`/workrequests/${approved.id}`, { json: { requestStatus: 'REJECTED' } }), 409);
    expect((await requests.find(approved.id))?.requestStatus).toBe('APPROVED');
  });
});

test.describe('work requests: attachments and thumbnails', () => {
  test('an upload of at most 1 MiB is stored and listed on the request', { tag: ['@WR-010'] }, async ({ requests }) => {
    const request = await requests.create();
    const small = await requests.upload(request.id, Buffer.from('Pump 3 leaks at the flange.\n'), 'text/plain', 'notes.txt');
    expect(small.status).toBe(201);
    expect(small.body.attachment).toMatchObject({ fileName: 'notes.txt', mimeType: 'text/plain' });
    const exact = await requests.upload(request.id, Buffer.alloc(MiB, 7), 'application/octet-stream', 'exactly-1-MiB.bin');
    expect(exact.status, 'exactly 1 MiB is accepted').toBe(201);
    expect(exact.body.attachment).toMatchObject({ fileName: 'exactly-1-MiB.bin', mimeType: 'application/octet-stream' });
    const listed = await requests.find(request.id);
    expect(listed?.attachments!.map((a: { id: string }) => a.id)).toEqual([small.body.attachment.id, exact.body.attachment.id]);
  });

  test('an upload over 1 MiB answers 413 and stores nothing', { tag: ['@WR-010'] }, async ({ requests }) => {
    const request = await requests.create();
    expectProblem(await requests.upload(request.id, Buffer.alloc(MiB + 1, 7), 'application/octet-stream', 'too-big.bin'), 413);
    expect((await requests.find(request.id))?.attachments).toEqual([]);
  });

  test('a thumbnail that is not an acceptable image answers 415 and stores nothing', { tag: ['@WR-011'] }, async ({ requests }) => {
    const request = await requests.create();
    const png = pngImage(4, 4);
    const refused: Array<[string, Buffer]> = [
      ['text/plain', Buffer.from('not an image')],
      ['image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')],
      ['application/octet-stream', png],
      ['image/png', JPEG_HEAD],
      ['image/jpeg', png],
      ['image/gif', png],
      ['image/webp', Buffer.from('RIFF\u0004\u0000\u0000\u0000WAVEfmt ')],
    ];
    for (const [type, bytes] of refused) {
      const response = await requests.thumbnail(request.id, bytes, type);
      expectProblem(response, 415);
    }
    expect((await requests.find(request.id))?.thumbnail ?? null).toBeNull();
  });

  test('an accepted image becomes the thumbnail, with its width and height', { tag: ['@WR-017'] }, async ({ requests }) => {
    const request = await requests.create();
    const png = await requests.thumbnail(request.id, pngImage(3, 2), 'image/png', 'front.png');
    expect(png.status).toBe(200);
    expect(png.body.attachment).toMatchObject({ mimeType: 'image/png', fileName: 'front.png', width: 3, height: 2 });
    expect((await requests.find(request.id))?.thumbnail).toMatchObject({ id: png.body.attachment.id, width: 3, height: 2 });
    const gif = await requests.thumbnail(request.id, gifImage(5, 4), 'image/gif', 'side.gif');
    expect(gif.status).toBe(200);
    expect(gif.body.attachment).toMatchObject({ mimeType: 'image/gif', width: 5, height: 4 });
    expect((await requests.find(request.id))?.thumbnail!.id, 'a new thumbnail replaces the old one').toBe(gif.body.attachment.id);
    const uploaded = await requests.upload(request.id, pngImage(6, 9), 'image/png', 'photo.png');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.attachment).toMatchObject({ width: 6, height: 9 });
  });

  test('an empty, too long or path-like fileName answers 400 and stores nothing', { tag: ['@WR-012'] }, async ({ api, requests }) => {
    const request = await requests.create();
    const bytes = Buffer.from('x');
    for (const fileName of ['', 'a'.repeat(256), 'reports/today.txt', '..\\secret.txt', 'line\nbreak.txt']) {
      expectProblem(await requests.upload(request.id, bytes, 'text/plain', fileName), 400, 'validation_error');
    }
    expectProblem(await api.post(`/workrequests/${request.id}/attachments`, { body: bytes, headers: { 'content-type': 'text/plain' } }), 400, 'validation_error');
    expect((await requests.find(request.id))?.attachments).toEqual([]);
  });

  test('an attachment reads back by id with the metadata it was stored with', { tag: ['@WR-013'] }, async ({ api, requests }) => {
    const request = await requests.create();
    const other = await requests.create();
    const stored = expectCreated(await requests.upload(request.id, pngImage(7, 5), 'image/png', 'valve.png')).body.attachment;
    const read = await api.get<AttachmentWrapper>(`/workrequests/${request.id}/attachments/${stored.id}`);
    expect(read.status).toBe(200);
    expect(read.body.attachment).toEqual(stored);
    expectProblem(await api.get(`/workrequests/${request.id}/attachments/att_doesnotexist000`), 404);
    expectProblem(await api.get(`/workrequests/${other.id}/attachments/${stored.id}`), 404);
    expectProblem(await api.get(`/workrequests/${UNKNOWN}/attachments/${stored.id}`), 404);
  });
});
