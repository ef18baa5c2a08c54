/** A copy of the bytes that pass through a stream, up to a limit (the traffic itself is never held). */
export class Capture {
  private readonly chunks: Buffer[] = [];
  /** Bytes seen, captured or not. */
  length = 0;

  /** @param limit bytes kept at most; later bytes are only counted. */
  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - Math.min(this.length, this.limit);
    if (room > 0) this.chunks.push(Buffer.from(chunk.subarray(0, room)));
    this.length += chunk.length;
  }

  /** Whether bytes beyond the limit were dropped. */
  get truncated(): boolean {
    return this.length > this.limit;
  }

  /** The captured bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
