/**
 * The control API (docs/design.md §4), outside `/v1`, under `/__mock/`: reset to the seed or load another
 * fixture set, read the target profile, mint and revoke keys, toggle modules and organization settings,
 * advance the clock, inject faults, export and import the state and create sandbox organizations
 * (state-routes.ts), and (for benchmarks only) bulk-load work orders (bulk.ts). Turned
 * off with `--no-control`. Every request passes the guard first (guard.ts: token, loopback Host, JSON
 * bodies); every input is validated (input.ts: unknown fields, bounds, sizes). Errors are problem
 * details, never a 5xx; an unknown control path is a 404 naming the control API.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MODULES, loadScopes, type Module } from '../../contract/openapi.ts';
import type { ServedApp } from './served.ts';
import { parseJson, readBody } from '../http/body.ts';
import { failure, write, writeOutgoing } from '../http/send.ts';
import { ProblemError, invalid } from '../http/problem.ts';
import type { OrgFixture } from '../seed/fixtures-file.ts';
import type { FaultConfig } from './faults.ts';
import type { ControlEffect } from '../state/persistence.ts';
import { MAX_BULK_TOTAL, MAX_BULK_WORK_ORDERS, bulkMeter, bulkReadings, bulkWorkOrders } from './bulk.ts';
import { checkBudget, type MockBudget } from './budget.ts';
import { boundedNumber, boundedString, isObject as object, onlyFields, organizationsInput } from './input.ts';
import { MAX_ADVANCE_MS, MAX_TOTAL_ADVANCE_MS } from '../state/bounds.ts';
import { STATE_MAX_BODY_BYTES, createOrganization, getState, putState } from './state-routes.ts';
import { StreamedJson } from '../state/export-stream.ts';

/** The furthest one `clock/advance` may move time (10 years), and all of them together (100 years), in seconds. */
export const MAX_ADVANCE_SECONDS = MAX_ADVANCE_MS / 1000;
export const MAX_TOTAL_ADVANCE_SECONDS = MAX_TOTAL_ADVANCE_MS / 1000;

export interface ControlOptions {
  /** Rebuilds the world with another seed and/or organizations; the old world stays when building fails. */
  rebuild(seed?: number, organizations?: OrgFixture[]): void;
  /** Answers the guard's problem for a request that may not use the control API, else undefined. */
  guard(req: IncomingMessage): ProblemError | undefined;
  /** The current target profile. */
  profile(): unknown;
  seed(): number;
  /** The process-wide budget of records and organizations the control routes keep to (budget.ts). */
  budget: MockBudget;
  /** Runs a route under the state store (mock/state/persistence.ts); absent with the memory store. */
  persist?<T extends { status: number }>(effect: ControlEffect, run: () => T): T | Promise<T>;
}

/** What the control request `method path` changes (the state store locks and stores just that). */
export function controlEffect(method: string, path: string, body: Record<string, unknown>): ControlEffect {
  if (method === 'GET' || path === '/__mock/faults') return { kind: 'read' };
  if (path === '/__mock/reset') return { kind: 'all', reset: true };
  if (path === '/__mock/clock/advance') return { kind: 'world' };
  const org = /^\/__mock\/orgs\/([^/]+)$/.exec(path);
  if (org) return { kind: 'org', orgId: segment(org[1]!) };
  if (path === '/__mock/keys' && typeof body.orgId === 'string') return { kind: 'org', orgId: body.orgId };
  return { kind: 'all' };
}

type Route = (app: ServedApp, body: Record<string, unknown>, params: string[], query: URLSearchParams) => { status: number; body?: unknown };
/** Method, path, the body's known fields, the route. */
type Entry = [string, RegExp, readonly string[], Route];

function orgOf(app: ServedApp, id: string) {
  const org = app.world.orgs.get(id);
  if (!org) throw new ProblemError(404, 'not_found', `No organization ${id}.`);
  return org;
}

function orgView(app: ServedApp, id: string) {
  const org = orgOf(app, id);
  return { id: org.id, name: org.name, modules: org.modules, settings: org.settings };
}

