/**
 * The CI examples run end to end (examples/github-actions/conformance.yml, examples/gitlab-ci/.gitlab-ci.yml).
 * No CI runner is at hand, so each test reads the workflow and plays its jobs as the CI would: every
 * `run:`/`script:` step as bash (-e, pipefail) in a job folder of its own, with a fake environment (the
 * secrets as variables, $GITHUB_STEP_SUMMARY a file, GitLab's CI_NODE_INDEX/CI_NODE_TOTAL), artifacts
 * copied between jobs, `uses:` steps skipped but checked. The kit's install step runs as written: the
 * release tarball (`npm pack` of this repository, in the user's repository at the path `MMS_KIT` names)
 * installed globally into a prefix of the job's own, with no warning. One stand-in: a PATH shim in front
 * of the installed `mms-conformance` narrows its runs to the METER family and one worker, to keep the
 * test short; the target is the embedded mock, started here, reached through the example profile's `env:`
 * secrets.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { execFileSync } from 'node:child_process';
import { ROOT } from '../../contract/paths.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';

const VERSION = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const INSTALL = 'npm install --global --ignore-scripts "$MMS_KIT"';
const TARBALL = `conformance/mms-conformance-kit-${VERSION}.tgz`;
const packed = mkdtempSync(join(tmpdir(), 'ci-pack-'));
const EXAMPLE_PROFILE = JSON.parse(readFileSync(resolve(ROOT, 'examples/target-profile.example.json'), 'utf8')) as Record<string, unknown>;

/** Every `env:VAR` of a profile, with the path where it stands. */
function envRefs(node: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; name: string }> {
  if (typeof node === 'string') return node.startsWith('env:') ? [{ path, name: node.slice(4) }] : [];
  if (Array.isArray(node)) return node.flatMap((n, i) => envRefs(n, [...path, i]));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => envRefs(v, [...path, k]));
  return [];
}

const at = (node: unknown, path: Array<string | number>): unknown => path.reduce((n: any, k) => n?.[k], node);

/**
 * A workspace as the user's repository holds it: conformance/target-profile.json (the mock's profile with
 * the example's secrets as env: references) and conformance/waivers.yaml; and the secrets' values.
 */
function workspace(mock: RunningMock): { dir: string; secrets: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'ci-repo-'));
  const profile = structuredClone(mock.profile) as any;
  const secrets: Record<string, string> = {};
  for (const ref of envRefs(EXAMPLE_PROFILE)) {
    const value = at(mock.profile, ref.path);
    expect(typeof value, `the mock's profile has ${ref.path.join('.')}`).toBe('string');
    secrets[ref.name] = value as string;
    const parent = at(profile, ref.path.slice(0, -1)) as any;
    parent[ref.path.at(-1)!] = `env:${ref.name}`;
  }
  profile.keys.live = (profile.keys.live as string[]).slice(0, (EXAMPLE_PROFILE.keys as { live: string[] }).live.length);
  mkdirSync(join(dir, 'conformance'));
  writeFileSync(join(dir, 'conformance/target-profile.json'), JSON.stringify(profile, null, 2));
  cpSync(resolve(ROOT, 'examples/waivers.example.yaml'), join(dir, 'conformance/waivers.yaml'));
  cpSync(join(packed, `mms-conformance-kit-${VERSION}.tgz`), join(dir, TARBALL));
  return { dir, secrets };
}

/**
 * A folder with `mms-conformance` in front of the installed one (`$NPM_CONFIG_PREFIX/bin`, where the
 * job's install step put it): its runs narrowed to METER with one worker.
 */
