/**
 * Request portals (Resources › Work request portal (compatibility)): more than a default page of them
 * in the main organization (105–130, so the default limit of 100 leaves a second page), a few in the
 * second organization and in the organization whose Request Portals module is disabled. Some are
 * scoped to an asset or a location; every text field is filled.
 */
import { newPortal } from '../store/records.ts';
import { portalUrl } from '../handlers/work-request-portals.ts';
import { SITES } from './names.ts';
import type { Seeder } from './context.ts';

const AUDIENCES = ['Maintenance requests', 'Facilities help desk', 'Report a problem', 'Safety concerns', 'Cleaning requests', 'Visitor requests'];

export const seedPortals: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  if (ctx.size === 'fixtures' && ctx.role !== 'moduleDisabled.request_portals') return;
  const assets = org.assets.all().map((a) => a.id);
  const locations = org.locations.all().map((l) => l.id);
  const count = ctx.volume(105, 130, 4, 2);
  for (let i = 0; i < count; i++) {
    const scope = random.int(0, 2);
    const row = newPortal(world.ids, {
      title: `${random.pick(AUDIENCES)} – ${random.pick(SITES)} ${i + 1}`,
      portalUrl: portalUrl(random.token(12)),
      welcomeText: 'Tell us what needs attention and where; the maintenance team reviews every request.',
      descriptionPlaceholder: 'What is wrong, and since when?',
      contactInformation: `maintenance+${i + 1}@example.com`,
      assetId: scope === 1 && assets.length ? random.pick(assets) : null,
      locationId: scope === 2 && locations.length ? random.pick(locations) : null,
      emailOnly: random.chance(0.3),
      sendEmailNotification: random.chance(0.6),
    });
    org.portals.insert(row);
  }
};
