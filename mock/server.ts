/**
 * Starting and stopping the mock (design.md §4): `startMock({ port: 0 })` in-process for tests, or
 * through mock/main.ts (`npm run mock`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockApp } from './app.ts';
import { FaultInjector } from './control/faults.ts';
import { controlApi } from './control/routes.ts';
import { mutantHooks, mutantOptions } from './mutants/attach.ts';
import { buildProfile, type ProfileJson } from './profile.ts';
import { DEFAULT_SEED, buildWorld } from './seed/build.ts';
import { loadOrganizations, type OrgFixture } from './seed/fixtures-file.ts';
import type { Mutation } from './mutants/mutation.ts';

export interface MockOptions {
  /** TCP port; 0 picks a free one. Default 4010. */
  port?: number;
  host?: string;
  seed?: number;
  /** Serve the control API under /__mock/ (default true). */
  control?: boolean;
  /** A deliberate deviation from the API (mock/mutants, the self-test's mutants); none by default. */
  mutation?: Mutation;
}

export interface RunningMock {
  /** `http://host:port` */
  url: string;
  /** The API base, `http://host:port/v1`. */
  baseUrl: string;
  /** The target profile of this mock (unresolved: secrets are literal). */
  profile: ProfileJson;
  app: ServedApp;
  server: Server;
  stop(): Promise<void>;
}

/** The app as served: with the faults the control API injects (they attach to it as hooks). */
export type ServedApp = MockApp & { readonly faults: FaultInjector };

/** Starts the mock; rejects (with the listen error, e.g. EADDRINUSE) when the port cannot be bound. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  let seed = options.seed ?? DEFAULT_SEED;
  let organizations: OrgFixture[] = loadOrganizations();
  const mutation = options.mutation;
  const built = new MockApp({ buildWorld: () => buildWorld(seed, undefined, organizations), ...(mutation && mutantOptions(mutation)) });
  // Faults first: their dropped headers apply before a mutant's response hook sees the response.
  const app: ServedApp = Object.assign(built, { faults: new FaultInjector((hooks) => built.extend('faults', hooks)) });
  app.extend('faults', {});
  if (mutation) app.extend('mutant', mutantHooks(mutation));
  // The app answers what node:http would otherwise answer itself, without problem details.
  const server = createServer({ keepAliveTimeout: 30_000, requireHostHeader: false }, app.handle);
  server.on('clientError', app.clientError);
  server.on('connect', app.connect);
  server.on('checkExpectation', app.expectation);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const control = options.control !== false;
  const built0 = () => buildProfile(app.world, `${url}/v1`, control ? `${url}/__mock` : undefined);
  const profile = mutation?.profile ? () => mutation.profile!(built0()) : built0;
  if (control) {
    app.control = controlApi(app, {
      rebuild(newSeed, orgs) {
        if (newSeed !== undefined) seed = newSeed;
        if (orgs !== undefined) organizations = orgs;
        app.reset();
      },
      profile,
      seed: () => seed,
    });
  }
  return {
    url,
    baseUrl: `${url}/v1`,
    get profile() {
      return profile();
    },
    app,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
