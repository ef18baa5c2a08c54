/**
 * The journal's hooks on the request path (mock/pipeline/stages.ts, registered with `MockApp.extend`):
 * one hook before each stage notes how far a request got, one before readBody copies the body as it
 * arrives (up to the limit), and an `onSend` hook turns the exchange into a journal entry
 * (contract/journal.ts). Unregistered (the journal off) they cost nothing.
 */
import type { IncomingMessage } from 'node:http';
import { issuedCursor, type JournalEntry, type JournalMessage, type JournalValidationError } from '../../contract/journal.ts';
import { loadScopes } from '../../contract/openapi.ts';
import { announcesBody } from '../http/body.ts';
import { ChunkedJsonBody } from '../http/chunked-json-body.ts';
import type { Outgoing } from '../http/send.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { STAGE_NAMES, type StageHooks, type StageName, type Step } from '../pipeline/stages.ts';
import type { World } from '../store/world.ts';
import { decidingStage, keywordOf, requirementOf, validationErrors } from './decided.ts';
import type { Journal } from './journal.ts';

/** What the hooks learn of one request before its answer. */
interface Trace {
  reached: StageName;
  started: number;
  time: string;
  body?: Buffer[];
  bodyBytes: number;
}

/** An API key anywhere in a text (header, query, body): masked to `sk_live_…abcd`. */
const KEY_IN_TEXT = /sk_(live|test)_[A-Za-z0-9]{4,}/g;
/** Headers whose values are secrets of another kind: never recorded. */
const SECRET_HEADER = /^(cookie|set-cookie|proxy-authorization|x-mock-control-token)$|token|secret|api-?key|password/i;

/** `sk_live_…abcd` for a key; the same masking as the banner of `mock` (mock/main.ts maskKey). */
export function maskSecret(key: string): string {
  const cut = key.indexOf('_', 3);
  return cut > 0 ? `${key.slice(0, cut + 1)}…${key.slice(-4)}` : '…';
}

/** `text` with every API key in it masked. */
export function redact(text: string): string {
  // indexOf first: most texts hold no key, and it is far cheaper than the expression.
  return text.includes('sk_') ? text.replace(KEY_IN_TEXT, maskSecret) : text;
}

/** The stage hooks that record every exchange served into `journal`; `world()` is the current world. */
export function journalHooks(journal: Journal, world: () => World): StageHooks {
  const traces = new WeakMap<Exchange, Trace>();
  const before: Partial<Record<StageName, Step[]>> = {};
  for (const name of STAGE_NAMES) {
    before[name] = [name === 'onRequest'
      ? (ex) => {
        const w = world();
        traces.set(ex, { reached: 'onRequest', started: performance.now(), time: new Date(w.clock.now()).toISOString(), bodyBytes: 0 });
      }
      : (ex) => {
        const trace = traces.get(ex);
        if (!trace) return;
        trace.reached = name;
        if (name === 'readBody' && ex.op?.requestBody && announcesBody(ex.req)) copyBody(ex.req, trace, journal.settings.bodyLimit);
      }];
  }
  const onSend = (out: Outgoing, ex: Exchange): Outgoing => {
    // The control API answers its own requests; only API exchanges are recorded.
    const trace = traces.get(ex);
    const record = () => {
      try {
        journal.add(entryOf(journal, ex, out, trace, world()));
      } catch (e) {
        process.stderr.write(`mock: journal: ${(e as Error).message}\n`);
      }
    };
    const req = ex.req;
    // A body no stage read (an answer before readBody: a fault, a 401) arrives while the answer waits
    // for it (app.ts send): copied as it comes, and the entry kept once it has come.
    if (trace && !trace.body && announcesBody(req) && !req.readableEnded && !req.destroyed) {
      copyBody(req, trace, journal.settings.bodyLimit);
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        record();
      };
      const timer = setTimeout(once, 5000).unref();
      req.once('end', once).once('close', once).once('error', once);
    } else record();
    return out;
  };
  return { before, onSend: [onSend] };
}

/** Copies the request body's first `limit` bytes as they arrive (beside readBody's own reading). */
function copyBody(req: IncomingMessage, trace: Trace, limit: number): void {
  const chunks: Buffer[] = (trace.body = []);
  let kept = 0;
  req.on('data', (chunk: Buffer) => {
    trace.bodyBytes += chunk.length;
    if (kept >= limit) return;
    const part = chunk.length > limit - kept ? chunk.subarray(0, limit - kept) : chunk;
    chunks.push(Buffer.from(part));
    kept += part.length;
  });
}

