/**
 * The journal's control routes (docs/integrators.md, "The request journal"), in front of the rest of the
 * control API (mock/control/routes.ts) and behind the same guard (token, loopback Host, JSON bodies):
 *
 * - `GET /__mock/journal?method&path&status&organization&key&since&limit`: the matching entries;
 * - `DELETE /__mock/journal`: forgets them; `PUT /__mock/journal {enabled?, size?, bodyLimit?}`;
 * - `GET /__mock/journal/count?<filters>`: `{count}`; `GET /__mock/journal/verify?<filters>&count=N`
 *   (or `atLeast`, `atMost`): 200 when the count holds, else 409 `verification_failed` with near misses;
 * - `GET /__mock/journal/stream`: every new entry as a server-sent event `entry`;
 * - `GET /__mock/inspector/`: the inspector page (inspector.ts), which needs no token to load (it holds
 *   none; its script sends the token the user types on every call).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JournalFilter, JournalPage } from '../../contract/journal.ts';
import { parseJson, readBody } from '../http/body.ts';
import { ProblemError, invalid } from '../http/problem.ts';
import { failure, write, writeOutgoing } from '../http/send.ts';
import type { ControlHandler } from '../pipeline/on-request.ts';
import { isObject, onlyFields } from '../control/input.ts';
import { inspectorAsset } from './inspector.ts';
import { JOURNAL_MAX_BODY_LIMIT, JOURNAL_MAX_SIZE, filterOf, matcher, type Journal } from './journal.ts';

/** The journal as the control API drives it: on or off (its hooks registered or not), and its settings. */
export interface JournalSwitch {
  readonly journal: Journal;
  readonly enabled: boolean;
  setEnabled(on: boolean): void;
}

/** Seconds between keep-alive comments on an event stream. */
const PING_SECONDS = 15;

/**
 * The control handler of the journal's and inspector's paths; every other `/__mock/` path goes to
 * `next`. `guard` is the control API's (mock/control/guard.ts).
 */
export function journalControl(sw: JournalSwitch, guard: (req: IncomingMessage) => ProblemError | undefined, next: ControlHandler): ControlHandler {
  return (req, res, path, requestId) => {
    const journalPath = path === '/__mock/journal' || path.startsWith('/__mock/journal/');
    const inspectorPath = path === '/__mock/inspector' || path.startsWith('/__mock/inspector/');
    if (!journalPath && !inspectorPath) return next(req, res, path, requestId);
    const fail = (e: unknown) => {
      req.resume();
      if (!(e instanceof ProblemError)) process.stderr.write(`mock: unexpected journal error: ${(e as Error)?.stack ?? String(e)}\n`);
      writeOutgoing(res, failure(requestId, e instanceof ProblemError ? e : new ProblemError(500, 'internal_error', 'The journal failed unexpectedly; see the mock\'s log.')));
    };
    const respond = (status: number, body?: unknown) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      write(res, status, { 'X-Request-ID': requestId, 'Cache-Control': 'no-store', ...(text !== undefined && { 'Content-Type': 'application/json' }) }, text);
    };
    const refused = guard(req);
    if (inspectorPath) {
      // The page and its script hold no secret: only the Host check applies to them.
      if (refused && refused.status !== 401) return fail(refused), true;
      if (req.method !== 'GET' && req.method !== 'HEAD') return fail(new ProblemError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`, {}, { Allow: 'GET, HEAD' })), true;
      const asset = inspectorAsset(path);
      if (!asset) return fail(new ProblemError(404, 'not_found', `${path} is no file of the inspector.`)), true;
      req.resume();
      write(res, 200, { 'X-Request-ID': requestId, ...asset.headers }, req.method === 'HEAD' ? undefined : asset.body);
      return true;
    }
    if (refused) return fail(refused), true;
    const query = new URLSearchParams(req.url!.includes('?') ? req.url!.slice(req.url!.indexOf('?') + 1) : '');
    const j = sw.journal;
    const route = `${req.method} ${path}`;
    try {
      switch (route) {
        case 'GET /__mock/journal': {
          const page: JournalPage = { enabled: sw.enabled, size: j.settings.size, bodyLimit: j.settings.bodyLimit, recorded: j.recorded, entries: j.query(filterOf(query, j.settings.size)) };
          respond(200, page);
          return true;
        }
        case 'DELETE /__mock/journal':
          req.resume();
          j.clear();
          respond(204);
          return true;
        case 'GET /__mock/journal/count':
          respond(200, { count: j.count(filterOf(query, j.settings.size)) });
          return true;
        case 'GET /__mock/journal/verify':
          verify(j, query, respond);
          return true;
        case 'GET /__mock/journal/stream':
          stream(j, req, res, requestId);
          return true;
        case 'PUT /__mock/journal':
          readBody(req, 4096)
            .then((raw) => {
              const body = raw.length ? parseJson(raw) : {};
              if (!isObject(body)) throw invalid('body', '/', 'must be a JSON object');
              onlyFields(body, '', ['enabled', 'size', 'bodyLimit']);
              settings(sw, body);
              respond(200, { enabled: sw.enabled, size: j.settings.size, bodyLimit: j.settings.bodyLimit });
            })
            .catch(fail);
          return true;
      }
      const allowed = path === '/__mock/journal' ? 'GET, DELETE, PUT' : ['/__mock/journal/count', '/__mock/journal/verify', '/__mock/journal/stream'].includes(path) ? 'GET' : undefined;
      if (allowed) throw new ProblemError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`, {}, { Allow: allowed });
      throw new ProblemError(404, 'not_found', `${path} is no path of the journal (/__mock/journal, /__mock/journal/count, /__mock/journal/verify, /__mock/journal/stream).`);
    } catch (e) {
      fail(e);
      return true;
    }
  };
}

