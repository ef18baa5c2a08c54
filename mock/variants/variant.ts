/**
 * Variants of the mock (docs/freedoms.md): each serves one freedom the description leaves open
 * differently from the default mock, through the same hooks as the self-test's mutants
 * (mock/hooks/alteration.ts). A conformant suite stays green against every variant. `combine` folds
 * several variants (and a mutant) into one Alteration; nothing of a variant runs when it is not chosen.
 */
import type { Alteration } from '../hooks/alteration.ts';

/** A named freedom served differently. */
export interface Variant {
  name: string;
  /** The description's sentence (or the RFC) that leaves this open. */
  freedom: string;
  description: string;
  mutation: Alteration;
  /**
   * The suite's set-up cannot always succeed against it (a route it does not find, a write it cannot
   * read back): requirements may be not assessed, so the verdict may be incomplete — never a failed `must`.
   */
  incomplete?: true;
}

type Fn<A extends unknown[], R> = ((...args: A) => R) | undefined;
const chain = <A extends unknown[], R>(fns: Array<Fn<[R, ...A], R>>) =>
  (fns.some(Boolean) ? (value: R, ...rest: A) => fns.reduce((v, f) => (f ? f(v, ...rest) : v), value) : undefined);

/** One Alteration doing what each of `list` does, in order (for scalar options the last one wins). */
export function combine(list: Alteration[]): Alteration | undefined {
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  const out: Alteration = Object.assign({}, ...list.map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v !== 'function'))));
  const request = list.filter((m) => m.request);
  if (request.length) out.request = (method, url, headers) => request.reduce((u, m) => m.request!(method, u, headers), url);
  const body = list.filter((m) => m.body);
  if (body.length) out.body = (id, b) => body.reduce((v, m) => m.body!(id, v), b);
  const response = list.filter((m) => m.response);
  if (response.length) out.response = (o, info) => response.reduce((v, m) => m.response!(v, info), o);
  out.handlers = chain<[], NonNullable<Parameters<NonNullable<Alteration['handlers']>>[0]>>(list.map((m) => m.handlers));
  const world = list.filter((m) => m.world);
  if (world.length) out.world = (w) => world.forEach((m) => m.world!(w));
  out.requestId = list.reduceRight<Alteration['requestId']>((acc, m) => acc ?? m.requestId, undefined);
  out.profile = chain<[], NonNullable<Parameters<NonNullable<Alteration['profile']>>[0]>>(list.map((m) => m.profile));
  for (const k of Object.keys(out) as Array<keyof Alteration>) if (out[k] === undefined) delete out[k];
  return out;
}
