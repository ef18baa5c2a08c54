/**
 * Pretty-prints a recorded JSON body as HTML with the field at a JSON pointer (RFC 6901, from Ajv's
 * instancePath) wrapped in `<mark>` — the offending field of a failed check (docs/design.md §6 evidence).
 * A pointer to a missing member marks its nearest existing parent. Text that is not JSON is escaped
 * as it is.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The pointer's reference tokens, unescaped (`/a~1b/0` → ['a/b', '0']). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.replace(/^\//, '').split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The longest prefix of `tokens` that names a node of `value`. */
function existing(value: unknown, tokens: string[]): string[] {
  const found: string[] = [];
  let node = value;
  for (const t of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, t)) break;
    node = (node as Record<string, unknown>)[t];
    found.push(t);
  }
  return found;
}

function render(value: unknown, path: string[], target: string[], indent: string): string {
  const here = path.length === target.length && path.every((t, i) => t === target[i]);
  let out: string;
  if (value === null || typeof value !== 'object') out = escape(JSON.stringify(value) ?? 'null');
  else {
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) out = `${open}${close}`;
    else {
      const inner = `${indent}  `;
      const lines = entries.map(([k, v]) => `${inner}${Array.isArray(value) ? '' : `${escape(JSON.stringify(k))}: `}${render(v, [...path, k], target, inner)}`);
      out = `${open}\n${lines.join(',\n')}\n${indent}${close}`;
    }
  }
  return here ? `<mark>${out}</mark>` : out;
}

/** The body as escaped HTML, pretty-printed when it parses, the node at `pointer` marked. */
export function highlightJson(body: string, pointer?: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return escape(body);
  }
  const target = pointer === undefined ? undefined : existing(value, pointerTokens(pointer));
  return render(value, [], target ?? ['\u0000none'], '');
}
