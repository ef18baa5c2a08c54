/** Cursor expiry (Limits › Pagination: cursors are short-lived; the 15-minute lifetime is inferred). */
import { test, expect } from '../fixtures.ts';
import { runSeriallyOnce } from './serial-only.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { advanceClock } from '../lib/control.ts';
import { notAssessed } from '../lib/needs.ts';
import type { MeterList } from '../lib/api-types.ts';

runSeriallyOnce();

test('an expired cursor answers 400 validation_error', { tag: ['@PAGE-023'] }, async ({ api, profile, request }) => {
  const first = await api.get<MeterList>('/meters', { query: { limit: 1 } });
  const cursor = first.body.meta.pagination.cursor;
  expect((await api.get('/meters', { query: { limit: 1, cursor } })).status).toBe(200);
  if (!(await advanceClock(request, profile, 16 * 60))) notAssessed('the profile has no control API to move the clock past the cursor lifetime');
  expectProblem(await api.get('/meters', { query: { limit: 1, cursor } }), 400, 'validation_error');
});
