/**
 * The suite's client types no body for the caller (suites/lib/client.ts: `ApiClient` and `ApiResponse`
 * default to `unknown`): a test that reads a member of a body it did not type fails `npm run typecheck`;
 * typed with the spec's schemas (suites/lib/api-types.ts, from spec/generated/api.ts), a misspelt or
 * removed member does too; an error body is read through `problemOf` (suites/lib/expect-problem.ts).
 * Shown by type-checking probe modules in memory against the real sources.
 */
import { expect, test } from '@playwright/test';
import { diagnosticsOf } from './type-probe.ts';

const IMPORTS = `
import type { ApiClient } from '../../suites/lib/client.ts';
import type { MeterList, Problem } from '../../suites/lib/api-types.ts';
import { problemOf } from '../../suites/lib/expect-problem.ts';
declare const api: ApiClient;
`;

test('typed bodies and problem details type-check', () => {
  expect(diagnosticsOf(`${IMPORTS}
export async function probe(): Promise<Array<string | undefined>> {
  const page = await api.get<MeterList>('/meters', { query: { limit: 1 } });
  const refused = await api.get<Problem>('/meters', { query: { limit: 0 } });
  const other = await api.get('/meters');
  return [page.body.data[0]?.id, page.body.meta.pagination.cursor, refused.body.errors?.[0]?.message, problemOf(other)?.code];
}`)).toEqual([]);
});

test('a member of an untyped body, or a member the schema lacks, is a type error', () => {
  const errors = diagnosticsOf(`${IMPORTS}
export async function probe(): Promise<unknown[]> {
  const untyped = await api.post('/meters', { json: {} });
  const page = await api.get<MeterList>('/meters');
  return [untyped.body.data, page.body.dta, problemOf(untyped)?.cod];
}`);
  expect(errors.some((e) => /'untyped\.body' is of type 'unknown'/.test(e)), errors.join('\n')).toBe(true);
  expect(errors.some((e) => /Property 'dta' does not exist/.test(e)), errors.join('\n')).toBe(true);
  expect(errors.some((e) => /Property 'cod' does not exist/.test(e)), errors.join('\n')).toBe(true);
  expect(errors).toHaveLength(3);
});
