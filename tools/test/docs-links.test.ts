/**
 * The documentation stays inside the repository and whole: no tracked text file points at
 * `../shared/` (the API description and the design ship as docs/api-v1.md and docs/design.md), every
 * relative Markdown link of README.md, docs/*.md and bench/README.md names a file that exists and, with
 * a `#fragment`, a heading (GitHub's anchor) or `<a id>` of that file, the README links every user
 * docs page, and it stays short (the detail lives in docs/, per audience). docs/history.md (past
 * rounds of measurement, not a user page) is linked from docs/maintainers.md instead.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';

const README_MAX_LINES = 120;
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const isText = (buf: Buffer) => !buf.subarray(0, 8000).includes(0);
const pages = ['README.md', ...readdirSync(resolve(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const linkedPages = [...pages, 'bench/README.md'];
const HISTORY = 'docs/history.md';

/** Relative link targets of a Markdown text (inline links and images), with their #fragment if any. */
function relativeHrefs(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

/** Relative link targets of a Markdown text (inline links and images), without their #fragment. */
function relativeLinks(markdown: string): string[] {
  return relativeHrefs(markdown).filter((href) => !href.startsWith('#')).map((href) => decodeURIComponent(href.split('#')[0] ?? ''));
}

/** The anchors GitHub gives a Markdown text: its headings' slugs (numbered when repeated) and `<a id|name>`. */
function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of prose.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const slug = (text ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id ?? '');
  return anchors;
}

test('no tracked text file references ../shared/', () => {
  const offenders = tracked.filter((file) => {
    const path = resolve(ROOT, file);
    if (!existsSync(path) || file === 'tools/test/docs-links.test.ts') return false;
    const buf = readFileSync(path);
    return isText(buf) && buf.toString('utf8').includes('../shared/');
  });
  expect(offenders).toEqual([]);
});

test('every relative link in README.md, docs/*.md and bench/README.md points at an existing file', () => {
  const broken = linkedPages.flatMap((page) =>
    relativeLinks(readFileSync(resolve(ROOT, page), 'utf8'))
      .filter((href) => !existsSync(resolve(ROOT, dirname(page), href)))
      .map((href) => `${page} → ${href}`));
  expect(broken).toEqual([]);
});

test('every #fragment of a link to a Markdown page names a heading or anchor of that page', () => {
  const broken = linkedPages.flatMap((page) =>
    relativeHrefs(readFileSync(resolve(ROOT, page), 'utf8'))
      .filter((href) => href.includes('#'))
      .map((href) => {
        const [file = '', fragment = ''] = href.split('#');
        return { href, target: file ? resolve(ROOT, dirname(page), decodeURIComponent(file)) : resolve(ROOT, page), fragment: decodeURIComponent(fragment) };
      })
      .filter(({ target }) => target.endsWith('.md') && existsSync(target))
      .filter(({ target, fragment }) => !anchorsOf(readFileSync(target, 'utf8')).has(fragment))
      .map(({ href }) => `${page} → ${href}`));
  expect(broken).toEqual([]);
});

test(`the README is under ${README_MAX_LINES} lines and links every user docs page; the maintainers' page links the history`, () => {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThan(README_MAX_LINES);
  const linked = new Set(relativeLinks(readme));
  expect(pages.filter((p) => p !== 'README.md' && p !== HISTORY && !linked.has(p))).toEqual([]);
  expect(relativeLinks(readFileSync(resolve(ROOT, 'docs/maintainers.md'), 'utf8'))).toContain('history.md');
});
