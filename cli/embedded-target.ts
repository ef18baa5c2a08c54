/**
 * The embedded target of `mms-conformance run` without `--profile` (docs/vendors.md, "The command line"):
 * the mock started in the CLI's own process (its seed; the self-test's mutant and the variants of
 * docs/freedoms.md, none by default), and its target profile written to a private temporary folder
 * (mkdtemp, 0700; the file 0600: it holds every key). The run's scratch folder (fixture leases) is made
 * here too, for every run. `stop` stops the mock and removes both folders; they are also removed when
 * the process exits. Playwright's runner and workers reach the mock through the run's environment
 * (contract/run-env.ts), like any target: the suite never imports the mock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEnv } from '../contract/run-env.ts';

/** What the embedded mock serves: its data seed and, for the self-test and freedoms, a mutant and variants. */
export interface EmbeddedChoice {
  seed?: number;
  /** A mutant of mock/mutants (the self-test). */
  mutant?: string;
  /** Comma-separated variants of mock/variants (docs/freedoms.md). */
  variant?: string;
}

/** The run's scratch folders: made private, removed by `remove` or when the process exits. */
export class RunFolders {
  private readonly dirs: string[] = [];
  private readonly atExit = () => this.remove();

  /** A new private folder under the temp dir (mkdtemp: mode 0700). */
  make(prefix: string): string {
    if (this.dirs.length === 0) process.once('exit', this.atExit);
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** Removes every folder made. */
  remove(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    process.off('exit', this.atExit);
  }
}

/**
 * Starts the embedded mock on a free loopback port and writes its profile; resolves to the run settings
 * that point the suite at it and a `stop`. Rejects with the mock's start-up error, or with an Error
 * naming the known mutants or variants when one is unknown.
 */
export async function startEmbeddedTarget(choice: EmbeddedChoice, folders: RunFolders): Promise<{ run: Partial<RunEnv>; stop(): Promise<void> }> {
  const [{ startMock }, mutation] = await Promise.all([import('../mock/server.ts'), embeddedMutation(choice)]);
  // Prism (the mock's `Prefer` fallback) is not preloaded: the suite sends no `Prefer` request.
  const mock = await startMock({ port: 0, seed: choice.seed, mutation, preloadPrism: false });
  const file = join(folders.make('mms-conformance-'), 'embedded-mock.json');
  writeFileSync(file, JSON.stringify(mock.profile, null, 2), { mode: 0o600 });
  return { run: { targetProfile: file, targetUrl: mock.baseUrl, targetEmbedded: true }, stop: () => mock.stop() };
}

/** The mutation of the chosen mutant and variants (loaded only when one is chosen). */
async function embeddedMutation(choice: EmbeddedChoice) {
  const mutant = choice.mutant ? (await import('../mock/mutants/catalog.ts')).mutantNamed(choice.mutant).mutation : undefined;
  return choice.variant ? (await import('../mock/variants/catalog.ts')).variantMutation(choice.variant, mutant) : mutant;
}
