/**
 * spec/generated/api.ts from spec/openapi.yaml: openapi-typescript's output, except that a value set the
 * spec marks inferred (`enum` listed in `x-inferred-keywords`, contract/provenance.ts) is typed by its
 * JSON type (`string`, `number`), not as the union of the mock's values — the description does not
 * state them, so neither the suite nor an integrator may rely on them (`npm run types` writes it;
 * spec/test/types.test.ts checks it is fresh).
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import ts from 'typescript';
import { OPENAPI_FILE, TYPES_FILE } from './paths.ts';
import { inferredKeywordsOf } from './provenance.ts';

/** The text of spec/generated/api.ts for the spec as it is now. */
export async function generateTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(OPENAPI_FILE), {
    silent: true,
    transform(schema) {
      if (!inferredKeywordsOf(schema).includes('enum')) return undefined;
      const numeric = schema.type === 'integer' || schema.type === 'number';
      return ts.factory.createKeywordTypeNode(numeric ? ts.SyntaxKind.NumberKeyword : ts.SyntaxKind.StringKeyword);
    },
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(TYPES_FILE, await generateTypes(), 'utf8');
  process.stdout.write(`spec/openapi.yaml → ${TYPES_FILE}\n`);
}
