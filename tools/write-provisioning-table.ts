/** Rewrites README.md's provisioning table from contract/provisioning.ts (`npm run readme:provisioning`). */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { withProvisioningTable } from '../contract/readme-table.ts';

const file = resolve(ROOT, 'README.md');
writeFileSync(file, withProvisioningTable(readFileSync(file, 'utf8')));
