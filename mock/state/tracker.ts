/**
 * What a request changed, for the row stores (rows.ts; docs/integrators.md, "State and replicas"): each
 * organization a store writes gets a tracker (Org.track) that reports the (kind, id) of every record a
 * handler or control route writes; `changes` turns them into the rows to upsert (their JSON now) or
 * delete (undefined). The memory store installs none: its writes cost one `undefined` check each.
 */
import type { Org } from '../store/org.ts';
import type { World } from '../store/world.ts';
import { rowDoc } from './rows.ts';

/** A changed row: organization, kind, id and its JSON now (undefined: delete it). */
export type RowChange = [org: string, kind: string, id: string, doc: string | undefined];

export class ChangeTracker {
  private readonly tracked = new WeakSet<Org>();
  /** `org \t kind \t id` of every row reported since the last `changes`/`clear`. */
  private readonly touched = new Set<string>();

  /** Installs the tracker on `org` unless it has it already (a reloaded organization is a new Org). */
  attach(org: Org): void {
    if (this.tracked.has(org)) return;
    const orgId = org.id;
    org.track((kind, id) => this.touched.add(`${orgId}\t${kind}\t${id}`));
    this.tracked.add(org);
  }

  /** Reports a row changed outside the organization's containers (an organization's keys live in World). */
  touch(orgId: string, kind: string, id: string): void {
    this.touched.add(`${orgId}\t${kind}\t${id}`);
  }

  /** Whether anything was reported since the last `changes`/`clear`. */
  get size(): number {
    return this.touched.size;
  }

  /** The reported rows with their JSON in `world` now; forgets them. */
  changes(world: World): RowChange[] {
    const out: RowChange[] = [];
    for (const t of this.touched) {
      const a = t.indexOf('\t');
      const b = t.indexOf('\t', a + 1);
      const orgId = t.slice(0, a);
      const kind = t.slice(a + 1, b);
      const id = t.slice(b + 1);
      const org = world.orgs.get(orgId);
      out.push([orgId, kind, id, org && rowDoc(world, org, kind, id)]);
    }
    this.touched.clear();
    return out;
  }

  /** Forgets what was reported (everything was written, or reloaded). */
  clear(): void {
    this.touched.clear();
  }
}

/** The `org` row and every key row of `org` (what a control route on one organization may change besides its records). */
export function touchOrgAndKeys(tracker: ChangeTracker, world: World, org: Org): void {
  tracker.touch(org.id, 'org', org.id);
  for (const k of world.keysById.values()) if (k.orgId === org.id) tracker.touch(org.id, 'key', k.id);
}
