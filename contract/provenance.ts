/**
 * Provenance of the constraints of spec/openapi.yaml: for each keyword a test, a check, a generator or
 * the mock can act on, whether the description (docs/api-v1.md) states it — with the section and the
 * exact words — or the spec infers it (docs/maintainers.md, "The specification").
 *
 * The form, on any node of the spec (operation, parameter, response, header, schema):
 * - `x-source: {section, quote}` (or a list of them): the node's actionable keywords, and those of the
 *   nodes under it that carry no provenance of their own, are stated by these words;
 * - `x-inferred: true`: the node and everything under it are inferred (an explicit `x-source` below
 *   cannot lift that);
 * - `x-inferred-keywords: [maxLength, enum, method, …]`: on a stated node, these keywords of this node
 *   only are inferred (an operation lists `method` when only its path is shown, or documented statuses
 *   as strings: `"415"`).
 * Provenance never flows through a `$ref`: every component carries its own, and a keyword reached
 * through a reference is stated only when the referring place and the referenced schema both state it
 * (a component reused by a stated and an inferred place is stated at the first, inferred at the second).
 *
 * The stated view of a schema (contract/schema-view.ts) keeps exactly the stated keywords; every
 * consumer that can decide a `must` verdict reads that view, or asks `provenanceOf` here.
 */
import { loadOpenApi, type Operation } from './openapi.ts';

/** Where a stated keyword comes from: a section heading of docs/api-v1.md and its exact words. */
export interface Source {
  section: string;
  quote: string;
}

/** The provenance of one keyword: stated with its source, or inferred with the reason. */
export type Provenance = ({ level: 'stated' } & Source) | { level: 'inferred'; reason: string };

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `x-source` entries of a node (a single entry or a list), none when absent. */
export function sourcesOf(node: unknown): Source[] {
  if (!isNode(node)) return [];
  const s = node['x-source'];
  if (s === undefined) return [];
  return (Array.isArray(s) ? s : [s]) as Source[];
}

/** The keywords a node marks inferred with `x-inferred-keywords` (strings; statuses as `"415"`). */
export function inferredKeywordsOf(node: unknown): string[] {
  if (!isNode(node)) return [];
  return ((node['x-inferred-keywords'] as unknown[]) ?? []).map(String);
}

/**
 * The provenance a node gives its keywords, from what its ancestors gave (`inherited`, undefined at a
 * root without provenance): inferred stays inferred; `x-inferred` makes it inferred; `x-source` states it.
 */
export function provenanceAt(node: unknown, inherited: Provenance | undefined, where: string): Provenance | undefined {
  if (inherited?.level === 'inferred') return inherited;
  if (isNode(node) && node['x-inferred'] === true) return { level: 'inferred', reason: `${where} is marked x-inferred: the description does not show it` };
  const [first] = sourcesOf(node);
  if (first) return { level: 'stated', section: first.section, quote: sourcesOf(node).map((s) => s.quote).join(' … ') };
  return inherited;
}

/** The provenance of `keyword` on a node whose own provenance is `own` (an `x-inferred-keywords` exception). */
export function keywordProvenance(node: unknown, own: Provenance | undefined, keyword: string | undefined, where: string): Provenance | undefined {
  if (own?.level === 'stated' && keyword !== undefined && inferredKeywordsOf(node).includes(keyword)) {
    return { level: 'inferred', reason: `\`${keyword}\` at ${where} is listed in x-inferred-keywords: the description does not state it` };
  }
  return own;
}

/** The node a `$ref` points to (`#/components/...`), or undefined. */
function deref(ref: string): Node | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = loadOpenApi();
  for (const part of ref.slice(2).split('/')) node = isNode(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isNode(node) ? node : undefined;
}

/** The lower of two provenances: inferred when either is. */
function meet(a: Provenance | undefined, b: Provenance | undefined): Provenance | undefined {
  if (a?.level === 'inferred') return a;
  if (b?.level === 'inferred') return b;
  return b ?? a;
}

/**
 * Follows `$ref`s from `node`: each referenced component contributes its own provenance, met with the
 * referring place's. Returns the final node and its provenance.
 */
function follow(node: unknown, prov: Provenance | undefined, where: string): { node: unknown; prov: Provenance | undefined; where: string } {
  let seen = 0;
  while (isNode(node) && typeof node.$ref === 'string' && seen++ < 16) {
    const target = deref(node.$ref);
    where = node.$ref;
    prov = meet(prov, provenanceAt(target, undefined, where));
    node = target;
  }
  return { node, prov, where };
}

const decode = (seg: string) => seg.replace(/~1/g, '/').replace(/~0/g, '~');
/** The spec node of an operation (`paths[path][method]`). */
function operationNode(op: Pick<Operation, 'path' | 'method'>): Node {
  return loadOpenApi().paths[op.path]![op.method.toLowerCase()] as Node;
}

const unknownProvenance = (where: string): Provenance => ({ level: 'inferred', reason: `${where} carries no provenance (spec/test/provenance.test.ts fails on it)` });

