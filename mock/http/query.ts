/** Query strings: every value given for each (case-sensitive) name. */
export function parseQuery(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (search === '') return out;
  for (const [name, value] of new URLSearchParams(search)) (out[name] ??= []).push(value);
  return out;
}
