/**
 * The target profile of a running mock (docs/design.md §3): its keys by role from
 * fixtures/seed/organizations.yaml and the fixture ids its seeders recorded. fixtures/targets/mock.json
 * is this profile for the default seed and port; a test keeps the two equal.
 */
import type { World } from './store/world.ts';
import { loadOrganizations } from './seed/fixtures-file.ts';

export type ProfileJson = Record<string, unknown> & { baseUrl: string; keys: Record<string, unknown>; fixtures: Record<string, unknown> };

function put(target: Record<string, unknown>, role: string, secret: string): void {
  const dot = role.indexOf('.');
  if (dot === -1) {
    if (role === 'live') (target.live as string[] | undefined) ? (target.live as string[]).push(secret) : (target.live = [secret]);
    else target[role] = secret;
    return;
  }
  const group = (target[role.slice(0, dot)] ??= {}) as Record<string, string>;
  group[role.slice(dot + 1)] = secret;
}

/**
 * The profile of a mock whose API base is `baseUrl` (`http://host:port/v1`); `control` is its control
 * API (base URL and token) when on.
 */
export function buildProfile(world: World, baseUrl: string, control?: { baseUrl: string; token: string }): ProfileJson {
  const keys: Record<string, unknown> = {};
  for (const org of loadOrganizations()) for (const key of org.keys) put(keys, key.role, key.secret);
  const profile: ProfileJson = {
    $schema: '../../spec/target-profile.schema.json',
    name: 'Reference mock',
    baseUrl,
    keys,
    fixtures: { ...world.fixtures },
  };
  if (control) profile.control = { ...control };
  return profile;
}
