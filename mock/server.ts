/**
 * Starting and stopping the mock (docs/design.md §4): `startMock({ port: 0 })` in-process for tests, or
 * through mock/main.ts (`npm run mock`). The server's limits (docs/integrators.md): headers within 10 s,
 * a whole request within 30 s (else 408), at most 512 connections at once (more are closed).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockApp } from './app.ts';
import { FaultInjector } from './control/faults.ts';
import { controlApi } from './control/routes.ts';
import type { ServedApp } from './control/served.ts';
import { DEFAULT_BUDGET, type MockBudget } from './control/budget.ts';
import { controlGuard, isLoopbackAddress, newControlToken } from './control/guard.ts';
import { invalid } from './http/problem.ts';
import { alterationHooks, alterationOptions } from './hooks/attach.ts';
import { journalFromEnv, journalOf, type JournalOptions } from './journal/attach.ts';
import { journalControl, type JournalSwitch } from './journal/control.ts';
import { buildProfile, type ProfileJson } from './profile.ts';
import { DEFAULT_SEED, buildWorld } from './seed/build.ts';
import { loadOrganizations, type OrgFixture } from './seed/fixtures-file.ts';
import type { Alteration } from './hooks/alteration.ts';
import { openStateStore, readStateFile, worldOfDocument } from './state/open.ts';
import type { World } from './store/world.ts';

export interface MockOptions {
  /** TCP port; 0 picks a free one. Default 4010. */
  port?: number;
  host?: string;
  seed?: number;
  /** Serve the control API under /__mock/ (default true). */
  control?: boolean;
  /** CORS on the API, never on the control API (default true; mock/pipeline/cors.ts). */
  cors?: boolean;
  /**
   * The control API's token (default: a random one per process). Required to serve the control API on
   * a non-loopback `host`: without it startMock rejects.
   */
  controlToken?: string;
  /** The public origin absolute URLs (`nextPageUrl`) are built from (default: the bound `http://host:port`). */
  publicUrl?: string;
  /** A deliberate deviation from the API (mock/mutants, the self-test's mutants); none by default. */
  mutation?: Alteration;
  /**
   * Where the state lives (mock/state/open.ts): `memory` (the default), a SQLite file path, or a
   * `postgres://…` URL (replicas).
   */
  state?: string;
  /** A state document (spec/mock-state.schema.json) to start from; a persistent store uses it only when empty. */
  seedFile?: string;
  /**
   * Load Prism (the `Prefer` fallback, about a second of CPU, in its own worker thread: prism/thread.ts)
   * right after start (default true), so the first `Prefer` request waits for nothing. false: it loads
   * on the first request that needs it, or when `prismLoaded` is read (the embedded mock of a
   * conformance run: the suite sends no `Prefer` request, and the runner's start-up has better use for
   * that second).
   */
  preloadPrism?: boolean;
  /** The process-wide budget of records and organizations (mock/control/budget.ts; default DEFAULT_BUDGET). */
  budget?: Partial<MockBudget>;
  /**
   * The request journal (mock/journal/, docs/integrators.md "The request journal"): off by default (or
   * as `MMS_MOCK_JOURNAL` says); `{enabled: true}` records every API exchange. Needs the control API.
   */
  journal?: JournalOptions;
}

export interface RunningMock {
  /** `http://host:port` */
  url: string;
  /** The API base, `http://host:port/v1`. */
  baseUrl: string;
  /** The target profile of this mock (unresolved: secrets are literal; `control.token` when control is on). */
  profile: ProfileJson;
  /** The control API's token; undefined when the control API is off. */
  controlToken?: string;
  /** The request journal, undefined when the control API is off. */
  journal?: JournalSwitch;
  /** How the state is kept (`memory`, `file PATH`, `postgres HOST/DB`) and whether it was loaded from the store. */
  state: { description: string; loaded: boolean };
  /** Settles once Prism (the `Prefer` fallback) has loaded: in the background after start, or (`preloadPrism: false`) from the first read of it. */
  readonly prismLoaded: Promise<void>;
  app: ServedApp;
  server: Server;
  stop(): Promise<void>;
}

export type { ServedApp };

/** The most connections the mock holds open at once. */
export const MAX_CONNECTIONS = 512;

