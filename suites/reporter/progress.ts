/**
 * Progress while a run goes (README, "Two commands": progress and the verdict): tests done / total and the family being tested. On a terminal
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
    const family = requirementTags(tags)[0]?.split('-')[0] ?? '—';
    const line = `[${String(this.done).padStart(String(this.total).length)}/${this.total}] ${Math.floor((100 * this.done) / Math.max(1, this.total))}% · ${family.padEnd(7)} · ${this.failed} failed`;
    if (this.out.isTTY) this.out.write(`\r${line}\u001b[K`);
    else {
      const decile = Math.floor((10 * this.done) / Math.max(1, this.total));
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
