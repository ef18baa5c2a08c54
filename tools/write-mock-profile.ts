/**
 * Writes fixtures/targets/mock.json: the target profile of `npm run mock` (default seed, port 4010).
 * Run after changing the seed data; a unit test fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildWorld, DEFAULT_SEED } from '../mock/seed/build.ts';
import { buildProfile } from '../mock/profile.ts';
import { ROOT } from '../contract/paths.ts';

const profile = buildProfile(buildWorld(DEFAULT_SEED), 'http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/__mock');
writeFileSync(resolve(ROOT, 'fixtures/targets/mock.json'), `${JSON.stringify(profile, null, 2)}\n`);
process.stdout.write('wrote fixtures/targets/mock.json\n');
