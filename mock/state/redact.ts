/** How a `--state` store is named in messages and `/__mock/health`: never with a password. */

/** `spec` without a URL's password (`postgres://user:***@host/db`). */
export function redact(spec: string): string {
  return spec.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, '$1:***@');
}
