/** Request portals. */
import type { Seeder } from './context.ts';

export const seedPortals: Seeder = () => {};
