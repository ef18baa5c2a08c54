/**
 * Walks a whole OpenAPI document (spec/openapi.yaml) and lists every actionable keyword with its
 * provenance (contract/provenance.ts): operations (path, method), parameters (name, required and their
 * schemas), request bodies, documented statuses, headers, and every schema keyword a validator, a
 * generator or the mock acts on. Each node is visited once where it is written (a `$ref` is not
 * followed: the component it names is visited under `components`). spec/test/provenance.test.ts fails
 * on an entry without provenance; the same walk gives the counts of stated and inferred keywords.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './paths.ts';
import { keywordProvenance, provenanceAt, sourcesOf, type Provenance, type Source } from './provenance.ts';

/** The JSON Schema keywords that constrain an instance (and so can decide a verdict). */
export const SCHEMA_KEYWORDS = [
  'type', 'format', 'pattern', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'required', 'additionalProperties', 'dependentSchemas', 'dependentRequired', 'oneOf', 'anyOf', 'not', 'default',
] as const;

/** One actionable keyword: where (a JSON pointer into the document), which, and its provenance (undefined: none). */
export interface WalkEntry {
  where: string;
  keyword: string;
  provenance: Provenance | undefined;
  /** For a documented status whose provenance comes from its operation: the operation's quoted words. */
  operationQuote?: string;
  /** For a documented status: the section of the response's own `x-source`, when it has one. */
  responseSection?: string;
  /** For a schema reference (`keyword: '$ref'`): the component it names. */
  ref?: string;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every actionable keyword of `doc`, in document order. */
export function walkProvenance(doc: Node): WalkEntry[] {
  const out: WalkEntry[] = [];
  const add = (node: unknown, prov: Provenance | undefined, where: string, keyword: string) => out.push({ where, keyword, provenance: keywordProvenance(node, prov, keyword, where) });

  const schema = (node: unknown, inherited: Provenance | undefined, where: string): void => {
    if (isNode(node) && typeof node.$ref === 'string') {
      // A reference: its own provenance is the site's; the component carries its own (walked under components).
      out.push({ where, keyword: '$ref', provenance: provenanceAt(node, inherited, where), ref: node.$ref });
      return;
    }
    if (!isNode(node)) return;
    const prov = provenanceAt(node, inherited, where);
    for (const k of SCHEMA_KEYWORDS) if (node[k] !== undefined) add(node, prov, where, k);
    for (const [name, member] of Object.entries((node.properties as Node | undefined) ?? {})) {
      const at = `${where}/properties/${esc(name)}`;
      add(member, provenanceAt(member, prov, at), at, 'member');
      schema(member, prov, at);
    }
    for (const key of ['patternProperties', 'dependentSchemas', '$defs']) for (const [k, v] of Object.entries((node[key] as Node | undefined) ?? {})) schema(v, prov, `${where}/${key}/${esc(k)}`);
    for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']) schema(node[key], prov, `${where}/${key}`);
    for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) ((node[key] as unknown[]) ?? []).forEach((v, i) => schema(v, prov, `${where}/${key}/${i}`));
  };

  const parameter = (node: unknown, inherited: Provenance | undefined, where: string): void => {
    if (!isNode(node) || typeof node.$ref === 'string') return;
    const prov = provenanceAt(node, inherited, where);
    add(node, prov, where, 'name');
    if (node.required !== undefined) add(node, prov, where, 'required');
    schema(node.schema, prov, `${where}/schema`);
  };

  const content = (node: unknown, prov: Provenance | undefined, where: string): void => {
    for (const [type, media] of Object.entries((isNode(node) ? (node as Node) : {}) as Node)) {
      add(media, prov, `${where}/${esc(type)}`, 'mediaType');
      schema((media as Node).schema, prov, `${where}/${esc(type)}/schema`);
    }
  };

  const header = (node: unknown, inherited: Provenance | undefined, where: string): void => {
    if (!isNode(node) || typeof node.$ref === 'string') return;
    const prov = provenanceAt(node, inherited, where);
    if (node.required !== undefined) add(node, prov, where, 'required');
    schema(node.schema, prov, `${where}/schema`);
  };

  const response = (node: unknown, inherited: Provenance | undefined, where: string): void => {
    if (!isNode(node) || typeof node.$ref === 'string') return;
    const prov = provenanceAt(node, inherited, where);
    for (const [name, h] of Object.entries((node.headers as Node | undefined) ?? {})) header(h, prov, `${where}/headers/${esc(name)}`);
    content(node.content, prov, `${where}/content`);
  };

