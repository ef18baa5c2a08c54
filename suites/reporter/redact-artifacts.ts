/**
 * The last reporter of a run (and of `report merge`): once every reporter has written its files, it
 * masks every secret of the run's profile — and anything shaped like a key — in what Playwright wrote
 * itself (options `dirs`: its HTML report, test-results/, blob reports; suites/lib/scrub.ts). A file
 * it cannot rewrite (a corrupt zip) is deleted and named on stderr rather than left with a secret.
 */
import { rmSync } from 'node:fs';
import type { Reporter } from '@playwright/test/reporter';
import { markTime } from '../../contract/timings.ts';
import { scrubTree } from '../lib/scrub.ts';
import { runRedactor } from '../lib/target.ts';

export interface RedactArtifactsOptions { dirs: string[] }

export default class RedactArtifacts implements Reporter {
  constructor(private readonly options: RedactArtifactsOptions) {}

  async onExit(): Promise<void> {
    markTime('redact.start');
    const redactor = runRedactor();
    for (const dir of this.options.dirs) {
      try {
        scrubTree([dir], redactor);
      } catch (e) {
        rmSync(dir, { recursive: true, force: true });
        process.stderr.write(`Removed ${dir}: its files could not be redacted (${(e as Error).message})\n`);
      }
    }
    markTime('redact.end');
  }

  printsToStdio(): boolean {
    return false;
  }
}
