/**
 * exchanges.har (contract/report/har.ts) is HAR 1.2: a document built from recorded evidence — an
 * answered request with a body, a redirect, and a request that got no answer (status 0) — validates
 * against har-schema (draft-06 JSON Schema, through the kit's Ajv with the draft-06 meta-schema), and
 * keeps the order, redaction and test names of the evidence. Reproductions (contract/report/reproduce.ts)
 * quote bodies for POSIX shells and name keys by variable.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { renderHar } from '../../contract/report/har.ts';
import { curlCommand } from '../../contract/report/reproduce.ts';
import type { TestOutcome } from '../../contract/report/model.ts';
import type { EvidenceRecord } from '../../contract/exchange.ts';

const require = createRequire(import.meta.url);
const HAR_SCHEMAS = require('har-schema') as Record<string, { $id: string }>;

type Recorded = EvidenceRecord['exchanges'][number];

const created: Recorded = {
  method: 'POST', url: 'http://127.0.0.1:4200/v1/meters?dry=1', path: '/meters', operationId: 'createMeter',
  requestHeaders: { authorization: 'Bearer sk_live_****abcd', 'content-type': 'application/json' },
  requestBody: `{"name":"it's \\"odd\\" $HOME \`x\`"}`,
  status: 201, responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'r1' }, responseBody: '{"data":{}}',
  durationMs: 12, authenticated: true, retries: [], startedAt: '2025-01-01T00:00:01.000Z', credential: 'MMS_KEY_LIVE',
};
const redirected: Recorded = { ...created, method: 'GET', requestBody: undefined, status: 301, responseHeaders: { location: 'http://127.0.0.1:4200/v1/x' }, responseBody: '', startedAt: '2025-01-01T00:00:00.000Z', credential: 'MMS_KEY_SCOPE_METERS_READ' };
const unanswered: Recorded = { ...created, requestBody: '<5000 bytes>', status: 0, responseHeaders: {}, responseBody: '', error: 'POST http://127.0.0.1:4200/v1/meters: Timeout 3000ms exceeded.', startedAt: '2025-01-01T00:00:02.000Z' };

function outcome(title: string, exchanges: Recorded[]): TestOutcome {
  return { id: title, title, file: 'x.spec.ts', line: 1, project: 'conformance', tags: [], status: 'failed', durationMs: 1, errors: [], evidence: { exchanges, checkFailures: [], requests: exchanges.length } };
}

test('exchanges.har validates against har-schema and keeps the evidence in the order it was sent', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  for (const schema of Object.values(HAR_SCHEMAS)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#')!;
  expect(validate).toBeTruthy();
  const har = JSON.parse(renderHar([outcome('creates', [created, unanswered]), outcome('redirects', [redirected])], { name: 'kit', version: '0.1.0' }));
  expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
  expect(har.log.entries.map((e: { comment: string }) => e.comment.split(' — ')[0])).toEqual(['redirects', 'creates', 'creates']);
  expect(har.log.entries[1].request.postData.text).toBe(created.requestBody);
  expect(har.log.entries[1].request.queryString).toEqual([{ name: 'dry', value: '1' }]);
  expect(har.log.entries[0].response.redirectURL).toBe('http://127.0.0.1:4200/v1/x');
  expect(har.log.entries[2].response.status).toBe(0);
  expect(har.log.entries[2].comment).toContain('Timeout 3000ms exceeded');
  // A document that breaks HAR fails: the schema is really applied.
  delete har.log.entries[0].request.headers;
  expect(validate(har)).toBe(false);
});

test('a borrowed exchange names the test that sent it in its comment', () => {
  const har = JSON.parse(renderHar([outcome('judges', [{ ...created, sentBy: 'samples › makes' }])], { name: 'kit', version: '0.1.0' }));
  expect(har.log.entries[0].comment).toBe('judges (sent by samples › makes)');
});

test('a curl reproduction names the key by variable and survives a POSIX shell word for word', () => {
  const command = curlCommand(created);
  expect(command).toContain('-H "Authorization: Bearer $MMS_KEY_LIVE"');
  expect(command).not.toContain('sk_live_');
  // The shell parses the command into exactly the recorded URL, headers and body (curl replaced by printf).
  const words = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; }\nMMS_KEY_LIVE=sk_live_fromtheenv1234\n${command}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
  expect(words).toEqual(['-i', '-X', 'POST', created.url, '-H', 'Authorization: Bearer sk_live_fromtheenv1234', '-H', 'content-type: application/json', '--data-binary', created.requestBody]);
  const binary = curlCommand(unanswered);
  expect(binary).toContain('--data-binary @body.bin');
  expect(binary).toMatch(/^# .*5000 bytes/m);
});
