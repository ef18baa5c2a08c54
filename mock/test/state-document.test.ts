/**
 * The state document (mock/state/document.ts; spec/mock-state.schema.json) holds the whole world: a
 * seeded world exported, parsed and loaded again exports the same document, valid against the schema,
 * and its handlers answer the same bytes.
 */
import { test, expect } from '@playwright/test';
import { buildWorld } from '../seed/build.ts';
import { exportState, worldFromState, type StateDocument, type WorldDoc } from '../state/document.ts';
import { stateDocumentError } from '../state/validate.ts';
import { Clock } from '../store/clock.ts';

test('a seeded world survives export and load unchanged, and its document is valid', () => {
  const world = buildWorld(3);
  world.clock.advance(90_000);
  const text = JSON.stringify(exportState(world));
  const doc = JSON.parse(text) as StateDocument & { world: WorldDoc };
  expect(stateDocumentError(doc)).toBeUndefined();
  const loaded = worldFromState(doc, undefined, new Clock());
  expect(JSON.stringify(exportState(loaded))).toBe(text);
  expect(loaded.clock.advancedMs).toBe(90_000);
  expect(loaded.cursorSecret.equals(world.cursorSecret)).toBe(true);
  expect([...loaded.orgs.keys()]).toEqual([...world.orgs.keys()]);
});

test('a loaded world issues ids after the stored counters', () => {
  const world = buildWorld(3);
  const doc = JSON.parse(JSON.stringify(exportState(world))) as StateDocument & { world: WorldDoc };
  const loaded = worldFromState(doc, 42);
  const lastId = [...world.orgs.values()].flatMap((o) => o.workOrders.all().map((w) => w.id.slice(w.id.indexOf('_') + 1))).sort().at(-1)!;
  expect(loaded.ids.next('wo').slice(3) > lastId).toBe(true);
});
