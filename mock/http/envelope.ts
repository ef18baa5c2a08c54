/**
 * The native envelope (Resources and their fields › Native envelope) and the reply helpers.
 * `data` arrives already serialized (http/json-cache.ts); a list page is sent in chunks around its
 * records' cached bytes (http/chunked-json-body.ts).
 */
import type { Context, Reply } from './context.ts';
import { ChunkedJsonBody } from './chunked-json-body.ts';

export const API_VERSION = 'v1';

function meta(ctx: Context): string {
  return `"meta":{"request_id":"${ctx.requestId}","api_version":"${API_VERSION}"}`;
}

/** The bytes of `{"data":` + `,"meta":{"request_id":"` + `","api_version":"v1"}}`, around the data and the request id. */
const SINGLE_FRAME_BYTES = `{"data":,"meta":{"request_id":"","api_version":"${API_VERSION}"}}`.length;

/**
 * A text reply that knows its body's length in UTF-8 bytes (`bodyBytes`, a getter over a private
 * field: a copy of the reply, `{...reply, body}`, does not carry it, so it cannot go stale).
 */
class SizedReply implements Reply {
  readonly #bytes: number;
  constructor(
    readonly status: number,
    readonly body: string,
    bytes: number,
  ) {
    this.#bytes = bytes;
  }

  get bodyBytes(): number {
    return this.#bytes;
  }
}

/**
 * `{data: <resource>, meta}` with the given status (200 by default). Its length in bytes is the cached
 * data's (one flat string) plus the ASCII frame and request id: the body is never measured whole.
 */
export function single(ctx: Context, dataJson: string, status = 200): Reply {
  const requestId = ctx.requestId;
  return new SizedReply(status, `{"data":${dataJson},${meta(ctx)}}`, Buffer.byteLength(dataJson) + SINGLE_FRAME_BYTES + Buffer.byteLength(requestId));
}

/** A list page's 200: its body in chunks, read as text through `body` (a class: no accessor defined per reply). */
class PageReply implements Reply {
  readonly status = 200;
  constructor(readonly chunks: ChunkedJsonBody) {}

  get body(): string {
    return this.chunks.toString();
  }
}

/**
 * A 200 whose body is `head`, a page's records (json-cache.ts `pageBytes`), `tail`; `textBytes`, the
 * UTF-8 bytes of head and tail together when the caller knows them (else they are measured when needed).
 */
export function page(head: string, items: Buffer, tail: string, textBytes?: number): Reply {
  return new PageReply(new ChunkedJsonBody(head, items, tail, textBytes));
}

const LIST_HEAD = '{"data":[';
const LIST_META = '],"meta":{"request_id":"';

/**
 * `{data: [...], meta: {..., pagination}}`; `items` are the page's records (json-cache.ts `pageBytes`).
 * The text around them is ASCII but for the request id and the cursor, which alone are measured.
 */
export function list(ctx: Context, items: Buffer, pagination: { hasMore: boolean; cursor: string; totalCount: number }): Reply {
  const requestId = ctx.requestId;
  const cursor = quotedCursor(pagination.cursor);
  const middle = `","api_version":"${API_VERSION}","pagination":{"has_more":${pagination.hasMore},"cursor":`;
  const end = `,"total_count":${pagination.totalCount}}}}`;
  const textBytes = LIST_HEAD.length + LIST_META.length + Buffer.byteLength(requestId) + middle.length + cursor.bytes + end.length;
  return page(LIST_HEAD, items, `${LIST_META}${requestId}${middle}${cursor.json}${end}`, textBytes);
}

/** A cursor token as a JSON string, and that string's length in UTF-8 bytes. */
interface QuotedCursor {
  readonly token: string;
  readonly json: string;
  readonly bytes: number;
}

let lastCursor: QuotedCursor = { token: '', json: '""', bytes: 2 };

/**
 * `cursor` quoted as JSON. A page asked for again reuses its token (paging/pages.ts `cachedToken`),
 * the very same string, so the last one quoted is remembered and its 200 or so characters are not
 * scanned again per request.
 */
function quotedCursor(cursor: string): QuotedCursor {
  if (cursor !== lastCursor.token) {
    const json = JSON.stringify(cursor);
    lastCursor = { token: cursor, json, bytes: Buffer.byteLength(json) };
  }
  return lastCursor;
}

/** A bare JSON body (compatibility style, parts section). */
export function json(value: unknown, status = 200): Reply {
  return { status, body: JSON.stringify(value) };
}

/** A body already serialized. */
export function raw(body: string, status = 200): Reply {
  return { status, body };
}

/** 204 No Content. */
export function noContent(): Reply {
  return { status: 204 };
}
