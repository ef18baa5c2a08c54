/**
 * No orphans, whatever ends the CLI (docs/ci.md, "Exit codes"): `kill -9` of the CLI alone — which it
 * cannot catch — ends Playwright's runner and its workers too (cli/orphan-guard.mjs), within seconds.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, descendants, startCli } from '../run-cli.ts';

test('SIGKILL of the CLI ends the runner and its workers', async () => {
  test.setTimeout(90_000);
  const output = mkdtempSync(join(tmpdir(), 'mms-hostile-orphans-'));
  const run = startCli(['run', '--family', 'METER,READ', '--workers', '2', '--output', output]);
  let processes: ReturnType<typeof descendants> = [];
  try {
    await expect.poll(() => /\[\s*\d+\/\d+\]/.test(run.output()), { timeout: 60_000 }).toBe(true);
    processes = descendants(run.child.pid!);
    expect(processes.filter((p) => p.cmd.includes('playwright')).length, JSON.stringify(processes)).toBeGreaterThanOrEqual(2);
    process.kill(run.child.pid!, 'SIGKILL');
    await run.exit;
    await expect.poll(() => processes.filter((p) => alive(p.pid)), { timeout: 5_000 }).toEqual([]);
  } finally {
    // Whatever survived (a failure of this test) is ended here, by its pid.
    for (const p of processes.filter((q) => alive(q.pid))) process.kill(p.pid, 'SIGKILL');
    rmSync(output, { recursive: true, force: true });
  }
});
