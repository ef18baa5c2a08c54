/**
 * The mock's one clock. Rate-limit windows, cursor expiry and every timestamp read it, so the control
 * API can advance time for all of them at once (docs/design.md §4).
 */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly source: () => number = Date.now) {}

  /** Milliseconds since the Unix epoch, advanced by every `advance` call. */
  now(): number {
    return this.source() + this.offsetMs;
  }

  /** Now as an RFC 3339 date-time (UTC, millisecond precision). */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves time forward by `ms` milliseconds (negative values are refused). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }

  /** Milliseconds the clock has been advanced in total. */
  get advancedMs(): number {
    return this.offsetMs;
  }

  /** Sets the total advance (a stored state's clock, mock/state/document.ts; 0 or more). */
  restoreAdvance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offsetMs = ms;
  }
}
