/**
 * Identifiers of assets, locations and parts (Resources › Identifier), generated and customer-owned,
 * a few of them retired. Runs last, over the targets the other seeders made. The organization of
 * keys.moduleDisabled.parts_inventory gets identifiers on a part, which the list shows, resolution
 * filters out, and retirement still reaches (Authentication, module rules).
 */
import { addIdentifier, generatedValue } from '../handlers/identifiers.ts';
import type { Schemas } from '../store/types.ts';
import type { Seeder, SeedContext } from './context.ts';

type Target = { target_type: Schemas['IdentifierTargetType']; target_id: string };

const CUSTOMER_PREFIX: Record<Target['target_type'], string> = { asset: 'TAG', location: 'LOC', part: 'BIN' };

/** A customer-owned payload in the style of printed asset tags, not yet mapped in the organization. */
function customerValue(ctx: SeedContext, target: Target): string {
  for (;;) {
    const value = `${CUSTOMER_PREFIX[target.target_type]}-${ctx.random.int(10000, 99999)}`;
    if (!ctx.org.identifierByValue.has(value)) return value;
  }
}

function add(ctx: SeedContext, target: Target): void {
  const generated = ctx.random.chance(0.5);
  const value = generated ? generatedValue(ctx.org, () => ctx.random.int(0, 35)) : customerValue(ctx, target);
  addIdentifier(ctx, value, generated ? 'generated' : 'customer', target, ctx.ago(ctx.random.int(1, 300)));
}

export const seedIdentifiers: Seeder = (ctx) => {
  const { org, random } = ctx;
  const partsDisabledOrg = ctx.role === 'moduleDisabled.parts_inventory';
  if (ctx.size === 'fixtures' && !partsDisabledOrg) return;
  const targets: Target[] = [
    ...[...org.assets.values()].map((a) => ({ target_type: 'asset' as const, target_id: a.id })),
    ...[...org.locations.values()].map((l) => ({ target_type: 'location' as const, target_id: l.id })),
    ...[...org.parts.values()].map((p) => ({ target_type: 'part' as const, target_id: p.id })),
  ];
  if (targets.length === 0) return;
  for (let i = ctx.volume(40, 60, 6, 1); i > 0; i--) add(ctx, random.pick(targets));
  if (ctx.size === 'full') {
    for (const row of random.shuffle(org.identifiers.all()).slice(0, 3)) {
      org.identifiers.replace({ ...row, retiredAt: ctx.ago(0) });
      org.identifierByValue.delete(row.data.value);
    }
  }
  const part = org.parts.values().next().value;
  if (partsDisabledOrg && part) for (let i = 0; i < 3; i++) add(ctx, { target_type: 'part', target_id: part.id });
};
