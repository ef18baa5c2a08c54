/** What each family's seeder receives: the organization to fill, a seeded random source, its size. */
import type { Org } from '../store/org.ts';
import type { World } from '../store/world.ts';
import type { Random } from '../store/random.ts';

/** full: the main organization's realistic plant; small: a second organization; fixtures: only what its role needs. */
export type SeedSize = 'full' | 'small' | 'fixtures';

export interface SeedContext {
  world: World;
  org: Org;
  random: Random;
  size: SeedSize;
  /** The organization's role in organizations.yaml (main, otherOrg, moduleDisabled.meters, ...). */
  role: string;
  /** An ISO date-time `days` (fractional) before now. */
  ago(days: number): string;
  /** Records a fixture id for the target profile (spec/target-profile.schema.json `fixtures`). */
  fixture(name: string, value: unknown): void;
  /** A count in [min, max] for this size: full gets the range, small about a fifth, fixtures `fixtures`. */
  volume(min: number, max: number, small?: number, fixtures?: number): number;
}

export type Seeder = (ctx: SeedContext) => void;
