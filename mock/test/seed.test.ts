/** The seeded world: deterministic per seed, different across seeds; fixtures/targets/mock.json matches it. */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { buildWorld, DEFAULT_SEED } from '../seed/build.ts';
import { buildProfile } from '../profile.ts';
import { CONTROL_TOKEN_ENV } from '../control/guard.ts';

const ids = (seed: number) => [...buildWorld(seed).orgs.values()].flatMap((o) => o.meters.all().map((m) => m.id));

test('the same seed builds the same world; another seed another one', () => {
  expect(ids(7)).toEqual(ids(7));
  const [a, b] = [ids(7), ids(8)];
  expect(a).not.toEqual(b);
  expect(a.filter((id) => b.includes(id))).toEqual([]);
});

test('fixtures/targets/mock.json is the profile of the default seed on port 4010', () => {
  const expected = buildProfile(buildWorld(DEFAULT_SEED), 'http://127.0.0.1:4010/v1', { baseUrl: 'http://127.0.0.1:4010/__mock', token: `env:${CONTROL_TOKEN_ENV}` });
  expect(JSON.parse(readFileSync('fixtures/targets/mock.json', 'utf8')), 'fixtures/targets/mock.json is stale: run npm run fixtures:profile').toEqual(JSON.parse(JSON.stringify(expected)));
});

test('the main organization has a realistic plant: hierarchy, meters with readings, equal reading times', () => {
  const org = buildWorld(DEFAULT_SEED).orgs.get('org_acme')!;
  const locations = org.locations.all();
  expect(locations.some((l) => l.data.parentId !== null)).toBe(true);
  for (const l of locations.filter((x) => x.data.parentId)) expect(org.locations.get(l.data.parentId!)!.data.parentId).toBeNull();
  expect(org.assets.all().some((a) => a.data.parent_asset_id !== null)).toBe(true);
  expect(org.meters.visibleCount).toBeGreaterThan(20);
  const readings = [...org.readings.values()].flat();
  expect(readings.length).toBeGreaterThan(100);
  expect([...org.readings.values()].some((rs) => rs.some((r, i) => i > 0 && r.at === rs[i - 1]!.at))).toBe(true);
});