function routes(options: ControlOptions): Entry[] {
  return [
    ['GET', /^\/__mock\/health$/, [], (app) => ({ status: 200, body: { ok: true, seed: options.seed(), now: app.world.clock.iso() } })],
    ['GET', /^\/__mock\/profile$/, [], () => ({ status: 200, body: options.profile() })],
    ['POST', /^\/__mock\/reset$/, ['seed', 'organizations'], (_app, body) => {
      if (body.seed !== undefined && !(Number.isInteger(body.seed) && (body.seed as number) >= 0 && (body.seed as number) < 2 ** 31)) throw invalid('body', '/seed', 'must be an integer from 0 to 2147483647');
      const orgs = body.organizations === undefined ? undefined : organizationsInput(body.organizations);
      options.rebuild(body.seed as number | undefined, orgs);
      return { status: 200, body: { seed: options.seed() } };
    }],
    ['GET', /^\/__mock\/clock$/, [], (app) => ({ status: 200, body: { now: app.world.clock.iso(), totalAdvancedSeconds: app.world.clock.advancedMs / 1000 } })],
    ['POST', /^\/__mock\/clock\/advance$/, ['seconds'], (app, body) => {
      const seconds = boundedNumber(body.seconds, '/seconds', 0, MAX_ADVANCE_SECONDS);
      if (seconds === 0) throw invalid('body', '/seconds', 'must be a positive number');
      if (app.world.clock.advancedMs / 1000 + seconds > MAX_TOTAL_ADVANCE_SECONDS) throw invalid('body', '/seconds', `would move the clock more than ${MAX_TOTAL_ADVANCE_SECONDS} s in total (reset to start over)`);
      app.world.clock.advance(seconds * 1000);
      // What this call did, and the clock's total since the last reset, each named as such.
      return { status: 200, body: { now: app.world.clock.iso(), advancedSeconds: seconds, totalAdvancedSeconds: app.world.clock.advancedMs / 1000 } };
    }],
    ['GET', /^\/__mock\/orgs$/, [], (app) => ({ status: 200, body: [...app.world.orgs.keys()].map((id) => orgView(app, id)) })],
    ['PATCH', /^\/__mock\/orgs\/([^/]+)$/, ['modules', 'settings'], (app, body, [id]) => {
      const org = orgOf(app, id!);
      // Everything is checked before anything changes: a rejected request changes nothing.
      if (body.modules !== undefined) {
        if (!object(body.modules)) throw invalid('body', '/modules', 'must be an object of module: boolean');
        for (const [m, on] of Object.entries(body.modules)) {
          if (!MODULES.includes(m as Module) || typeof on !== 'boolean') throw invalid('body', `/modules/${m}`, `must be one of ${MODULES.join(', ')} with a boolean`);
        }
      }
      if (body.settings !== undefined) {
        if (!object(body.settings)) throw invalid('body', '/settings', 'must be an object');
        onlyFields(body.settings, '/settings', ['currency', 'costTracking', 'unitCostOverrides', 'staging']);
        if (object(body.settings.staging)) onlyFields(body.settings.staging, '/settings/staging', ['kitted', 'staged']);
      }
      if (body.modules !== undefined) for (const [m, on] of Object.entries(body.modules as object)) org.modules[m as Module] = on as boolean;
      if (body.settings !== undefined) {
        const s = body.settings as Record<string, unknown>;
        if (s.currency !== undefined) {
          if (typeof s.currency !== 'string' || !/^[A-Z]{3}$/.test(s.currency)) throw invalid('body', '/settings/currency', 'must be an ISO 4217 code');
          org.settings.currency = s.currency;
        }
        for (const flag of ['costTracking', 'unitCostOverrides'] as const) {
          if (s[flag] !== undefined) {
            if (typeof s[flag] !== 'boolean') throw invalid('body', `/settings/${flag}`, 'must be a boolean');
            org.settings[flag] = s[flag] as boolean;
          }
        }
        if (s.staging !== undefined) {
          if (!object(s.staging)) throw invalid('body', '/settings/staging', 'must be {kitted?, staged?}');
          for (const st of ['kitted', 'staged'] as const) {
            if (s.staging[st] !== undefined) {
              if (typeof s.staging[st] !== 'boolean') throw invalid('body', `/settings/staging/${st}`, 'must be a boolean');
              org.settings.staging[st] = s.staging[st] as boolean;
            }
          }
        }
      }
      return { status: 200, body: orgView(app, org.id) };
    }],
    ['POST', /^\/__mock\/keys$/, ['orgId', 'scopes', 'prefix', 'label'], (app, body) => {
      const org = orgOf(app, boundedString(body.orgId, '/orgId', 64));
      if (body.label !== undefined) boundedString(body.label, '/label', 200);
      const all = loadScopes();
      const scopes = body.scopes === undefined || body.scopes === 'all' ? all : body.scopes;
      if (!Array.isArray(scopes) || scopes.some((s) => !all.includes(s as string))) throw invalid('body', '/scopes', `must be "all" or an array of ${all.join(', ')}`);
      const prefix = body.prefix ?? 'live';
      if (prefix !== 'live' && prefix !== 'test') throw invalid('body', '/prefix', 'must be live or test');
      const secret = `sk_${prefix}_${randomBytes(24).toString('base64url').replace(/[^A-Za-z0-9]/g, '').padEnd(32, '0').slice(0, 32)}`;
      const key = app.world.addKey(secret, { orgId: org.id, label: String(body.label ?? 'minted'), scopes: new Set(scopes as string[]) });
      return { status: 201, body: { id: key.id, secret, orgId: org.id, prefix, scopes } };
    }],
    ['POST', /^\/__mock\/keys\/([^/]+)\/revoke$/, [], (app, _body, [id]) => {
      const key = app.world.keysById.get(id!);
      if (!key) throw new ProblemError(404, 'not_found', `No key ${id}.`);
      key.revokedAt ??= app.world.clock.now();
      return { status: 204 };
    }],
    ['POST', /^\/__mock\/bulk\/work-orders$/, ['count', 'orgId'], (app, body) => {
      const count = body.count;
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_BULK_WORK_ORDERS) {
        throw invalid('body', '/count', `must be an integer from 1 to ${MAX_BULK_WORK_ORDERS}`);
      }
      const org = orgOf(app, body.orgId === undefined ? [...app.world.orgs.keys()][0]! : boundedString(body.orgId, '/orgId', 64));
      if (org.workOrders.all().length + (count as number) > MAX_BULK_TOTAL) throw invalid('body', '/count', `would hold more than ${MAX_BULK_TOTAL} work orders in ${org.id} (reset to start over)`);
      checkBudget(app.world, options.budget, { records: count as number });
      const total = bulkWorkOrders(app.world, org, count as number);
      return { status: 201, body: { orgId: org.id, created: count, workOrders: total } };
    }],
    ['POST', /^\/__mock\/bulk\/readings$/, ['count', 'meterId', 'orgId'], (app, body) => {
      const count = body.count;
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_BULK_WORK_ORDERS) {
        throw invalid('body', '/count', `must be an integer from 1 to ${MAX_BULK_WORK_ORDERS}`);
      }
      const org = orgOf(app, body.orgId === undefined ? [...app.world.orgs.keys()][0]! : boundedString(body.orgId, '/orgId', 64));
      const meter = bulkMeter(org, body.meterId === undefined ? undefined : boundedString(body.meterId, '/meterId', 64));
      if ((org.readings.get(meter.id)?.length ?? 0) + (count as number) > MAX_BULK_TOTAL) throw invalid('body', '/count', `would hold more than ${MAX_BULK_TOTAL} readings of ${meter.id} (reset to start over)`);
      checkBudget(app.world, options.budget, { records: count as number });
      const total = bulkReadings(app.world, org, meter, count as number);
      return { status: 201, body: { orgId: org.id, meterId: meter.id, created: count, readings: total } };
    }],
    ['GET', /^\/__mock\/state$/, [], (app, _body, _params, query) => getState(app, query)],
    ['PUT', /^\/__mock\/state$/, ['format', 'version', 'world', 'organizations'], (app, body) => putState(app, body, options.budget)],
    ['POST', /^\/__mock\/organizations$/, ['id', 'name', 'modules', 'settings', 'currency', 'data', 'keys'], (app, body) => createOrganization(app, body, options.budget)],
    ['GET', /^\/__mock\/faults$/, [], (app) => ({ status: 200, body: app.faults.get() })],
    ['PUT', /^\/__mock\/faults$/, ['latencyMs', 'errorRate', 'errorStatus', 'rateLimitRate', 'dropHeaders', 'pathPattern'], (app, body) => {
      const config = body as FaultConfig;
      for (const rate of ['errorRate', 'rateLimitRate'] as const) {
        if (config[rate] !== undefined && !(typeof config[rate] === 'number' && config[rate]! >= 0 && config[rate]! <= 1)) throw invalid('body', `/${rate}`, 'must be a number from 0 to 1');
      }
      if (config.latencyMs !== undefined && !(typeof config.latencyMs === 'number' && config.latencyMs >= 0 && config.latencyMs <= 60_000)) throw invalid('body', '/latencyMs', 'must be 0..60000');
      if (config.errorStatus !== undefined && ![500, 502, 503].includes(config.errorStatus)) throw invalid('body', '/errorStatus', 'must be 500, 502 or 503');
      if (config.dropHeaders !== undefined && !(Array.isArray(config.dropHeaders) && config.dropHeaders.length <= 50 && config.dropHeaders.every((h) => typeof h === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(h)))) throw invalid('body', '/dropHeaders', 'must be an array of at most 50 header names');
      if (config.pathPattern !== undefined) {
        boundedString(config.pathPattern, '/pathPattern', 200);
        try {
          new RegExp(config.pathPattern);
        } catch {
          throw invalid('body', '/pathPattern', 'must be a regular expression');
        }
      }
      app.faults.set(config);
      return { status: 200, body: app.faults.get() };
    }],
    ['DELETE', /^\/__mock\/faults$/, [], (app) => {
      app.faults.set({});
      return { status: 204 };
    }],
  ];
}

