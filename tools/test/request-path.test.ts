/**
 * The benchmark's in-process request path (bench/request-path.ts): its stub request and response must
 * pass every stage as a real GET does (each answer a 200), or the figure would time a refusal.
 */
import { test, expect } from '@playwright/test';
import { requestPath } from '../../bench/request-path.ts';

test('both endpoints are timed, every stubbed request answered 200 through every stage', async () => {
  const lines: string[] = [];
  const report = await requestPath({ keys: 120, requests: 3_000, rounds: 2, log: (line) => lines.push(line) });
  expect(report.problems).toEqual([]);
  expect(report.keys).toBe(120);
  expect(report.endpoints.map((e) => e.endpoint)).toEqual(['GET /v1/meters/{id}', 'GET /v1/work-orders?limit=100']);
  for (const e of report.endpoints) {
    expect(e.rounds).toHaveLength(2);
    expect(e.nsPerRequest).toBeGreaterThan(0);
  }
  expect(lines).toHaveLength(4);
});

test('a plan that would spend a key\'s budget in one window is refused before anything runs', async () => {
  await expect(requestPath({ keys: 10, requests: 10_000, rounds: 1, log: () => undefined })).rejects.toThrow(/budget of 1,000/);
});