function shim(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ci-bin-'));
  const file = join(dir, 'mms-conformance');
  writeFileSync(file, `#!/usr/bin/env bash\nif [ "$1" = run ]; then shift; set -- run --family METER --workers 1 "$@"; fi\nexec "$NPM_CONFIG_PREFIX/bin/mms-conformance" "$@"\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** Runs `script` with bash -e -o pipefail in `cwd`; resolves to its exit code and output. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => done({ code: code ?? -1, output }));
  });
}

/** The job's environment: the shim, then the job's own npm prefix (its global installs) on PATH. */
function baseEnv(bin: string, secrets: Record<string, string>): NodeJS.ProcessEnv {
  const prefix = mkdtempSync(join(tmpdir(), 'ci-npm-global-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(lifecycle|package|config_)/i.test(name)));
  const env: NodeJS.ProcessEnv = { ...inherited, PATH: `${bin}:${prefix}/bin:${process.env.PATH}`, CI: 'true', NPM_CONFIG_PREFIX: prefix, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...secrets };
  for (const name of ['REPORTS_DIR', 'TARGET_URL', 'TARGET_PROFILE', 'GITHUB_STEP_SUMMARY', 'WORKERS']) delete env[name];
  return env;
}

let mock: RunningMock;
test.beforeAll(async () => {
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: ROOT, stdio: 'pipe' });
  mock = await startMock({ port: 0, seed: 1 });
});
test.afterAll(async () => {
  await new Promise((done) => mock.server.close(done));
});
test.setTimeout(600_000);

test('the GitHub Actions example: shards, merge, one step summary, JUnit published, deploy gated on the merged verdict', async () => {
  const wf = parse(readFileSync(resolve(ROOT, 'examples/github-actions/conformance.yml'), 'utf8')) as { env: Record<string, string>; jobs: Record<string, any> };
  expect(wf.env.MMS_KIT).toBe(`./${TARBALL}`);
  const text = JSON.stringify(wf);
  expect(text).not.toMatch(/\|\|\s*(echo|true|:)/);
  expect(text).not.toMatch(/git clone|ref: v\d/);

  const shardStep = wf.jobs.conformance.steps.find((s: { run?: string }) => s.run?.includes('mms-conformance run'));
  const passed = Object.entries(shardStep.env as Record<string, string>).map(([name, value]) => {
    expect(value).toBe(`\${{ secrets.${name} }}`);
    return name;
  });
  expect(passed.sort()).toEqual([...new Set(envRefs(EXAMPLE_PROFILE).map((r) => r.name))].sort());
  const junitStep = wf.jobs.merge.steps.find((s: { uses?: string }) => /^(mikepenz\/action-junit-report|dorny\/test-reporter)@/.test(s.uses ?? ''));
  expect(junitStep?.with.report_paths).toBe('reports/merged/conformance-junit.xml');

  const { dir: repo, secrets } = workspace(mock);
  const bin = shim();
  const artifacts = mkdtempSync(join(tmpdir(), 'ci-artifacts-'));
  const results: Record<string, 'success' | 'failure' | 'skipped'> = {};
  const summaries: Record<string, string> = {};

  /** Plays one job (one matrix cell); resolves to its result, and the exit code of each step that ran. */
  async function runJob(name: string, matrix: Record<string, unknown> = {}): Promise<{ ok: boolean; codes: Record<string, number> }> {
    const job = wf.jobs[name];
    const dir = mkdtempSync(join(tmpdir(), `ci-${name}-`));
    const summary = join(dir, '..', `${name}-${Object.values(matrix).join('-') || 'job'}-summary.md`);
    writeFileSync(summary, '');
    const expand = (s: string, env: Record<string, string>) => s.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
      const m = /^(matrix|secrets|env)\.(\w+)$/.exec(expr);
      if (expr === '!cancelled()' || expr === 'always()') return 'true';
      if (!m) throw new Error(`unknown expression ${expr}`);
      const value = m[1] === 'matrix' ? matrix[m[2]!] : m[1] === 'secrets' ? secrets[m[2]!] : env[m[2]!];
      if (value === undefined) throw new Error(`${expr} is not set`);
      return String(value);
    });
    let ok = true;
    const codes: Record<string, number> = {};
    const jobEnv = baseEnv(bin, secrets);
    for (const step of job.steps as Array<Record<string, any>>) {
      const runs = step.if ? ['true', 'always()', '!cancelled()'].includes(expand(String(step.if), wf.env).replace(/^\$\{\{\s*|\s*\}\}$/g, '')) : ok;
      if (!runs) continue;
      const env = { ...wf.env };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), env);
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), env)]));
      if (step.uses) {
        const action = String(step.uses).split('@')[0];
        if (action === 'actions/checkout') cpSync(repo, dir, { recursive: true });
        else if (action === 'actions/upload-artifact') {
          for (const p of w.path!.split('\n').filter(Boolean)) if (existsSync(join(dir, p))) cpSync(join(dir, p), join(artifacts, w.name!, p.replace(/^reports\/(merged|shard-\d+)\/?/, '')), { recursive: true });
        } else if (action === 'actions/download-artifact') {
          const pattern = new RegExp(`^${w.pattern!.replace('*', '.*')}$`);
          for (const a of readdirSync(artifacts).filter((n) => pattern.test(n))) cpSync(join(artifacts, a), join(dir, w.path!, a), { recursive: true });
        } else if (action === 'mikepenz/action-junit-report' || action === 'dorny/test-reporter') {
          expect(existsSync(join(dir, w.report_paths ?? w.path!)), 'the JUnit file to publish exists').toBe(true);
        } else if (action !== 'actions/setup-node') throw new Error(`no stand-in for ${step.uses}`);
        continue;
      }
      const script = expand(String(step.run), env);
      const r = await bash(script, dir, { ...jobEnv, ...env, GITHUB_STEP_SUMMARY: summary });
      if (script.trim() === INSTALL) expect(r.output, 'the install prints no warning').not.toMatch(/warn|ERR/i);
      codes[step.name ?? script.split('\n')[0]!] = r.code;
      if (r.code !== 0) {
        ok = false;
        process.stdout.write(`--- ${name} ${JSON.stringify(matrix)}: ${step.name} exited ${r.code}\n${r.output.split('\n').slice(-15).join('\n')}\n`);
      }
    }
    summaries[`${name}${Object.values(matrix).join('-')}`] = readFileSync(summary, 'utf8');
    return { ok, codes };
  }

  expect(wf.jobs.conformance.steps.some((s: { run?: string }) => s.run?.trim() === INSTALL)).toBe(true);
  expect(wf.jobs.merge.steps.some((s: { run?: string }) => s.run?.trim() === INSTALL)).toBe(true);
  const shards = await Promise.all((wf.jobs.conformance.strategy.matrix.shard as number[]).map((shard) => runJob('conformance', { shard })));
  for (const s of shards) expect(s.ok).toBe(true);
  results.conformance = 'success';
  expect(wf.jobs.merge.needs).toBe('conformance');
  const merge = await runJob('merge');
  results.merge = merge.ok ? 'success' : 'failure';
  // METER alone leaves most must requirements not assessed: incomplete, exit 1, so the gate holds.
  expect(merge.codes['Merge the shards and gate on the verdict']).toBe(1);
  expect(wf.jobs.deploy.needs).toBe('merge');
  expect(wf.jobs.deploy.if).toBeUndefined();
  expect(results.merge).toBe('failure');
  // One step summary, the merged one; shards write none.
  for (const shard of [1, 2, 3]) expect(summaries[`conformance${shard}`]).toBe('');
  expect(summaries.merge!.match(/^## Conformance: /gm)).toEqual(['## Conformance: ']);
  expect(summaries.merge).toContain('## Conformance: INCOMPLETE');
  expect(existsSync(join(artifacts, 'conformance-report', 'conformance-junit.xml'))).toBe(true);
});

test('the GitLab CI example: parallel shards, merge, one summary, artifacts:reports:junit, deploy gated on the merged verdict', async () => {
  const ci = parse(readFileSync(resolve(ROOT, 'examples/gitlab-ci/.gitlab-ci.yml'), 'utf8')) as Record<string, any>;
  const variables = ci.variables as Record<string, string>;
  expect(variables.MMS_KIT).toBe(`./${TARBALL}`);
  expect(JSON.stringify(ci)).not.toMatch(/\|\|\s*(echo|true|:)/);
  expect(variables.MMS_SECRETS!.split(/\s+/).filter(Boolean).sort()).toEqual([...new Set(envRefs(EXAMPLE_PROFILE).map((r) => r.name))].sort());
  expect(ci.merge.artifacts.reports.junit).toBe('reports/merged/conformance-junit.xml');
  expect(ci.merge.when).toBe('always');
  expect(ci.deploy.needs).toEqual(['merge']);
  expect(ci.deploy.when).toBeUndefined();

  const { dir: repo, secrets } = workspace(mock);
  const bin = shim();
  const artifacts = mkdtempSync(join(tmpdir(), 'ci-artifacts-'));

  /** Plays one job: before_script + script in one shell, after_script in another, artifacts kept. */
  async function runJob(name: string, extra: Record<string, string> = {}): Promise<{ code: number; after: string }> {
    const job = ci[name];
    const dir = mkdtempSync(join(tmpdir(), `gl-${name}-`));
    cpSync(repo, dir, { recursive: true });
    for (const need of job.needs ?? []) if (typeof need === 'object' && need.artifacts) cpSync(join(artifacts, need.job), dir, { recursive: true });
    const env = { ...baseEnv(bin, secrets), ...variables, ...extra };
    const lines = [...(job.before_script ?? []), ...job.script];
    const r = await bash(lines.join('\n'), dir, env);
    expect(r.output, 'the install prints no warning').not.toMatch(/npm (warn|ERR)/i);
    if (r.code !== 0) process.stdout.write(`--- ${name} ${JSON.stringify(extra)} exited ${r.code}\n${r.output.split('\n').slice(-15).join('\n')}\n`);
    const after = job.after_script ? (await bash(job.after_script.join('\n'), dir, env)).output : '';
    if (r.code === 0 || job.artifacts?.when === 'always') {
      for (const p of job.artifacts?.paths ?? []) {
        const path = String(p).replace(/\$(\w+)/g, (_, v: string) => env[v] ?? '');
        if (existsSync(join(dir, path))) cpSync(join(dir, path), join(artifacts, name, path), { recursive: true });
      }
    }
    return { code: r.code, after };
  }

  for (const job of ['conformance', 'merge']) expect(ci[job].before_script).toContain(INSTALL);
  const n = ci.conformance.parallel as number;
  expect(n).toBe(3);
  const shards = await Promise.all(Array.from({ length: n }, (_, i) => runJob('conformance', { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(n) })));
  for (const s of shards) expect(s.code).toBe(0);
  const merge = await runJob('merge');
  // METER alone leaves most must requirements not assessed: incomplete, exit 1, so deploy (needs: merge) does not run.
  expect(merge.code).toBe(1);
  expect(existsSync(join(artifacts, 'merge', ci.merge.artifacts.reports.junit))).toBe(true);
  expect(merge.after.match(/^## Conformance: /gm)).toEqual(['## Conformance: ']);
  expect(merge.after).toContain('## Conformance: INCOMPLETE');

  // A missing secret stops the shard before the kit runs.
  const missing = await bash(ci.conformance.before_script.filter((l: string) => l.trim() !== INSTALL).join('\n'), repo, { ...baseEnv(bin, { ...secrets, MMS_KEY_TEST: '' }), ...variables });
  expect(missing.code).toBe(2);
  expect(missing.output).toContain('CI/CD variable MMS_KEY_TEST is not set');
});