/**
 * Starts the mock; rejects (with the listen error, e.g. EADDRINUSE) when the port cannot be bound, and
 * with code `ECONTROLTOKEN` when the control API would listen on a non-loopback host without a token.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const control = options.control !== false;
  const loopback = isLoopbackAddress(host);
  if (control && !loopback && options.controlToken === undefined) {
    throw Object.assign(new Error(`--host ${host} is not a loopback address: the control API needs --control-token T there (or turn it off with --no-control)`), { code: 'ECONTROLTOKEN' });
  }
  const publicUrl = options.publicUrl === undefined ? undefined : publicOrigin(options.publicUrl);
  let seed = options.seed ?? DEFAULT_SEED;
  let organizations: OrgFixture[] = loadOrganizations();
  const mutation = options.mutation;
  const seedDoc = options.seedFile === undefined ? undefined : readStateFile(options.seedFile);
  const seeded = () => buildWorld(seed, undefined, organizations);
  const initial = () => (seedDoc ? worldOfDocument(seedDoc, seeded) : seeded());
  const store = options.state === undefined ? undefined : await openStateStore(options.state);
  let loaded = false;
  let first: World | undefined;
  try {
    if (store) ({ world: first, loaded } = await store.open(initial));
    else if (seedDoc) first = initial();
  } catch (e) {
    await store?.close();
    throw Object.assign(new Error((e as Error).message), { code: 'ESTATE' });
  }
  const built = new MockApp({
    buildWorld: () => {
      const world = first ?? seeded();
      first = undefined;
      return world;
    },
    cors: options.cors,
    ...(store && { stages: (defaults, tools) => store.stages(defaults, tools) }),
    ...(mutation && alterationOptions(mutation)),
  });
  // Faults first: their dropped headers apply before a mutant's response hook sees the response.
  const app: ServedApp = Object.assign(built, { faults: new FaultInjector((hooks) => built.extend('faults', hooks)) });
  app.extend('faults', {});
  if (mutation) app.extend('alteration', alterationHooks(mutation));
  // The app answers what node:http would otherwise answer itself, without problem details.
  const server = createServer({ keepAliveTimeout: 30_000, requireHostHeader: false, requestTimeout: 30_000, headersTimeout: 10_000, connectionsCheckingInterval: 2_000 }, app.handle);
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', app.clientError);
  server.on('connect', app.connect);
  server.on('checkExpectation', app.expectation);
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error) => {
      store?.close().catch(() => undefined);
      reject(e);
    };
    server.once('error', failed);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  app.origin = publicUrl ?? url;
  const controlToken = control ? (options.controlToken ?? newControlToken()) : undefined;
  const builtProfile = () => buildProfile(app.world, `${url}/v1`, controlToken === undefined ? undefined : { baseUrl: `${url}/__mock`, token: controlToken });
  const profile = mutation?.profile ? () => mutation.profile!(builtProfile()) : builtProfile;
  let journal: JournalSwitch | undefined;
  if (controlToken !== undefined) {
    const guard = controlGuard(controlToken, !loopback);
    journal = journalOf(app, options.journal ?? journalFromEnv());
    app.control = journalControl(journal, guard, controlApi(app, {
      rebuild(newSeed, orgs) {
        // The new world is built first: a failure leaves the current one (and seed, organizations) intact.
        let world;
        try {
          world = buildWorld(newSeed ?? seed, undefined, orgs ?? organizations);
        } catch (e) {
          throw invalid('body', orgs ? '/organizations' : '/seed', `cannot build a world from it: ${(e as Error).message}`);
        }
        app.reset(world);
        if (newSeed !== undefined) seed = newSeed;
        if (orgs !== undefined) organizations = orgs;
      },
      guard,
      budget: { ...DEFAULT_BUDGET, ...options.budget },
      ...(store && { persist: (effect, run) => store.control(app, effect, run) }),
      profile,
      seed: () => seed,
    }));
  }
  // Prism loads now, in its thread: the first `Prefer` request does not wait a second for it.
  if (options.preloadPrism !== false) void app.preloadPrism();
  return {
    url,
    baseUrl: `${url}/v1`,
    controlToken,
    journal,
    state: { description: store?.description ?? 'memory', loaded },
    get prismLoaded() {
      return app.preloadPrism();
    },
    get profile() {
      return profile();
    },
    app,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => (store ? store.close().then(resolve, resolve) : resolve()));
      }),
  };
}

/** The origin of a `--public-url` (`http(s)://host[:port]`, nothing after it); throws a one-line Error otherwise. */
export function publicOrigin(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`--public-url ${value} is not a URL`);
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.username || parsed.password || parsed.search || parsed.hash || !/^\/?$/.test(parsed.pathname)) {
    throw new Error(`--public-url ${value} must be http(s)://host[:port] with nothing after it`);
  }
  return parsed.origin;
}
