/**
 * Spectral function: every operation names exactly one scope of the `ApiKey` scheme, and that scope is
 * declared in the scheme's `x-scopes` map (Authentication: "Every endpoint requires one exact scope").
 *
 * Replaces spectral:oas' `oas3-operation-security-defined`, which only knows OAuth2 flow scopes and
 * cannot see OpenAPI 3.1 role names on an http bearer scheme.
 */
export default function scopeDeclared(security, _options, { document }) {
  const declared = document.data?.components?.securitySchemes?.ApiKey?.['x-scopes'] ?? {};
  if (!Array.isArray(security) || security.length !== 1) {
    return [{ message: 'An operation needs exactly one security requirement (one API-key scope).' }];
  }
  const scopes = security[0]?.ApiKey;
  if (!Array.isArray(scopes) || scopes.length !== 1) {
    return [{ message: 'An operation needs exactly one scope on the ApiKey scheme.' }];
  }
  if (!(scopes[0] in declared)) {
    return [{ message: `Scope "${scopes[0]}" is not declared in components.securitySchemes.ApiKey.x-scopes.` }];
  }
  return [];
}
