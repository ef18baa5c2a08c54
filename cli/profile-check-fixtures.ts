/**
 * The fixtures half of `profile check` (./profile-check.ts): each fixture is looked up through a
 * described operation only, and said `unverified` — with the route or parameter that would be needed,
 * and why — when none reads it. Lists are walked page by page (at most WALK_PAGES pages); a record not
 * found in a complete walk is `wrong`, one not found before the cap `unverified`.
 */
import type { TargetProfile } from '../contract/profile.ts';
import type { Add, Answer, Finding, Look, Read } from './profile-check-model.ts';

/** Pages a list walk reads at most before it gives up (`unverified`). */
export const WALK_PAGES = 20;

/** Why no described operation reads each fixture that no check looks up. */
const UNREAD: Record<string, string> = {
  activeUserId: 'users have no public route in the description, so no read shows it',
  inactiveUserId: 'users have no public route in the description, so no read shows it',
  otherOrgUserId: 'users have no public route in the description, so no read shows it',
  teamId: 'teams have no public route in the description, so no read shows it',
  meterInMetersDisabledOrg: 'its organization has the Meters module disabled, and every meter read of the description answers 403 module_disabled there (MODULE-001)',
  partsModuleDisabledStock: 'parts and stock are read only through routes the description does not show',
};

interface Tools { add: Add; look: Look; read: Read }

type Walked = { records: Array<Record<string, unknown>>; complete: boolean } | { unverified: string };

/** Walks a list through its described cursor: native (`data`, `meta.pagination`) or compatibility (`field`, `nextCursor`). */
async function walk(read: Read, key: string, path: string, limit: number, field?: string): Promise<Walked> {
  const records: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let page = 0; page < WALK_PAGES; page++) {
    const a = await read(key, `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if ('unverified' in a) return a;
    if (a.status !== 200) return { unverified: `GET ${path} answered ${a.status}${a.code ? ` ${a.code}` : ''}, so the list could not be read` };
    const body = (a.body ?? {}) as Record<string, any>;
    records.push(...((field ? body[field] : body.data) ?? []));
    cursor = field ? body.nextCursor ?? undefined : body.meta?.pagination?.has_more ? body.meta.pagination.cursor : undefined;
    if (!cursor) return { records, complete: true };
  }
  return { records, complete: false };
}

/** Finds `ids` in a walked list: found ones by id, and a finding for those not found. */
function lookup(walked: Walked, ids: string[], list: string): { found: Map<string, Record<string, unknown>>; finding?: Finding } {
  if ('unverified' in walked) return { found: new Map(), finding: walked };
  const found = new Map(walked.records.filter((r) => ids.includes(r.id as string)).map((r) => [r.id as string, r]));
  const absent = ids.filter((id) => !found.has(id));
  if (!absent.length) return { found };
  return {
    found,
    finding: walked.complete
      ? { wrong: `${list} does not list ${absent.join(', ')} (${walked.records.length} read, every page)` }
      : { unverified: `${absent.join(', ')} not among the first ${walked.records.length} that ${list} listed; a filter that would find it is not named by the description` },
  };
}

/** Checks the profile's fixtures (reads only); see the module comment. */
export async function checkFixtures(profile: TargetProfile, { add, look, read }: Tools): Promise<void> {
  const f = profile.fixtures;
  const k = profile.keys;
  const live = k.live[0]!;
  const ok = (a: Answer) => a.status === 200;
  for (const [path, why] of Object.entries(UNREAD)) if (f[path as keyof typeof f]) add(`fixtures.${path}`, { unverified: why });
  if (f.assetId) {
    const { finding } = lookup(await walk(read, live, '/assets', 100), [f.assetId], 'GET /assets');
    add('fixtures.assetId', finding ?? { ok: undefined });
  }
  if (f.locationId) add('fixtures.locationId', await look(live, `/locations/${encodeURIComponent(f.locationId)}`, ok, '200'));
  const wanted = [...(f.rejectedWorkRequestId ? [f.rejectedWorkRequestId] : []), ...(f.pendingWorkRequestIds ?? [])];
  if (wanted.length) {
    // The request-status filter's name is not shown: the unfiltered list (described) is walked instead.
    const walked = await walk(read, live, '/workrequests', 200, 'workRequests');
    const inStatus = (ids: string[], status: string): Finding[] => {
      const { found, finding } = lookup(walked, ids, 'GET /workrequests');
      const other = [...found.values()].filter((r) => r.requestStatus !== status);
      return [...(finding ? [finding] : []), ...other.map((r) => ({ wrong: `${r.id as string} is ${String(r.requestStatus)} in GET /workrequests, not ${status}` }))];
    };
    if (f.rejectedWorkRequestId) add('fixtures.rejectedWorkRequestId', ...inStatus([f.rejectedWorkRequestId], 'REJECTED'));
    if (f.pendingWorkRequestIds?.length) add('fixtures.pendingWorkRequestIds', ...inStatus(f.pendingWorkRequestIds, 'PENDING'));
  }
  if (f.meterUsedByAutomation) add('fixtures.meterUsedByAutomation', await look(live, `/meters/${encodeURIComponent(f.meterUsedByAutomation)}`, ok, '200'));
  if (f.workOrderWithUnavailableLink) add('fixtures.workOrderWithUnavailableLink', await look(live, `/work-orders/${encodeURIComponent(f.workOrderWithUnavailableLink)}`, ok, '200'));
  if (f.expenseUnderPreviousCurrency) {
    // Entry fields are not shown: the entry is the item whose JSON holds its id and its currency.
    const e = f.expenseUnderPreviousCurrency;
    const holds = (item: unknown, text: string) => JSON.stringify(item).includes(JSON.stringify(text));
    add('fixtures.expenseUnderPreviousCurrency', await look(live, `/work-orders/${encodeURIComponent(e.workOrderId)}/other-costs`, (a) => {
      const body = (a.body ?? {}) as { items?: unknown[]; currency?: string };
      return a.status === 200 && body.currency !== e.currency && (body.items ?? []).some((i) => holds(i, e.costId) && holds(i, e.currency));
    }, `200 with a currency other than ${e.currency}, listing an entry holding ${e.costId} and ${e.currency}`));
  }
  if (f.expenseInCostTrackingDisabledOrg) {
    const e = f.expenseInCostTrackingDisabledOrg;
    add('fixtures.expenseInCostTrackingDisabledOrg', k.costTrackingDisabled
      ? await look(k.costTrackingDisabled, `/work-orders/${encodeURIComponent(e.workOrderId)}`, ok, '200 (its work order, with keys.costTrackingDisabled)')
      : { unverified: 'no key of its organization (keys.costTrackingDisabled) in the profile' });
  }
  if (f.stockedParts?.length) {
    const findings: Finding[] = [];
    for (const part of new Set(f.stockedParts.map((s) => s.partId))) findings.push(await look(live, `/parts/${encodeURIComponent(part)}`, ok, '200'));
    add('fixtures.stockedParts', ...findings);
  }
  if (f.restrictedSettingsStock) {
    add('fixtures.restrictedSettingsStock', k.restrictedSettings
      ? await look(k.restrictedSettings, `/parts/${encodeURIComponent(f.restrictedSettingsStock.partId)}`, ok, '200 (with keys.restrictedSettings)')
      : { unverified: 'no key of its organization (keys.restrictedSettings) in the profile' });
  }
}
