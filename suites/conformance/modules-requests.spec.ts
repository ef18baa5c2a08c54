/**
 * The Requests and Request Portals modules (Authentication 8; module requirements: "Work requests,
 * thumbnails, attachments → Requests", "Request portals → Request Portals"): with the module disabled
 * every operation of the family answers 403 `module_disabled` although the key holds every scope. The
 * lists are stated (`must`); the other operations' routes are inferred.
 */
import { test, pngImage } from '../kits/work-requests.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import type { RequestOptions } from '../lib/client.ts';

type Attempt = [method: string, path: string, options?: RequestOptions];

const REQUEST = 'wr_placeholder0000';
const PORTAL = 'prt_placeholder0000';

test.describe('Requests module disabled', () => {
  test('listing work requests answers 403 module_disabled', { tag: ['@MODULE-002'] }, async ({ as }) => {
    expectProblem(await as.moduleDisabled('requests').get('/workrequests'), 403, 'module_disabled');
  });

  test('work-request writes, attachments and thumbnails answer 403 module_disabled', { tag: ['@MODULE-008'] }, async ({ as }) => {
    const client = as.moduleDisabled('requests');
    const attempts: Attempt[] = [
      ['POST', '/workrequests', { json: { title: 'not allowed' } }],
      ['PATCH', `/workrequests/${REQUEST}`, { json: { title: 'not allowed' } }],
      ['DELETE', `/workrequests/${REQUEST}`],
      ['POST', `/workrequests/${REQUEST}/attachments`, { query: { fileName: 'notes.txt' }, body: Buffer.from('x'), headers: { 'content-type': 'text/plain' } }],
      ['GET', `/workrequests/${REQUEST}/attachments/att_placeholder0000`],
      ['PUT', `/workrequests/${REQUEST}/thumbnail`, { query: { fileName: 'thumb.png' }, body: pngImage(2, 2), headers: { 'content-type': 'image/png' } }],
    ];
    for (const [method, path, options] of attempts) expectProblem(await client.send(method, path, options), 403, 'module_disabled');
  });
});

test.describe('Request Portals module disabled', () => {
  test('listing portals answers 403 module_disabled', { tag: ['@MODULE-003'] }, async ({ as }) => {
    expectProblem(await as.moduleDisabled('request_portals').get('/workrequestportals'), 403, 'module_disabled');
  });

  test('portal reads and writes answer 403 module_disabled', { tag: ['@MODULE-009'] }, async ({ as }) => {
    const client = as.moduleDisabled('request_portals');
    const attempts: Attempt[] = [
      ['POST', '/workrequestportals', { json: { title: 'not allowed' } }],
      ['GET', `/workrequestportals/${PORTAL}`],
      ['PATCH', `/workrequestportals/${PORTAL}`, { json: { title: 'not allowed' } }],
      ['DELETE', `/workrequestportals/${PORTAL}`],
    ];
    for (const [method, path, options] of attempts) expectProblem(await client.send(method, path, options), 403, 'module_disabled');
  });
});
