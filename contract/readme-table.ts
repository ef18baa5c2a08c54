/**
 * The README's generated provisioning table (README, "Certifying your implementation"): the text
 * between its markers must equal contract/provisioning.ts's table, indented as the list item it sits in.
 */
import { provisioningTable } from './provisioning.ts';

export const TABLE_START = '<!-- provisioning-table: generated from contract/provisioning.ts by tools/write-provisioning-table.ts -->';
export const TABLE_END = '<!-- /provisioning-table -->';

/** The block the README should hold between (and including) the markers. */
export function provisioningBlock(indent = '   '): string {
  return [TABLE_START, ...provisioningTable().split('\n'), TABLE_END].map((l) => `${indent}${l}`).join('\n');
}

/** `readme` with its provisioning block replaced by the generated one. Throws when the markers are missing. */
export function withProvisioningTable(readme: string): string {
  const re = new RegExp(`^[ \\t]*${escape(TABLE_START)}[\\s\\S]*?${escape(TABLE_END)}$`, 'm');
  if (!re.test(readme)) throw new Error(`README.md has no provisioning-table markers (${TABLE_START})`);
  return readme.replace(re, () => provisioningBlock());
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
