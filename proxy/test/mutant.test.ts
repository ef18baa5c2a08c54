/**
 * A broken upstream is caught live: the mock's mutant `errors-as-json` (serves problem details as
 * application/json, breaking ERR-001) behind the proxy yields a `problemContentType → ERR-001` root
 * cause in proxy.json, with its exchanges counted, while the answer itself passes unchanged.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMutant } from '../../mock/mutants/catalog.ts';
import { writeReport, type ProxyReport } from '../report.ts';
import { startProxiedMock } from './support.ts';

test('errors-as-json behind the proxy: a problemContentType → ERR-001 violation in proxy.json', async () => {
  const pair = await startProxiedMock({ mutation: findMutant('errors-as-json')!.mutation });
  for (const id of ['mtr_unknown1', 'mtr_unknown2']) {
    const answer = await pair.viaProxy(`/v1/meters/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json');
    await answer.text();
  }
  const ok = await pair.viaProxy('/v1/meters?limit=1');
  expect(ok.status).toBe(200);
  await ok.text();
  await pair.proxy.settled();
  const dir = mkdtempSync(join(tmpdir(), 'proxy-mutant-'));
  const report = await pair.proxy.stop();
  await pair.mock.stop();
  const files = writeReport(dir, report);
  const written = JSON.parse(readFileSync(files.json, 'utf8')) as ProxyReport;
  const group = written.violations.find((g) => g.check === 'problemContentType');
  expect(group).toMatchObject({ requirement: 'ERR-001', operation: 'getMeter', status: 404, exchanges: 2 });
  expect(written.violatingExchanges).toBe(2);
  expect(pair.lines.filter((l) => l.includes('[problemContentType → ERR-001]'))).toHaveLength(2);
  expect(readFileSync(files.html, 'utf8')).toContain('problemContentType');
});
