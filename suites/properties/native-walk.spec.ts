/**
 * Property: walking a native list with any page size and direction returns every record exactly once,
 * in order (Limits › Pagination; Endpoints: limit 1..100, direction). Records other tests add during the
 * walk are left out of the comparison; the reference is a walk of 100-record pages. Page sizes start at
 * 10: a walk of one-record pages costs a request per meter, and the smallest sizes are proved by
 * conformance/pagination.spec.ts.
 */
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/meters.ts';
import { fc, propertyParameters } from '../lib/property.ts';
import { walkPages } from '../lib/walk-pages.ts';

test('walking /meters with random limit and direction returns every meter once, in order', { tag: ['@PAGE-005', '@PAGE-006', '@PAGE-002'] }, async ({ api, meters }) => {
  for (let i = 0; i < 3; i++) await meters.create();
  const reference = (await walkPages(api, '/meters', { limit: 100, direction: 'asc' })).items.map((m) => m.id);
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 10, max: 100 }), fc.constantFrom('asc', 'desc'), async (limit, direction) => {
      const rules = direction === 'asc' ? ['PAGE-005'] : ['PAGE-005', 'PAGE-006'];
      const walked = (await walkPages(api, '/meters', { limit, direction }, rules)).items.map((m) => m.id);
      expect(new Set(walked).size, proves(rules, 'no meter twice')).toBe(walked.length);
      const known = walked.filter((id) => reference.includes(id));
      expect(known, proves(rules, 'every meter of the reference, in order')).toEqual(direction === 'asc' ? reference : [...reference].reverse());
    }),
    propertyParameters(4),
  );
});