  const components = (doc.components ?? {}) as Record<string, Node>;
  const ownSection = (ref: unknown): string | undefined => {
    if (!isNode(ref)) return undefined;
    const target = typeof ref.$ref === 'string' ? components.responses?.[ref.$ref.split('/').pop()!] : ref;
    return sourcesOf(target)[0]?.section;
  };
  const refInferred = (ref: unknown): boolean => {
    const target = isNode(ref) && typeof ref.$ref === 'string' ? components.responses?.[ref.$ref.split('/').pop()!] : ref;
    return isNode(target) && target['x-inferred'] === true;
  };

  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Node>)) {
    const itemWhere = `/paths/${esc(path)}`;
    ((item.parameters as unknown[]) ?? []).forEach((p, i) => parameter(p, undefined, `${itemWhere}/parameters/${i}`));
    for (const method of METHODS) {
      const op = item[method];
      if (!isNode(op)) continue;
      const where = `${itemWhere}/${method}`;
      const prov = provenanceAt(op, undefined, where);
      add(op, prov, where, 'path');
      add(op, prov, where, 'method');
      ((op.parameters as unknown[]) ?? []).forEach((p, i) => parameter(p, prov, `${where}/parameters/${i}`));
      if (isNode(op.requestBody)) {
        const body = op.requestBody;
        const bodyProv = provenanceAt(body, prov, `${where}/requestBody`);
        if (body.required !== undefined) add(body, bodyProv, `${where}/requestBody`, 'required');
        content(body.content, bodyProv, `${where}/requestBody/content`);
      }
      for (const [status, r] of Object.entries((op.responses as Node | undefined) ?? {})) {
        const at = `${where}/responses/${status}`;
        let sp = keywordProvenance(op, prov, status, where);
        if (sp?.level === 'stated' && refInferred(r)) sp = { level: 'inferred', reason: `${at} is marked x-inferred` };
        sp = provenanceAt(r, sp, at);
        out.push({ where: at, keyword: 'status', provenance: sp, operationQuote: sourcesOf(op).map((s: Source) => s.quote).join(' '), responseSection: ownSection(r) });
        response(r, prov, at);
      }
    }
  }
  for (const [name, node] of Object.entries(components.schemas ?? {})) schema(node, undefined, `/components/schemas/${esc(name)}`);
  for (const [name, node] of Object.entries(components.parameters ?? {})) parameter(node, undefined, `/components/parameters/${esc(name)}`);
  for (const [name, node] of Object.entries(components.headers ?? {})) header(node, undefined, `/components/headers/${esc(name)}`);
  for (const [name, node] of Object.entries(components.responses ?? {})) response(node, undefined, `/components/responses/${esc(name)}`);
  return out;
}

/** Every `x-source` entry anywhere in `doc`, with where it sits. */
export function allSources(doc: unknown, where = ''): Array<Source & { where: string }> {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => allSources(v, `${where}/${i}`));
  if (!isNode(doc)) return [];
  const own = sourcesOf(doc).map((s) => ({ ...s, where }));
  return [...own, ...Object.entries(doc).filter(([k]) => k !== 'x-source').flatMap(([k, v]) => allSources(v, `${where}/${esc(k)}`))];
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The text of each section of docs/api-v1.md by heading, whitespace-normalised (a table row is its
 * cells between `|`); a section runs to the next heading of its level or above, its subsections included.
 */
export function descriptionSections(): Map<string, string> {
  const lines = readFileSync(resolve(ROOT, 'docs', 'api-v1.md'), 'utf8').split('\n');
  const out = new Map<string, string>();
  lines.forEach((line, i) => {
    const m = /^(#+) (.+)$/.exec(line);
    if (!m) return;
    const end = lines.findIndex((l, j) => j > i && /^#+ /.test(l) && l.indexOf(' ') <= m[1]!.length);
    out.set(m[2]!.trim(), normalise(lines.slice(i + 1, end < 0 ? undefined : end).join('\n')));
  });
  return out;
}

/** What is wrong with each source (an unknown section, an empty quote, words not verbatim in the section); empty when all hold. */
export function quoteProblems(sources: Array<Source & { where: string }>): string[] {
  const text = descriptionSections();
  return sources.flatMap((s) => {
    const section = text.get(s.section);
    if (section === undefined) return [`${s.where}: no section "${s.section}"`];
    if (typeof s.quote !== 'string' || normalise(s.quote).length < 3) return [`${s.where}: empty quote`];
    return section.includes(normalise(s.quote)) ? [] : [`${s.where}: "${s.quote}" is not in section ${s.section}`];
  });
}
