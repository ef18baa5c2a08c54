/**
 * The one lookup of the record a path names (Errors: 404 `not_found` for an id the organization does
 * not have, or has but no longer shows).
 */
import type { Context } from '../http/context.ts';
import { notFound } from '../http/problem.ts';

/** The visible record of the path's `id` in `rows`, or 404 problem details naming `what` ("The part"). */
export function pathRecord<R>(rows: { get(id: string): R | undefined }, ctx: Context, what: string): R {
  const row = rows.get(ctx.params.id as string);
  if (!row) throw notFound(what);
  return row;
}
