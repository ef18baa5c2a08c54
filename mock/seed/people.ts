/** Users and teams of an organization (no public route family; referenced by expenses and filters). */
import { PEOPLE, TEAMS } from './names.ts';
import type { Seeder } from './context.ts';

export const seedPeople: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  const users = ctx.volume(10, 16, 4, 3);
  for (const name of random.shuffle(PEOPLE).slice(0, users)) {
    const id = world.ids.next('usr');
    org.users.set(id, { id, name, active: true });
  }
  const ids = [...org.users.keys()];
  const inactive = ids[ids.length - 1]!;
  org.users.set(inactive, { ...org.users.get(inactive)!, active: false });
  for (const name of random.shuffle(TEAMS).slice(0, ctx.volume(3, 6, 2, 1))) {
    const id = world.ids.next('team');
    org.teams.set(id, { id, name });
  }
  if (ctx.role === 'main') {
    ctx.fixture('activeUserId', ids[0]);
    ctx.fixture('inactiveUserId', inactive);
    ctx.fixture('teamId', [...org.teams.keys()][0]);
  }
  if (ctx.role === 'otherOrg') ctx.fixture('otherOrgUserId', ids[0]);
};
