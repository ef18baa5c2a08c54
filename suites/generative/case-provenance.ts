/**
 * The level of a generated negative case, read from provenance (contract/provenance.ts,
 * docs/maintainers.md "The specification"): a request breaking a constraint the description does not
 * state can only fail inferred requirements. suites/generative/negative-cases.ts `negativeCases` calls
 * these for every case; no test chooses a level.
 */
import type { Violation } from '../../contract/arbitraries/violations.ts';
import type { Operation } from '../../contract/openapi.ts';
import { bodyKeywordProvenance, provenanceOf, routeProvenance, type Provenance } from '../../contract/provenance.ts';

/**
 * The requirements a negative test fails, by the level of the cases it sends (the 400 test, then the
 * change-nothing test): a case breaking an inferred constraint can fail only inferred requirements.
 */
export const NEGATIVE_REQUIREMENTS = {
  must: { refused: ['ERR-006'], unchanged: ['GEN-002'] },
  inferred: { refused: ['SPEC-005', 'GEN-004'], unchanged: ['GEN-004'] },
} as const;

/** The keyword a violation (contract/arbitraries/violations.ts) breaks, and the schema node holding it, as a pointer into the instance. */
export function brokenKeyword(v: Pick<Violation, 'pointer' | 'constraint'>): { pointer: string; keyword: string } {
  const [first, second] = v.constraint.split(/[\s:]+/);
  if (first === 'items') return { pointer: `${v.pointer}/0`, keyword: second! };
  if (first === 'required' || first === 'additionalProperties') return { pointer: v.pointer.split('/').slice(0, -1).join('/'), keyword: first };
  return { pointer: v.pointer, keyword: first! };
}

/** The provenance of a broken body constraint: of its keyword, and for `required` of the member too (an inferred member is never required by a must). */
export function bodyViolationProvenance(op: Operation, v: Violation): Provenance {
  const { pointer, keyword } = brokenKeyword(v);
  const own = bodyKeywordProvenance(op, pointer, keyword);
  if (own.level === 'inferred' || keyword !== 'required') return own;
  return bodyKeywordProvenance(op, v.pointer, 'member');
}

/** The provenance of a broken parameter constraint (`items: enum …` reaches into an array's items). */
export function parameterViolationProvenance(op: Operation, name: string, constraint: string): Provenance {
  const { pointer, keyword } = brokenKeyword({ pointer: '', constraint });
  return provenanceOf(op, `/parameters/${name.replace(/~/g, '~0').replace(/\//g, '~1')}/schema${pointer === '/0' ? '/items' : ''}`, keyword);
}

/** The level of a case: `must` only when the route, the broken constraint and the stated oracle all agree it is stated. */
export function levelOf(op: Operation, provenance: Provenance, statedRefuses: boolean): 'must' | 'inferred' {
  return routeProvenance(op).level === 'stated' && provenance.level === 'stated' && statedRefuses ? 'must' : 'inferred';
}

