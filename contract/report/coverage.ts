/**
 * API coverage of a run (docs/generative.md, "Coverage"), like Schemathesis' coverage report: per
 * operation of spec/openapi.yaml, the documented response statuses and inputs (path and query
 * parameters, top-level JSON body members) this run observed against this target, those it never
 * reached, and statuses the target answered that the operation does not document.
 *
 * "Documented" comes from the spec (contract/openapi.ts); "observed" from the exchanges the tests
 * recorded: each test attaches a compact summary of its own (`observedOf`, COVERAGE_ATTACHMENT) and the
 * reporter merges them (`mergeObserved`) into the report's `coverage` (`computeCoverage`).
 */
import { loadOpenApi, type JsonSchema, type Operation } from '../openapi.ts';

export const COVERAGE_ATTACHMENT = 'conformance-coverage';

/** What one test observed, by operationId: statuses answered and inputs sent (`query:limit`, `body:title`). */
export type Observed = Record<string, { statuses: number[]; inputs: string[] }>;

/** The part of an exchange coverage reads (contract/exchange.ts Exchange). */
export interface ObservedExchange {
  operation?: Pick<Operation, 'operationId' | 'parameters'>;
  url: string;
  status: number;
  requestBody?: string;
}

/** One operation's coverage: documented, observed and never reached, for statuses and inputs. */
export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  requests: boolean;
  statuses: { documented: number[]; observed: number[]; missing: number[]; undocumented: number[] };
  inputs: { documented: string[]; observed: string[]; missing: string[] };
}

export interface CoverageReport {
  operations: OperationCoverage[];
  totals: {
    operations: { documented: number; observed: number };
    statuses: { documented: number; observed: number };
    inputs: { documented: number; observed: number };
  };
}

const sorted = <T>(values: Iterable<T>): T[] => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The top-level members of a JSON body, or none when it is not a JSON object (or was truncated). */
function bodyMembers(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
  } catch {
    return [];
  }
}

/**
 * The observations of a test's exchanges: for each routed exchange (a response came: status > 0), its
 * status, its path parameters (reaching the operation means they were sent), its query parameters and
 * its JSON body's top-level members.
 */
export function observedOf(exchanges: ObservedExchange[]): Observed {
  const out: Observed = {};
  for (const x of exchanges) {
    if (!x.operation || x.status === 0) continue;
    const entry = (out[x.operation.operationId] ??= { statuses: [], inputs: [] });
    entry.statuses.push(x.status);
    for (const p of x.operation.parameters) if (p.in === 'path') entry.inputs.push(`path:${p.name}`);
    for (const name of URL.canParse(x.url) ? new URL(x.url).searchParams.keys() : []) entry.inputs.push(`query:${name}`);
    for (const name of bodyMembers(x.requestBody)) entry.inputs.push(`body:${name}`);
  }
  for (const entry of Object.values(out)) {
    entry.statuses = sorted(entry.statuses);
    entry.inputs = sorted(entry.inputs);
  }
  return out;
}

/** The union of several tests' observations. */
export function mergeObserved(parts: Observed[]): Observed {
  const out: Observed = {};
  for (const part of parts) {
    for (const [id, o] of Object.entries(part)) {
      const entry = (out[id] ??= { statuses: [], inputs: [] });
      entry.statuses = sorted([...entry.statuses, ...o.statuses]);
      entry.inputs = sorted([...entry.inputs, ...o.inputs]);
    }
  }
  return out;
}

/** The named members of a body schema: its own properties and those of its oneOf/anyOf/allOf branches. */
function schemaMembers(schema: JsonSchema | undefined, depth = 0): string[] {
  if (schema === undefined || depth > 4) return [];
  let s = schema;
  // A local reference (`#/components/schemas/Name`), resolved through the spec; no schema compiler needed.
  while (typeof s === 'object' && typeof s.$ref === 'string') s = loadOpenApi().components.schemas[s.$ref.split('/').pop()!] ?? true;
  if (typeof s !== 'object') return [];
  const own = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).filter(([, v]) => v !== false).map(([k]) => k);
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((k) => ((s[k] as JsonSchema[] | undefined) ?? []).flatMap((b) => schemaMembers(b, depth + 1)));
  return [...own, ...branches];
}

/** The inputs an operation documents: `path:` and `query:` parameters and `body:` members of a JSON body. */
export function documentedInputs(op: Operation): string[] {
  const params = op.parameters.filter((p) => p.in === 'path' || p.in === 'query').map((p) => `${p.in}:${p.name}`);
  const json = op.requestBody?.mediaTypes.includes('application/json') ? schemaMembers(op.requestBody.schema).map((m) => `body:${m}`) : [];
  return sorted([...params, ...json]);
}

/** Per operation of `operations` (spec order), what `observed` reached of what it documents. */
export function computeCoverage(operations: Operation[], observed: Observed): CoverageReport {
  const rows = operations.map((op): OperationCoverage => {
    const seen = observed[op.operationId] ?? { statuses: [], inputs: [] };
    const statuses = sorted(op.responses.map((r) => r.status));
    const inputs = documentedInputs(op);
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      requests: seen.statuses.length > 0,
      statuses: {
        documented: statuses,
        observed: statuses.filter((s) => seen.statuses.includes(s)),
        missing: statuses.filter((s) => !seen.statuses.includes(s)),
        undocumented: seen.statuses.filter((s) => !statuses.includes(s)),
      },
      inputs: { documented: inputs, observed: inputs.filter((i) => seen.inputs.includes(i)), missing: inputs.filter((i) => !seen.inputs.includes(i)) },
    };
  });
  const sum = (f: (r: OperationCoverage) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    operations: rows,
    totals: {
      operations: { documented: rows.length, observed: rows.filter((r) => r.requests).length },
      statuses: { documented: sum((r) => r.statuses.documented.length), observed: sum((r) => r.statuses.observed.length) },
      inputs: { documented: sum((r) => r.inputs.documented.length), observed: sum((r) => r.inputs.observed.length) },
    },
  };
}
