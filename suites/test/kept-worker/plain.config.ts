/**
 * The same run as kept-worker.config.ts without the restoring reporter (suites/lib/kept-failure.ts): the
 * suite's fixture then leaves Playwright's default alone, and every failure recycles the worker.
 */
import { defineConfig } from '@playwright/test';
import kept from './kept-worker.config.ts';

export default defineConfig({ ...kept, reporter: [['list'], ['json'], ['junit']] });
