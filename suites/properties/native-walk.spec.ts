/**
 * Property: walking a native list with any page size and direction returns every record exactly once,
 * in order (Limits › Pagination; Endpoints: limit 1..100, direction). Records other tests add during the
 * walk are left out of the comparison; the reference is a walk of 100-record pages. Page sizes run from
 * a quarter of the reference to one less than it (within 1..100): every walk reads two to four pages (more
 * when other tests add meters meanwhile), so each crosses page boundaries in its direction, and no walk
 * costs a request per handful of meters; the smallest sizes are proved by conformance/pagination.spec.ts.
 */
import type { RequirementId } from '../../contract/catalog.ts';
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/meters.ts';
import { assertProperty, fc } from '../lib/property.ts';
import { walkPages } from '../lib/walk-pages.ts';
import type { Meter } from '../lib/api-types.ts';

/** Fewest meters the walks compare: fewer in the reference, and the test creates three first. */
const FEWEST = 3;

test('walking /meters with random limit and direction returns every meter once, in order', { tag: ['@PAGE-005', '@PAGE-006', '@PAGE-002'] }, async ({ api, meters }) => {
  const walkReference = async () => (await walkPages<Meter>(api, '/meters', { limit: 100, direction: 'asc' })).items.map((m) => m.id);
  let reference = await walkReference();
  if (reference.length < FEWEST) {
    for (let i = 0; i < FEWEST; i++) await meters.create();
    reference = await walkReference();
  }
  const max = Math.max(1, Math.min(100, reference.length - 1));
  const min = Math.min(max, Math.ceil(reference.length / 4));
  await assertProperty(
    fc.asyncProperty(fc.integer({ min, max }), fc.constantFrom('asc', 'desc'), async (limit, direction) => {
      const rules: RequirementId[] = direction === 'asc' ? ['PAGE-005'] : ['PAGE-005', 'PAGE-006'];
      const walked = (await walkPages<Meter>(api, '/meters', { limit, direction }, rules)).items.map((m) => m.id);
      expect(new Set(walked).size, proves(rules, 'no meter twice')).toBe(walked.length);
      const known = walked.filter((id) => reference.includes(id));
      expect(known, proves(rules, 'every meter of the reference, in order')).toEqual(direction === 'asc' ? reference : [...reference].reverse());
    }),
    4,
  );
});
