/** Parts sections of work orders, in every part status. */
import type { Seeder } from './context.ts';

export const seedPartsSections: Seeder = () => {};
