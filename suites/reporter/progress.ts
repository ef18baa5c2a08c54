/**
 * Progress while a run goes (README, "Two commands": progress and the verdict): tests done / total, the
 * failures so far, and the requirement of the test that finished last (tests of many families run at
 * once, so no one family is "under test"); `done` at the end. On a terminal
 * one line is rewritten; elsewhere (CI logs) a line is printed every tenth of the run.
 */
import { requirementTags } from './verdicts.ts';

export class Progress {
  private done = 0;
  private failed = 0;
  private lastPrinted = -1;

  constructor(private readonly total: number, private readonly out: NodeJS.WriteStream = process.stdout) {}

  /** Records one finished test. */
  tick(tags: string[], status: string): void {
    this.done++;
    if (status === 'failed' || status === 'timedOut') this.failed++;
    // A retry is one more result of a test already counted: the count stays within the total.
    const done = Math.min(this.done, this.total);
    const last = done >= this.total ? 'done' : `last: ${requirementTags(tags)[0] ?? 'setup'}`;
    const line = `[${String(done).padStart(String(this.total).length)}/${this.total}] ${Math.floor((100 * done) / Math.max(1, this.total))}% · ${this.failed} failed · ${last}`;
    if (this.out.isTTY) this.out.write(`\r${line}\u001b[K`);
    else {
      const decile = Math.floor((10 * done) / Math.max(1, this.total));
      if (decile !== this.lastPrinted) {
        this.lastPrinted = decile;
        this.out.write(`${line}\n`);
      }
    }
  }

  /** Ends the rewritten line. */
  end(): void {
    if (this.out.isTTY) this.out.write('\n');
  }
}
