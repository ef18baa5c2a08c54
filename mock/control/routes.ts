/**
 * The control API (design.md §4), outside `/v1`, under `/__mock/`: reset to the seed or load another
 * fixture set, read the target profile, mint and revoke keys, toggle modules and organization settings,
 * advance the clock, inject faults, and (for benchmarks only) bulk-load work orders (bulk.ts). Turned
 * off with `--no-control`. Errors are problem details.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MODULES, loadScopes, type Module } from '../../contract/openapi.ts';
import type { ServedApp } from '../server.ts';
import { parseJson, readBody } from '../http/body.ts';
import { failure, write } from '../http/send.ts';
import { ProblemError, invalid } from '../http/problem.ts';
import type { OrgFixture } from '../seed/fixtures-file.ts';
import type { FaultConfig } from './faults.ts';
import { MAX_BULK_WORK_ORDERS, bulkWorkOrders } from './bulk.ts';

export interface ControlOptions {
  /** Rebuilds the world with another seed and/or organizations. */
  rebuild(seed?: number, organizations?: OrgFixture[]): void;
  /** The current target profile. */
  profile(): unknown;
  seed(): number;
}

type Route = (app: ServedApp, body: Record<string, unknown>, params: string[]) => { status: number; body?: unknown };

const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function orgOf(app: ServedApp, id: string) {
  const org = app.world.orgs.get(id);
  if (!org) throw new ProblemError(404, 'not_found', `No organization ${id}.`);
  return org;
}

function orgView(app: ServedApp, id: string) {
  const org = orgOf(app, id);
  return { id: org.id, name: org.name, modules: org.modules, settings: org.settings };
}

