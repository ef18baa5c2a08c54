/**
 * docs/api-v1.md cut into its sections, for checking that a quote is the description's own words
 * (spec/requirements.yaml `quote`, docs/design.md §2). A section is named by its heading path below the
 * document title: `Endpoints` or `Endpoints › Meters (native)`; the title itself names the whole text.
 * A section's text runs to the next heading of its level or above, so it holds its subsections.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './paths.ts';

/** docs/api-v1.md: the API description, the only source of every rule. */
export const DESCRIPTION_FILE = resolve(ROOT, 'docs', 'api-v1.md');

/** Whitespace runs (newlines included) made one space, ends trimmed: how quotes and text are compared. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The description's sections, heading path → normalised text (heading line excluded). Table rows stay
 * as written, so one cell's text, or several cells joined by ` | `, is a substring of its section.
 */
export function descriptionSections(markdown = readFileSync(DESCRIPTION_FILE, 'utf8')): Map<string, string> {
  const lines = markdown.split('\n');
  const headings: Array<{ line: number; level: number; path: string }> = [];
  const stack: string[] = [];
  lines.forEach((line, index) => {
    const m = /^(#{1,6})\s+(.*\S)\s*$/.exec(line);
    if (!m) return;
    const level = m[1]!.length;
    stack.length = level - 1;
    stack[level - 1] = m[2]!;
    headings.push({ line: index, level, path: level === 1 ? m[2]! : stack.slice(1).filter(Boolean).join(' › ') });
  });
  const sections = new Map<string, string>();
  headings.forEach((h, i) => {
    const next = headings.slice(i + 1).find((o) => o.level <= h.level);
    sections.set(h.path, normaliseWhitespace(lines.slice(h.line + 1, next?.line ?? lines.length).join('\n')));
  });
  return sections;
}

/**
 * Why `text` is not the verbatim words of `section` (whitespace aside), or undefined when it is.
 * Names the other sections that hold it, when the words are right but the section is wrong.
 */
export function quoteProblem(sections: Map<string, string>, section: string, text: string): string | undefined {
  const body = sections.get(section);
  const wanted = normaliseWhitespace(text);
  if (body === undefined) return `no section "${section}" in docs/api-v1.md`;
  if (body.includes(wanted)) return undefined;
  const elsewhere = [...sections].filter(([, t]) => t.includes(wanted)).map(([name]) => name);
  return elsewhere.length ? `not in "${section}" but in: ${elsewhere.join('; ')}` : `not verbatim in docs/api-v1.md: "${wanted}"`;
}