/**
 * The provenance of a keyword reached by a JSON pointer into an operation's spec node, following
 * `$ref`s on the way: `provenanceOf(op, '/requestBody/content/application~1json/schema/properties/name',
 * 'maxLength')`; `provenanceOf(op, '/responses/415')` (a documented status); `provenanceOf(op, '', 'method')`.
 * A `parameters/<name>` segment selects a parameter by name (also one the path item declares). A pointer
 * that leaves the spec answers inferred. Never throws.
 */
export function provenanceOf(op: Pick<Operation, 'path' | 'method' | 'operationId'>, pointer: string, keyword?: string): Provenance {
  const opNode = operationNode(op);
  let where = `${op.operationId}`;
  let prov = provenanceAt(opNode, undefined, where);
  let node: unknown = opNode;
  const parts = pointer.split('/').slice(1).map(decode);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === 'responses' && parts[i + 1] !== undefined && inferredKeywordsOf(node).includes(parts[i + 1]!)) {
      return { level: 'inferred', reason: `status ${parts[i + 1]} of ${op.operationId} is listed in x-inferred-keywords: the description does not list it` };
    }
    if (part === 'parameters' && parts[i + 1] !== undefined && isNode(node)) {
      const name = parts[++i]!;
      const item = loadOpenApi().paths[op.path]! as Node;
      const all = [...((node.parameters as unknown[]) ?? []), ...((item.parameters as unknown[]) ?? [])];
      const found = all.map((p) => follow(p, prov, where)).find((f) => isNode(f.node) && f.node.name === name);
      if (!found) return unknownProvenance(`${where} parameter ${name}`);
      where = `${op.operationId} parameter ${name}`;
      ({ node } = found);
      prov = provenanceAt(node, found.prov, where);
      continue;
    }
    const next = isNode(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
    if (next === undefined) return unknownProvenance(`${where}/${part}`);
    where = `${where}/${part}`;
    const f = follow(next, provenanceAt(next, prov, where), where);
    node = f.node;
    prov = provenanceAt(node, f.prov, f.where);
  }
  return keywordProvenance(node, prov, keyword, where) ?? unknownProvenance(where);
}

/**
 * The provenance of a constraint a generator broke in an operation's JSON body: `pointer` is the
 * instance pointer of the broken value (`/fields/0/label`, `''` for the root) and `keyword` the JSON
 * Schema keyword (`maxLength`, `required`, `enum`, …). The schema is walked along the instance: object
 * members through `properties` (also those of `allOf`/`oneOf`/`anyOf` branches), array items through
 * `items`. The lowest provenance along the path wins.
 */
export function bodyKeywordProvenance(op: Pick<Operation, 'path' | 'method' | 'operationId'>, pointer: string, keyword: string): Provenance {
  const base = '/requestBody/content/application~1json/schema';
  const start = follow(walkNode(op, base), provenanceOf(op, base), `${op.operationId} body`);
  let { node, prov } = start;
  let where = `${op.operationId} body`;
  for (const part of pointer.split('/').slice(1).map(decode)) {
    where = `${where}/${part}`;
    const child = /^\d+$/.test(part) && isNode(node) && node.items !== undefined ? { node: node.items, prov } : memberSchema(node, part, prov);
    if (child === undefined) return keywordProvenance(node, prov, keyword, where) ?? unknownProvenance(where);
    const f = follow(child.node, provenanceAt(child.node, child.prov, where), where);
    node = f.node;
    prov = provenanceAt(node, f.prov, f.where);
  }
  // A keyword of a combining branch (oneOf/anyOf/allOf/dependentSchemas) is judged at the node holding it.
  return keywordProvenance(node, prov, keyword, where) ?? unknownProvenance(where);
}

/** The raw node at a pointer into an operation's spec node (no `$ref` followed), or undefined. */
function walkNode(op: Pick<Operation, 'path' | 'method'>, pointer: string): unknown {
  let node: unknown = operationNode(op);
  for (const part of pointer.split('/').slice(1).map(decode)) node = isNode(node) ? node[part] : undefined;
  return node;
}

/** The schema of member `name` of an object schema (also in its combining branches), with the provenance it inherits. */
function memberSchema(node: unknown, name: string, prov: Provenance | undefined): { node: unknown; prov: Provenance | undefined } | undefined {
  if (!isNode(node)) return undefined;
  const own = (node.properties as Node | undefined)?.[name];
  if (own !== undefined) return { node: own, prov };
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of (node[key] as unknown[]) ?? []) {
      const f = follow(branch, provenanceAt(branch, prov, key), key);
      const m = memberSchema(f.node, name, provenanceAt(f.node, f.prov, f.where));
      if (m !== undefined) return m;
    }
  }
  return undefined;
}

/** Whether an operation's route (path and method) is stated: `x-inferred` or an inferred `method` make it inferred. */
export function routeProvenance(op: Pick<Operation, 'path' | 'method' | 'operationId'>): Provenance {
  const path = provenanceOf(op, '', 'path');
  return path.level === 'inferred' ? path : provenanceOf(op, '', 'method');
}
