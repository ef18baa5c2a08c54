/** Helpers shared by the mutant families (mock/mutants/families/). */
import type { Context } from '../http/context.ts';
import type { Mutant } from './mutant.ts';
import type { World } from '../store/world.ts';

export const isError = (status: number) => status >= 400;
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A meter of another organization than the context's, if any. */
export function foreignMeter(ctx: Context) {
  for (const org of ctx.world.orgs.values()) {
    if (org.id === ctx.org.id) continue;
    const row = org.meters.get(ctx.params.id as string) ?? [...org.meters.values()][0];
    if (row) return row;
  }
  return undefined;
}

/**
 * A PATCH of a work order refused with 400 still applies the members that were valid: the body hook
 * keeps the body, the response hook (same request, no await between) replaces the record through the
 * store, never in place (records' JSON is cached per immutable record).
 */
export function partialPatchOnRefusal(): Mutant['mutation'] {
  let world: World | undefined;
  let pending: Record<string, unknown> | undefined;
  return {
    world: (w) => { world = w; },
    body: (operationId, body) => {
      pending = operationId === 'updateWorkOrder' && typeof body === 'object' && body !== null ? body as Record<string, unknown> : undefined;
      return body;
    },
    response: (out, request) => {
      const body = pending;
      pending = undefined;
      if (request.operationId !== 'updateWorkOrder' || out.status !== 400 || !body || !world) return out;
      const id = decodeURIComponent(request.path.split('/').pop() ?? '');
      for (const org of world.orgs.values()) {
        const row = org.workOrders.get(id);
        if (!row) continue;
        const valid: Record<string, unknown> = {};
        if (typeof body.title === 'string' && body.title.length > 0) valid.title = body.title;
        if (['medium', 'high', 'critical'].includes(body.priority as string)) valid.priority = body.priority;
        org.workOrders.replace({ ...row, data: { ...row.data, ...valid, updated_at: new Date(world.clock.now() + 1000).toISOString() } });
      }
      return out;
    },
  };
}
