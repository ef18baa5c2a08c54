/**
 * The documentation stays inside the repository and whole: no tracked text file points at
 * `../shared/` (the API description and the design ship as docs/api-v1.md and docs/design.md), every
 * relative Markdown link of README.md and docs/*.md names a file that exists, the README links every
 * docs page, and it stays short (the detail lives in docs/, per audience).
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

/** Relative link targets of a Markdown text (inline links and images), without their #fragment. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#'))
    .map((href) => decodeURIComponent(href.split('#')[0] ?? ''));
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

test('every relative link in README.md and docs/*.md points at an existing file', () => {
  const broken = pages.flatMap((page) =>
    relativeLinks(readFileSync(resolve(ROOT, page), 'utf8'))
      .filter((href) => !existsSync(resolve(ROOT, dirname(page), href)))
      .map((href) => `${page} → ${href}`));
  expect(broken).toEqual([]);
});

test(`the README is under ${README_MAX_LINES} lines and links every docs page`, () => {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThan(README_MAX_LINES);
  const linked = new Set(relativeLinks(readme));
  expect(pages.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
});
