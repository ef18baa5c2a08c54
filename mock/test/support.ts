/**
 * A mock for unit tests that talk HTTP to it: started on a free port, with its first live key and a
 * `call(path, init)` that sends that key (`path` from the server root: `/v1/meters`, `/__mock/clock`).
 */
import { startMock, type MockOptions, type RunningMock } from '../server.ts';
import { CONTROL_TOKEN_HEADER } from '../control/guard.ts';

/** `fetch` of a control-API path (`/__mock/...`) of `mock` with its token and, for a body, `application/json`. */
export function controlFetch(mock: Pick<RunningMock, 'url' | 'controlToken'>, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = { [CONTROL_TOKEN_HEADER]: mock.controlToken ?? '', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string>) };
  return fetch(`${mock.url}${path}`, { ...init, headers, signal: AbortSignal.timeout(5000) });
}

export interface TestMock {
  mock: RunningMock;
  /** The main organization's first live key (full scopes). */
  key: string;
  /** `fetch` with `Authorization: Bearer <key>` (overridable through `init.headers`) and a 5 s timeout; `/__mock/` paths get the control token too. */
  call(path: string, init?: RequestInit): Promise<Response>;
}

export async function startTestMock(options: MockOptions = {}): Promise<TestMock> {
  const mock = await startMock({ port: 0, ...options });
  const key = (mock.profile.keys as { live: string[] }).live[0]!;
  const call = (path: string, init: RequestInit = {}) =>
    path.startsWith('/__mock/') ? controlFetch(mock, path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } }) : fetch(`${mock.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(5000) });
  return { mock, key, call };
}
