/**
 * A list page's envelope (mock/http/envelope.ts `list`) and how its chunks reach the socket
 * (mock/http/chunked-json-body.ts): the cursor is quoted as JSON whatever cursor came before it (the
 * last one quoted is remembered), Content-Length is the body's UTF-8 length, and the text around the
 * records is handed over as latin1 only when it is ASCII, so the bytes written are the body's.
 */
import { test, expect } from '@playwright/test';
import type { Context } from '../http/context.ts';
import type { ChunkedJsonBody } from '../http/chunked-json-body.ts';
import { list } from '../http/envelope.ts';

/** The records of a page as its cache keeps them: UTF-8 bytes, one of them not ASCII. */
const items = Buffer.from('{"id":"wo_1","title":"Pumpe prüfen"},{"id":"wo_2","title":"Filter"}');

function page(requestId: string, cursor: string): ChunkedJsonBody {
  const reply = list({ requestId } as unknown as Context, items, { hasMore: true, cursor, totalCount: 2 });
  expect(reply.chunks, 'a list page is written in chunks').toBeDefined();
  return reply.chunks!;
}

/** The bytes `endWith` (http/send.ts) hands to the socket for a page. */
function written(body: ChunkedJsonBody): Buffer {
  return Buffer.concat([Buffer.from(body.head, body.textEncoding), body.items, Buffer.from(body.tail, body.textEncoding)]);
}

test('the cursor is quoted as JSON and measured, whatever cursor was quoted before it', () => {
  for (const cursor of ['eyJ2IjoxfQ.c2ln', 'eyJ2IjoxfQ.c2ln', 'a"b\\c', 'Zähler ✓', '', 'eyJ2IjoxfQ.c2ln', 'eyJ2IjoyfQ.c2ln']) {
    const body = page('req_1', cursor);
    const text = body.toString();
    expect((JSON.parse(text) as { meta: { pagination: { cursor: string } } }).meta.pagination.cursor).toBe(cursor);
    expect(body.byteLength, `Content-Length with cursor ${JSON.stringify(cursor)}`).toBe(Buffer.byteLength(text));
  }
});

test('ASCII text around the records goes to the socket as latin1, any other as UTF-8, and the bytes are the body', () => {
  const cases = [
    { requestId: 'req_1', cursor: 'eyJ2IjoxfQ.c2ln', encoding: 'latin1' },
    { requestId: 'req_ü', cursor: 'eyJ2IjoxfQ.c2ln', encoding: 'utf8' },
    { requestId: 'req_1', cursor: 'Zähler', encoding: 'utf8' },
  ];
  for (const { requestId, cursor, encoding } of cases) {
    const body = page(requestId, cursor);
    expect(body.textEncoding, `${requestId} ${cursor}`).toBe(encoding);
    expect(written(body).equals(Buffer.from(body.toString())), `${requestId} ${cursor}`).toBe(true);
    expect(written(body).length).toBe(body.byteLength);
  }
});
