/**
 * A client's traffic as `client-report` judges it (docs/integrators.md, "A verdict on your client"):
 * exchanges in the order they were sent, read from the mock's request journal (contract/journal.ts) or
 * from a HAR 1.2 file (what a browser, mitmproxy or any recording proxy writes in front of a real
 * service). API keys are masked on reading: nothing downstream ever holds one in full.
 */
import { issuedCursor, type JournalEntry } from '../journal.ts';

/** One exchange of the client. */
export interface ClientExchange {
  /** Its position in the source (journal `seq`, HAR entry index + 1): what evidence names. */
  seq: number;
  /** When the request was sent (ms since the epoch; the mock's clock for a journal). */
  sentAt: number;
  /** When the answer was complete (ms since the epoch). */
  answeredAt: number;
  method: string;
  /** The path relative to the API base (`/meters`, without `/v1`). */
  path: string;
  /** The query string without `?`. */
  query: string;
  /** 0 when no response arrived. */
  status: number;
  /** The key as `sk_live_…abcd` (none: ''); requests of one key share a rate-limit budget. */
  client: string;
  /** The key's organization, when the source knows it (the journal does, a HAR does not). */
  organization?: string;
  requestBody?: string;
  responseBody?: string;
  retryAfter?: number;
  /** The cursor the answer issued (list pages). */
  cursor?: string;
  requestId?: string;
}

/** `sk_live_…abcd` for every key in `text`. */
export function maskKeys(text: string): string {
  return text.replace(/sk_(live|test)_[A-Za-z0-9]{4,}/g, (key) => `${key.slice(0, key.indexOf('_', 3) + 1)}…${key.slice(-4)}`);
}

/** The path below the API base: everything after the first `/v1` segment (the whole path when none). */
export function relativePath(path: string): string {
  const at = path.indexOf('/v1/');
  if (at !== -1) return path.slice(at + 3);
  return path.endsWith('/v1') ? '/' : path;
}

/** The exchanges of journal entries (as `GET /__mock/journal` answers them). */
export function fromJournal(entries: JournalEntry[]): ClientExchange[] {
  return entries
    .map((e) => {
      const sentAt = Date.parse(e.time);
      const retry = Number(e.response.headers['retry-after']);
      return {
        seq: e.seq,
        sentAt,
        answeredAt: sentAt + e.durationMs,
        method: e.method,
        path: relativePath(e.path),
        query: e.query,
        status: e.status,
        client: e.key?.masked ?? '',
        ...(e.organization !== undefined && { organization: e.organization }),
        ...(e.request.body !== undefined && { requestBody: e.request.body }),
        ...(e.response.body !== undefined && { responseBody: e.response.body }),
        ...(Number.isFinite(retry) && e.response.headers['retry-after'] !== undefined && { retryAfter: retry }),
        ...((e.cursor ?? (e.response.body && issuedCursor(e.response.body))) && { cursor: e.cursor ?? issuedCursor(e.response.body!) }),
        requestId: e.requestId,
      };
    })
    .sort((a, b) => a.seq - b.seq);
}

interface HarHeader { name: string; value: string }
interface HarEntry {
  startedDateTime: string;
  time?: number;
  request: { method: string; url: string; headers?: HarHeader[]; postData?: { text?: string } };
  response: { status: number; headers?: HarHeader[]; content?: { text?: string; encoding?: string } };
}

/** The exchanges of a HAR 1.2 document (`log.entries`); throws an Error naming what is missing. */
export function fromHar(har: unknown): ClientExchange[] {
  const entries = (har as { log?: { entries?: unknown } } | undefined)?.log?.entries;
  if (!Array.isArray(entries)) throw new Error('not a HAR file: it has no log.entries array');
  return (entries as HarEntry[])
    .map((e, i) => {
      if (!e?.request?.url || !e.startedDateTime) throw new Error(`HAR entry ${i} has no request.url or startedDateTime`);
      const url = new URL(e.request.url);
      const header = (list: HarHeader[] | undefined, name: string) => list?.find((h) => h.name.toLowerCase() === name)?.value;
      const authorization = header(e.request.headers, 'authorization') ?? '';
      // The key in full, or already masked (a HAR the proxy wrote): either names one client.
      const key = /(sk_(?:live|test)_\S+)/.exec(authorization)?.[1];
      const sentAt = Date.parse(e.startedDateTime);
      const text = e.response.content?.encoding === 'base64' ? undefined : e.response.content?.text;
      const retry = Number(header(e.response.headers, 'retry-after'));
      const cursor = text ? issuedCursor(text) : undefined;
      return {
        seq: i + 1,
        sentAt,
        answeredAt: sentAt + Math.max(0, e.time ?? 0),
        method: e.request.method.toUpperCase(),
        path: relativePath(url.pathname),
        query: maskKeys(url.search.replace(/^\?/, '')),
        status: e.response.status ?? 0,
        client: key ? maskKeys(key) : '',
        ...(e.request.postData?.text !== undefined && { requestBody: maskKeys(e.request.postData.text) }),
        ...(text !== undefined && { responseBody: maskKeys(text) }),
        ...(Number.isFinite(retry) && header(e.response.headers, 'retry-after') !== undefined && { retryAfter: retry }),
        ...(cursor && { cursor }),
        ...(header(e.response.headers, 'x-request-id') && { requestId: header(e.response.headers, 'x-request-id') }),
      };
    })
    .sort((a, b) => a.sentAt - b.sentAt || a.seq - b.seq);
}

/**
 * The exchanges of a document read from a file: a HAR (`log.entries`), a journal page
 * (`{entries: [...]}`, as `GET /__mock/journal` answers) or a bare array of journal entries.
 */
export function exchangesOf(document: unknown): { source: 'har' | 'journal'; exchanges: ClientExchange[] } {
  if ((document as { log?: unknown })?.log !== undefined) return { source: 'har', exchanges: fromHar(document) };
  const entries = Array.isArray(document) ? document : (document as { entries?: unknown })?.entries;
  if (!Array.isArray(entries)) throw new Error('neither a HAR file (log.entries) nor a journal ({entries: [...]})');
  for (const [i, e] of entries.entries()) {
    const ok = e && typeof e === 'object' && typeof e.seq === 'number' && typeof e.method === 'string' && typeof e.path === 'string' && typeof e.time === 'string' && e.request && e.response;
    if (!ok) throw new Error(`journal entry ${i} lacks seq, method, path, time, request or response`);
  }
  return { source: 'journal', exchanges: fromJournal(entries as JournalEntry[]) };
}
