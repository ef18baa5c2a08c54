/**
 * The inspector page's files (mock/journal/inspector/: plain HTML, CSS and one script, no build step),
 * read once from the package and served under `/__mock/inspector/` with headers that keep the page to
 * itself: a Content-Security-Policy allowing only its own script, style and `connect-src 'self'`, no
 * framing, no referrer.
 */
import { readFileSync } from 'node:fs';

const FILES: Record<string, { file: string; type: string }> = {
  '': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'inspector.js': { file: 'inspector.js', type: 'text/javascript; charset=utf-8' },
  'inspector.css': { file: 'inspector.css', type: 'text/css; charset=utf-8' },
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const loaded = new Map<string, string>();

/** The file served at `path` (`/__mock/inspector[/name]`) with its headers, or undefined when there is none. */
export function inspectorAsset(path: string): { body: string; headers: Record<string, string> } | undefined {
  const name = path.replace(/^\/__mock\/inspector\/?/, '');
  const known = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!known) return undefined;
  let body = loaded.get(known.file);
  if (body === undefined) {
    body = readFileSync(new URL(`./inspector/${known.file}`, import.meta.url), 'utf8');
    loaded.set(known.file, body);
  }
  return { body, headers: { 'Content-Type': known.type, ...SECURITY_HEADERS } };
}
