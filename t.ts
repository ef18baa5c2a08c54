import { buildWorld } from './mock/seed/build.ts';
let t = performance.now();
const w = buildWorld(1);
console.log('build ms', (performance.now() - t).toFixed(0));
for (const o of w.orgs.values()) console.log(o.id, o.meters.visibleCount, o.assets.visibleCount, o.locations.visibleCount, o.users.size);
console.log(w.fixtures);
const w2 = buildWorld(2);
console.log([...w2.orgs.values()][0]!.meters.visibleCount, [...w2.orgs.values()][0]!.meters.all()[0]!.id, [...w.orgs.values()][0]!.meters.all()[0]!.id);