/** Applies `PUT /__mock/journal`: everything is checked before anything changes. */
function settings(sw: JournalSwitch, body: Record<string, unknown>): void {
  const bounded = (name: string, max: number) => {
    const v = body[name];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max)) throw invalid('body', `/${name}`, `must be an integer from 1 to ${max}`);
    return v as number | undefined;
  };
  const size = bounded('size', JOURNAL_MAX_SIZE);
  const bodyLimit = bounded('bodyLimit', JOURNAL_MAX_BODY_LIMIT);
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw invalid('body', '/enabled', 'must be a boolean');
  if (size !== undefined) sw.journal.settings.size = size;
  if (bodyLimit !== undefined) sw.journal.settings.bodyLimit = bodyLimit;
  if (body.enabled !== undefined) sw.setEnabled(body.enabled as boolean);
}

/** `GET /__mock/journal/verify`: 200 `{count}` when the expectation holds, else 409 with near misses. */
function verify(j: Journal, query: URLSearchParams, respond: (status: number, body?: unknown) => void): void {
  const expect: Record<string, number> = {};
  for (const name of ['count', 'atLeast', 'atMost']) {
    const v = query.get(name);
    query.delete(name);
    if (v === null) continue;
    if (!/^\d{1,9}$/.test(v)) throw invalid('query', name, 'must be a non-negative integer');
    expect[name] = Number(v);
  }
  if (Object.keys(expect).length === 0) throw invalid('query', 'count', 'verify needs count, atLeast or atMost');
  const filter: JournalFilter = filterOf(query, j.settings.size);
  const count = j.count(filter);
  const ok = (expect.count === undefined || count === expect.count) && (expect.atLeast === undefined || count >= expect.atLeast) && (expect.atMost === undefined || count <= expect.atMost);
  if (ok) return respond(200, { count, ok: true });
  // Near misses (WireMock's term): entries on the same path or operation that another filter excluded.
  const near = filter.path ? j.query({ path: filter.path, limit: 5 }).filter((e) => !matcher(filter)(e)) : [];
  const wanted = Object.entries(expect).map(([k, v]) => `${k} ${v}`).join(', ');
  throw new ProblemError(409, 'verification_failed', `Expected ${wanted} requests matching ${new URLSearchParams(filter as Record<string, string>).toString() || 'any'}; the journal holds ${count}.`, {
    count,
    nearMisses: near.map((e) => ({ seq: e.seq, method: e.method, path: e.path, query: e.query, status: e.status, organization: e.organization })),
  });
}

/** `GET /__mock/journal/stream`: server-sent events, one `entry` event per new entry, until the client leaves. */
function stream(j: Journal, req: IncomingMessage, res: ServerResponse, requestId: string): void {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Request-ID': requestId, 'X-Accel-Buffering': 'no' });
  res.write(`retry: 1000\n: journal stream, ${j.recorded} recorded so far\n\n`);
  const stop = j.listen((entry) => res.write(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`));
  const ping = setInterval(() => res.write(': ping\n\n'), PING_SECONDS * 1000);
  ping.unref();
  const close = () => {
    stop();
    clearInterval(ping);
  };
  // Not the request's 'close': it fires as soon as its (empty) body has been read.
  res.on('close', close);
}
