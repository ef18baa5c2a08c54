/**
 * Writes fixtures/targets/mock.json: the target profile of `npm run mock` (default seed, port 4010).
 * Run after changing the seed data; a unit test fails while the file is stale. The control token is
 * per process: the file names the environment variable `npm run mock` also reads it from.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildWorld, DEFAULT_SEED } from '../mock/seed/build.ts';
import { buildProfile } from '../mock/profile.ts';
import { CONTROL_TOKEN_ENV } from '../mock/control/guard.ts';
import { ROOT } from '../contract/paths.ts';

const profile = buildProfile(buildWorld(DEFAULT_SEED), 'http://127.0.0.1:4010/v1', { baseUrl: 'http://127.0.0.1:4010/__mock', token: `env:${CONTROL_TOKEN_ENV}` });
writeFileSync(resolve(ROOT, 'fixtures/targets/mock.json'), `${JSON.stringify(profile, null, 2)}\n`);
process.stdout.write('wrote fixtures/targets/mock.json\n');
