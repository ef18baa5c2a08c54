/**
 * Query strings: every value given for each (case-sensitive) name. The result has no prototype, so a
 * parameter named like an Object method (`valueOf`, `__proto__`) is just a name.
 */
export function parseQuery(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  if (search === '') return out;
  for (const [name, value] of new URLSearchParams(search)) (out[name] ??= []).push(value);
  return out;
}