/** Decodes a path segment; malformed percent-encoding is a 400. */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalid('path', raw, 'is not valid percent-encoding');
  }
}

/**
 * The control API's request handler for `app`: it answers every `/__mock/` path (an unknown one with
 * 404 problem details naming the control API) and returns true.
 */
export function controlApi(app: ServedApp, options: ControlOptions) {
  const table = routes(options);
  return (req: IncomingMessage, res: ServerResponse, path: string, requestId: string): boolean => {
    const respond = (status: number, body?: unknown) => {
      if (body instanceof StreamedJson) {
        res.writeHead(status, { 'X-Request-ID': requestId, 'Content-Type': 'application/json' });
        return body.pipe(res);
      }
      const text = body === undefined ? undefined : JSON.stringify(body);
      write(res, status, { 'X-Request-ID': requestId, ...(text !== undefined ? { 'Content-Type': 'application/json' } : {}) }, text);
    };
    const fail = (e: unknown) => {
      req.resume();
      if (!(e instanceof ProblemError)) process.stderr.write(`mock: unexpected control error: ${(e as Error)?.stack ?? String(e)}\n`);
      writeOutgoing(res, failure(requestId, e instanceof ProblemError ? e : new ProblemError(500, 'internal_error', 'The control API failed unexpectedly; see the mock\'s log.')));
    };
    const refused = options.guard(req);
    if (refused) {
      fail(refused);
      return true;
    }
    const hit = table.map(([method, re, fields, route]) => ({ method, m: re.exec(path), fields, route })).filter((r) => r.m);
    if (hit.length === 0) {
      fail(new ProblemError(404, 'not_found', `${path} is no path of the mock's control API (/__mock/: health, profile, reset, clock, orgs, keys, faults, bulk/work-orders, bulk/readings, state, organizations).`));
      return true;
    }
    const found = hit.find((r) => r.method === req.method);
    if (!found) {
      fail(new ProblemError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`, {}, { Allow: hit.map((h) => h.method).join(', ') }));
      return true;
    }
    readBody(req, path === '/__mock/state' ? STATE_MAX_BODY_BYTES : CONTROL_MAX_BODY_BYTES)
      .then((raw) => {
        const body = raw.length ? parseJson(raw) : {};
        if (!object(body)) throw invalid('body', '/', 'must be a JSON object');
        onlyFields(body, '', found.fields);
        const query = new URLSearchParams(req.url!.includes('?') ? req.url!.slice(req.url!.indexOf('?') + 1) : '');
        const run = () => found.route(app, body, found.m!.slice(1).map(segment), query);
        return options.persist ? options.persist(controlEffect(req.method!, path, body), run) : run();
      })
      .then((out) => respond(out.status, out.body))
      .catch(fail);
    return true;
  };
}

/** The largest control request body: 1 MiB (a reset's organizations). */
export const CONTROL_MAX_BODY_BYTES = 1024 * 1024;
