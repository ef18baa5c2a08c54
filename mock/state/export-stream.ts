/**
 * `GET /__mock/state` as a stream (docs/integrators.md, "State and replicas"; "Reliability"): the state
 * document (mock/state/document.ts exportState, byte for byte the same JSON) written in chunks of about
 * CHUNK_RECORDS records, never built as one object or one string — an export of a large state costs
 * about its own size in memory, not several times it. Written in one turn, so the export is a snapshot.
 */
import type { ServerResponse } from 'node:http';
import type { World } from '../store/world.ts';
import { orgToDoc, worldToDoc, STATE_FORMAT, STATE_VERSION } from './document.ts';

/** Records serialized per chunk. */
const CHUNK_RECORDS = 500;

/** A response body written by `pipe` (the control API's routes answer one instead of a value to serialize). */
export class StreamedJson {
  constructor(private readonly chunks: () => Iterable<string>) {}

  /** Writes every chunk to `res` (after its head) and ends it. */
  pipe(res: ServerResponse): void {
    for (const chunk of this.chunks()) res.write(chunk);
    res.end();
  }
}

/** The chunks of the state document of `world` (every organization with the world part, or `orgId` alone). */
export function* stateChunks(world: World, orgId?: string): Generator<string> {
  const orgs = orgId === undefined ? [...world.orgs.values()] : [world.orgs.get(orgId)!];
  yield `{"format":${JSON.stringify(STATE_FORMAT)},"version":${STATE_VERSION},${orgId === undefined ? `"world":${JSON.stringify(worldToDoc(world))},` : ''}"organizations":[`;
  for (const [i, org] of orgs.entries()) {
    const doc = orgToDoc(world, org) as unknown as Record<string, unknown>;
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
        yield `${at ? ',' : ''}${value.slice(at, at + CHUNK_RECORDS).map((v) => JSON.stringify(v) ?? 'null').join(',')}`;
      }
      yield ']';
    }
    yield '}';
  }
  yield ']}';
}
