/**
 * `--state` and `--seed-file` (docs/integrators.md, "State and replicas"): which store the mock keeps
 * its state in, and the state document it starts from.
 */
import { readFileSync } from 'node:fs';
import type { Clock } from '../store/clock.ts';
import type { World } from '../store/world.ts';
import { loadOrg, worldFromState, type StateDocument, type WorldDoc } from './document.ts';
import type { Persistence } from './persistence.ts';
import { redact } from './redact.ts';
import { stateDocumentError } from './validate.ts';

/** Whether `--state` names PostgreSQL (a `postgres://` or `postgresql://` URL). */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//.test(spec);
}

/**
 * The store `--state spec` names: undefined for `memory`, PostgreSQL for a `postgres://…` URL, else a
 * SQLite file at that path. Rejects with a one-line Error when it cannot be opened.
 */
export async function openStateStore(spec: string): Promise<Persistence | undefined> {
  if (spec === 'memory') return undefined;
  try {
    if (isPostgresUrl(spec)) {
      const { PostgresStore } = await import('./postgres-store.ts').catch(missingPackage('pg', 'postgres://'));
      return await PostgresStore.connect(spec);
    }
    const { FileStore } = await import('./file-store.ts').catch(missingPackage('better-sqlite3', 'FILE'));
    return new FileStore(spec);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ESTATE') throw e;
    const why = err.code === 'SQLITE_BUSY' ? 'another process holds it (the file store serves one process; use PostgreSQL for replicas)' : err.message;
    throw Object.assign(new Error(`--state ${redact(spec)}: ${why}`), { code: 'ESTATE' });
  }
}

/**
 * The store's driver is an optional peer dependency of the kit (package.json `peerDependenciesMeta`):
 * installing the kit compiles nothing; whoever uses that store adds the package. Maps the import's
 * "cannot find package" to one line naming the package to add; other errors pass through.
 */
function missingPackage(pkg: string, form: string): (e: NodeJS.ErrnoException) => never {
  return (e) => {
    if (e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(`'${pkg}'`)) {
      throw Object.assign(new Error(`--state ${form} needs the package ${pkg}, an optional dependency of the kit: npm install ${pkg}`), { code: 'ESTATE' });
    }
    throw e;
  };
}

/** Reads and validates state document `path`; throws a one-line Error naming the bad field. */
export function readStateFile(path: string): StateDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw Object.assign(new Error(`--seed-file ${path}: ${(e as Error).message}`), { code: 'ESTATE' });
  }
  const error = stateDocumentError(doc);
  if (error) throw Object.assign(new Error(`--seed-file ${path}: ${error.pointer} ${error.message} (spec/mock-state.schema.json)`), { code: 'ESTATE' });
  return doc as StateDocument;
}

/**
 * The world a state document describes: with its world part, exactly that; without one, `base()` (the
 * seeded world) with the document's organizations put in (replacing those with their ids).
 * Throws an Error naming the field on a key collision or a repeated record id.
 */
export function worldOfDocument(doc: StateDocument, base: () => World, entropy?: number, clock?: Clock): World {
  if (doc.world) return worldFromState(structuredClone(doc) as StateDocument & { world: WorldDoc }, entropy, clock);
  const world = base();
  structuredClone(doc.organizations).forEach((o, i) => loadOrg(world, o, `/organizations/${i}`));
  return world;
}
