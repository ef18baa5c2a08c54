/**
 * Provenance of spec/openapi.yaml (contract/provenance.ts, docs/maintainers.md "The specification"):
 * every actionable keyword is stated — with a section of docs/api-v1.md and its exact words — or
 * inferred; every quote is verbatim in its section; a documented status a stated operation inherits is
 * among the words it quotes; and the stated view, the one every `must` verdict reads, drops exactly the
 * inferred keywords.
 */
import { test, expect } from '@playwright/test';
import { loadOpenApi, loadOperations } from '../../contract/openapi.ts';
import { allSources, quoteProblems, walkProvenance } from '../../contract/provenance-walk.ts';
import { bodyKeywordProvenance, provenanceOf, routeProvenance } from '../../contract/provenance.ts';
import { toView } from '../../contract/schema-view.ts';

const doc = loadOpenApi() as unknown as Record<string, unknown>;
const op = (id: string) => loadOperations().find((o) => o.operationId === id)!;

test('every actionable keyword of the spec is stated or inferred', () => {
  const all = walkProvenance(doc);
  const missing = all.filter((e) => e.provenance === undefined).map((e) => `${e.where} ${e.keyword}`);
  expect(missing, 'keywords without provenance (add x-source or x-inferred)').toEqual([]);
  const entries = all.filter((e) => e.keyword !== '$ref');
  const stated = entries.filter((e) => e.provenance?.level === 'stated').length;
  const counts = `provenance: ${entries.length} keywords, ${stated} stated, ${entries.length - stated} inferred; ${all.length - entries.length} schema references`;
  test.info().annotations.push({ type: 'counts', description: counts });
  process.stdout.write(`${counts}\n`);
  expect(stated).toBeGreaterThan(200);
  expect(entries.length - stated).toBeGreaterThan(200);
});

test('every quote appears verbatim in its section of docs/api-v1.md', () => {
  const sources = allSources(doc);
  expect(sources.length).toBeGreaterThan(40);
  const wrong = quoteProblems(sources);
  expect(wrong).toEqual([]);
});

test('a documented status a stated operation does not mark inferred is in its quoted words (or is an Errors status)', () => {
  const wrong = walkProvenance(doc)
    .filter((e) => e.keyword === 'status' && e.provenance?.level === 'stated' && e.responseSection !== 'Errors')
    .filter((e) => !new RegExp(`\\b${e.where.split('/').pop()}\\b`).test(e.operationQuote ?? ''))
    .map((e) => e.where);
  expect(wrong).toEqual([]);
});

test('a stated place that reuses an inferred component says so (x-inferred at the reference)', () => {
  const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
  const unsaid = walkProvenance(doc)
    .filter((e) => e.keyword === '$ref' && e.provenance?.level === 'stated' && e.ref?.startsWith('#/components/schemas/'))
    .filter((e) => schemas[e.ref!.split('/').pop()!]?.['x-inferred'] === true)
    .map((e) => `${e.where} → ${e.ref}`);
  expect(unsaid).toEqual([]);
});

test('provenanceOf answers stated with the words, or inferred with the reason', () => {
  const limit = provenanceOf(op('listMeters'), '/parameters/limit/schema', 'maximum');
  expect(limit).toMatchObject({ level: 'stated', section: 'Endpoints' });
  expect(provenanceOf(op('createWorkOrderExpense'), '/responses/415').level).toBe('inferred');
  expect(provenanceOf(op('createWorkOrderExpense'), '/responses/201').level).toBe('stated');
  expect(routeProvenance(op('linkAssetPart')).level).toBe('inferred');
  expect(routeProvenance(op('listMeters')).level).toBe('stated');
  expect(routeProvenance(op('createAsset')).level).toBe('inferred');
  // A body member the description states, and one of its bounds that it does not.
  expect(bodyKeywordProvenance(op('createWorkOrderExpense'), '/description', 'maxLength')).toMatchObject({ level: 'stated', section: 'Work-order expenses' });
  expect(bodyKeywordProvenance(op('createWorkOrder'), '/title', 'maxLength').level).toBe('inferred');
  expect(bodyKeywordProvenance(op('createWorkOrder'), '/due_at', 'format').level).toBe('inferred');
  expect(bodyKeywordProvenance(op('commandWorkOrderParts'), '/items/0/quantity', 'minimum')).toMatchObject({ level: 'stated' });
  expect(bodyKeywordProvenance(op('createMeter'), '/name', 'maxLength').level).toBe('inferred');
  expect(provenanceOf(op('listMeters'), '/nowhere').level).toBe('inferred');
});

test('the stated view drops exactly the keywords provenance calls inferred', () => {
  const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
  const title = (toView(schemas.WorkOrderCreateRequest!, 'stated') as { properties: Record<string, Record<string, unknown>> }).properties.title!;
  // "Known fields: `title`, …" names the member but neither its type nor its length.
  expect(title).toEqual({});
  expect((toView(schemas.WorkOrderCreateRequest!, 'full') as { properties: Record<string, Record<string, unknown>> }).properties.title!.maxLength).toBe(500);
  expect((toView(schemas.MeterType!, 'stated') as Record<string, unknown>).enum).toBeUndefined();
  expect((toView(schemas.MeterType!, 'full') as Record<string, unknown>).enum).toEqual(['counter', 'gauge']);
  const expense = toView(schemas.ExpenseCreateRequest!, 'stated') as { properties: Record<string, Record<string, unknown>> };
  expect(expense.properties.description!.maxLength).toBe(5000);
});
