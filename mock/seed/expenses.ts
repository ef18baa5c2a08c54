/** Expense entries of work orders. */
import type { Seeder } from './context.ts';

export const seedExpenses: Seeder = () => {};
