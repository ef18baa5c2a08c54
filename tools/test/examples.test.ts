/** The documented examples stay valid: the profile, the waivers, the GitHub Actions workflow. */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { profileProblems } from '../../contract/profile.ts';
import { loadWaivers } from '../../contract/report/waivers.ts';

test('the example target profile satisfies the schema', () => {
  expect(profileProblems(JSON.parse(readFileSync('examples/target-profile.example.json', 'utf8')))).toEqual([]);
});

test('the example waiver file loads', () => {
  expect(loadWaivers('examples/waivers.example.yaml')).toEqual([expect.objectContaining({ requirement: 'METER-011', expires: '2027-03-31' })]);
});

test('the GitHub Actions example shards, merges, uploads the report and gates the deployment', () => {
  const wf = parse(readFileSync('examples/github-actions/conformance.yml', 'utf8')) as { jobs: Record<string, any> };
  expect(wf.jobs.conformance.strategy.matrix.shard).toEqual([1, 2, 3]);
  const runShard = wf.jobs.conformance.steps.find((s: { run?: string }) => s.run?.includes('mms-conformance run'));
  expect(runShard.run).toContain('--shard ${{ matrix.shard }}/3');
  expect(wf.jobs.merge.needs).toBe('conformance');
  expect(wf.jobs.merge.if).toBe('${{ !cancelled() }}');
  expect(wf.jobs.merge.steps.some((s: { run?: string }) => s.run?.includes('mms-conformance report merge'))).toBe(true);
  expect(JSON.stringify(wf.jobs.merge.steps)).toContain('conformance.html');
  expect(wf.jobs.deploy.needs).toBe('merge');
});
