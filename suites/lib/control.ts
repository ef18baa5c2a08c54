/**
 * The mock's control API, when the profile offers it (`control.baseUrl`): tests that need to move time
 * use it (sending its token, `control.token`), and otherwise wait in real time or are not assessed (docs/design.md §3).
 */
import { expect, type APIRequestContext } from '@playwright/test';
import type { TargetProfile } from '../../contract/profile.ts';

/** The header that carries the control token (mock/control/guard.ts). */
export const CONTROL_TOKEN_HEADER = 'X-Mock-Control-Token';

/** The headers every control request sends: the profile's control token. */
export function controlHeaders(control: NonNullable<TargetProfile['control']>): Record<string, string> {
  return { [CONTROL_TOKEN_HEADER]: control.token };
}

/** Advances the target's clock by `seconds`; returns false when the profile has no control API. */
export async function advanceClock(request: APIRequestContext, profile: TargetProfile, seconds: number): Promise<boolean> {
  if (!profile.control) return false;
  const r = await request.post(`${profile.control.baseUrl}/clock/advance`, { data: { seconds }, headers: controlHeaders(profile.control) });
  expect(r.status(), 'control API: advance the clock').toBe(200);
  return true;
}

/** The target's now in epoch ms: its control API's clock when offered, else this machine's. */
export async function targetNow(request: APIRequestContext, profile: TargetProfile): Promise<number> {
  if (!profile.control) return Date.now();
  const r = await request.get(`${profile.control.baseUrl}/clock`, { headers: controlHeaders(profile.control) });
  expect(r.status(), 'control API: read the clock').toBe(200);
  return Date.parse(((await r.json()) as { now: string }).now);
}
