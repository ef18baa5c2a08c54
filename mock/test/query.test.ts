/**
 * parseQuery (mock/http/query.ts) reads a query string exactly as URLSearchParams would — the reference —
 * into a prototype-free record of every value per name.
 */
import { test, expect } from '@playwright/test';
import { parseQuery } from '../http/query.ts';

function reference(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) (out[name] ??= []).push(value);
  return out;
}

test('decodes like URLSearchParams: repeats, +, escapes, malformed escapes, empty names and values', () => {
  const cases = ['', 'limit=100', 'a=1&a=2&b=', 'x+y=%20z+w', 'bad=%zz&ok=%41', 'a', '=v', '&&a=1&&', 'k=%E2%82%AC', 'k=%E2%82', 'a=b=c', 'limit=1;x=2', 'é=ü', 'status=open&status=todo&limit=5'];
  for (const search of cases) expect({ ...parseQuery(search) }, search).toEqual(reference(search));
});

test('names like Object members are plain names', () => {
  const query = parseQuery('__proto__=1&valueOf=2&constructor=3');
  expect(Object.getPrototypeOf(query)).toBeNull();
  expect(query.__proto__).toEqual(['1']);
  expect(query.valueOf).toEqual(['2']);
  expect(query.constructor).toEqual(['3']);
});