function routes(options: ControlOptions): Array<[string, RegExp, Route]> {
  return [
    ['GET', /^\/__mock\/health$/, (app) => ({ status: 200, body: { ok: true, seed: options.seed(), now: app.world.clock.iso() } })],
    ['GET', /^\/__mock\/profile$/, () => ({ status: 200, body: options.profile() })],
    ['POST', /^\/__mock\/reset$/, (_app, body) => {
      if (body.seed !== undefined && !Number.isInteger(body.seed)) throw invalid('body', '/seed', 'must be an integer');
      if (body.organizations !== undefined && !Array.isArray(body.organizations)) throw invalid('body', '/organizations', 'must be an array of organizations');
      options.rebuild(body.seed as number | undefined, body.organizations as OrgFixture[] | undefined);
      return { status: 200, body: { seed: options.seed() } };
    }],
    ['GET', /^\/__mock\/clock$/, (app) => ({ status: 200, body: { now: app.world.clock.iso(), advancedSeconds: app.world.clock.advancedMs / 1000 } })],
    ['POST', /^\/__mock\/clock\/advance$/, (app, body) => {
      if (typeof body.seconds !== 'number' || !(body.seconds > 0)) throw invalid('body', '/seconds', 'must be a positive number');
      app.world.clock.advance(body.seconds * 1000);
      return { status: 200, body: { now: app.world.clock.iso(), advancedSeconds: app.world.clock.advancedMs / 1000 } };
    }],
    ['GET', /^\/__mock\/orgs$/, (app) => ({ status: 200, body: [...app.world.orgs.keys()].map((id) => orgView(app, id)) })],
    ['PATCH', /^\/__mock\/orgs\/([^/]+)$/, (app, body, [id]) => {
      const org = orgOf(app, id!);
      if (body.modules !== undefined) {
        if (!object(body.modules)) throw invalid('body', '/modules', 'must be an object of module: boolean');
        for (const [m, on] of Object.entries(body.modules)) {
          if (!MODULES.includes(m as Module) || typeof on !== 'boolean') throw invalid('body', `/modules/${m}`, `must be one of ${MODULES.join(', ')} with a boolean`);
          org.modules[m as Module] = on;
        }
      }
      if (body.settings !== undefined) {
        if (!object(body.settings)) throw invalid('body', '/settings', 'must be an object');
        const s = body.settings;
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
    ['POST', /^\/__mock\/keys$/, (app, body) => {
      const org = orgOf(app, String(body.orgId));
      const all = loadScopes();
      const scopes = body.scopes === undefined || body.scopes === 'all' ? all : body.scopes;
      if (!Array.isArray(scopes) || scopes.some((s) => !all.includes(s as string))) throw invalid('body', '/scopes', `must be "all" or an array of ${all.join(', ')}`);
      const prefix = body.prefix ?? 'live';
      if (prefix !== 'live' && prefix !== 'test') throw invalid('body', '/prefix', 'must be live or test');
      const secret = `sk_${prefix}_${randomBytes(24).toString('base64url').replace(/[^A-Za-z0-9]/g, '').padEnd(32, '0').slice(0, 32)}`;
      const key = app.world.addKey(secret, { orgId: org.id, label: String(body.label ?? 'minted'), scopes: new Set(scopes as string[]) });
      return { status: 201, body: { id: key.id, secret, orgId: org.id, prefix, scopes } };
    }],
    ['POST', /^\/__mock\/keys\/([^/]+)\/revoke$/, (app, _body, [id]) => {
      const key = app.world.keysById.get(id!);
      if (!key) throw new ProblemError(404, 'not_found', `No key ${id}.`);
      key.revokedAt ??= app.world.clock.now();
      return { status: 204 };
    }],
    ['POST', /^\/__mock\/bulk\/work-orders$/, (app, body) => {
      const count = body.count;
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_BULK_WORK_ORDERS) {
        throw invalid('body', '/count', `must be an integer from 1 to ${MAX_BULK_WORK_ORDERS}`);
      }
      const org = orgOf(app, body.orgId === undefined ? [...app.world.orgs.keys()][0]! : String(body.orgId));
      const total = bulkWorkOrders(app.world, org, count as number);
      return { status: 201, body: { orgId: org.id, created: count, workOrders: total } };
    }],
    ['GET', /^\/__mock\/faults$/, (app) => ({ status: 200, body: app.faults.get() })],
    ['PUT', /^\/__mock\/faults$/, (app, body) => {
      const config = body as FaultConfig;
      for (const rate of ['errorRate', 'rateLimitRate'] as const) {
        if (config[rate] !== undefined && !(typeof config[rate] === 'number' && config[rate]! >= 0 && config[rate]! <= 1)) throw invalid('body', `/${rate}`, 'must be a number from 0 to 1');
      }
      if (config.latencyMs !== undefined && !(typeof config.latencyMs === 'number' && config.latencyMs >= 0 && config.latencyMs <= 60_000)) throw invalid('body', '/latencyMs', 'must be 0..60000');
      if (config.errorStatus !== undefined && ![500, 502, 503].includes(config.errorStatus)) throw invalid('body', '/errorStatus', 'must be 500, 502 or 503');
      if (config.dropHeaders !== undefined && !(Array.isArray(config.dropHeaders) && config.dropHeaders.every((h) => typeof h === 'string'))) throw invalid('body', '/dropHeaders', 'must be an array of header names');
      if (config.pathPattern !== undefined) {
        try {
          new RegExp(config.pathPattern);
        } catch {
          throw invalid('body', '/pathPattern', 'must be a regular expression');
        }
      }
      app.faults.set(config);
      return { status: 200, body: app.faults.get() };
    }],
    ['DELETE', /^\/__mock\/faults$/, (app) => {
      app.faults.set({});
      return { status: 204 };
    }],
  ];
}

/** The control API's request handler for `app`. */
export function controlApi(app: ServedApp, options: ControlOptions) {
  const table = routes(options);
  return (req: IncomingMessage, res: ServerResponse, path: string, requestId: string): boolean => {
    const hit = table.map(([method, re, route]) => ({ method, m: re.exec(path), route })).filter((r) => r.m);
    if (hit.length === 0) return false;
    const found = hit.find((r) => r.method === req.method);
    const respond = (status: number, body?: unknown) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      write(res, { status, headers: { 'X-Request-ID': requestId, ...(text !== undefined ? { 'Content-Type': 'application/json' } : {}) }, body: text });
    };
    const fail = (e: unknown) => {
      const problem = e instanceof ProblemError ? e : new ProblemError(500, 'internal_error', (e as Error).message);
      write(res, failure(requestId, problem));
    };
    if (!found) {
      req.resume();
      fail(new ProblemError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`, {}, { Allow: hit.map((h) => h.method).join(', ') }));
      return true;
    }
    readBody(req)
      .then((raw) => {
        const body = raw.length ? parseJson(raw) : {};
        if (!object(body)) throw invalid('body', '/', 'must be a JSON object');
        const out = found.route(app, body, found.m!.slice(1).map(decodeURIComponent));
        respond(out.status, out.body);
      })
      .catch(fail);
    return true;
  };
}
