/**
 * What both halves of the work-order parts tests arrange (work-order-parts-commands.spec.ts,
 * work-order-parts-status.spec.ts; Resources › Work-order parts section): a fresh work order holding one
 * row of a stocked part.
 */
import type { PartsKit, Section, Stock } from '../kits/parts.ts';
import type { ApiClient } from '../lib/client.ts';

/** A work order holding one row of `quantity` of `stock`, and its section. */
export async function withRow(parts: PartsKit, stock: Stock, quantity: number, client?: ApiClient): Promise<{ id: string; section: Section }> {
  const id = await parts.workOrder(client);
  return { id, section: await parts.replace(id, [{ ...stock, quantity }], client) };
}
