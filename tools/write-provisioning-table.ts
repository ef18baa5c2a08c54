/** Rewrites docs/vendors.md's provisioning table from contract/provisioning.ts (`npm run readme:provisioning`). */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { PROVISIONING_PAGE, withProvisioningTable } from '../contract/readme-table.ts';

const file = resolve(ROOT, PROVISIONING_PAGE);
writeFileSync(file, withProvisioningTable(readFileSync(file, 'utf8')));
