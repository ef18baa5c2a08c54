/** Parts stocked at locations (Resources › Part; stock behind the parts section). */
import type { Seeder } from './context.ts';

export const seedParts: Seeder = () => {};
