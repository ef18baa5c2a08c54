/**
 * The kit's layering (docs/design.md, "Layers"): spec/ → contract/ → mock/, suites/, proxy/ (siblings)
 * → cli/ → bin/ → tools/ → bench/, and the mock's own layers; no import cycle; the design page's
 * diagrams are the code's (npm run docs:layers rewrites them).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../contract/paths.ts';
import { importCycles, layerViolation, productGraph } from '../lib/import-graph.ts';
import { currentDiagrams, DESIGN_FILE, withDiagrams } from '../write-design-layers.ts';

const graph = productGraph(ROOT);

test('no import runs across siblings or up a layer, inside mock/ too', () => {
  expect(graph.files.length).toBeGreaterThan(200);
  expect(graph.edges.length).toBeGreaterThan(800);
  const violations = graph.edges.flatMap((e) => {
    const why = layerViolation(e);
    return why ? [`${why}: ${e.from} → ${e.to}`] : [];
  });
  expect(violations).toEqual([]);
});

test('no import cycle among the product files (type-only imports included)', () => {
  expect(importCycles(graph.files, graph.edges)).toEqual([]);
});

test('the rules see what they must: a sibling, an upward import, an upward import inside mock/, a cycle', () => {
  expect(layerViolation({ from: 'proxy/judge.ts', to: 'suites/lib/client.ts' })).toMatch(/^sibling import: proxy\/ → suites\//);
  expect(layerViolation({ from: 'suites/lib/client.ts', to: 'mock/server.ts' })).toMatch(/^sibling import/);
  expect(layerViolation({ from: 'contract/openapi.ts', to: 'mock/app.ts' })).toMatch(/^upward import: contract\/ → mock\//);
  expect(layerViolation({ from: 'cli/run.ts', to: 'tools/lib/import-graph.ts' })).toMatch(/^upward import/);
  expect(layerViolation({ from: 'mock/store/ids.ts', to: 'mock/seed/build.ts' })).toBe('upward import inside mock/: store → seed');
  expect(layerViolation({ from: 'mock/handlers/meters.ts', to: 'mock/store/org.ts' })).toBeUndefined();
  expect(layerViolation({ from: 'proxy/test/mutant.test.ts', to: 'mock/server.ts' })).toBeUndefined();
  expect(layerViolation({ from: 'cli/run.ts', to: 'mock/server.ts' })).toBeUndefined();
  const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
  expect(importCycles(files, [{ from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }, { from: 'c.ts', to: 'a.ts' }, { from: 'c.ts', to: 'd.ts' }])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  expect(importCycles(files, [{ from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }])).toEqual([]);
});

test('docs/design.md shows the layers as the code has them (npm run docs:layers)', () => {
  const page = readFileSync(DESIGN_FILE, 'utf8');
  expect(withDiagrams(page, currentDiagrams()), 'docs/design.md is stale: run npm run docs:layers').toBe(page);
});
