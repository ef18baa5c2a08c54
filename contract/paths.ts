/** Absolute paths of the kit's machine-readable sources of truth. */
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const ROOT = resolve(here, '..');
/** spec/openapi.yaml: the OpenAPI 3.1 description. */
export const OPENAPI_FILE = resolve(ROOT, 'spec', 'openapi.yaml');
/** spec/requirements.yaml: the requirement catalog. */
export const CATALOG_FILE = resolve(ROOT, 'spec', 'requirements.yaml');
/** spec/target-profile.schema.json: the JSON Schema of target profiles. */
export const PROFILE_SCHEMA_FILE = resolve(ROOT, 'spec', 'target-profile.schema.json');
/** spec/requirements.schema.json: the JSON Schema of the catalog. */
export const CATALOG_SCHEMA_FILE = resolve(ROOT, 'spec', 'requirements.schema.json');
/** spec/generated/api.ts: types generated from the spec by openapi-typescript. */
export const TYPES_FILE = resolve(ROOT, 'spec', 'generated', 'api.ts');
