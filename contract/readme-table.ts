/**
 * The generated provisioning table of docs/vendors.md (step 2, "Provision"): the text between its
 * markers must equal contract/provisioning.ts's table, indented as the list item it sits in.
 */
import { provisioningTable } from './provisioning.ts';

/** The page that holds the table, relative to the repository root. */
export const PROVISIONING_PAGE = 'docs/vendors.md';

export const TABLE_START = '<!-- provisioning-table: generated from contract/provisioning.ts by tools/write-provisioning-table.ts -->';
export const TABLE_END = '<!-- /provisioning-table -->';

/** The block docs/vendors.md should hold between (and including) the markers. */
export function provisioningBlock(indent = '   '): string {
  return [TABLE_START, ...provisioningTable().split('\n'), TABLE_END].map((l) => `${indent}${l}`).join('\n');
}

/** `page` with its provisioning block replaced by the generated one. Throws when the markers are missing. */
export function withProvisioningTable(page: string): string {
  const re = new RegExp(`^[ \\t]*${escape(TABLE_START)}[\\s\\S]*?${escape(TABLE_END)}$`, 'm');
  if (!re.test(page)) throw new Error(`${PROVISIONING_PAGE} has no provisioning-table markers (${TABLE_START})`);
  return page.replace(re, () => provisioningBlock());
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
