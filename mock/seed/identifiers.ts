/** Identifiers of assets, locations and parts. */
import type { Seeder } from './context.ts';

export const seedIdentifiers: Seeder = () => {};
