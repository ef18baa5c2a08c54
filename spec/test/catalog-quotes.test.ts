/**
 * Every `must` requirement of spec/requirements.yaml rests on a sentence of docs/api-v1.md, quoted
 * verbatim (whitespace aside; a table row as its cells joined by ` | `), in the section it names.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog, quoteParts } from '../../contract/catalog.ts';
import { descriptionSections, quoteProblem } from '../../contract/description-sections.ts';

const catalog = loadCatalog();
const sections = descriptionSections();

test('every must requirement carries a quote', () => {
  const unquoted = catalog.requirements.filter((r) => r.level === 'must' && !r.quote?.length).map((r) => r.id);
  expect(unquoted).toEqual([]);
  expect(catalog.requirements.filter((r) => r.level === 'must').length).toBeGreaterThan(150);
});

test('every quote is the verbatim words of the section it names', () => {
  const problems: string[] = [];
  for (const req of catalog.requirements) {
    for (const quote of req.quote ?? []) {
      const { section, text } = quoteParts(req, quote);
      const problem = quoteProblem(sections, section, text);
      if (problem) problems.push(`${req.id}: ${problem}`);
    }
  }
  expect(problems).toEqual([]);
});

test('the quote check finds what is not the description\'s words', () => {
  // A reworded row, a sentence from another section, a section that does not exist: each is caught.
  expect(quoteProblem(sections, 'Errors', '401 | `missing_authorization` | header missing')).toMatch(/not verbatim/);
  expect(quoteProblem(sections, 'Errors', 'Revocation is permanent.')).toMatch(/but in: .*Authentication/);
  expect(quoteProblem(sections, 'Nowhere', 'Revocation is permanent.')).toMatch(/no section/);
  // Whitespace and line breaks do not matter; one cell of a table counts.
  expect(quoteProblem(sections, 'Errors', '401  |\n`missing_authorization` | header absent')).toBeUndefined();
  expect(quoteProblem(sections, 'Limits', '1,000 requests per minute')).toBeUndefined();
  expect(quoteProblem(sections, 'Endpoints › Meters (native)', 'partial meter body')).toBeUndefined();
});

test('the section path names subsections under their section, and the title names the whole text', () => {
  expect(sections.get('Endpoints')).toContain('partial meter body');
  expect(sections.get('Resources and their fields › Meter')).not.toContain('Readings are immutable');
  expect(sections.get('Maintenance Management Service API, version 1')).toContain('The service is an HTTPS JSON API.');
});
