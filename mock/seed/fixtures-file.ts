/** fixtures/seed/organizations.yaml: the organizations, their modules, settings and demo keys. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../contract/paths.ts';
import type { Module } from '../../contract/openapi.ts';
import type { OrgSettings } from '../store/types.ts';
import type { SeedSize } from './context.ts';

export const ORGANIZATIONS_FILE = resolve(ROOT, 'fixtures', 'seed', 'organizations.yaml');

export interface KeyFixture {
  /** Target-profile role this key provides (`live`, `scopes.meters:read`, `rateLimit.test`, ...). */
  role: string;
  label: string;
  secret: string;
  scopes: 'all' | string[];
  revoked?: boolean;
  expired?: boolean;
}

export interface OrgFixture {
  id: string;
  name: string;
  role: string;
  data: SeedSize;
  modules: Record<Module, boolean>;
  settings: OrgSettings;
  keys: KeyFixture[];
}

let cached: OrgFixture[] | undefined;

/** The organizations of the seed (parsed once). */
export function loadOrganizations(file = ORGANIZATIONS_FILE): OrgFixture[] {
  if (cached && file === ORGANIZATIONS_FILE) return cached;
  const orgs = (parse(readFileSync(file, 'utf8')) as { organizations: OrgFixture[] }).organizations;
  if (file === ORGANIZATIONS_FILE) cached = orgs;
  return orgs;
}
