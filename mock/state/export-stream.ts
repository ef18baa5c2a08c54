/**
 * `GET /__mock/state` as a stream (docs/integrators.md, "State and replicas"; "Reliability"): the state
 * document (mock/state/document.ts exportState, byte for byte the same JSON) written in chunks of about
 * CHUNK_RECORDS records as the client reads them, never built as one object or one string: an export
 * costs the copied record lists (a pointer a record) and the chunks in flight, not its own size. It
 * is a snapshot of the moment of the request (stateChunks).
 */
import type { ServerResponse } from 'node:http';
import type { Org } from '../store/org.ts';
import type { World } from '../store/world.ts';
import { orgToDoc, storedWorkOrder, storedWorkRequest, worldToDoc, STATE_FORMAT, STATE_VERSION } from './document.ts';

/** The stored form of the records a snapshot keeps as the mock holds them (orgToDoc `stored` false). */
const STORED_FORM = { workOrders: storedWorkOrder, workRequests: storedWorkRequest } as unknown as Record<string, ((v: unknown) => unknown) | undefined>;

/** Records serialized per chunk. */
const CHUNK_RECORDS = 100;

/** A response body written by `pipe` (the control API's routes answer one instead of a value to serialize). */
export class StreamedJson {
  constructor(private readonly chunks: () => Iterable<string>) {}

  /**
   * Writes the chunks to `res` (after its head) as the client reads them — waiting for `drain` when the
   * socket's buffer is full, so the export never sits in memory whole — and ends it. A client that goes
   * away stops it.
   */
  pipe(res: ServerResponse): void {
    const chunks = this.chunks()[Symbol.iterator]();
    const pump = (): void => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (!res.write(next.value)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  }
}

/**
 * The chunks of the state document of `world` (every organization with the world part, or `orgId`
 * alone), as of this call: the organizations' records are taken now (their lists copied, not their
 * records: records are immutable values that writes replace), serialized as the chunks are read.
 */
export function stateChunks(world: World, orgId?: string): Iterable<string> {
  const orgs = (orgId === undefined ? [...world.orgs.values()] : [world.orgs.get(orgId)!]).map((org) => snapshot(world, org));
  const head = `{"format":${JSON.stringify(STATE_FORMAT)},"version":${STATE_VERSION},${orgId === undefined ? `"world":${JSON.stringify(worldToDoc(world))},` : ''}"organizations":[`;
  return serialize(head, orgs);
}

/** Organization `org`'s document with everything a later write changes in place copied. */
function snapshot(world: World, org: Org): Record<string, unknown> {
  const doc = orgToDoc(world, org, false);
  return {
    ...doc,
    modules: structuredClone(doc.modules),
    settings: structuredClone(doc.settings),
    readings: doc.readings.map(([meterId, rows]) => [meterId, [...rows]]),
    customFields: Object.fromEntries(Object.entries(doc.customFields).map(([entity, rows]) => [entity, [...rows]])),
    movements: [...doc.movements],
  };
}

function* serialize(head: string, orgs: Array<Record<string, unknown>>): Generator<string> {
  yield head;
  for (const [i, doc] of orgs.entries()) {
    yield `${i ? ',' : ''}{`;
    let first = true;
    for (const [name, value] of Object.entries(doc)) {
      if (value === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(name)}:`;
      first = false;
      if (!Array.isArray(value)) {
        yield JSON.stringify(value);
        continue;
      }
      yield '[';
      for (let at = 0; at < value.length; at += CHUNK_RECORDS) {
        const encode = STORED_FORM[name] ?? ((v: unknown) => v);
        yield `${at ? ',' : ''}${value.slice(at, at + CHUNK_RECORDS).map((v) => JSON.stringify(encode(v)) ?? 'null').join(',')}`;
      }
      yield ']';
    }
    yield '}';
    orgs[i] = {}; // written: its copies can go
  }
  yield ']}';
}
