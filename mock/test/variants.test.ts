/**
 * The mock's variants (docs/freedoms.md, mock/variants): names resolve, hooks of several variants
 * compose, and `described-only` hides what the description does not show.
 */
import { test, expect } from '@playwright/test';
import { variantMutation, variantsNamed } from '../variants/catalog.ts';
import { startTestMock } from './support.ts';

test('an unknown variant name is an error listing the names', () => {
  expect(() => variantsNamed('no-such')).toThrow(/no variant no-such; variants: other-ids, /);
});

test('two variants compose: UUID request ids and other problem texts on one 404', async () => {
  const { mock, call } = await startTestMock({ mutation: variantMutation('uuid-request-ids,other-problem-texts') });
  try {
    const res = await call('/v1/meters/nope');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { title: string }).title).toBe('Fehler 404');
  } finally {
    await mock.stop();
  }
});

test('described-only: an inferred route answers 404, a stated one 200 with listed fields only; no control API in the profile', async () => {
  const { mock, call } = await startTestMock({ mutation: variantMutation('described-only') });
  try {
    expect((await call('/v1/identifiers')).status).toBe(404);
    const list = await call('/v1/work-orders?limit=1');
    expect(list.status).toBe(200);
    const wo = ((await list.json()) as { data: Array<Record<string, unknown>> }).data[0]!;
    expect(Object.keys(wo).every((k) => ['id', 'title', 'priority', 'workRequestId', 'previous_id', 'next_id', 'extraFields'].includes(k))).toBe(true);
    expect(mock.profile.control).toBeUndefined();
  } finally {
    await mock.stop();
  }
});