function entryOf(journal: Journal, ex: Exchange, out: Outgoing, trace: Trace | undefined, world: World): JournalEntry {
  const limit = journal.settings.bodyLimit;
  const body = out.body;
  // Only what is kept is read: a list page's records are cut as bytes, never joined into one text.
  const kept = body === undefined ? undefined : keptText(body, limit);
  const problem = out.status >= 400 && typeof body === 'string' ? parseProblem(body) : undefined;
  const code = typeof problem?.code === 'string' ? problem.code : undefined;
  const stage = decidingStage(trace?.reached, out.status, code);
  const authorization = ex.req.headers.authorization;
  const presented = /^\S+\s+(sk_\S+)/.exec(authorization ?? '')?.[1];
  const key = ex.key;
  const allScopes = key ? loadScopes().length : 0;
  const entry: JournalEntry = {
    seq: journal.nextSeq(),
    requestId: ex.requestId,
    time: trace?.time ?? new Date(world.clock.now()).toISOString(),
    durationMs: trace ? Math.round((performance.now() - trace.started) * 100) / 100 : 0,
    ...(key && { organization: key.orgId }),
    ...((presented || key) && {
      key: {
        masked: presented ? maskSecret(presented) : '…',
        ...(key && { id: key.id, label: key.label, prefix: key.prefix, scopes: key.scopes.size === allScopes ? 'all' as const : [...key.scopes] }),
      },
    }),
    method: ex.method,
    path: redact(ex.path),
    query: redact(ex.search),
    ...(ex.op && { operationId: ex.op.operationId }),
    request: requestMessage(ex, trace, limit),
    response: message(out.headers as Record<string, unknown>, kept, limit),
    status: out.status,
    ...(out.status === 200 && body !== undefined && ex.op?.parameters.some((p) => p.name === 'cursor') && { cursor: issuedCursor(body instanceof ChunkedJsonBody ? body.tail : body.slice(-2048)) }),
    decided: {
      stage,
      ...(code && { code }),
      ...(requirementOf(out.status, code) && { requirement: requirementOf(out.status, code) }),
      ...(typeof problem?.detail === 'string' && { detail: redact(problem.detail) }),
    },
    validation: validationOf(ex, trace, out.status, code, problem),
  };
  return entry;
}

/** A body's first `limit` bytes as text, with its whole length: a list page's records cut as bytes. */
function keptText(body: string | ChunkedJsonBody, limit: number): { text: string; bytes: number } {
  if (typeof body === 'string') {
    if (body.length * 3 <= limit) return { text: body, bytes: Buffer.byteLength(body) };
    const bytes = Buffer.byteLength(body);
    return { text: bytes <= limit ? body : Buffer.from(body.slice(0, limit)).subarray(0, limit).toString('utf8'), bytes };
  }
  const head = Buffer.from(body.head);
  const text = Buffer.concat([head, body.items.subarray(0, Math.max(0, limit - head.length))]).subarray(0, limit).toString('utf8');
  const bytes = body.byteLength;
  return { text: bytes <= limit ? text + body.tail : text, bytes };
}

function parseProblem(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Headers (lower-case names, secrets masked or left out) and the body's text up to `limit` bytes. */
function message(headers: Record<string, unknown>, kept: { text: string; bytes: number } | undefined, limit: number): JournalMessage {
  const out: JournalMessage = { headers: {} };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out.headers[lower] = SECRET_HEADER.test(lower) ? '[redacted]' : redact(Array.isArray(value) ? value.join(', ') : String(value));
  }
  if (kept !== undefined && kept.bytes > 0) {
    out.body = redact(kept.text);
    out.bytes = kept.bytes;
    if (kept.bytes > limit) out.truncated = true;
  }
  return out;
}

function requestMessage(ex: Exchange, trace: Trace | undefined, limit: number): JournalMessage {
  const copied = trace?.body;
  const text = copied?.length ? Buffer.concat(copied).toString('utf8') : ex.body !== undefined ? JSON.stringify(ex.body) : undefined;
  const kept = text === undefined ? undefined : copied?.length ? { text, bytes: trace!.bodyBytes } : keptText(text, limit);
  const msg = message(ex.req.headers, kept, limit);
  if (copied?.length && trace!.bodyBytes > limit) msg.truncated = true;
  return msg;
}

/** The request against the description: parameters (route stage), body (validateBody), media type. */
function validationOf(ex: Exchange, trace: Trace | undefined, status: number, code: string | undefined, problem: Record<string, unknown> | undefined): JournalEntry['validation'] {
  if (!ex.validator || trace === undefined) return { checked: false, valid: true, errors: [] };
  const errors: JournalValidationError[] = ex.paramErrors.map((e) => ({ in: e.in, path: e.name ?? e.pointer ?? '', keyword: keywordOf(e.message), message: e.message }));
  if (code === 'validation_error' && (trace.reached === 'readBody' || trace.reached === 'validateBody')) errors.push(...validationErrors(problem?.errors));
  else if (ex.body !== undefined && ex.validator.validateBody && trace.reached !== 'validateBody' && trace.reached !== 'handle') {
    for (const e of ex.validator.validateBody(ex.body)) errors.push({ in: 'body', path: e.pointer ?? '/', keyword: keywordOf(e.message), message: e.message });
  }
  if (status === 415) errors.push({ in: 'header', path: 'content-type', keyword: 'media type', message: String(problem?.detail ?? 'unsupported media type') });
  if (status === 413) errors.push({ in: 'body', path: '/', keyword: 'maxBytes', message: String(problem?.detail ?? 'too large') });
  return { checked: true, valid: errors.length === 0, errors };
}
